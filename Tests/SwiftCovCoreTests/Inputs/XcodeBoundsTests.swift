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

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hostile result bundles, built here (invented inputs, each aimed at one bound): frames that
/// announce or decode to gigabytes, objects named from thousands of places, texts past the log
/// reader's limits, numbers that contradict each other, and files that are not regular files.
/// Each asserts the message and a bound the reader keeps (bytes decoded, buffer grown, cache
/// held), never a time.
@Suite("Xcode results, bounded", .removingTemporaryFolders)
struct XcodeBoundsTests {
    static let magic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

    /// A zstd RLE block of `size` (at most 128 KiB) copies of `byte`.
    static func rleBlock(_ size: Int, _ byte: UInt8, last: Bool) -> [UInt8] {
        let header = UInt32(size) << 3 | 1 << 1 | (last ? 1 : 0)
        return [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16), byte]
    }

    /// A frame without a content size decoding to `blocks` × 128 KiB of `byte`.
    static func rleFrame(blocks: Int, _ byte: UInt8 = 0x41) -> [UInt8] {
        magic + [0x00, 0x70]
            + (0..<blocks).flatMap { rleBlock(128 * 1024, byte, last: $0 == blocks - 1) }
    }

    static func decode(_ bytes: [UInt8], maximumSize: Int) -> (Result<[UInt8], Zstd.DecodeError>, buffer: Int) {
        var largest = 0
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(Zstd.DecodeError) in
                try Zstd.decompress(raw, maximumSize: maximumSize, largestBuffer: &largest)
            }
        }
        return (result, largest)
    }

    @Test("a 13-byte frame announcing 1 GiB: the buffer grows with the blocks, the size is checked at the end")
    func announcedGigabyte() {
        // Single segment, a 4-byte content size of 2^30, one RLE block of 128 KiB.
        let frame = Self.magic + [0xA0, 0x00, 0x00, 0x00, 0x40] + Self.rleBlock(128 * 1024, 0x41, last: true)
        #expect(frame.count == 13)
        let (result, buffer) = Self.decode(frame, maximumSize: 1 << 30)
        #expect(result == .failure(.init(offset: 13, message: "a frame of 131072 bytes, 1073741824 announced")))
        #expect(buffer <= 128 * 1024 + Zstd.slack)
        // Many blocks: the buffer at most doubles what was written.
        let (grown, grownBuffer) = Self.decode(Self.rleFrame(blocks: 40), maximumSize: 1 << 30)
        #expect((try? grown.get())?.count == 40 * 128 * 1024)
        #expect(grownBuffer <= 2 * 40 * 128 * 1024 + Zstd.slack)
        // A correct content size is no allocation ahead either, and decodes as before.
        let exact = Self.magic + [0xA0, 0x00, 0x00, 0x02, 0x00] + Self.rleBlock(128 * 1024, 0x42, last: true)
        let (decoded, exactBuffer) = Self.decode(exact, maximumSize: 1 << 30)
        #expect((try? decoded.get()) == [UInt8](repeating: 0x42, count: 128 * 1024))
        #expect(exactBuffer <= 128 * 1024 + Zstd.slack)
    }

    @Test("the object store: a cache within its budget, least recently used dropped, hits counted")
    func objectStore() throws {
        let store = XCResultObjectStore(dataBytes: 10, ceiling: 1000, cacheBudget: 100)
        for index in 0..<5 { try store.add("0~\(index)", [UInt8](repeating: 0, count: 40), path: "b") }
        #expect(store.cachedBytes <= 100)
        #expect(try store.cached("0~0", path: "b") == nil)
        #expect(try store.cached("0~4", path: "b")?.count == 40)
        #expect(store.remaining == 1000 - 6 * 40)
        // A hit counts as bytes decoded: one object named from everywhere reaches the ceiling.
        var hits = 0
        let error = #expect(throws: XcodeInputError.self) {
            while true {
                _ = try store.cached("0~4", path: "b/Data/data.0~4")
                hits += 1
            }
        }
        #expect(hits == (1000 - 6 * 40) / 40)
        #expect(error?.path == "b/Data/data.0~4")
        #expect(error?.message.contains("decode to more than 1000 bytes") == true)
        // Many uses of few objects keep the bookkeeping small.
        let many = XCResultObjectStore(dataBytes: 10, ceiling: 1 << 40, cacheBudget: 100)
        try many.add("0~a", [1], path: "b")
        for _ in 0..<100_000 { _ = try many.cached("0~a", path: "b") }
        #expect(many.cachedBytes == 1)
    }

    @Test("the ceiling: 64 times the objects' bytes, at least 64 MiB, at most 4 GiB")
    func ceiling() {
        #expect(XCResultObjectStore(dataBytes: 212 * 1024).ceiling == 64 << 20)
        #expect(XCResultObjectStore(dataBytes: 10 << 20).ceiling == 640 << 20)
        #expect(XCResultObjectStore(dataBytes: 1 << 40).ceiling == 4 << 30)
        #expect(XCResultObjectStore(dataBytes: Int.max).ceiling == 4 << 30)
    }

    /// A bundle in a new folder: an `Info.plist` naming `0~root`, and `objects` by id.
    static func bundle(_ objects: [String: [UInt8]]) throws -> String {
        let path = try temporaryDirectory() + "/hostile.xcresult"
        try FileManager.default.createDirectory(atPath: path + "/Data", withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>rootId</key><dict><key>hash</key><string>0~root</string></dict>\
        <key>version</key><dict><key>major</key><integer>3</integer><key>minor</key><integer>53</integer></dict>\
        </dict></plist>
        """.write(toFile: path + "/Info.plist", atomically: true, encoding: .utf8)
        for (id, bytes) in objects {
            try Data(bytes).write(to: URL(fileURLWithPath: path + "/Data/data." + id))
        }
        return path
    }

    @Test("a 3 KB bundle whose root decodes to 80 MiB: refused at the ceiling, naming the object")
    func decodedCeiling() throws {
        let path = try Self.bundle(["0~root": Self.rleFrame(blocks: 640)])
        let bundle = try XCResultBundle(path: path)
        #expect(bundle.store.ceiling == 64 << 20)
        let error = #expect(throws: XcodeInputError.self) { try bundle.invocationRecord() }
        #expect(error?.path == path + "/Data/data.0~root")
        #expect(error?.message.contains("decode to more than 67108864 bytes") == true)
        #expect(bundle.store.remaining == 64 << 20)  // nothing was handed out
        let tests = #expect(throws: TestResultsError.self) { try XCResultBundle.testRun(path: path) }
        #expect(tests?.diagnostic.message.contains("decode to more than") == true)
    }

    @Test("a test's failure text, attempts and output past the log reader's limits: cut, with a note")
    func boundedText() {
        let line = String(repeating: "x", count: 99) + "\n"
        var testCase = TestRun.Case(className: "A", testName: "b", status: .failed)
        testCase.issues = (0..<3000).map { TestRun.Issue(kind: .failure, message: "failure \($0)") }
        testCase.attempts = (0..<50).map { _ in
            TestRun.Case.Attempt(status: .failed, issues: [TestRun.Issue(kind: .failure, message: "again")])
        }
        testCase.output = String(repeating: line, count: 10_000)
        var big = TestRun.Case(className: "A", testName: "c", status: .failed)
        big.issues = [TestRun.Issue(kind: .failure, message: String(repeating: line, count: 1 << 14))]
        var suite = TestRun.Suite(name: "A", framework: .xctest)
        suite.cases = [testCase, big, TestRun.Case(className: "A", testName: "d", status: .passed)]
        var run = TestRun(suites: [suite])
        run.boundText()
        let bounded = run.suites[0].cases[0]
        #expect(bounded.status == .failed)
        #expect(bounded.issues.count == TestLogParser.outputLineLimit)
        #expect(bounded.issues.last?.message.contains("1050 more lines") == true)
        #expect(bounded.attempts.count == 50 && bounded.attempts.allSatisfy { $0.status == .failed })
        #expect(bounded.attempts.allSatisfy { $0.issues.isEmpty })
        #expect(bounded.output.utf8.count <= TestLogParser.outputByteLimit + 100)
        #expect(bounded.output.hasSuffix(TextBudget.outputLeftOut))
        let cut = run.suites[0].cases[1]
        #expect(cut.issues.count == 1 && cut.status == .failed)
        #expect(cut.issues[0].message.utf8.count < TestLogParser.outputByteLimit + 300)
        #expect(cut.issues[0].message.contains("of failure text left out"))
        #expect(run.suites[0].cases[2].isBare)
    }

    @Test("files that are not regular files inside the bundle: each refused with what it is")
    func notRegularFiles() throws {
        let path = try Self.bundle(["0~root": Self.rleFrame(blocks: 1)])
        let bundle = try XCResultBundle(path: path)
        func message(_ id: String) -> String? {
            do {
                _ = try bundle.object(id)
                return nil
            } catch {
                return error.message
            }
        }
        let data = path + "/Data/data."
        #expect(mkfifo(data + "0~fifo", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: data + "0~zero", withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: data + "0~loop", withDestinationPath: data + "0~loop")
        try FileManager.default.createSymbolicLink(atPath: data + "0~none", withDestinationPath: data + "0~nothing")
        let outside = try temporaryDirectory() + "/outside"
        try Data(Self.rleFrame(blocks: 1)).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.createSymbolicLink(atPath: data + "0~out", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: data + "0~in", withDestinationPath: data + "0~root")
        #expect(message("0~fifo")?.hasPrefix("a FIFO (named pipe), not a regular file") == true)
        #expect(message("0~zero")?.hasPrefix("a device, not a regular file") == true)
        #expect(message("0~loop")?.hasPrefix("a loop of symbolic links, not a regular file") == true)
        #expect(message("0~none")?.hasPrefix("a symbolic link to nothing") == true)
        #expect(message("0~out")?.contains("outside the bundle") == true)
        #expect(message("0~missing") == "the object 0~missing is missing (Data/data.0~missing)")
        #expect(message("0~in") == nil)  // a link that stays inside is followed
        #expect(FileSystem.kind(of: data + "0~fifo") == .fifo)
        #expect(FileSystem.kind(of: data + "0~loop") == .loop)
        #expect(FileSystem.kind(of: data + "0~none") == nil)
        #expect(FileSystem.kind(of: data + "0~none", followingLinks: false) == .symbolicLink)

        // In place of Info.plist, and of the bundle.
        try FileManager.default.removeItem(atPath: path + "/Info.plist")
        #expect(mkfifo(path + "/Info.plist", 0o600) == 0)
        #expect(XCResultBundle.isBundle(path))
        let info = #expect(throws: XcodeInputError.self) { try XCResultBundle(path: path) }
        #expect(info?.message.hasPrefix("a FIFO (named pipe), not a regular file") == true)
        let loop = try temporaryDirectory() + "/loop.xcresult"
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let looped = #expect(throws: XcodeInputError.self) { try XCResultBundle(path: loop) }
        #expect(looped?.message == "a loop of symbolic links, not a result bundle (a folder)")
        let located = #expect(throws: CoverageInputError.self) { try CoverageInput.locate(loop) }
        #expect(located?.diagnostic.message.contains("loop of symbolic links") == true)
    }

    /// A binary property list written here: objects in order (the last is the top), 2-byte
    /// references and 4-byte offsets; `offsets` may name one object's offset many times.
    enum Plist {
        case string(String)
        case uid(Int)
        case int(Int)
        case data([UInt8])
        case array([Int])
        case dict([(Int, Int)])
    }

    static func write(_ objects: [Plist], sharedOffsets: [Int] = []) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        func length(_ marker: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x12] + bigEndian(UInt64(count), 4)
        }
        func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
            (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }
        func references(_ indices: [Int]) -> [UInt8] { indices.flatMap { bigEndian(UInt64($0), 2) } }
        for object in objects {
            offsets.append(bytes.count)
            switch object {
            case .string(let text): bytes += length(0x50, text.utf8.count) + Array(text.utf8)
            case .uid(let value): bytes += [0x81] + bigEndian(UInt64(value), 2)
            case .int(let value): bytes += [0x13] + bigEndian(UInt64(value), 8)
            case .data(let data): bytes += length(0x40, data.count) + data
            case .array(let members): bytes += length(0xA0, members.count) + references(members)
            case .dict(let pairs): bytes += length(0xD0, pairs.count) + references(pairs.map(\.0) + pairs.map(\.1))
            }
        }
        offsets += sharedOffsets.map { offsets[$0] }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(UInt64(offset), 4) }
        bytes +=
            [0, 0, 0, 0, 0, 0, 4, 2] + bigEndian(UInt64(offsets.count), 8)
            + bigEndian(UInt64(objects.count - 1), 8) + bigEndian(UInt64(table), 8)
        return bytes
    }

    /// A coverage report archive listing one target object `targetReferences` times, which lists
    /// one file object `fileReferences` times, with `functions` functions (a reference is 2 bytes:
    /// the archive grows linearly, the report it stands for as the product).
    static func repeatedArchive(targetReferences: Int = 1, fileReferences: Int = 1, functions: Int = 0) -> [UInt8] {
        // $objects: 0 $null, 1 root, 2 targets array, 3 target, 4 files array, 5 file, 6-8 classes.
        let names = [
            "$null", "$class", "$classname", "buildableCoverageObjects", "NS.objects", "name", "sourceFiles",
            "documentLocation", "executableLines", "coveredLines", "IDESchemeActionCodeCoverage", "NSArray",
            "IDESchemeActionCodeCoverageTarget", "App", "/a.swift", "$archiver", "$objects", "$top", "root",
            "NSKeyedArchiver", "IDESchemeActionCodeCoverageFile", "functions",
        ]
        var objects: [Plist] = names.map { .string($0) }
        func key(_ name: String) -> Int { names.firstIndex(of: name)! }
        func add(_ object: Plist) -> Int {
            objects.append(object)
            return objects.count - 1
        }
        let uids = (0..<9).map { add(.uid($0)) }
        let five = add(.int(5))
        let root = add(.dict([(key("$class"), uids[6]), (key("buildableCoverageObjects"), uids[2])]))
        let targets = add(
            .dict([
                (key("$class"), uids[7]),
                (key("NS.objects"), add(.array(Array(repeating: uids[3], count: targetReferences)))),
            ]))
        let target = add(
            .dict([
                (key("$class"), uids[8]), (key("name"), key("App")), (key("sourceFiles"), uids[4]),
                (key("executableLines"), five), (key("coveredLines"), five),
            ]))
        let files = add(
            .dict([
                (key("$class"), uids[7]),
                (key("NS.objects"), add(.array(Array(repeating: uids[5], count: fileReferences)))),
            ]))
        // Each function: covered, executable, first line, executable (32-bit), runs (64-bit), no name.
        let record: [UInt8] = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
        let packed =
            [UInt8(functions & 0xFF), UInt8(functions >> 8), 0, 0] + (0..<functions).flatMap { _ in record }
            + [UInt8](repeating: 0, count: functions)
        let file = add(
            .dict([
                (key("$class"), add(.uid(9))), (key("documentLocation"), key("/a.swift")),
                (key("executableLines"), five), (key("coveredLines"), five), (key("functions"), add(.data(packed))),
            ]))
        let classes = ["IDESchemeActionCodeCoverage", "NSArray", "IDESchemeActionCodeCoverageTarget"].map {
            add(.dict([(key("$classname"), key($0))]))
        }
        let fileClass = add(.dict([(key("$classname"), key("IDESchemeActionCodeCoverageFile"))]))
        let archived = add(.array([key("$null"), root, targets, target, files, file] + classes + [fileClass]))
        let top = add(.dict([(key("root"), uids[1])]))
        _ = add(
            .dict([(key("$archiver"), key("NSKeyedArchiver")), (key("$objects"), archived), (key("$top"), top)]))
        return write(objects)
    }

    static func readArchive(_ bytes: [UInt8]) -> Result<XcodeCoverage, XcodeInputError> {
        bytes.withUnsafeBytes { buffer in
            Result { () throws(XcodeInputError) in try XcodeCoverage.readReportArchive(buffer, path: "report") }
        }
    }

    @Test("a keyed archive naming one file or target thousands of times: shared, and listed at most once a byte")
    func repeatedReferences() throws {
        let once = try Self.readArchive(Self.repeatedArchive(functions: 3)).get()
        #expect(once.targets.map(\.files.count) == [1])
        #expect(once.targets[0].files[0].functions.count == 3)
        // One file named 5,000 times (2 bytes each): 5,000 listings of one shared file.
        let many = try Self.readArchive(Self.repeatedArchive(fileReferences: 5000)).get()
        #expect(many.targets[0].files.count == 5000)
        // With 100 functions, the listings would be 505,000 from 13 KB: refused.
        for bytes in [
            Self.repeatedArchive(fileReferences: 5000, functions: 100),
            Self.repeatedArchive(targetReferences: 5000, functions: 100),
        ] {
            guard case .failure(let error) = Self.readArchive(bytes) else {
                Issue.record("read")
                continue
            }
            #expect(error.location?.hasPrefix("root.buildableCoverageObjects[") == true)
            #expect(
                error.message
                    == "more files and functions listed than the archive's \(bytes.count) bytes can hold: objects "
                    + "named from many places")
        }
    }

    @Test("an offset table naming one object thousands of times: read once, shared")
    func sharedOffsets() throws {
        let bytes = Self.write(
            [.data([UInt8](repeating: 7, count: 4096)), .array([0, 0])], sharedOffsets: Array(repeating: 0, count: 4000)
        )
        let list = try bytes.withUnsafeBytes { try BinaryPropertyList($0) }
        #expect(list.objects.count == 4002)
        #expect(list.top == 1)
        var addresses = Set<Int>()
        for case .data(let data) in list.objects {
            _ = data.withUnsafeBufferPointer { addresses.insert(Int(bitPattern: $0.baseAddress)) }
        }
        #expect(addresses.count == 1)  // 4001 objects, one buffer of 4 KiB
    }

    @Test("covered above executable lines, from any Xcode input: one error naming the input and key path")
    func coveredAboveExecutable() throws {
        let file = XcodeCoverage.File(
            name: "a.swift", path: "/p/a.swift", executableLines: 1, coveredLines: 100, functions: [])
        let coverage = XcodeCoverage(
            targets: [.init(name: "App", productPath: nil, executableLines: 1, coveredLines: 1, files: [file])])
        let error = #expect(throws: XcodeInputError.self) {
            try CoverageReport.build(xcode: coverage, scope: CoverageScope(root: "/p"), input: "in.xcresult")
        }
        #expect(error?.path == "in.xcresult")
        #expect(error?.location == "targets[0] (App).files[0] (/p/a.swift)")
        #expect(error?.message == "100 covered lines of only 1: the coverage cannot be right")
        // More executable lines than the file's per-line counts show it has.
        var short = coverage
        short.targets[0].files[0].coveredLines = 1
        short.targets[0].files[0].executableLines = 3
        short.targets[0].executableLines = 3
        short.lines["/p/a.swift"] = [.init(line: 1, executionCount: 1), .init(line: 2, executionCount: 1)]
        let lines = #expect(throws: XcodeInputError.self) { try short.checkInvariants(input: "in.xcresult") }
        #expect(lines?.message == "3 executable lines in a file of 2 lines: the coverage cannot be right")
        // xccov's JSON, through the command's request: exit 2 with the line.
        let json = try temporaryDirectory() + "/report.json"
        try """
        {"coveredLines":50,"executableLines":1,"lineCoverage":50,"targets":[{"name":"App.framework",\
        "buildProductPath":"/p/App.framework/App","coveredLines":50,"executableLines":1,"lineCoverage":50,\
        "files":[]}]}
        """.write(toFile: json, atomically: true, encoding: .utf8)
        let request = #expect(throws: CoverageInputError.self) {
            try CoverageRequest(inputs: [json]).makeReport(workingDirectory: "/")
        }
        #expect(request?.diagnostic.message == "50 covered lines of only 1: the coverage cannot be right")
    }
}
