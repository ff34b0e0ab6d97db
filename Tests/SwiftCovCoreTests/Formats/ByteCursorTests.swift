import Testing

@testable import SwiftCovCore

@Suite("ByteCursor: the one reader of binary inputs")
struct ByteCursorTests {
    struct Failure: Error, Equatable {
        var offset: Int
        var message: String
    }

    /// Reads `bytes` with `read`, giving its result or its error.
    func read<T>(_ bytes: [UInt8], _ read: (inout ByteCursor<Failure>) throws -> T) -> Result<T, Failure> {
        bytes.withUnsafeBytes { raw in
            var cursor = ByteCursor(raw, endOfInput: "ends early") { Failure(offset: $0, message: $1) }
            do { return .success(try read(&cursor)) } catch { return .failure(error as! Failure) }
        }
    }

    @Test("LEB128: 7 bits a byte, low bits first, up to 64 bits and not one more")
    func leb128() {
        #expect(read([0x00]) { try $0.uleb128() } == .success(0))
        #expect(read([0xE5, 0x8E, 0x26]) { try $0.uleb128() } == .success(624_485))  // the DWARF standard's example
        let largest: [UInt8] = Array(repeating: 0xFF, count: 9) + [0x01]
        #expect(read(largest) { try $0.uleb128() } == .success(UInt64.max))
        // A tenth byte above 1 sets bits past the 64th: an error at the number's first byte.
        #expect(
            read([0x7F] + Array(repeating: 0xFF, count: 9) + [0x02]) { cursor in
                _ = try cursor.byte()
                return try cursor.uleb128()
            } == .failure(Failure(offset: 1, message: "a number larger than 64 bits")))
        #expect(
            read(Array(repeating: 0x80, count: 10) + [0x00]) { try $0.uleb128() }
                == .failure(Failure(offset: 0, message: "a number larger than 64 bits")))
        #expect(read([0x80, 0x80]) { try $0.uleb128() } == .failure(Failure(offset: 2, message: "ends early")))
    }

    @Test("a count is never more than the bytes left; reserving ahead is bounded")
    func counts() {
        #expect(read([0x02, 0xAA, 0xBB]) { try $0.count() } == .success(2))
        #expect(
            read([0x03, 0xAA, 0xBB]) { try $0.count() }
                == .failure(Failure(offset: 0, message: "a count of 3 with 2 bytes left")))
        #expect(ByteCursor<Failure>.reservable(10) == 10)
        #expect(ByteCursor<Failure>.reservable(Int.max) == 4096)
    }

    @Test("strings, flags, slices and little-endian integers")
    func values() {
        #expect(read([0x02, 0x68, 0x69]) { try $0.string(validating: true) } == .success("hi"))
        #expect(
            read([0x01, 0xFF]) { try $0.string(validating: true) }
                == .failure(Failure(offset: 1, message: "text that is not UTF-8")))
        #expect(read([0x01, 0xFF]) { try $0.string(validating: false) } == .success("\u{FFFD}"))
        #expect(read([0x01]) { try $0.flag() } == .success(true))
        #expect(
            read([0x02]) { try $0.flag() } == .failure(Failure(offset: 0, message: "a flag that is neither 0 nor 1")))
        #expect(read([0x01, 0x02, 0x03, 0x04]) { try $0.integer(UInt32.self) } == .success(0x0403_0201))
        #expect(
            read([0x01, 0x02, 0x03]) { try $0.integer(UInt32.self) }
                == .failure(Failure(offset: 0, message: "ends early")))
        #expect(read([0x01, 0x02, 0x03]) { try Array($0.slice(2)) } == .success([0x01, 0x02]))
        #expect(read([0x01]) { try $0.slice(2).count } == .failure(Failure(offset: 0, message: "ends early")))
        #expect(read([0x01]) { try $0.slice(-1).count } == .failure(Failure(offset: 0, message: "ends early")))
    }
}
