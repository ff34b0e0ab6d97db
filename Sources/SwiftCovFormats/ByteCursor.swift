/// Reads a byte buffer front to back, checking the bytes left before every read: single bytes,
/// little-endian integers, unsigned LEB128 numbers, counts that cannot exceed what is left, and
/// strings. The one reader of swiftcov's binary inputs (coverage mappings, per-test stores).
///
/// Errors are the reader's own type, made by `failure(offset, message)`, so each format keeps its
/// error type and the byte offset where the bad value starts.
/// Public, its members package: Swift serializes the `@inlinable` members of public types only,
/// and the stages above need them inlined.
public struct ByteCursor<Failure: Error> {
    @usableFromInline package let bytes: UnsafeRawBufferPointer
    @usableFromInline package var offset: Int
    /// What running out of bytes is called in this format ("the store ends early").
    @usableFromInline let endOfInput: String
    @usableFromInline let failure: (_ offset: Int, _ message: String) -> Failure

    package init(
        _ bytes: UnsafeRawBufferPointer, offset: Int = 0, endOfInput: String,
        failure: @escaping (_ offset: Int, _ message: String) -> Failure
    ) {
        self.bytes = bytes
        self.offset = offset
        self.endOfInput = endOfInput
        self.failure = failure
    }

    /// The bytes not read yet.
    @usableFromInline package var remaining: Int { bytes.count - offset }

    /// An error at `offset` (the current one by default), in this format's type.
    package func error(_ message: String, at offset: Int? = nil) -> Failure {
        failure(offset ?? self.offset, message)
    }

    package mutating func byte() throws(Failure) -> UInt8 {
        guard offset < bytes.count else { throw failure(offset, endOfInput) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A byte that must be 0 (false) or 1 (true).
    package mutating func flag() throws(Failure) -> Bool {
        let start = offset
        let value = try byte()
        guard value <= 1 else { throw failure(start, "a flag that is neither 0 nor 1") }
        return value == 1
    }

    /// A fixed-width little-endian integer.
    @inlinable
    package mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(Failure) -> T {
        guard remaining >= MemoryLayout<T>.size else { throw failure(offset, endOfInput) }
        defer { offset += MemoryLayout<T>.size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// An unsigned LEB128 number: 7 bits a byte, low bits first. More than 64 bits (a tenth byte
    /// above 1, or an eleventh byte) is an error at the number's first byte, never a silent wrap.
    package mutating func uleb128() throws(Failure) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 63 || (shift == 63 && byte <= 1) else {
                throw failure(start, "a number larger than 64 bits")
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// A count of items that each take at least one byte (or a length in bytes): never more than
    /// the bytes left, so no count can ask for more memory than the input could fill.
    package mutating func count() throws(Failure) -> Int {
        let start = offset
        let value = try uleb128()
        guard value <= UInt64(remaining) else {
            throw failure(start, "a count of \(value) with \(remaining) bytes left")
        }
        return Int(value)
    }

    /// How much room to reserve ahead for `count` items: a count is checked against the bytes left,
    /// but those may be a sparse file's holes (a 40-byte file grown to 10 GB by `truncate`); past
    /// this many, an array grows only as its items are actually read.
    package static func reservable(_ count: Int) -> Int { min(count, 4096) }

    /// The next `count` bytes.
    package mutating func slice(_ count: Int) throws(Failure) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= remaining else { throw failure(offset, endOfInput) }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    /// A string stored as its UTF-8 length (LEB128), then its bytes. With `validating`, bytes that
    /// are not UTF-8 are an error; without, they become U+FFFD.
    package mutating func string(validating: Bool) throws(Failure) -> String {
        let length = try count()
        let start = offset
        let text = try slice(length)
        guard validating else { return String(decoding: text, as: UTF8.self) }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw failure(start, "text that is not UTF-8")
        }
        return string
    }
}
