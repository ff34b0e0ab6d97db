/// A syntax or shape error in a JSON document, at a byte offset.
/// Public, its members package, for `JSONScanner`'s inlinable members.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    /// Byte offset (0-based) of the first byte that could not be accepted.
    package var offset: Int
    /// What was wrong there, e.g. "expected ',' or ']'".
    package var message: String

    @usableFromInline package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(message) at byte offset \(offset)" }
}

/// The bytes of an object key or a string, still inside the document.
/// Public, its members package: Swift serializes the `@inlinable` members of public types only,
/// and the stages above need them inlined.
public struct JSONRawString {
    /// First byte after the opening quote.
    @usableFromInline package var start: UnsafePointer<UInt8>
    /// Number of bytes before the closing quote, escapes not decoded.
    @usableFromInline package var count: Int
    /// Whether the bytes contain a backslash escape.
    @usableFromInline package var hasEscapes: Bool

    @usableFromInline init(start: UnsafePointer<UInt8>, count: Int, hasEscapes: Bool) {
        self.start = start
        self.count = count
        self.hasEscapes = hasEscapes
    }

    /// Whether the raw bytes spell `literal` exactly (escaped strings never match).
    @inlinable @inline(__always)
    package func equals(_ literal: StaticString) -> Bool {
        guard !hasEscapes, count == literal.utf8CodeUnitCount else { return false }
        return memcmp(start, literal.utf8Start, count) == 0
    }

    /// The decoded string.
    package func decoded() -> String {
        let bytes = UnsafeBufferPointer(start: start, count: count)
        guard hasEscapes else { return String(decoding: bytes, as: UTF8.self) }
        return JSONRawString.unescape(bytes)
    }

    private static func unescape(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        var pendingHighSurrogate: UInt32?
        func append(scalar: UInt32) {
            let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            out.append(contentsOf: Array(String(value).utf8))
        }
        while i < bytes.count {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "\\"), i + 1 < bytes.count else {
                if let high = pendingHighSurrogate {
                    append(scalar: high)
                    pendingHighSurrogate = nil
                }
                out.append(byte)
                i += 1
                continue
            }
            let escape = bytes[i + 1]
            i += 2
            if escape == UInt8(ascii: "u"), i + 4 <= bytes.count {
                var code: UInt32 = 0
                for k in 0..<4 { code = code << 4 | UInt32(hexValue(bytes[i + k])) }
                i += 4
                if (0xD800..<0xDC00).contains(code) {
                    if pendingHighSurrogate != nil { append(scalar: 0xFFFD) }
                    pendingHighSurrogate = code
                    continue
                }
                if (0xDC00..<0xE000).contains(code), let high = pendingHighSurrogate {
                    pendingHighSurrogate = nil
                    append(scalar: 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))
                    continue
                }
                if pendingHighSurrogate != nil {
                    append(scalar: 0xFFFD)
                    pendingHighSurrogate = nil
                }
                append(scalar: (0xDC00..<0xE000).contains(code) ? 0xFFFD : code)
                continue
            }
            if pendingHighSurrogate != nil {
                append(scalar: 0xFFFD)
                pendingHighSurrogate = nil
            }
            switch escape {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            default: out.append(escape)  // \" \\ \/
            }
        }
        if pendingHighSurrogate != nil { append(scalar: 0xFFFD) }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return 0
        }
    }
}

/// A forward-only, allocation-free reader over the bytes of a JSON document.
///
/// It is the one JSON tokenizer in swiftcov: the llvm-cov export reader drives it directly for
/// speed, and `JSONValue` builds small documents (configuration, baselines) on top of it.
/// Containers are walked with `nextMember`/`nextElement` and a `Bool` state the caller keeps,
/// so no stack is allocated; `skipValue` validates what it skips.
/// Public, its members package: Swift serializes the `@inlinable` members of public types only,
/// and the stages above need them inlined.
public struct JSONScanner {
    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    /// Byte offset of the next unread byte.
    @usableFromInline package internal(set) var offset: Int

    /// Deepest nesting `skipValue` accepts, so hostile input cannot exhaust the stack.
    package static let maximumDepth = 512

    /// A scanner over `buffer`, which must outlive it.
    package init(_ buffer: UnsafeRawBufferPointer) {
        if let address = buffer.baseAddress, buffer.count > 0 {
            base = address.assumingMemoryBound(to: UInt8.self)
            end = buffer.count
        } else {
            base = JSONScanner.emptyByte
            end = 0
        }
        offset = 0
    }

