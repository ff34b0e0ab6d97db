#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The UTF-8 bytes of a log line, or of a part of one, as the line reader gives them: what the
/// log parser matches lines on, so that reading a line costs no `String` and only the names and
/// messages it keeps become strings. Valid only while the bytes it views are (one line's call).
struct LineText {
    /// The bytes viewed.
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = UnsafeRawBufferPointer(bytes)
    }

    // The small members are inlined everywhere: the parser calls them millions of times, and a
    // call costs more than they do.
    @inline(__always) var count: Int { bytes.count }
    @inline(__always) var isEmpty: Bool { bytes.isEmpty }
    @inline(__always) var first: UInt8? { bytes.first }
    var last: UInt8? { bytes.last }

    @inline(__always)
    subscript(index: Int) -> UInt8 { bytes[index] }

    /// The text as a `String` (a line that is not valid UTF-8 is repaired, as `String` decodes it).
    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes from `start` to `end` (exclusive).
    @inline(__always)
    subscript(start: Int, end: Int) -> LineText { LineText(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }

    @inline(__always) func prefix(_ end: Int) -> LineText { self[0, Swift.min(end, count)] }
    @inline(__always) func dropFirst(_ length: Int = 1) -> LineText { self[Swift.min(length, count), count] }
    @inline(__always) func dropLast(_ length: Int = 1) -> LineText { self[0, Swift.max(0, count - length)] }
    @inline(__always) func suffix(from start: Int) -> LineText { self[start, count] }

    /// Whether the text starts with `prefix`'s bytes.
    @inline(__always)
    func hasPrefix(_ prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        return count >= length && (length == 0 || Self.equal(bytes.baseAddress!, prefix.utf8Start, count: length))
    }

    /// Whether the text ends with `suffix`'s bytes.
    @inline(__always)
    func hasSuffix(_ suffix: StaticString) -> Bool {
        let length = suffix.utf8CodeUnitCount
        return count >= length
            && (length == 0 || Self.equal(bytes.baseAddress! + (count - length), suffix.utf8Start, count: length))
    }

    /// Whether the text starts with `prefix`.
    @inline(__always)
    func hasPrefix(_ prefix: LineText) -> Bool {
        count >= prefix.count
            && (prefix.isEmpty || Self.equal(bytes.baseAddress!, prefix.bytes.baseAddress!, count: prefix.count))
    }

    /// Whether the text ends with `suffix`.
    func hasSuffix(_ suffix: LineText) -> Bool {
        count >= suffix.count
            && (suffix.isEmpty
                || Self.equal(
                    bytes.baseAddress! + (count - suffix.count), suffix.bytes.baseAddress!, count: suffix.count))
    }

    /// Whether the `count` bytes at `first` and at `second` are the same: compared inline, eight
    /// at a time (the last eight overlapping the ones before), then four, then one, because the
    /// markers and names compared are short and a call to `memcmp` costs more than they do.
    @inline(__always)
    static func equal(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                guard
                    first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                else { return false }
                offset += 8
            }
            return first.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == second.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return first.loadUnaligned(as: UInt32.self) == second.loadUnaligned(as: UInt32.self)
                && first.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == second.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        var offset = 0
        while offset < count {
            guard
                first.load(fromByteOffset: offset, as: UInt8.self)
                    == second.load(fromByteOffset: offset, as: UInt8.self)
            else { return false }
            offset += 1
        }
        return true
    }

    /// Whether the bytes equal `other`'s.
    static func == (text: LineText, other: StaticString) -> Bool {
        text.count == other.utf8CodeUnitCount && text.hasPrefix(other)
    }

    /// The rest after `prefix`, when the text starts with it.
    @inline(__always)
    func after(_ prefix: StaticString) -> LineText? {
        hasPrefix(prefix) ? dropFirst(prefix.utf8CodeUnitCount) : nil
    }

    /// The rest after `prefix`, when the text starts with it.
    func after(_ prefix: LineText) -> LineText? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }

    /// The offset of the first `byte`.
    @inline(__always)
    func firstIndex(of byte: UInt8) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Whether the text holds `byte`.
    func contains(_ byte: UInt8) -> Bool { firstIndex(of: byte) != nil }

    /// The offset of the last `byte`.
    func lastIndex(of byte: UInt8) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var end = count
        // Eight bytes at a time from the end: each byte equal to `byte` marked by its high bit
        // (exactly: no borrow crosses bytes), the last one found by the highest mark.
        let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while end >= 8 {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)) ^ pattern
            let equal = ~((word & low7) &+ low7 | word | low7)
            if equal != 0 { return end - 1 - equal.leadingZeroBitCount >> 3 }
            end -= 8
        }
        while end > 0 {
            end -= 1
            if base.load(fromByteOffset: end, as: UInt8.self) == byte { return end }
        }
        return nil
    }

    /// Whether the text holds ": " (one look at each colon).
    var hasColonSpace: Bool {
        guard let base = bytes.baseAddress, count > 1 else { return false }
        var start = 0
        while start < count - 1, let colon = memchr(base + start, Int32(UInt8(ascii: ":")), count - 1 - start) {
            let next = base.distance(to: UnsafeRawPointer(colon)) + 1
            if bytes[next] == UInt8(ascii: " ") { return true }
            start = next
        }
        return false
    }

    /// The offset of the first occurrence of `needle`'s bytes.
    func find(_ needle: StaticString) -> Int? {
        find(UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
    }

    /// The offset of the first occurrence of `needle`.
    func find(_ needle: UnsafeRawBufferPointer) -> Int? {
        guard let text = bytes.baseAddress, let pattern = needle.baseAddress, !needle.isEmpty,
            count >= needle.count
        else { return nil }
        let length = needle.count
        // The last place the needle can start.
        let last = count - length
        var offset = 0
        if length >= 2 {
            // Sixteen places at a time: those where the needle's first and last bytes are (two
            // bytes apart rule out nearly every place of a line at once), then the rest compared.
            let first = SIMD16<UInt8>(repeating: pattern.load(as: UInt8.self))
            let final = SIMD16<UInt8>(repeating: pattern.load(fromByteOffset: length - 1, as: UInt8.self))
            while offset + 15 <= last {
                let heads = text.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                let tails = text.loadUnaligned(fromByteOffset: offset + length - 1, as: SIMD16<UInt8>.self)
                let candidates = (heads .== first) .& (tails .== final)
                if any(candidates) {
                    for lane in 0..<16 where candidates[lane] {
                        if Self.equal(text + offset + lane, pattern, count: length) { return offset + lane }
                    }
                }
                offset += 16
            }
        }
        // The last places (fewer than sixteen), one by one.
        let lead = pattern.load(as: UInt8.self)
        while offset <= last {
            if text.load(fromByteOffset: offset, as: UInt8.self) == lead,
                Self.equal(text + offset, pattern, count: length)
            {
                return offset
            }
            offset += 1
        }
        return nil
    }

    /// The offset of the last occurrence of `needle`'s bytes.
    func lastFind(_ needle: StaticString) -> Int? {
        let length = needle.utf8CodeUnitCount
        guard length > 0, count >= length, let text = bytes.baseAddress else { return nil }
        let first = needle.utf8Start.pointee
        var start = count - length
        while start >= 0 {
            // The first byte, then the rest.
            if text.load(fromByteOffset: start, as: UInt8.self) == first,
                Self.equal(text + start, needle.utf8Start, count: length)
            {
                return start
            }
            start -= 1
        }
        return nil
    }

    /// The pieces between `separator` bytes, as `split(separator:maxSplits:omittingEmptySubsequences:)`
    /// cuts a collection: at most `maxSplits` cuts, the rest in the last piece.
    func split(_ separator: UInt8, maxSplits: Int = Int.max, omittingEmpty: Bool = true) -> [LineText] {
        var pieces: [LineText] = []
        // One allocation: room for every piece there can be.
        var separators = 0
        for index in 0..<count where bytes[index] == separator { separators += 1 }
        pieces.reserveCapacity(Swift.min(separators, maxSplits) + 1)
        var start = 0
        func appendPiece(end: Int) -> Bool {
            if start == end && omittingEmpty { return false }
            pieces.append(self[start, end])
            return true
        }
        if maxSplits == 0 || isEmpty {
            _ = appendPiece(end: count)
            return pieces
        }
        var end = 0
        while end != count {
            if bytes[end] == separator {
                let appended = appendPiece(end: end)
                end += 1
                start = end
                if appended && pieces.count == maxSplits { break }
                continue
            }
            end += 1
        }
        if start != count || !omittingEmpty { pieces.append(self[start, count]) }
        return pieces
    }

    /// Calls `body` with the pieces that `split(separator)` gives (no empty piece), held in
    /// temporary memory (on the stack for a line of a few dozen words) instead of an array.
    func withPieces<R>(_ separator: UInt8, _ body: (UnsafeBufferPointer<LineText>) -> R) -> R {
        var separators = 0
        for index in 0..<count where bytes[index] == separator { separators += 1 }
        return withUnsafeTemporaryAllocation(of: LineText.self, capacity: separators + 1) { pieces in
            var found = 0
            var start = 0
            for index in 0..<count where bytes[index] == separator {
                if index > start {
                    pieces.initializeElement(at: found, to: self[start, index])
                    found += 1
                }
                start = index + 1
            }
            if start < count {
                pieces.initializeElement(at: found, to: self[start, count])
                found += 1
            }
            return body(UnsafeBufferPointer(rebasing: pieces[..<found]))
        }
    }

    /// The first Unicode scalar and its length in bytes (the text is valid UTF-8).
    var firstScalar: (Unicode.Scalar, Int)? {
        guard let lead = first else { return nil }
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard count >= length else { return nil }
        var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
        for index in 1..<length { value = value << 6 | UInt32(bytes[index] & 0x3F) }
        return Unicode.Scalar(value).map { ($0, length) }
    }

    /// The text without leading "(" and trailing "),." bytes.
    var trimmingParentheses: LineText {
        var start = 0
        var end = count
        while start < end, bytes[start] == UInt8(ascii: "(") { start += 1 }
        while end > start,
            bytes[end - 1] == UInt8(ascii: ")") || bytes[end - 1] == UInt8(ascii: ",")
                || bytes[end - 1] == UInt8(ascii: ".")
        {
            end -= 1
        }
        return self[start, end]
    }

    /// The text as a decimal integer, read as `Int(String)` reads it (an optional sign, then
    /// digits; nil for anything else and on overflow), without making a `String`.
    var int: Int? {
        guard let lead = first else { return nil }
        let negative = lead == UInt8(ascii: "-")
        var index = negative || lead == UInt8(ascii: "+") ? 1 : 0
        guard index < count else { return nil }
        var value = 0
        while index < count {
            let digit = Int(bytes[index]) &- Int(UInt8(ascii: "0"))
            guard digit >= 0 && digit <= 9 else { return nil }
            // Accumulated negatively: Int.min has no positive counterpart.
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(digit)
            guard !overflow1 && !overflow2 else { return nil }
            value = next
            index += 1
        }
        if negative { return value }
        let (positive, overflow) = (0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }

    /// The text as a floating-point number (`Double`'s own parsing).
    var double: Double? { plainDecimal ?? Double(string) }

    /// A number like `0.001` (at most 15 digits), computed exactly as `Double` parses it: an
    /// integer and a power of ten both exact in a `Double` divide to the correctly rounded
    /// value. Nil for any other text.
    private var plainDecimal: Double? {
        // Most durations: "0.001", one digit and three decimals, read at once (the same value as
        // the loop below gives: the digits' integer over 10^3).
        if count == 5, bytes[1] == UInt8(ascii: ".") {
            let digits = (Int(bytes[0]) &- 48, Int(bytes[2]) &- 48, Int(bytes[3]) &- 48, Int(bytes[4]) &- 48)
            if UInt(bitPattern: digits.0) < 10, UInt(bitPattern: digits.1) < 10, UInt(bitPattern: digits.2) < 10,
                UInt(bitPattern: digits.3) < 10
            {
                return Double(digits.0 * 1000 + digits.1 * 100 + digits.2 * 10 + digits.3) / 1e3
            }
        }
        guard count > 0, count <= 16 else { return nil }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        for index in 0..<count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else {
                return nil
            }
        }
        guard digits > 0, digits <= 15 else { return nil }
        return Double(mantissa) / LineText.powerOfTen(fractionDigits)
    }

    /// 10 to the power `exponent` (0 to 15), exact in a `Double`; a switch, not a global table
    /// (whose every read checks that it was made).
    private static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }

    /// Calls `body` with the bytes of `text`: the string's own (a native string has them at
    /// hand), without copying it.
    static func with<R>(_ text: String, _ body: (LineText) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable({ body(LineText($0)) }) { return result }
        var text = text
        return text.withUTF8 { body(LineText($0)) }
    }

    /// Whether `bytes` are valid UTF-8 holding no ESC: a line that is its own text, needing no
    /// UTF-8 repair and no removal of terminal escape sequences. Printable ASCII is checked
    /// eight bytes at a time; from the first other byte on, each sequence by the ranges of RFC
    /// 3629 (no overlong forms, no surrogates, nothing above U+10FFFF), as `String(validating:)`
    /// accepts them.
    static func isPlainText(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        let count = bytes.count
        /// Whether no byte of `word` is below 0x20 (one would borrow in the subtraction) or at least 0x80.
        @inline(__always) func isPrintableASCII(_ word: UInt64) -> Bool {
            ((word &- 0x2020_2020_2020_2020) | word) & 0x8080_8080_8080_8080 == 0
        }
        /// Both words, with one test.
        @inline(__always) func isPrintableASCII(_ first: UInt64, _ second: UInt64) -> Bool {
            ((first &- 0x2020_2020_2020_2020) | first | (second &- 0x2020_2020_2020_2020) | second)
                & 0x8080_8080_8080_8080 == 0
        }
        while index < count {
            // Sixteen, then eight bytes at a time while they are printable ASCII (after a symbol
            // too); from a control (ESC among them) or a byte >= 0x80, byte by byte below.
            while index + 16 <= count,
                isPrintableASCII(
                    base.loadUnaligned(fromByteOffset: index, as: UInt64.self),
                    base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
            {
                index += 16
            }
            while index + 8 <= count, isPrintableASCII(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
            // The last bytes of a line, fewer than eight: as the last eight of it when those are plain.
            if index + 8 > count, count >= 8, index < count,
                isPrintableASCII(base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            {
                break
            }
            guard index < count else { break }
            if base.load(fromByteOffset: index, as: UInt8.self) == 0x1B { return false }
            let length = sequenceLength(base, at: index, count: count)
            guard length > 0 else { return false }
            index += length
        }
        return true
    }

    /// Whether `bytes`, many lines with their line breaks, are valid UTF-8 holding no ESC (see
    /// `isPlainText`): then so is each of their lines, a valid sequence never holding an ASCII
    /// byte. One look for ESC, then sixteen bytes at a time while they are ASCII (controls and
    /// line breaks too): a piece of a log is told at once, not line by line.
    static func isPlainLines(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        if memchr(base, 0x1B, count) != nil { return false }
        /// The high bits of the eight bytes at `offset`, those of the bytes beyond ASCII.
        @inline(__always) func highBits(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) & 0x8080_8080_8080_8080
        }
        var index = 0
        while index + 16 <= count {
            // Thirty-two bytes at a time while all are ASCII (most of a log's text).
            while index + 32 <= count,
                highBits(index) | highBits(index + 8) | highBits(index + 16) | highBits(index + 24) == 0
            {
                index += 32
            }
            guard index + 16 <= count else { break }
            let first = highBits(index)
            if first | highBits(index + 8) == 0 {
                index += 16
                continue
            }
            // Straight to the first byte beyond ASCII, then past its sequence.
            index += first != 0 ? first.trailingZeroBitCount >> 3 : 8 + highBits(index + 8).trailingZeroBitCount >> 3
            let length = sequenceLength(base, at: index, count: count)
            guard length > 0 else { return false }
            index += length
        }
        while index < count {
            let length = sequenceLength(base, at: index, count: count)
            guard length > 0 else { return false }
            index += length
        }
        return true
    }

    /// The length of the UTF-8 sequence at `index` of the `count` bytes at `base` (1 for any
    /// ASCII byte), 0 when it is not a valid one: by the ranges of RFC 3629.
    @inline(__always)
    private static func sequenceLength(_ base: UnsafeRawPointer, at index: Int, count: Int) -> Int {
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < count && range.contains(base.load(fromByteOffset: index + offset, as: UInt8.self))
        }
        switch base.load(fromByteOffset: index, as: UInt8.self) {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return continuation(1) ? 2 : 0
        case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xE1...0xEF: return continuation(1) && continuation(2) ? 3 : 0
        case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default: return 0
        }
    }
}
