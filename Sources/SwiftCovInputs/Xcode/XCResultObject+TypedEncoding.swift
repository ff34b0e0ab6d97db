extension XCResultObject {
    /// Reads one object as a result bundle stores it (after decompression): `[` opens a value,
    /// `T[K2:_nV<n>:<name>(K2:_s[…])]` defines its type (with a supertype) and `S<n>:<name>`
    /// names one defined before, then come `K<n>:<key>` fields each followed by a value, `_v`'s
    /// `V<n>:<text>` for a primitive, and an array's elements, until `]`. Lengths count bytes.
    /// Strict: anything else, a length past the end, text that is not UTF-8, nesting deeper than
    /// `maximumDepth` or bytes after the value is an error naming `path`, the byte offset and the
    /// key path.
    package static func parseTypedEncoding(
        _ bytes: UnsafeRawBufferPointer, path: String
    ) throws(TestResultsError) -> XCResultObject {
        var parser = TypedEncodingParser(bytes: bytes)
        do throws(TypedEncodingProblem) {
            let object = try parser.value(depth: 0)
            guard parser.offset == bytes.count else { throw parser.problem("unexpected data after the object") }
            return object
        } catch {
            throw .malformedXcodeResult(
                path: path, offset: error.offset, keyPath: error.keyPath.isEmpty ? nil : error.keyPath,
                message: "not an Xcode result object: \(error.message)")
        }
    }

    /// Whether `bytes` start as an object of a result bundle does (`[T[K2:_n`).
    package static func recognizesTypedEncoding(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.starts(with: "[T[K2:_n".utf8)
    }
}

/// Where and why the typed encoding could not be read.
private struct TypedEncodingProblem: Error {
    var offset: Int
    var keyPath: String
    var message: String
}

private struct TypedEncodingParser {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    /// Each type defined so far, with its supertypes.
    var types: [String: [String]] = [:]
    /// The fields and elements around the value being read, for messages.
    var keyPath: [String] = []

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func problem(_ message: String) -> TypedEncodingProblem {
        var path = ""
        for component in keyPath {
            if component.first == "[" || path.isEmpty { path += component } else { path += "." + component }
        }
        return TypedEncodingProblem(offset: offset, keyPath: path, message: message)
    }

    private var next: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(TypedEncodingProblem) {
        guard next == byte else {
            throw problem(next == nil ? "the data ends where \(what) should be" : "expected \(what)")
        }
        offset += 1
    }

    /// `<decimal>:` and then that many bytes of UTF-8.
    private mutating func lengthPrefixed() throws(TypedEncodingProblem) -> String {
        var length = 0
        var digits = 0
        while let byte = next, byte >= 0x30, byte <= 0x39 {
            length = length * 10 + Int(byte - 0x30)
            digits += 1
            offset += 1
            // More digits than any length within the data needs.
            guard digits <= 10, length <= bytes.count else { throw problem("a length past the end of the data") }
        }
        guard digits > 0 else {
            throw problem(next == nil ? "the data ends where a length should be" : "expected a length")
        }
        try expect(UInt8(ascii: ":"), "':' after a length")
        guard length <= bytes.count - offset else {
            throw problem("a length of \(length) bytes, and \(bytes.count - offset) are left")
        }
        let start = offset
        offset += length
        guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        else {
            offset = start
            throw problem("text that is not UTF-8")
        }
        return text
    }

    /// `K<n>:<key>`.
    private mutating func key() throws(TypedEncodingProblem) -> String {
        try expect(UInt8(ascii: "K"), "a key")
        return try lengthPrefixed()
    }

    /// `[K2:_nV<n>:<name>(K2:_s<definition>)]`: the name, then its supertypes.
    private mutating func typeDefinition(depth: Int) throws(TypedEncodingProblem) -> [String] {
        guard depth < XCResultObject.maximumDepth else { throw problem("types nested too deep") }
        try expect(UInt8(ascii: "["), "'[' opening a type")
        guard try key() == "_n" else { throw problem("a type without its name (_n)") }
        try expect(UInt8(ascii: "V"), "the type's name")
        let name = try lengthPrefixed()
        var chain = [name]
        if next == UInt8(ascii: "K") {
            guard try key() == "_s" else { throw problem("a type with a field other than _n and _s") }
            chain += try typeDefinition(depth: depth + 1)
        }
        try expect(UInt8(ascii: "]"), "']' closing the type")
        types[name] = Array(chain.dropFirst())
        return chain
    }

    mutating func value(depth: Int) throws(TypedEncodingProblem) -> XCResultObject {
        guard depth < XCResultObject.maximumDepth else { throw problem("values nested too deep") }
        try expect(UInt8(ascii: "["), "'[' opening a value")
        var object: XCResultObject
        switch next {
        case UInt8(ascii: "T"):
            offset += 1
            let chain = try typeDefinition(depth: depth)
            object = XCResultObject(type: chain[0], supertypes: Array(chain.dropFirst()))
        case UInt8(ascii: "S"):
            offset += 1
            let start = offset
            let name = try lengthPrefixed()
            guard let supertypes = types[name] else {
                offset = start
                throw problem("type '\(name)' used before it is defined")
            }
            object = XCResultObject(type: name, supertypes: supertypes)
        case nil:
            throw problem("the data ends where a type should be")
        default:
            throw problem("expected a type (T or S)")
        }
        while true {
            switch next {
            case UInt8(ascii: "]"):
                offset += 1
                return object
            case UInt8(ascii: "K"):
                let name = try key()
                if name == "_v" {
                    try expect(UInt8(ascii: "V"), "a primitive's value")
                    guard object.value == nil else { throw problem("a second value") }
                    object.value = try lengthPrefixed()
                } else {
                    keyPath.append(name)
                    object.fields.append(XCResultObject.Field(key: name, value: try value(depth: depth + 1)))
                    keyPath.removeLast()
                }
            case UInt8(ascii: "["):
                keyPath.append("[\(object.elements.count)]")
                object.elements.append(try value(depth: depth + 1))
                keyPath.removeLast()
            case nil:
                throw problem("the data ends inside a value of type \(object.type)")
            default:
                throw problem("expected a key (K), an element ([) or ']'")
            }
        }
    }
}
