/// Builds JSON text: the one place swiftcov escapes strings for JSON.
package struct JSONWriter {
    /// The text written so far.
    package private(set) var output: String = ""

    package init(reservingCapacity capacity: Int = 0) {
        output.reserveCapacity(capacity)
    }

    /// Appends raw, already valid JSON text (punctuation, numbers).
    @inline(__always)
    package mutating func raw(_ text: String) {
        output += text
    }

    /// Appends `value` as a JSON string literal.
    package mutating func string(_ value: String) {
        output += JSONWriter.quoted(value)
    }

    /// Appends an integer.
    package mutating func number<T: BinaryInteger>(_ value: T) {
        output += String(value)
    }

    /// Appends a Double as the shortest text that reads back as the same value.
    package mutating func number(_ value: Double) {
        output += JSONWriter.format(value)
    }

    /// `value` as JSON text: integers without a fraction, others in shortest round-trip form.
    package static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// `value` as a quoted JSON string literal; control characters are escaped, never dropped.
    package static func quoted(_ value: String) -> String {
        var needsEscaping = false
        for byte in value.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            needsEscaping = true
            break
        }
        guard needsEscaping else { return "\"" + value + "\"" }
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
