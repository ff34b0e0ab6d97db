/// A parsed JSON document, for the small inputs swiftcov reads whole (configuration, baselines).
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in document order.
    case object([(key: String, value: JSONValue)])

    /// Parses a complete document; trailing non-whitespace is an error.
    package static func parse(_ buffer: UnsafeRawBufferPointer) throws(JSONError) -> JSONValue {
        var scanner = JSONScanner(buffer)
        let value = try parseValue(&scanner, depth: 0)
        guard scanner.isAtEnd() else { throw scanner.error("unexpected data after the document") }
        return value
    }

    /// Parses a complete document held in `bytes`, which may start with a UTF-8 byte order mark
    /// (as editors on Windows write); error offsets count from the start of `bytes`.
    package static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        let skipped = bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
        let result: Result<JSONValue, JSONError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSONValue in
                try parse(UnsafeRawBufferPointer(rebasing: buffer[skipped...]))
            }
        }
        do {
            return try result.get()
        } catch {
            throw JSONError(offset: error.offset + skipped, message: error.message)
        }
    }

    /// The UTF-8 byte order mark.
    package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private static func parseValue(_ scanner: inout JSONScanner, depth: Int) throws(JSONError) -> JSONValue {
        guard depth < JSONScanner.maximumDepth else { throw scanner.error("nesting too deep") }
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            try scanner.beginObject()
            var members: [(key: String, value: JSONValue)] = []
            var started = false
            while let key = try scanner.nextMember(&started) {
                members.append((key.decoded(), try parseValue(&scanner, depth: depth + 1)))
            }
            return .object(members)
        case UInt8(ascii: "["):
            try scanner.beginArray()
            var elements: [JSONValue] = []
            var started = false
            while try scanner.nextElement(&started) {
                elements.append(try parseValue(&scanner, depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try scanner.readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try scanner.readBool())
        case UInt8(ascii: "n"):
            _ = try scanner.readNullIfPresent()
            return .null
        default:
            return .number(try scanner.readNumber())
        }
    }

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of an object, or nil.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, if this is one.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is one.
    package var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}

/// Finds the key path (`data[0].files[3].segments[7]`) of the value at a byte offset, so an
/// error found by a fast reader that tracks only offsets can still say where it is.
package enum JSONKeyPath {
    private enum Component {
        case key(String)
        case index(Int)
    }

    private struct Reached: Error {}

    /// The path of the innermost value that contains `offset`; "(root)" for the document itself.
    package static func path(at offset: Int, in buffer: UnsafeRawBufferPointer) -> String {
        var scanner = JSONScanner(buffer)
        var stack: [Component] = []
        do {
            try walk(&scanner, &stack, target: offset, depth: 0)
        } catch {}
        return render(stack)
    }

    private static func render(_ stack: [Component]) -> String {
        guard !stack.isEmpty else { return "(root)" }
        var text = ""
        for component in stack {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// Walks one value; throws `Reached` (or a syntax error) with `stack` describing the
    /// innermost value whose span covers `target`.
    private static func walk(_ scanner: inout JSONScanner, _ stack: inout [Component], target: Int, depth: Int) throws {
        guard depth < JSONScanner.maximumDepth else { throw Reached() }
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            try scanner.beginObject()
            var started = false
            while let key = try scanner.nextMember(&started) {
                if scanner.offset > target { throw Reached() }
                stack.append(.key(key.decoded()))
                _ = scanner.peek()
                if scanner.offset > target { throw Reached() }
                try walk(&scanner, &stack, target: target, depth: depth + 1)
                stack.removeLast()
            }
        case UInt8(ascii: "["):
            try scanner.beginArray()
            var started = false
            var index = 0
            while try scanner.nextElement(&started) {
                stack.append(.index(index))
                _ = scanner.peek()
                if scanner.offset > target {
                    stack.removeLast()
                    throw Reached()
                }
                try walk(&scanner, &stack, target: target, depth: depth + 1)
                stack.removeLast()
                index += 1
            }
        default:
            try scanner.skipValue()
        }
        if scanner.offset > target { throw Reached() }
    }
}
