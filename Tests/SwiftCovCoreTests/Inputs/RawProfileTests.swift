import Foundation
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// The raw-profile reader against llvm-cov on real data: Tests/Fixtures/TinyPackage's test
/// binary's coverage mapping and each test's own `.profraw`, recorded by
/// `scripts/make-per-test-fixture` with what llvm-cov reports for each profile.
@Suite("raw profiles read against the coverage mapping")
struct RawProfileTests {
    let fixture = Fixture(name: "per-test")
    /// Where the fixture's package was built: the mapping's paths are under it.
    let root = "/tmp/swiftcov-per-test-fixture/TinyPackage"

    /// llvm-cov's lines with a non-zero count (lcov `DA:`) for test `number`, by path relative to
    /// the root, the package's own files only; and the test's ID.
    func llvmCovLines(_ number: Int) throws -> (id: String, lines: [String: Set<UInt32>]) {
        var id = ""
        var lines: [String: Set<UInt32>] = [:]
        for line in try fixture.text("test-\(number).lines").split(separator: "\n") {
            if line.hasPrefix("# ") {
                id = String(line.dropFirst(2))
                continue
            }
            let colon = try #require(line.lastIndex(of: ":"))
            let path = String(line[..<colon])
            guard path.hasPrefix(root + "/"), !path.hasPrefix(root + "/.build/") else { continue }
            lines[String(path.dropFirst(root.count + 1)), default: []].insert(
                try #require(UInt32(line[colon...].dropFirst())))
        }
        return (id, lines)
    }

    @Test("each test's lines are exactly llvm-cov's for its profile, test code included")
    func matchesLLVMCov() throws {
        let mapping = try CoverageMapping.read(binary: fixture.path("mapping.elf"))
        #expect(mapping.files.contains(root + "/Sources/Tiny/Tiny.swift"))
        #expect(mapping.files.contains(root + "/Tests/TinyTests/TinyTests.swift"))
        let attribution = ProfileAttribution(mapping: mapping, root: root)
        var ids: [String] = []
        for number in 1...5 {
            let (id, expected) = try llvmCovLines(number)
            ids.append(id)
            let profile = try RawProfile.read(path: fixture.path("test-\(number).profraw"))
            let executed = try attribution.executedLines(of: profile).mapValues(Set.init)
            #expect(executed == expected, "\(id)")
            #expect(expected["Sources/Tiny/Tiny.swift"]?.isEmpty == false, "\(id) ran describe()")
            #expect(expected["Tests/TinyTests/TinyTests.swift"]?.isEmpty == false, "\(id) ran its own body")
        }
        #expect(ids.contains("TinyTests.SignTests/minusOne()") && ids.contains("TinyTests.DescribeTests/testZero"))
        // Different tests, different lines: the attribution is not the same answer five times.
        let answers = try (1...5).map { try llvmCovLines($0).lines }
        #expect(Set(answers.map { $0.description }).count == 5)
    }

    @Test("a profile of no instrumented code executed nothing; one of another build is an error")
    func emptyAndForeign() throws {
        let attribution = ProfileAttribution(
            mapping: try CoverageMapping.read(binary: fixture.path("mapping.elf")), root: root)
        #expect(try attribution.executedLines(of: RawProfile(functions: [])).isEmpty)
        // The same function names under other structural hashes: llvm-cov leaves those out.
        var profile = try RawProfile.read(path: fixture.path("test-1.profraw"))
        for index in profile.functions.indices { profile.functions[index].hash &+= 1 }
        #expect(try attribution.executedLines(of: profile).isEmpty)
    }

    @Test("a region spanning 1.9 billion lines is an error, not a list of every line")
    func implausibleRegion() throws {
        // One function, one region from line 1 to line 1.9e9, counted by counter 0 (which ran).
        let region = CoverageMapping.Region(
            counter: 1, fileID: 0, kind: 0, start: SourcePosition(line: 1, column: 1),
            end: SourcePosition(line: 1_900_000_000, column: 2))
        let function = CoverageMapping.Function(
            nameRef: 7, hash: 9, files: [0], expressions: [], regions: [region], isLoneZeroRegion: false)
        let mapping = CoverageMapping(files: ["/r/Sources/M/a.swift"], functions: [function], functionsByFile: [[0]])
        let attribution = ProfileAttribution(mapping: mapping, root: "/r")
        let profile = RawProfile(functions: [RawProfile.Function(nameRef: 7, hash: 9, counters: [1])])
        #expect(throws: CoverageInputError.implausibleLines(filename: "/r/Sources/M/a.swift", count: 1_900_000_000)) {
            try attribution.executedLines(of: profile)
        }
        // The same region over 3 lines: those 3 lines ran.
        var small = mapping
        small.functions[0].regions[0].end.line = 3
        #expect(
            try ProfileAttribution(mapping: small, root: "/r").executedLines(of: profile) == [
                "Sources/M/a.swift": [1, 2, 3]
            ])
    }

    @Test("cut, foreign or unknown raw profiles are errors with an offset, never a crash")
    func malformedProfiles() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fixture.path("test-1.profraw"))))
        func decode(_ bytes: [UInt8]) -> RawProfile.ReadError? {
            bytes.withUnsafeBytes { raw -> RawProfile.ReadError? in
                do {
                    _ = try RawProfile.decode(raw)
                    return nil
                } catch { return error as? RawProfile.ReadError }
            }
        }
        #expect(decode(Array(bytes.prefix(200)))?.message.contains("cut short") == true)
        #expect(decode(Array(bytes.prefix(40)))?.message.contains("header ends early") == true)
        var foreign = bytes
        foreign[0] ^= 0xFF
        #expect(decode(foreign)?.message.contains("not a 64-bit little-endian raw profile") == true)
        var newer = bytes
        newer[8] = 99
        #expect(decode(newer)?.message.contains("raw profile version 99") == true)
        #expect(decode([])?.message == "an empty raw profile")
        // Every prefix: an error or a profile, never a trap.
        for length in stride(from: 0, to: bytes.count, by: 7) { _ = decode(Array(bytes.prefix(length))) }
        #expect(decode(bytes) == nil)
    }

    @Test("cut or damaged mappings are errors, never a crash")
    func malformedMappings() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fixture.path("mapping.elf"))))
        let sections = try bytes.withUnsafeBytes {
            try ObjectSections.find(["__llvm_covmap", "__llvm_covfun"], in: $0)
        }
        let covmap = Array(bytes[try #require(sections[0])])
        let covfun = Array(bytes[try #require(sections[1])])
        func decode(_ map: [UInt8], _ fun: [UInt8]) -> Bool {
            map.withUnsafeBytes { mapBytes in
                fun.withUnsafeBytes { funBytes in
                    (try? CoverageMapping.decode(covmap: mapBytes, covfun: funBytes)) != nil
                }
            }
        }
        #expect(decode(covmap, covfun))
        for length in stride(from: 0, to: covfun.count, by: 5) { _ = decode(covmap, Array(covfun.prefix(length))) }
        for length in stride(from: 0, to: covmap.count, by: 3) { _ = decode(Array(covmap.prefix(length)), covfun) }
        // A flipped byte anywhere: an error or a mapping.
        for index in stride(from: 0, to: covfun.count, by: 3) {
            var damaged = covfun
            damaged[index] ^= 0x5A
            _ = decode(covmap, damaged)
        }
        var newer = covmap
        newer[12] = 40
        #expect(!decode(newer, covfun))
        #expect(throws: CoverageMapping.ReadError.self) {
            try CoverageMapping.read(binary: fixture.path("test-1.lines"))
        }
    }

    @Test("MD5 as LLVM names file tables with it: RFC 1321's vectors")
    func md5() {
        func hex(_ text: String) -> String {
            Array(text.utf8).withUnsafeBytes { MD5.digest($0) }.map { String(format: "%02x", $0) }.joined()
        }
        #expect(hex("") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(hex("abc") == "900150983cd24fb0d6963f7d28e17f72")
        #expect(
            hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890")
                == "57edf4a22be3c955ac49da2e2107b67a")
        // LLVM's MD5Hash: the digest's first 8 bytes, little-endian.
        #expect(Array("abc".utf8).withUnsafeBytes { MD5.llvmHash($0) } == 0xb04f_d23c_9850_0190)
    }

    @Test("zlib streams made by zlib itself: stored, fixed and dynamic Huffman blocks")
    func inflate() throws {
        func inflate(_ hex: String, size: Int) throws -> [UInt8] {
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(UInt8(hex[index..<next], radix: 16)!)
                index = next
            }
            return try bytes.withUnsafeBytes { raw in try Inflate.zlib(raw, size: size) }
        }
        // zlib.compress(b"hello hello hello hello", 9): fixed Huffman with a back reference.
        #expect(try inflate("78dacb48cdc9c957c8402701680308b1", size: 23) == Array("hello hello hello hello".utf8))
        // zlib.compress(b"abc", 0): a stored block.
        #expect(try inflate("7801010300fcff616263024d0127", size: 3) == Array("abc".utf8))
        // 30 lines of file paths at level 9: a dynamic Huffman block.
        let paths = (0..<30).map { "/work/Sources/Module\($0 % 7)/File\($0 * $0 % 13).swift\n" }.joined()
        let dynamic =
            "78daadd13d0a80300c86e1ddc398fe44c10bb8397904ad50140ad6e2f5958a9be4ebe0d2e985e649e80cfb4a6348fbe4220d614e9b53d4fbfbade3e997a3a28f42e7420b85c9050b85cd4527149c0b2b14cd33871192f649248dc289c61f19386da998b118820bbc90cb50db41ad855a71a90d3e4df9810d14db1fc48cc5105ce0855c86dad77201d9bd6beb"
        #expect(try inflate(dynamic, size: 1028) == Array(paths.utf8))
        #expect(throws: Inflate.DecodeError.self) { try inflate("78dacb48cdc9c957c8402701680308b1", size: 22) }
        #expect(throws: Inflate.DecodeError.self) { try inflate("78dacb48cdc9", size: 23) }
        #expect(throws: Inflate.DecodeError.self) { try inflate("7800", size: 1) }
    }
}
