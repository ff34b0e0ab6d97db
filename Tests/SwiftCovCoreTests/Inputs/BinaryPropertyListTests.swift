import Foundation
import Testing

@testable import SwiftCovCore

@Suite("Binary property lists, read as Python's plistlib reads them")
struct BinaryPropertyListTests {
    static let fixtures = ["scalars", "nested", "large", "random"]

    /// The list's top object in the tagged form `make-plists.py` writes plistlib's reading in.
    static func tagged(_ list: BinaryPropertyList, _ index: Int, depth: Int = 0) -> Any {
        switch list.objects[index] {
        case .null: return ["null": true]
        case .bool(let value): return ["bool": value]
        case .integer(let value): return ["int": String(value)]
        case .real(let value): return ["real": value]
        case .date(let value): return ["date": value]
        case .data(let bytes): return ["data": bytes.map { String(format: "%02x", $0) }.joined()]
        case .string(let text): return ["string": text]
        case .uid(let value): return ["uid": Int(value)]
        case .array(let members): return ["array": members.map { tagged(list, $0, depth: depth + 1) }]
        case .dictionary(let keys, let values):
            return [
                "dict": zip(keys, values).map { key, value -> [Any] in
                    guard case .string(let name) = list.objects[key] else { return ["?", tagged(list, value)] }
                    return [name, tagged(list, value, depth: depth + 1)]
                }
            ]
        }
    }

    @Test("every value equals plistlib's", arguments: fixtures)
    func equalsPlistlib(_ name: String) throws {
        let fixture = Fixture(name: "plist")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.path(name + ".bplist"))))
        let list = try bytes.withUnsafeBytes { try BinaryPropertyList($0) }
        let ours = try JSONSerialization.data(withJSONObject: Self.tagged(list, list.top), options: [.sortedKeys])
        let expected = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: fixture.path(name + ".json"))))
        let theirs = try JSONSerialization.data(withJSONObject: expected, options: [.sortedKeys])
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirs, as: UTF8.self))
    }

    @Test("a list cut anywhere or with a byte changed is read or refused, never a trap")
    func hostileBytes() throws {
        let fixture = Fixture(name: "plist")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.path("scalars.bplist"))))
        var refused = 0
        for length in 0..<bytes.count {
            do {
                _ = try Array(bytes.prefix(length)).withUnsafeBytes { try BinaryPropertyList($0) }
            } catch let error as BinaryPropertyList.DecodeError {
                #expect(error.offset >= 0 && error.offset <= length)
                refused += 1
            }
        }
        // Without its trailer no prefix is a list.
        #expect(refused == bytes.count)
        var generator = SplitMix64(seed: 8)
        for _ in 0..<3000 {
            var changed = bytes
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                changed[Int(generator.next() % UInt64(changed.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            if let list = try? changed.withUnsafeBytes({ try BinaryPropertyList($0) }) {
                // Whatever was read refers only to objects of the list.
                for object in list.objects {
                    switch object {
                    case .array(let members): #expect(members.allSatisfy { $0 < list.objects.count })
                    case .dictionary(let keys, let values):
                        #expect((keys + values).allSatisfy { $0 < list.objects.count })
                    default: break
                    }
                }
            }
        }
    }

    @Test("counts and offsets beyond the bytes are refused with where they are")
    func impossibleSizes() throws {
        // An array claiming 2^62 elements; an object table claiming 2^40 objects.
        var array = Array("bplist00".utf8) + [0xAF, 0x13] + [0x40, 0, 0, 0, 0, 0, 0, 0]
        let tableOffset = array.count
        array += [8]
        array += [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(1) + bigEndian(0) + bigEndian(UInt64(tableOffset))
        #expect(throws: BinaryPropertyList.DecodeError.self) {
            try array.withUnsafeBytes { try BinaryPropertyList($0) }
        }
        var many = Array("bplist00".utf8) + [0x08]
        let manyTable = many.count
        many += [8]
        many += [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(1 << 40) + bigEndian(0) + bigEndian(UInt64(manyTable))
        let error = #expect(throws: BinaryPropertyList.DecodeError.self) {
            try many.withUnsafeBytes { try BinaryPropertyList($0) }
        }
        #expect(error?.message.contains("do not fit") == true)
    }

    @Test("an array holding itself is read (members are indices); walking it is the reader's choice")
    func cycle() throws {
        // Object 0: an array whose one member is object 0.
        var bytes = Array("bplist00".utf8) + [0xA1, 0x00]
        let table = bytes.count
        bytes += [8]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(1) + bigEndian(0) + bigEndian(UInt64(table))
        let list = try bytes.withUnsafeBytes { try BinaryPropertyList($0) }
        #expect(list.objects == [.array([0])])
    }

    @Test("an archived NSData whose bytes refer back to itself is refused, not followed without end")
    func selfReferringData() throws {
        // Found by the keyed-archive fuzzer: it grew a path of ".NS.data" past 2 GB.
        let bytes = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: Fixture(name: "fuzz").path("keyed-archive-self-referring-data"))))
        #expect(throws: XcodeInputError.self) {
            try bytes.withUnsafeBytes { try XcodeCoverage.readReportArchive($0, path: "report") }
        }
    }

    private func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
