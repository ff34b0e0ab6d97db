import SwiftCovFormats

extension XCResultObject {
    /// Reads `xcrun xcresulttool get --legacy --format json [--id ID]`'s output: every value an
    /// object with `_type` (`_name`, `_supertype`), a primitive's `_value`, an array's `_values`,
    /// the other members its fields. Strict: a member that is not such a value is an error naming
    /// `path` and the key path (and the byte offset when the JSON itself is malformed).
    package static func parseLegacyJSON(
        _ bytes: UnsafeRawBufferPointer, path: String
    ) throws(TestResultsError) -> XCResultObject {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw .malformedXcodeResult(
                path: path, offset: error.offset, keyPath: JSONKeyPath.path(at: error.offset, in: bytes),
                message: error.message)
        }
        return try legacyJSON(document, path: path)
    }

    /// The value a parsed legacy JSON document holds.
    package static func legacyJSON(_ document: JSONValue, path: String) throws(TestResultsError) -> XCResultObject {
        do throws(Problem) {
            return try convert(document, keyPath: "", depth: 0)
        } catch {
            throw .malformedXcodeResult(
                path: path, offset: nil, keyPath: error.keyPath.isEmpty ? nil : error.keyPath,
                message: "not xcresulttool's JSON: \(error.message)")
        }
    }

    /// Whether a parsed JSON document is a legacy object (it has a `_type`).
    package static func isLegacyJSON(_ document: JSONValue) -> Bool { document["_type"] != nil }

    private struct Problem: Error {
        var keyPath: String
        var message: String
    }

    private static func convert(_ json: JSONValue, keyPath: String, depth: Int) throws(Problem) -> XCResultObject {
        guard depth < maximumDepth else { throw Problem(keyPath: keyPath, message: "values nested too deep") }
        guard case .object(let members) = json else {
            throw Problem(keyPath: keyPath, message: "a value that is not an object with a _type")
        }
        guard let type = members.first(where: { $0.key == "_type" })?.value else {
            throw Problem(keyPath: keyPath, message: "an object without a _type")
        }
        let chain = try typeChain(type, keyPath: keyPath.isEmpty ? "_type" : keyPath + "._type", depth: depth)
        var object = XCResultObject(type: chain[0], supertypes: Array(chain.dropFirst()))
        for (key, member) in members {
            let memberPath = keyPath.isEmpty ? key : keyPath + "." + key
            switch key {
            case "_type":
                continue
            case "_value":
                switch member {
                case .string(let text): object.value = text
                case .number(let number): object.value = JSONWriterNumber.text(number)
                case .bool(let flag): object.value = flag ? "true" : "false"
                default: throw Problem(keyPath: memberPath, message: "a _value that is not a string, number or boolean")
                }
            case "_values":
                guard case .array(let elements) = member else {
                    throw Problem(keyPath: memberPath, message: "_values that is not an array")
                }
                for (index, element) in elements.enumerated() {
                    object.elements.append(try convert(element, keyPath: memberPath + "[\(index)]", depth: depth + 1))
                }
            default:
                object.fields.append(Field(key: key, value: try convert(member, keyPath: memberPath, depth: depth + 1)))
            }
        }
        return object
    }

    /// `{"_name": …, "_supertype": {…}}`: the name and its supertypes.
    private static func typeChain(_ json: JSONValue, keyPath: String, depth: Int) throws(Problem) -> [String] {
        guard depth < maximumDepth else { throw Problem(keyPath: keyPath, message: "types nested too deep") }
        guard let name = json["_name"]?.stringValue else {
            throw Problem(keyPath: keyPath, message: "a type without a _name")
        }
        guard let supertype = json["_supertype"] else { return [name] }
        return [name] + (try typeChain(supertype, keyPath: keyPath + "._supertype", depth: depth + 1))
    }
}

/// A JSON number as its shortest text: an integer without a fraction.
enum JSONWriterNumber {
    static func text(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}
