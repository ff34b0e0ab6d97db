#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a log, given in pieces as it arrives, into lines: at LF, CR LF or a lone CR (logs
/// written on any system, or by a terminal recorder); UTF-16 logs (with or without a byte-order
/// mark, as Windows tools write them) are read as UTF-8; a UTF-8 byte-order mark is dropped.
/// A line longer than `lineLimit` bytes is cut there (`wasCut`), so that one line without a
/// break (a gigabyte of output) costs no more memory than any other.
package struct LogLineReader {
    /// The longest line kept, in bytes.
    package let lineLimit: Int

    private enum Encoding {
        case unknown, utf8, utf16LittleEndian, utf16BigEndian
    }

    private var encoding = Encoding.unknown
    /// The first bytes, held until there are enough to tell the encoding.
    private var head: [UInt8] = []
    private var pending: [UInt8] = []
    private var pendingWasCut = false
    private var lastWasCR = false
    /// UTF-16 only: an odd byte and a high surrogate waiting for the rest.
    private var oddByte: UInt8?
    private var highSurrogate: UInt16?
    private var transcoded: [UInt8] = []

    /// A reader of lines of at most `lineLimit` bytes.
    package init(lineLimit: Int = 16_384) {
        self.lineLimit = max(1, lineLimit)
    }

    /// Runs `body` with the reader at `path` in `owner` taken out of it, so that the lines it
    /// gives can change the owner (which holds the reader) while the reader runs.
    static func using<Owner>(
        _ owner: inout Owner, _ path: WritableKeyPath<Owner, LogLineReader>,
        _ body: (inout LogLineReader, inout Owner) -> Void
    ) {
        var reader = owner[keyPath: path]
        owner[keyPath: path] = LogLineReader(lineLimit: reader.lineLimit)
        body(&reader, &owner)
        owner[keyPath: path] = reader
    }

    /// Whether the log was read as UTF-16.
    package var isUTF16: Bool { encoding == .utf16LittleEndian || encoding == .utf16BigEndian }

    /// Feeds the next bytes; calls `line` with each complete line (without its break) and
    /// whether it was cut at `lineLimit`.
    package mutating func consume(
        _ bytes: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer, _ wasCut: Bool) -> Void
    ) {
        guard !bytes.isEmpty else { return }
        guard encoding == .unknown else { return consumeDetected(bytes, line) }
        if head.isEmpty && bytes.count >= Self.detectionLength {
            // The first piece tells the encoding by itself: read in place, not copied.
            encoding = Self.detect(Array(bytes.prefix(Self.detectionLength))[...])
            let hasMark = encoding == .utf8 && bytes.starts(with: [0xEF, 0xBB, 0xBF])
            return consumeDetected(hasMark ? UnsafeRawBufferPointer(rebasing: bytes.dropFirst(3)) : bytes, line)
        }
        // The first bytes tell the encoding; wait for all of them, so that how the input was cut
        // into pieces never changes the guess.
        head.append(contentsOf: bytes)
        if head.count >= Self.detectionLength { start(line) }
    }

    /// Ends the input: the last line, when it has no line break.
    package mutating func finish(_ line: (UnsafeRawBufferPointer, _ wasCut: Bool) -> Void) {
        if encoding == .unknown, !head.isEmpty { start(line) }
        if !pending.isEmpty || pendingWasCut {
            pending.withUnsafeBytes { line($0, pendingWasCut) }
        }
        pending = []
        pendingWasCut = false
    }

    private mutating func start(_ line: (UnsafeRawBufferPointer, _ wasCut: Bool) -> Void) {
        encoding = Self.detect(head.prefix(Self.detectionLength))
        var held = head
        head = []
        if encoding == .utf8, held.starts(with: [0xEF, 0xBB, 0xBF]) { held.removeFirst(3) }
        held.withUnsafeBytes { consumeDetected($0, line) }
    }

    private mutating func consumeDetected(
        _ bytes: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer, _ wasCut: Bool) -> Void
    ) {
        switch encoding {
        case .utf16LittleEndian, .utf16BigEndian:
            transcode(bytes)
            let utf8 = transcoded
            transcoded.removeAll(keepingCapacity: true)
            utf8.withUnsafeBytes { split($0, line) }
        case .utf8, .unknown:
            split(bytes, line)
        }
    }

    /// How many first bytes the encoding is guessed from.
    private static let detectionLength = 256

    /// The encoding the first bytes show.
    private static func detect(_ head: ArraySlice<UInt8>) -> Encoding {
        let head = Array(head)
        if head.count >= 2 {
            if head[0] == 0xFF && head[1] == 0xFE { return .utf16LittleEndian }
            if head[0] == 0xFE && head[1] == 0xFF { return .utf16BigEndian }
        }
        // Without a mark: ASCII text in UTF-16 has a zero in every other byte.
        var zeroEven = 0
        var zeroOdd = 0
        let pairs = head.count / 2
        guard pairs >= 2 else { return .utf8 }
        for index in 0..<pairs {
            if head[2 * index] == 0 { zeroEven += 1 }
            if head[2 * index + 1] == 0 { zeroOdd += 1 }
        }
        if zeroOdd * 4 >= pairs * 3 && zeroEven * 4 < pairs { return .utf16LittleEndian }
        if zeroEven * 4 >= pairs * 3 && zeroOdd * 4 < pairs { return .utf16BigEndian }
        return .utf8
    }

    /// UTF-16 code units to UTF-8 bytes in `transcoded`; a byte-order mark is dropped, unpaired
    /// surrogates become U+FFFD.
    private mutating func transcode(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        let littleEndian = encoding == .utf16LittleEndian
        func unit(_ first: UInt8, _ second: UInt8) -> UInt16 {
            littleEndian ? UInt16(first) | UInt16(second) << 8 : UInt16(first) << 8 | UInt16(second)
        }
        while index < bytes.count || oddByte != nil {
            let value: UInt16
            if let odd = oddByte {
                guard index < bytes.count else { break }
                value = unit(odd, bytes[index])
                oddByte = nil
                index += 1
            } else {
                guard index + 1 < bytes.count else {
                    oddByte = bytes[index]
                    index += 1
                    break
                }
                value = unit(bytes[index], bytes[index + 1])
                index += 2
            }
            append(unit: value)
        }
    }

    private mutating func append(unit value: UInt16) {
        if let high = highSurrogate {
            highSurrogate = nil
            if (0xDC00...0xDFFF).contains(value) {
                let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(value) - 0xDC00)
                appendUTF8(scalar)
                return
            }
            appendUTF8(0xFFFD)
        }
        switch value {
        case 0xFEFF: return  // byte-order mark
        case 0xD800...0xDBFF: highSurrogate = value
        case 0xDC00...0xDFFF: appendUTF8(0xFFFD)
        default: appendUTF8(UInt32(value))
        }
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            transcoded.append(UInt8(scalar))
        case 0x80..<0x800:
            transcoded.append(UInt8(0xC0 | scalar >> 6))
            transcoded.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            transcoded.append(UInt8(0xE0 | scalar >> 12))
            transcoded.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            transcoded.append(UInt8(0x80 | scalar & 0x3F))
        default:
            transcoded.append(UInt8(0xF0 | scalar >> 18))
            transcoded.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            transcoded.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            transcoded.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Lines of UTF-8 `bytes`, continuing the line in `pending`.
    private mutating func split(
        _ bytes: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer, _ wasCut: Bool) -> Void
    ) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var start = 0
        if lastWasCR {
            lastWasCR = false
            if bytes[0] == 0x0A { start = 1 }  // the LF of a CR LF split between two pieces
        }
        let hasCR = memchr(base + start, 0x0D, bytes.count - start) != nil
        while start < bytes.count {
            let end: Int
            if hasCR {
                var index = start
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
                guard index < bytes.count else { break }
                end = index
            } else {
                guard let found = memchr(base + start, 0x0A, bytes.count - start) else { break }
                end = base.distance(to: UnsafeRawPointer(found))
            }
            emit(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), line)
            var next = end + 1
            if bytes[end] == 0x0D {
                if next < bytes.count {
                    if bytes[next] == 0x0A { next += 1 }
                } else {
                    lastWasCR = true
                }
            }
            start = next
        }
        if start < bytes.count { hold(UnsafeRawBufferPointer(rebasing: bytes[start...])) }
    }

    /// Calls `line` with the pending part and `tail`, within the limit. (Inlined into the
    /// loop over a piece's lines: a call per line costs as much as the rest of this.)
    @inline(__always)
    private mutating func emit(
        _ tail: UnsafeRawBufferPointer, _ line: (UnsafeRawBufferPointer, _ wasCut: Bool) -> Void
    ) {
        if pending.isEmpty && !pendingWasCut {
            if tail.count <= lineLimit {
                line(tail, false)
            } else {
                line(UnsafeRawBufferPointer(rebasing: tail[..<lineLimit]), true)
            }
            return
        }
        hold(tail)
        pending.withUnsafeBytes { line($0, pendingWasCut) }
        pending.removeAll(keepingCapacity: pending.capacity <= 4 * lineLimit)
        pendingWasCut = false
    }

    /// Keeps `bytes` for the line in progress, up to the limit.
    private mutating func hold(_ bytes: UnsafeRawBufferPointer) {
        let room = lineLimit - pending.count
        if bytes.count > room {
            pending.append(contentsOf: bytes.prefix(max(0, room)))
            pendingWasCut = true
        } else {
            pending.append(contentsOf: bytes)
        }
    }
}