    nonisolated(unsafe) private static let emptyByte: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()

    /// Whether only whitespace remains.
    package mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return offset >= end
    }

    /// The next significant byte without consuming it, or nil at the end.
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return offset < end ? base[offset] : nil
    }

    /// An error at the current position.
    @usableFromInline package func error(_ message: String) -> JSONError {
        JSONError(offset: offset, message: message)
    }

    @inlinable @inline(__always)
    mutating func skipWhitespace() {
        while offset < end {
            let byte = base[offset]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            offset += 1
        }
    }

    @usableFromInline func describeCurrent() -> String {
        guard offset < end else { return "end of input" }
        let byte = base[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    /// Consumes `byte` (after whitespace) or throws.
    @inlinable @inline(__always)
    package mutating func expect(_ byte: UInt8) throws(JSONError) {
        skipWhitespace()
        guard offset < end, base[offset] == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))', found \(describeCurrent())")
        }
        offset += 1
    }

    // MARK: Containers

    /// Consumes the opening `{` of an object.
    @inlinable @inline(__always)
    package mutating func beginObject() throws(JSONError) {
        skipWhitespace()
        guard offset < end, base[offset] == UInt8(ascii: "{") else {
            throw error("expected an object, found \(describeCurrent())")
        }
        offset += 1
    }

    /// Consumes the opening `[` of an array.
    @inlinable @inline(__always)
    package mutating func beginArray() throws(JSONError) {
        skipWhitespace()
        guard offset < end, base[offset] == UInt8(ascii: "[") else {
            throw error("expected an array, found \(describeCurrent())")
        }
        offset += 1
    }

    /// The next key of the object being read (its `:` consumed), or nil after its closing `}`.
    /// `started` starts false and is kept by the caller for this object.
    @inlinable @inline(__always)
    package mutating func nextMember(_ started: inout Bool) throws(JSONError) -> JSONRawString? {
        // As llvm-cov writes them: `"key":` first, then `,"key":`, with no whitespace.
        let quote = started ? offset + 1 : offset
        if quote < end, base[quote] == UInt8(ascii: "\""), !started || base[offset] == UInt8(ascii: ",") {
            offset = quote
            started = true
            let key = try readRawString()
            if offset < end, base[offset] == UInt8(ascii: ":") {
                offset += 1
            } else {
                try expect(UInt8(ascii: ":"))
            }
            return key
        }
        skipWhitespace()
        guard offset < end else { throw error("unexpected end of input inside an object") }
        var byte = base[offset]
        if byte == UInt8(ascii: "}") {
            offset += 1
            return nil
        }
        if started {
            guard byte == UInt8(ascii: ",") else { throw error("expected ',' or '}', found \(describeCurrent())") }
            offset += 1
            skipWhitespace()
            byte = offset < end ? base[offset] : 0
        }
        started = true
        guard byte == UInt8(ascii: "\"") else { throw error("expected a key string, found \(describeCurrent())") }
        let key = try readRawString()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Whether the array being read has another element (its `,` consumed); false after its `]`.
    @inlinable @inline(__always)
    package mutating func nextElement(_ started: inout Bool) throws(JSONError) -> Bool {
        skipWhitespace()
        guard offset < end else { throw error("unexpected end of input inside an array") }
        let byte = base[offset]
        if byte == UInt8(ascii: "]") {
            offset += 1
            return false
        }
        if started {
            guard byte == UInt8(ascii: ",") else { throw error("expected ',' or ']', found \(describeCurrent())") }
            offset += 1
        }
        started = true
        return true
    }

    // MARK: Scalars

    /// Reads a string without decoding it.
    @inlinable @inline(__always)
    package mutating func readRawString() throws(JSONError) -> JSONRawString {
        if offset >= end || base[offset] != UInt8(ascii: "\"") {
            skipWhitespace()
            guard offset < end, base[offset] == UInt8(ascii: "\"") else {
                throw error("expected a string, found \(describeCurrent())")
            }
        }
        offset += 1
        let start = offset
        var hasEscapes = false
        while offset < end {
            // Eight bytes at a time to the first quote, backslash or control character: most
            // strings (names, paths) have none until their end.
            offset = SWAR.skip(from: offset, to: end, in: base, until: SWAR.quoteBackslashOrControl)
            guard offset < end else { break }
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") {
                let raw = JSONRawString(start: base + start, count: offset - start, hasEscapes: hasEscapes)
                offset += 1
                return raw
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try readEscape()
                continue
            }
            if byte < 0x20 { throw error("control character in string") }
            offset += 1
        }
        throw JSONError(offset: end, message: "unterminated string")
    }

    @usableFromInline mutating func readEscape() throws(JSONError) {
        guard offset + 1 < end else { throw JSONError(offset: end, message: "unterminated string") }
        switch base[offset + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            offset += 2
        case UInt8(ascii: "u"):
            guard offset + 6 <= end else { throw JSONError(offset: end, message: "unterminated string") }
            for k in 2..<6 where !base[offset + k].isHexDigit {
                throw JSONError(offset: offset + k, message: "invalid \\u escape")
            }
            offset += 6
        default:
            throw error("invalid escape in string")
        }
    }

    /// Skips the next string when its raw bytes are exactly `raw` (the raw bytes of a string
    /// read before), reporting whether it did; reads nothing otherwise. A repeated string is
    /// recognized by one comparison instead of a scan for its end; the quote after the bytes
    /// closes it, as `raw` ends with no unpaired backslash.
    @inlinable @inline(__always)
    package mutating func skipString(equalTo raw: UnsafeBufferPointer<UInt8>) -> Bool {
        skipWhitespace()
        let count = raw.count
        guard offset + count + 1 < end, base[offset] == UInt8(ascii: "\""),
            base[offset + count + 1] == UInt8(ascii: "\""),
            count == 0 || memcmp(base + offset + 1, raw.baseAddress!, count) == 0
        else { return false }
        offset += count + 2
        return true
    }

    /// Lets `read` take what follows straight from the bytes, for a shape its caller knows to be
    /// common and reads faster than value by value: `read` gets the bytes from the current offset
    /// to the end and returns how many it read, or nil to read nothing (the caller then reads the
    /// same bytes value by value, which says what is wrong with them).
    @inlinable @inline(__always)
    package mutating func readDirectly(_ read: (UnsafeBufferPointer<UInt8>) -> Int?) -> Bool {
        guard let count = read(UnsafeBufferPointer(start: base + offset, count: end - offset)) else { return false }
        offset += count
        return true
    }

    /// Reads and decodes a string.
    package mutating func readString() throws(JSONError) -> String {
        try readRawString().decoded()
    }

    /// Reads an integer; values beyond Int64 are clamped to Int64.max / Int64.min, as llvm-cov clamps counts.
    @inlinable @inline(__always)
    package mutating func readInt() throws(JSONError) -> Int64 {
        // Most numbers in an export: a few digits right here, which cannot overflow.
        var index = offset
        var value: UInt64 = 0
        while index < end, index - offset < 18 {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ UInt64(digit)
            index += 1
        }
        if index > offset, index - offset < 18, index < end, !base[index].continuesNumber {
            offset = index
            return Int64(value)
        }
        return try readIntInFull()
    }

    /// Reads an array of `values.count` unsigned integers written without whitespace, such as
    /// `[12,5,12,30,0,0,0,0]` (an export's regions), into `values`, reporting whether it did.
    /// Anything else (whitespace, a sign, a long number, the wrong length, an error) reads
    /// nothing and returns false, for the caller to read the array value by value. The bounds
    /// are checked once for the longest array that can pass, not at every byte.
    @inlinable @inline(__always)
    package mutating func readCompactUnsignedArray(into values: UnsafeMutableBufferPointer<UInt64>) -> Bool {
        let longestDigits = 18
        guard offset + values.count * (longestDigits + 1) + 1 <= end, base[offset] == UInt8(ascii: "[") else {
            return false
        }
        var index = offset + 1
        for slot in values.indices {
            let start = index
            var value: UInt64 = 0
            while index - start < longestDigits {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                value = value &* 10 &+ UInt64(digit)
                index += 1
            }
            let separator = slot == values.count - 1 ? UInt8(ascii: "]") : UInt8(ascii: ",")
            guard index > start, base[index] == separator else { return false }
            values[slot] = value
            index += 1
        }
        offset = index
        return true
    }

    /// `readInt` for what its fast path leaves: whitespace, a sign, long numbers, errors.
    @usableFromInline mutating func readIntInFull() throws(JSONError) -> Int64 {
        skipWhitespace()
        var negative = false
        if offset < end, base[offset] == UInt8(ascii: "-") {
            negative = true
            offset += 1
        }
        let start = offset
        var value: UInt64 = 0
        var overflow = false
        while offset < end {
            let digit = base[offset] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            overflow = overflow || o1 || o2
            value = sum
            offset += 1
        }
        guard offset > start else {
            offset = negative ? start - 1 : start
            throw error("expected an integer, found \(describeCurrent())")
        }
        if offset < end {
            let next = base[offset]
            if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                offset = negative ? start - 1 : start
                throw error("expected an integer, found a fractional number")
            }
        }
        if negative {
            return overflow || value > UInt64(Int64.max) + 1 ? Int64.min : Int64(truncatingIfNeeded: 0 &- value)
        }
        return overflow || value > UInt64(Int64.max) ? Int64.max : Int64(value)
    }

    /// Reads `true` or `false` (llvm-cov writes booleans; 0 and 1 are accepted too).
    @inlinable @inline(__always)
    package mutating func readBool() throws(JSONError) -> Bool {
        skipWhitespace()
        guard offset < end else { throw error("expected a boolean, found end of input") }
        switch base[offset] {
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return false
        case UInt8(ascii: "0"), UInt8(ascii: "1"):
            return try readInt() != 0
        default:
            throw error("expected a boolean, found \(describeCurrent())")
        }
    }

    @usableFromInline mutating func readLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= end, memcmp(base + offset, literal.utf8Start, count) == 0 else {
            throw error("invalid literal, found \(describeCurrent())")
        }
        offset += count
    }

    /// Reads any JSON number as a Double.
    package mutating func readNumber() throws(JSONError) -> Double {
        skipWhitespace()
        let start = offset
        try skipNumber()
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: offset - start), as: UTF8.self)
        guard let value = Double(text) else {
            throw JSONError(offset: start, message: "number out of range")
        }
        return value
    }

    /// Reads `null` if it is next, reporting whether it was.
    package mutating func readNullIfPresent() throws(JSONError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try readLiteral("null")
        return true
    }

    private mutating func skipNumber() throws(JSONError) {
        let start = offset
        if offset < end, base[offset] == UInt8(ascii: "-") { offset += 1 }
        let digitsStart = offset
        while offset < end, base[offset].isDigit { offset += 1 }
        guard offset > digitsStart else {
            offset = start
            throw error("expected a value, found \(describeCurrent())")
        }
        if offset < end, base[offset] == UInt8(ascii: ".") {
            offset += 1
            let fractionStart = offset
            while offset < end, base[offset].isDigit { offset += 1 }
            guard offset > fractionStart else { throw error("expected a digit after '.'") }
        }
        if offset < end, base[offset] == UInt8(ascii: "e") || base[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < end, base[offset] == UInt8(ascii: "+") || base[offset] == UInt8(ascii: "-") { offset += 1 }
            let exponentStart = offset
            while offset < end, base[offset].isDigit { offset += 1 }
            guard offset > exponentStart else { throw error("expected a digit in the exponent") }
        }
    }

    /// Skips one complete value of any type, validating its syntax.
    package mutating func skipValue() throws(JSONError) {
        try skipValue(depth: 0)
    }

    /// The offset just past the array starting at `offset` when it holds only numbers, literals
    /// and nested arrays of them (an export's segments, branches), found by one tight loop over
    /// the bytes; nil for anything else, which the validating path then reads. Skipped data is
    /// checked for balance and characters only: whatever swiftcov later uses, it reads in full.
    private func endOfScalarArray() -> Int? {
        var index = offset
        var depth = 0
        let classes = JSONScanner.scalarArrayBytes
        while index < end {
            // Eight bytes at a time to the next bracket, quote or brace.
            if depth > 0 { index = SWAR.skip(from: index, to: end, in: base, until: SWAR.structuralBytes) }
            guard index < end else { break }
            let byte = base[index]
            index += 1
            switch classes[Int(byte)] {
            case .scalar:
                continue
            case .open:
                depth += 1
            case .close:
                depth -= 1
                if depth == 0 { return index }
            case .other:
                return nil
            }
        }
        return nil
    }

    private enum ScalarArrayByte: UInt8 { case scalar, open, close, other }

    /// What each byte is to `endOfScalarArray`: part of a number, literal, comma or whitespace; a bracket; else.
    nonisolated(unsafe) private static let scalarArrayBytes: UnsafePointer<ScalarArrayByte> = {
        let table = UnsafeMutablePointer<ScalarArrayByte>.allocate(capacity: 256)
        for byte in 0...255 { table[byte] = scalarArrayByte(UInt8(byte)) }
        return UnsafePointer(table)
    }()

    private static func scalarArrayByte(_ byte: UInt8) -> ScalarArrayByte {
        switch byte {
        case UInt8(ascii: "["): return .open
        case UInt8(ascii: "]"): return .close
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "+"), 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"),
            UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"),
            UInt8(ascii: "s"), UInt8(ascii: "n"):
            return .scalar
        default: return .other
        }
    }

    private mutating func skipValue(depth: Int) throws(JSONError) {
        skipWhitespace()
        guard offset < end else { throw error("expected a value, found end of input") }
        // Empty arrays: most of an export's `branches`, `expansions` and `mcdc_records`.
        if base[offset] == UInt8(ascii: "["), offset + 1 < end, base[offset + 1] == UInt8(ascii: "]") {
            offset += 2
            return
        }
        switch base[offset] {
        case UInt8(ascii: "{"):
            guard depth < JSONScanner.maximumDepth else {
                throw error("nesting deeper than \(JSONScanner.maximumDepth)")
            }
            offset += 1
            var started = false
            while try nextMember(&started) != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            if let end = endOfScalarArray() {
                offset = end
                return
            }
            guard depth < JSONScanner.maximumDepth else {
                throw error("nesting deeper than \(JSONScanner.maximumDepth)")
            }
            offset += 1
            var started = false
            while try nextElement(&started) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            _ = try readRawString()
        case UInt8(ascii: "t"):
            try readLiteral("true")
        case UInt8(ascii: "f"):
            try readLiteral("false")
        case UInt8(ascii: "n"):
            try readLiteral("null")
        default:
            try skipNumber()
        }
    }
}

