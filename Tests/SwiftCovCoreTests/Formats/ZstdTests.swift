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

/// The zstd decoder against the reference tool: frames `zstd` 1.5 wrote (Fixtures/zstd, made by
/// `make-frames.sh`, with the size and MD5 of what `zstd -dc` gives), the objects of real Xcode
/// result bundles, and broken frames, which must end in a clean error.
@Suite("Zstd: decoding what zstd writes, and nothing it does not")
struct ZstdTests {
    static let directory = Fixture(name: "zstd").directory

    /// A manifest's rows: file, size and MD5 of `zstd -dc`'s output.
    static func manifest(_ name: String) -> [[String]] {
        let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    static let frames = manifest("frames.manifest")
    static let xcodeObjects = manifest("xcode.manifest")

    static func bytes(_ path: String) throws -> [UInt8] {
        try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func frame(_ name: String) throws -> [UInt8] { try bytes(directory + "/frames/" + name) }

    static func decode(_ bytes: [UInt8], maximumSize: Int = 1 << 30) -> Result<[UInt8], Zstd.DecodeError> {
        bytes.withUnsafeBytes { raw in
            Result { () throws(Zstd.DecodeError) in try Zstd.decompress(raw, maximumSize: maximumSize) }
        }
    }

    static func md5(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { MD5.digest($0) }.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test("the manifests list every frame and every object of the Xcode fixtures")
    func manifests() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory + "/frames")
        #expect(Set(Self.frames.map { $0[0] }) == Set(files))
        #expect(Self.frames.count >= 42)
        #expect(Self.xcodeObjects.count >= 100)
    }

    @Test("frames of zstd 1.5 at levels 1 to 22, with and without content size and checksum", arguments: frames)
    func referenceFrame(_ row: [String]) throws {
        let output = try Self.decode(Self.frame(row[0])).get()
        #expect(output.count == Int(row[1]))
        #expect(Self.md5(output) == row[2])
    }

    @Test("the objects of real Xcode result bundles", arguments: xcodeObjects)
    func xcodeObject(_ row: [String]) throws {
        let bytes = try Self.bytes(Self.directory + "/../xcode/" + row[0])
        let output = try Self.decode(bytes).get()
        #expect(output.count == Int(row[1]))
        #expect(Self.md5(output) == row[2])
    }

    @Test("XXH64 equals python-xxhash's (xxHash 0.8)")
    func xxh64() {
        func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 { bytes.withUnsafeBytes { XXH64.hash($0, seed: seed) } }
        #expect(hash([]) == 0xEF46_DB37_51D8_E999)
        #expect(hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(hash(Array(0..<31)) == 0xC346_D2B5_9B4D_8EE1)
        #expect(hash(Array(0..<32)) == 0xCBF5_9C51_16FF_32B4)
        #expect(hash(Array(0..<100)) == 0x6AC1_E580_3216_6597)
        #expect(hash(Array(0..<100), seed: 0x9E37_79B9_7F4A_7C15) == 0x3B97_D91E_BA03_E785)
    }

    // The frames broken at every byte are the small ones: a debug build decodes at a few MB/s.
    @Test(
        "a frame cut at any byte is an error inside the input",
        arguments: [
            "short-19.zst", "short-piped-no-check.zst", "short-random-3.zst", "zeros-1.zst", "one-byte-3.zst",
        ])
    func truncated(_ name: String) throws {
        let bytes = try Self.frame(name)
        for length in 1..<bytes.count {
            let result = Self.decode(Array(bytes[..<length]))
            guard case .failure(let error) = result else {
                Issue.record("\(name) cut at \(length) decoded")
                continue
            }
            #expect((0...length).contains(error.offset), "\(name) cut at \(length): \(error)")
        }
    }

    @Test(
        "a flipped bit is an error inside the input, or (without a checksum) another output",
        arguments: [
            "short-19.zst", "short-piped-no-check.zst", "short-random-3.zst", "short-concatenated.zst",
        ])
    func flipped(_ name: String) throws {
        let bytes = try Self.frame(name)
        let original = try Self.decode(bytes).get()
        let checked = !name.contains("no-check")
        for index in bytes.indices {
            var broken = bytes
            broken[index] ^= 1 << UInt8(index % 8)
            switch Self.decode(broken, maximumSize: 1 << 20) {
            case .failure(let error):
                #expect((0...bytes.count).contains(error.offset), "\(name) flipped at \(index): \(error)")
            case .success(let output):
                // A checked frame decodes only where the bit does not count (the skippable frame's
                // content, the header's unused bit).
                if checked { #expect(output == original, "\(name) flipped at \(index) decoded to other bytes") }
            }
        }
    }

    @Test("more output than maximumSize is an error, not an allocation")
    func maximumSize() throws {
        for name in ["text-3.zst", "text-no-content-size.zst", "large-piped-3.zst", "zeros-1.zst"] {
            let bytes = try Self.frame(name)
            let size = try Self.decode(bytes).get().count
            #expect(try Self.decode(bytes, maximumSize: size).get().count == size)
            guard case .failure(let error) = Self.decode(bytes, maximumSize: size - 1) else {
                Issue.record("\(name) decoded into \(size - 1) bytes")
                continue
            }
            #expect(error.message.contains("more than"), "\(name): \(error)")
        }
        // A 100,000-byte RLE block in a frame without a content size: refused before it is written.
        let rle: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x70] + [0x03, 0x35, 0x0C, 0x2A]
        #expect(
            Self.decode(rle, maximumSize: 100) == .failure(.init(offset: 6, message: "more than the 100 bytes allowed"))
        )
    }

