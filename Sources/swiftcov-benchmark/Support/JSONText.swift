/// JSON text for the benchmark's own output: string literals and numbers. Kept apart from the
/// library's `JSONWriter` so that the benchmark's output does not move when the library's does.
enum JSONText {
    /// `value` as a JSON string literal, quotes included.
    static func quoted(_ value: String) -> String {
        "\"" + String(decoding: escaped(Array(value.utf8)), as: UTF8.self) + "\""
    }

    /// UTF-8 `bytes` escaped for use inside a JSON string literal (quotes not added).
    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            return bytes
        }
        let hex = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): result += [UInt8(ascii: "\\"), byte]
            case 0x0A: result += Array("\\n".utf8)
            case 0x0D: result += Array("\\r".utf8)
            case 0x09: result += Array("\\t".utf8)
            case 0..<0x20: result += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: result.append(byte)
            }
        }
        return result
    }

    /// `value` as a JSON number (finite values; `null` otherwise).
    static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "null"
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `text` to standard error.
func printError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var written = 0
        while written < bytes.count {
            let result = write(STDERR_FILENO, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return
            }
            written += result
        }
    }
}
