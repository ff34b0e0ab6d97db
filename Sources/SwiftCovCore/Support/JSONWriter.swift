/// Builds JSON text as UTF-8 bytes: the one place swiftcov escapes strings for JSON. Reports
/// can be large (a function list for every file), so it appends bytes, not `String`s.
package struct JSONWriter {
    private var bytes: [UInt8] = []

    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    package var output: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends raw, already valid JSON text (punctuation, keys).
    @inline(__always)
    package mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends raw, already valid JSON text held in a `String`.
    package mutating func rawText(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `value` as a JSON string literal; control characters are escaped, never dropped.
    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        let plain = value.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(JSONWriter.hexDigits[Int(byte >> 4)])
                bytes.append(JSONWriter.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends an integer.
    package mutating func number<T: BinaryInteger>(_ value: T) {
        if let small = UInt64(exactly: value) {
            appendDigits(small)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    private mutating func appendDigits(_ value: UInt64) {
        var length = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            length += 1
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: length))
        rest = value
        var index = start + length - 1
        while rest > 0 {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }

    /// Appends a Double as the shortest text that reads back as the same value.
    package mutating func number(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            appendDigits(UInt64(abs(value)))
        } else if value.isFinite {
            bytes.append(contentsOf: value.description.utf8)
        } else {
            raw("null")
        }
    }

    /// `value` as a quoted JSON string literal.
    package static func quoted(_ value: String) -> String {
        var writer = JSONWriter()
        writer.string(value)
        return writer.output
    }
}
