/// UTF-8 output built by appending bytes: what the report writers (JSON, HTML) build their text
/// in, since a large report appends millions of small pieces and `String` appends cost more.
package struct OutputBuffer {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends literal text.
    @inline(__always)
    package mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends text held in a `String`, unchanged.
    package mutating func append(text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends one byte.
    @inline(__always)
    package mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes unchanged.
    package mutating func append(bytes other: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Appends an unsigned integer in decimal.
    package mutating func append(decimal value: UInt64) {
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

    /// Appends `text` escaped for HTML content and attributes (see `String.htmlEscaped`).
    package mutating func append(html text: String) {
        var text = text.strippingANSIEscapes
        text.withUTF8 { append(html: $0) }
    }

    /// Appends UTF-8 bytes (e.g. a source line) escaped for HTML; control characters become
    /// U+FFFD, and a line that is not valid UTF-8 is repaired the way `String` decodes it.
    /// Runs of bytes that need no escaping are copied in one go: this is the HTML report's
    /// inner loop.
    package mutating func append(html utf8: UnsafeBufferPointer<UInt8>) {
        var hasNonASCII = false
        for byte in utf8 where byte >= 0x80 {
            hasNonASCII = true
            break
        }
        if hasNonASCII && String(validating: utf8, as: UTF8.self) == nil {
            append(text: String(decoding: utf8, as: UTF8.self).htmlEscaped)
            return
        }
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x80 && OutputBuffer.needsHTMLEscape[Int(byte)] else { continue }
            if index > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            switch byte {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\""): append("&quot;")
            case UInt8(ascii: "'"): append("&#39;")
            default: append("\u{FFFD}")
            }
            runStart = index + 1
        }
        if utf8.count > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    /// ASCII bytes that HTML text cannot hold as they are: markup characters and controls but tab.
    private static let needsHTMLEscape: [Bool] = (0..<128).map { (byte: Int) -> Bool in
        let isControl = (byte < 0x20 && byte != 0x09) || byte == 0x7F
        let isMarkup = Array("&<>\"'".utf8).contains(UInt8(byte))
        return isControl || isMarkup
    }
}