/// Tests on eight bytes at once ("SIMD within a register"), for the scanner's inner loops. A
/// test gives a word with the high bit of each matching byte set; bytes above the first match
/// may be flagged wrongly (a borrow carries into them), so only the lowest flag is meaningful,
/// and `skip` reads only it.
@usableFromInline enum SWAR {
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable static var highs: UInt64 { 0x8080_8080_8080_8080 }

    @inlinable @inline(__always)
    static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// The bytes of `word` equal to `byte`.
    @inlinable @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// The bytes of `word` below `limit` (limit ≤ 128).
    @inlinable @inline(__always)
    static func less(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// The offset of the first byte from `index` that `test` flags, eight bytes at a time; or
    /// where the last whole word before `end` ends, for the caller to read the rest byte by byte.
    @inlinable @inline(__always)
    static func skip(
        from index: Int, to end: Int, in base: UnsafePointer<UInt8>, until test: (UInt64) -> UInt64
    ) -> Int {
        var index = index
        while index + 8 <= end {
            let flags = test(load(base + index))
            // The first flagged byte: the lowest set bit's byte.
            if flags != 0 { return index + flags.trailingZeroBitCount &>> 3 }
            index += 8
        }
        return index
    }

    @inlinable @inline(__always)
    static func quoteBackslashOrControl(_ word: UInt64) -> UInt64 {
        equal(word, UInt8(ascii: "\"")) | equal(word, UInt8(ascii: "\\")) | less(word, 0x20)
    }

    @inlinable @inline(__always)
    static func structuralBytes(_ word: UInt64) -> UInt64 {
        equal(word, UInt8(ascii: "[")) | equal(word, UInt8(ascii: "]")) | equal(word, UInt8(ascii: "\""))
            | equal(word, UInt8(ascii: "{"))
    }
}

extension UInt8 {
    @inlinable @inline(__always)
    var isDigit: Bool { self &- UInt8(ascii: "0") < 10 }

    /// Whether the byte after a run of digits would make them part of a longer or fractional number.
    @inlinable @inline(__always)
    var continuesNumber: Bool {
        isDigit || self == UInt8(ascii: ".") || self == UInt8(ascii: "e") || self == UInt8(ascii: "E")
    }

    @inlinable var isHexDigit: Bool {
        isDigit || (self | 0x20) &- UInt8(ascii: "a") < 6
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
