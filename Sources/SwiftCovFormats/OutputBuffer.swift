import SwiftCovPlatform

/// UTF-8 output built by appending bytes: what the report writers (JSON, XML, HTML) build their
/// text in. A large report appends millions of small pieces, so it manages its own memory (one
/// growing allocation, appends that are a bounds check and a copy) and cannot be copied.
///
/// A buffer made with `init(flushingTo:)` streams: whenever it holds a chunk it writes it to
/// the file descriptor and starts over, so a report of gigabytes needs a megabyte of memory.
/// Appends never fail; the first write error is kept (`writeError`) and later output dropped,
/// and whoever finishes the output (`AtomicFile.Destination.finish`) reports it.
/// Public, its members package: Swift serializes the `@inlinable` members of public types only,
/// and the stages above need them inlined.
public struct OutputBuffer: ~Copyable {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int
    /// Where full chunks go; -1 keeps everything in memory.
    private let descriptor: Int32
    /// The `errno` of the first write to `descriptor` that failed, 0 while none has.
    package private(set) var writeError: Int32 = 0

    package init(reservingCapacity capacity: Int = 0) {
        self.capacity = max(capacity, 256)
        start = .allocate(capacity: self.capacity)
        descriptor = -1
    }

    /// A buffer that writes to `descriptor` each time it holds `chunkSize` bytes; `flush()`
    /// writes the rest.
    package init(flushingTo descriptor: Int32, chunkSize: Int = 1 << 20) {
        capacity = max(chunkSize, 256)
        start = .allocate(capacity: capacity)
        self.descriptor = descriptor
    }

    deinit {
        start.deallocate()
    }