    /// Frames made by hand (invented, each to reach one check).
    @Test("headers: magic numbers, reserved bits, dictionaries, sizes at their limits")
    func headers() {
        let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
        func error(_ bytes: [UInt8], maximumSize: Int = 1 << 20) -> Zstd.DecodeError? {
            guard case .failure(let error) = Self.decode(bytes, maximumSize: maximumSize) else { return nil }
            return error
        }
        #expect(Self.decode([]) == .success([]))
        #expect(
            error([0x28, 0xB5, 0x2F, 0xFE]) == .init(offset: 0, message: "not a Zstandard frame (bad magic number)"))
        #expect(error([0x28, 0xB5]) == .init(offset: 0, message: "a frame shorter than its magic number"))
        #expect(error(magic + [0x08, 0x00]) == .init(offset: 4, message: "a frame header with its reserved bit set"))
        #expect(
            error(magic + [0x21, 0x07, 0x01, 0x01, 0x00, 0x00])
                == .init(offset: 5, message: "a frame that needs dictionary 7 (dictionaries are not supported)"))
        // A dictionary ID of 0 is none.
        #expect(Self.decode(magic + [0x21, 0x00, 0x01, 0x09, 0x00, 0x00, 0x41]) == .success([0x41]))
        // The largest window (2^41 + 7 × 2^38) costs nothing until output is written.
        #expect(Self.decode(magic + [0x00, 0xFF, 0x09, 0x00, 0x00, 0x41]) == .success([0x41]))
        // A content size of 2^64 − 1.
        #expect(
            error(magic + [0xC0, 0x58] + Array(repeating: 0xFF, count: 8))
                == .init(
                    offset: 6, message: "a frame of 18446744073709551615 bytes, more than the 1048576 bytes allowed"))
        // A raw block of 128 KiB + 1 bytes.
        let oversized = UInt32(128 * 1024 + 1) << 3 | 1
        #expect(
            error(magic + [0x00, 0x58, UInt8(oversized & 0xFF), UInt8(oversized >> 8 & 0xFF), UInt8(oversized >> 16)])
                == .init(offset: 6, message: "a block of 131073 bytes, more than its maximum of 131072"))
        #expect(
            error(magic + [0x00, 0x58, 0x07, 0x00, 0x00]) == .init(offset: 6, message: "a block of the reserved type"))
        // A content size that the blocks do not fill.
        #expect(
            error(magic + [0x20, 0x02, 0x09, 0x00, 0x00, 0x41])
                == .init(offset: 10, message: "a frame of 1 bytes, 2 announced"))
        // A skippable frame alone is no output; one longer than the input is an error.
        #expect(Self.decode([0x5F, 0x2A, 0x4D, 0x18, 0x01, 0x00, 0x00, 0x00, 0xAA]) == .success([]))
        #expect(
            error([0x50, 0x2A, 0x4D, 0x18, 0x02, 0x00, 0x00, 0x00, 0xAA])
                == .init(offset: 4, message: "a skippable frame longer than the input"))
    }

    @Test("a frame whose content does not match its checksum")
    func checksum() throws {
        var bytes = try Self.frame("text-3.zst")
        bytes[bytes.count - 1] ^= 0x80
        #expect(
            Self.decode(bytes)
                == .failure(
                    .init(offset: bytes.count - 4, message: "a frame whose content does not match its checksum")))
    }
}
