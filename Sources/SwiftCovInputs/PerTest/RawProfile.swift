import SwiftCovPlatform

/// The counters of a raw profile (`.profraw`, what an instrumented process writes at exit),
/// formats 9 and 10 (LLVM 17 and later), 64-bit little-endian: for each function its name's
/// MD5, its structural hash and its counters — what `llvm-profdata merge` would index, read in
/// place. Functions whose counters are all zero are left out (as `merge -sparse` leaves them).
package struct RawProfile: Sendable {
    /// A function that ran: the key `CoverageMapping.Function` is matched by, and its counters.
    package struct Function: Sendable {
        package var nameRef: UInt64
        package var hash: UInt64
        package var counters: [UInt64]

        package init(nameRef: UInt64, hash: UInt64, counters: [UInt64]) {
            self.nameRef = nameRef
            self.hash = hash
            self.counters = counters
        }
    }

    package var functions: [Function]

    package init(functions: [Function]) {
        self.functions = functions
    }

    /// What is wrong with a raw profile (or why this reader does not read it), and where.
    package struct ReadError: Error, Equatable, CustomStringConvertible {
        package var offset: Int
        package var message: String
        package var description: String { "\(message) (byte offset \(offset))" }
    }

    static let magic: UInt64 = 0xff6c_7072_6f66_7281

    /// Reads the raw profile at `path`.
    package static func read(path: String) throws(ReadError) -> RawProfile {
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch { throw ReadError(offset: 0, message: error.message) }
        let result = file.withUnsafeBytes { bytes in Result { () throws(ReadError) in try decode(bytes) } }
        return try result.get()
    }

    /// Decodes a raw profile: one profile after another (a process with several instrumented
    /// images writes one each), their functions together.
    package static func decode(_ bytes: UnsafeRawBufferPointer) throws(ReadError) -> RawProfile {
        var profile = RawProfile(functions: [])
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = try decodeOne(bytes, at: offset, into: &profile)
            offset += size
            offset = (offset + 7) & ~7
        }
        guard offset > 0 else { throw ReadError(offset: 0, message: "an empty raw profile") }
        return profile
    }

    /// Decodes the profile at `start`; returns its size.
    private static func decodeOne(_ bytes: UnsafeRawBufferPointer, at start: Int, into profile: inout RawProfile)
        throws(ReadError) -> Int
    {
        func field(_ index: Int) throws(ReadError) -> UInt64 {
            let offset = start + index * 8
            guard offset + 8 <= bytes.count else { throw ReadError(offset: offset, message: "the header ends early") }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        guard try field(0) == magic else {
            throw ReadError(offset: start, message: "not a 64-bit little-endian raw profile (.profraw)")
        }
        let version = try field(1)
        // Only plain front-end counters: no single-byte coverage, entry-only, debug-info
        // correlation or temporal profiles (bits 56 and up name the variant).
        guard version & 0xFFFF_FFFF == 9 || version & 0xFFFF_FFFF == 10, version >> 56 == 0 else {
            throw ReadError(
                offset: start + 8,
                message:
                    "raw profile version \(version & 0xFFFF_FFFF) (variant \(version >> 56)); this reader reads 9 and 10"
            )
        }
        let headerFields = version & 0xFFFF_FFFF == 10 ? 16 : 14
        let binaryIDsSize = try field(2)
        let dataCount = try field(3)
        let paddingBeforeCounters = try field(4)
        let counterCount = try field(5)
        let paddingAfterCounters = try field(6)
        let bitmapSize = try field(7)
        let paddingAfterBitmap = try field(8)
        let namesSize = try field(9)
        let countersDelta = try field(10)
        let recordSize: UInt64 = 64
        let limit = UInt64(1) << 40
        guard binaryIDsSize < limit, dataCount < limit, counterCount < limit, paddingBeforeCounters < 8,
            paddingAfterCounters < 8, bitmapSize < limit, paddingAfterBitmap < 8, namesSize < limit
        else { throw ReadError(offset: start, message: "implausible section sizes in the header") }
        let dataStart = UInt64(start) + UInt64(headerFields) * 8 + binaryIDsSize
        let countersStart = dataStart + dataCount * recordSize + paddingBeforeCounters
        let end = countersStart + counterCount * 8 + paddingAfterCounters + bitmapSize + paddingAfterBitmap + namesSize
        guard end <= UInt64(bytes.count) else {
            throw ReadError(offset: start, message: "a raw profile of \(end - UInt64(start)) bytes cut short")
        }
        for index in 0..<Int(dataCount) {
            let record = Int(dataStart) + index * Int(recordSize)
            let nameRef = bytes.loadUnaligned(fromByteOffset: record, as: UInt64.self)
            let hash = bytes.loadUnaligned(fromByteOffset: record + 8, as: UInt64.self)
            let counterPointer = bytes.loadUnaligned(fromByteOffset: record + 16, as: UInt64.self)
            let count = Int(bytes.loadUnaligned(fromByteOffset: record + 48, as: UInt32.self))
            // The counters' address relative to this record's (llvm's CountersDelta, less one
            // record size per record already read).
            let relative = counterPointer &- (countersDelta &- UInt64(index) &* recordSize)
            guard relative % 8 == 0, relative / 8 <= counterCount, UInt64(count) <= counterCount - relative / 8 else {
                throw ReadError(offset: record + 16, message: "a function's counters outside the counter section")
            }
            let first = Int(countersStart) + Int(relative)
            var counters = [UInt64](repeating: 0, count: count)
            var any = false
            for counter in 0..<count {
                let value = bytes.loadUnaligned(fromByteOffset: first + counter * 8, as: UInt64.self)
                counters[counter] = value
                any = any || value != 0
            }
            if any { profile.functions.append(Function(nameRef: nameRef, hash: hash, counters: counters)) }
        }
        // Value-profiling data may follow the names; a following profile starts with the magic.
        var next = Int(end)
        while next + 8 <= bytes.count {
            let aligned = (next + 7) & ~7
            guard aligned + 8 <= bytes.count else { break }
            if bytes.loadUnaligned(fromByteOffset: aligned, as: UInt64.self) == magic { return aligned - start }
            next = aligned + 8
        }
        return bytes.count - start
    }
}