    /// Calls `body` with the bytes written so far (not yet flushed, for a streaming buffer).
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    /// The text written so far (not yet flushed, for a streaming buffer).
    package var text: String { String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) }

    /// Writes the bytes held to the descriptor and empties the buffer (a streaming buffer only;
    /// after a write error the bytes are dropped).
    package mutating func flush() {
        guard descriptor >= 0 else { return }
        if writeError == 0 {
            writeError = FileDescriptor.write(UnsafeBufferPointer(start: start, count: count), to: descriptor)
        }
        count = 0
    }

    /// Makes room for `extra` more bytes: inlined into every append, its slow path is not.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    /// Flushes a streaming buffer, or moves the bytes into a larger allocation.
    @usableFromInline mutating func grow(_ extra: Int) {
        if descriptor >= 0 {
            flush()
            if extra <= capacity { return }
        }
        var grown = capacity * 2
        while grown < count + extra { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = grown
    }

    /// Appends literal text.
    @inlinable @inline(__always)
    package mutating func append(_ text: StaticString) {
        append(bytes: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends text held in a `String` as it is, unescaped: for markup the writer itself builds.
    package mutating func append(unescaped text: String) {
        var text = text
        text.withUTF8 { append(bytes: $0) }
    }

    /// Appends text as it is, unescaped, like `append(unescaped:)`: what `+=` on a `String` does,
    /// for code that builds markup by interpolation.
    package static func += (buffer: inout OutputBuffer, text: String) {
        buffer.append(unescaped: text)
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    package mutating func append(byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    /// Appends bytes unchanged.
    @inlinable @inline(__always)
    package mutating func append(bytes other: UnsafeBufferPointer<UInt8>) {
        guard let source = other.baseAddress, other.count > 0 else { return }
        reserve(other.count)
        (start + count).initialize(from: source, count: other.count)
        count += other.count
    }

    /// Appends an unsigned integer in decimal.
    @inlinable
    package mutating func append(decimal value: UInt64) {
        var length = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            length += 1
        }
        reserve(length)
        rest = value
        var index = count + length - 1
        repeat {
            start[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        } while rest > 0
        count += length
    }

    /// Appends `value` thousandths in decimal with three decimals: 62 as "0.062", 1500 as "1.500".
    package mutating func append(thousandths value: UInt64) {
        let fraction = value % 1000
        if value < 1000 {
            // Most test durations: "0.ddd" in one go.
            reserve(5)
            start[count] = UInt8(ascii: "0")
            count += 1
        } else {
            append(decimal: value / 1000)
            reserve(4)
        }
        start[count] = UInt8(ascii: ".")
        start[count + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 100)
        start[count + 2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 10 % 10)
        start[count + 3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
        count += 4
    }

    /// Appends `text` escaped for XML element content (see `String.xmlEscaped`): copied as it
    /// is when nothing in it needs escaping, as with most names and messages.
    package mutating func append(escapingXML text: String) {
        append(escapingXML: text, attribute: false)
    }

    /// Appends `text` escaped for an XML attribute value (see `String.xmlAttributeEscaped`).
    package mutating func append(escapingXMLAttribute text: String) {
        append(escapingXML: text, attribute: true)
    }

    private mutating func append(escapingXML text: String, attribute: Bool) {
        func appendBytes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let start = utf8.firstXMLEscapeCandidate(attribute: attribute) else {
                append(bytes: utf8)
                return true
            }
            guard !utf8.contains(0x1B) else { return false }  // ANSI codes: see `String.xmlEscaped`
            // The bytes before the first that may need escaping as they are, the rest escaped.
            append(bytes: UnsafeBufferPointer(rebasing: utf8[..<start]))
            append(escapingXML: UnsafeBufferPointer(rebasing: utf8[start...]), attribute: attribute)
            return true
        }
        // The string's own bytes, without copying it (a native string always has them).
        let done =
            text.utf8.withContiguousStorageIfAvailable(appendBytes)
            ?? {
                var copy = text
                return copy.withUTF8(appendBytes)
            }()
        if !done { append(unescaped: attribute ? text.xmlAttributeEscaped : text.xmlEscaped) }
    }

    /// Valid UTF-8 without ESC, escaped as `String.xmlEscaped(attribute:)` does, byte by byte:
    /// runs that need no escaping are copied in one go.
    private mutating func append(escapingXML utf8: UnsafeBufferPointer<UInt8>, attribute: Bool) {
        var runStart = 0
        var index = 0
        let base = UnsafeRawPointer(utf8.baseAddress)
        while index < utf8.count {
            // Eight bytes at a time that need no escaping (most of a test's output).
            if index + 8 <= utf8.count, let base,
                !UnsafeBufferPointer<UInt8>.mayNeedXMLEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
                continue
            }
            let byte = utf8[index]
            var replacement: StaticString?
            var length = 1
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&apos;"
            case 0x09: replacement = attribute ? "&#9;" : nil
            case 0x0A: replacement = attribute ? "&#10;" : nil
            case 0x0D: replacement = "&#13;"
            case 0..<0x20, 0x7F: replacement = "\u{FFFD}"
            case 0xC2 where index + 1 < utf8.count && utf8[index + 1] & 0xE0 == 0x80:
                (replacement, length) = ("\u{FFFD}", 2)  // a C1 control
            case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBF && utf8[index + 2] >= 0xBE:
                (replacement, length) = ("\u{FFFD}", 3)  // U+FFFE, U+FFFF
            default: break
            }
            if let replacement {
                if index > runStart { append(bytes: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                append(replacement)
                runStart = index + length
            }
            index += length
        }
        if utf8.count > runStart { append(bytes: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    /// Appends `text` escaped for HTML content and attributes (see `String.htmlEscaped`).
    package mutating func append(escapingHTML text: String) {
        var text = text.strippingANSIEscapes
        text.withUTF8 { append(escapingHTML: $0) }
    }

    /// Appends UTF-8 bytes (e.g. a source line) escaped for HTML; control characters but tab and
    /// newline become U+FFFD, and a line that is not valid UTF-8 is repaired the way `String` decodes it.
    /// Runs of bytes that need no escaping are copied in one go: this is the HTML report's
    /// inner loop.
    package mutating func append(escapingHTML utf8: UnsafeBufferPointer<UInt8>) {
        var hasNonASCII = false
        for byte in utf8 where byte >= 0x80 {
            hasNonASCII = true
            break
        }
        if hasNonASCII && (utf8.mayHoldC1Control || String(validating: utf8, as: UTF8.self) == nil) {
            // As the bytes below: an escape sequence is not removed here, as it is not there.
            append(unescaped: String(decoding: utf8, as: UTF8.self).escapingMarkupScalars)
            return
        }
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard OutputBuffer.needsHTMLEscape(byte) else { continue }
            if index > runStart { append(bytes: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
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
        if utf8.count > runStart { append(bytes: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    /// ASCII bytes that HTML text cannot hold as they are: markup characters and controls but
    /// tab and newline (a test failure's message keeps its lines, as `String.htmlEscaped` does).
    @inline(__always)
    private static func needsHTMLEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x0A: false
        case 0..<0x20, 0x7F, UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""),
            UInt8(ascii: "'"):
            true
        default: false
        }
    }
}

extension AtomicFile.Destination {
    /// A buffer that streams into this destination, `chunkSize` bytes at a time; give it back
    /// to `finish`.
    package func streamingBuffer(chunkSize: Int = 1 << 20) -> OutputBuffer {
        OutputBuffer(flushingTo: descriptor, chunkSize: chunkSize)
    }

    /// Writes what `buffer` still holds and puts the output in place.
    package func finish(_ buffer: consuming OutputBuffer) throws(SystemCallError) {
        buffer.flush()
        guard buffer.writeError == 0 else { throw SystemCallError(.write, path: path, errno: buffer.writeError) }
        try finish()
    }
}
