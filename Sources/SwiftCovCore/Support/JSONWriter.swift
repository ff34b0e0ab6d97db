/// Builds JSON text: the one place swiftcov escapes strings for JSON.
package struct JSONWriter: ~Copyable {
    private var buffer: OutputBuffer

    package init(reservingCapacity capacity: Int = 0) {
        buffer = OutputBuffer(reservingCapacity: capacity)
    }

    /// A writer that appends to `buffer` (a streaming one, for a large document).
    package init(_ buffer: consuming OutputBuffer) {
        self.buffer = buffer
    }

    /// The buffer written to, given back.
    package consuming func finish() -> OutputBuffer {
        buffer
    }

    /// The text written so far.
    package var output: String { buffer.text }

    /// Appends raw, already valid JSON text (punctuation, keys).
    @inline(__always)
    package mutating func raw(_ text: StaticString) {
        buffer.append(text)
    }

    /// Appends raw, already valid JSON text held in a `String`.
    package mutating func rawText(_ text: String) {
        buffer.append(unescaped: text)
    }

    /// Appends `value` as a JSON string literal; control characters are escaped, never dropped.
    package mutating func string(_ value: String) {
        buffer.append(byte: UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                buffer.append(bytes: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case 0..<0x20:
                    raw("\\u00")
                    buffer.append(byte: JSONWriter.hexDigits[Int(byte >> 4)])
                    buffer.append(byte: JSONWriter.hexDigits[Int(byte & 0xF)])
                default: buffer.append(byte: byte)
                }
            }
        }
        buffer.append(byte: UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends an integer.
    package mutating func number<T: BinaryInteger>(_ value: T) {
        if let small = UInt64(exactly: value) {
            buffer.append(decimal: small)
        } else {
            buffer.append(unescaped: String(value))
        }
    }

    /// Appends a Double as the shortest text that reads back as the same value.
    package mutating func number(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            if value < 0 { buffer.append(byte: UInt8(ascii: "-")) }
            buffer.append(decimal: UInt64(abs(value)))
        } else if value.isFinite {
            buffer.append(unescaped: value.description)
        } else {
            raw("null")
        }
    }

    /// `value` as JSON number text: integers without a fraction, others in shortest round-trip form.
    package static func format(_ value: Double) -> String {
        var writer = JSONWriter()
        writer.number(value)
        return writer.output
    }

    /// `value` as a quoted JSON string literal.
    package static func quoted(_ value: String) -> String {
        var writer = JSONWriter()
        writer.string(value)
        return writer.output
    }
}
