import Foundation
import SwiftCovTestSupport
import Testing

@testable import SwiftCovCore

/// The faults the hostile rounds found by hand, injected into `SystemCalls` (`FaultPlan`): a disk
/// that fills while each kind of output is written, an input that vanishes between being found
/// and being opened, interrupted reads and writes, a rename that fails. Each gives one line
/// naming the file, and leaves the output as it was: the previous file whole, no temporary file.
@Suite(
    "Faults injected into the system calls: full disk, vanished input, EINTR, failed rename", .removingTemporaryFolders)
struct FaultInjectionTests {
    /// The system's message for a full disk (glibc's and Darwin's).
    static let diskFull = "No space left on device"

    /// A folder holding `name` with the contents of a previous run.
    static func previousOutput(_ name: String) throws -> (folder: String, path: String) {
        let folder = try temporaryDirectory()
        let path = folder + "/" + name
        try "previous\n".write(toFile: path, atomically: false, encoding: .utf8)
        return (folder, path)
    }

    static func entries(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// Writes the output `name` as the command line does (`-o PATH`: a destination, maybe a
    /// streaming buffer, `finish`) over a previous one while the disk is full after `afterBytes`
    /// bytes; checks what that must leave: one line naming the file, the previous file whole
    /// and nothing else in its folder.
    static func expectFullDiskKeepsPrevious(
        _ name: String, afterBytes: Int = 4096, sourceLocation: SourceLocation = #_sourceLocation,
        _ write: (AtomicFile.Destination) throws -> Void
    ) throws {
        let (folder, path) = try previousOutput(name)
        let plan = FaultPlan(.write, errno: ENOSPC, afterBytes: afterBytes)
        let error = #expect(throws: SystemCallError.self, sourceLocation: sourceLocation) {
            try FaultPlan.$current.withValue(plan) { try write(try AtomicFile.Destination(path)) }
        }
        #expect(plan.injected == 1, sourceLocation: sourceLocation)
        #expect(
            error?.diagnostic.description == "\(path): error: cannot write: \(diskFull)", sourceLocation: sourceLocation
        )
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous\n", sourceLocation: sourceLocation)
        #expect(try entries(folder) == [name], sourceLocation: sourceLocation)
    }

    static func testRun() throws -> TestRun {
        try TestResultsReader.read(paths: [Fixture.sample.path("swift-test-failing.log")], utcOffset: 0)
    }

    // MARK: A full disk, for each kind of output

    @Test("a full disk while writing the coverage JSON report")
    func coverageJSON() throws {
        let report = try Fixture.sample.report()
        try Self.expectFullDiskKeepsPrevious("coverage.json") { destination in
            var json = JSONWriter(destination.streamingBuffer())
            try CoverageJSONReport.write(report, options: CoverageReportOptions(showFunctions: true), to: &json)
            try destination.finish(json.finish())
        }
    }

    @Test("a full disk while writing a report rendered whole: the coverage table, the flaky report")
    func renderedWhole() throws {
        let outputs = [
            ("coverage.txt", CoverageTableReport.render(try Fixture.sample.report(), options: CoverageReportOptions())),
            ("flaky.json", FlakyReport.json(FlakyVerdicts.analyze(try HistoryReportsTests.history()))),
        ]
        for (name, text) in outputs {
            try Self.expectFullDiskKeepsPrevious(name, afterBytes: text.utf8.count / 2) { try $0.finish(writing: text) }
        }
    }

    @Test("a full disk while writing JUnit XML")
    func junit() throws {
        let run = try Self.testRun()
        try Self.expectFullDiskKeepsPrevious("junit.xml", afterBytes: 1000) { destination in
            var xml = destination.streamingBuffer()
            JUnitReport.write(
                run, options: JUnitReport.Options(hostname: "h", timestamp: "2026-01-01T00:00:00"), to: &xml)
            try destination.finish(xml)
        }
    }

    @Test("a full disk while writing Cobertura, lcov and SonarQube", arguments: InterchangeFormat.allCases)
    func interchange(format: InterchangeFormat) throws {
        let report = try Fixture.sample.report()
        try Self.expectFullDiskKeepsPrevious("coverage." + format.rawValue) { destination in
            var buffer = destination.streamingBuffer()
            try format.write(report, options: InterchangeOptions(timestamp: 0), to: &buffer)
            try destination.finish(buffer)
        }
    }

    @Test("a full disk while writing the test summary JSON")
    func testSummary() throws {
        let run = try Self.testRun()
        try Self.expectFullDiskKeepsPrevious("tests.json", afterBytes: 512) { destination in
            var json = JSONWriter(destination.streamingBuffer())
            TestSummaryJSONReport.write(run, to: &json)
            try destination.finish(json.finish())
        }
    }

    /// Writes an HTML site over a previous one under `plan`; checks that the fault happened and
    /// left the previous site as it was, and nothing beside it; the site and the error.
    static func expectSiteKept(
        _ plan: FaultPlan, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (site: String, error: HTMLSite.Failure?) {
        let folder = try temporaryDirectory()
        let site = folder + "/site"
        let report = try Fixture.sample.report()
        try HTMLSite.write(report, to: site, options: HTMLReport.Options(generatedAt: "then"))
        let previous = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        let error = #expect(throws: HTMLSite.Failure.self, sourceLocation: sourceLocation) {
            try FaultPlan.$current.withValue(plan) {
                try HTMLSite.write(report, to: site, options: HTMLReport.Options(generatedAt: "now"))
            }
        }
        #expect(plan.injected == 1, sourceLocation: sourceLocation)
        #expect(
            try String(contentsOfFile: site + "/index.html", encoding: .utf8) == previous,
            sourceLocation: sourceLocation)
        #expect(try entries(folder) == ["site"], sourceLocation: sourceLocation)
        return (site, error)
    }

    @Test("a full disk while building the HTML site: the previous site stays, no staged folder is left")
    func htmlSite() throws {
        // The first file the site writes, the stylesheet, meets the full disk (on this thread;
        // the page workers on other threads do not see the plan).
        let (site, error) = try Self.expectSiteKept(FaultPlan(.write, errno: ENOSPC, afterBytes: 100))
        // Named in the output folder, not in the staged folder that is gone.
        #expect(
            error?.diagnostic.description
                == "\(site)/\(HTMLAssets.stylesheetName): error: cannot write: \(Self.diskFull)")
    }

    @Test("a full disk while adding to the history: the append is taken back, the file as it was")
    func historyAppend() throws {
        let path = try temporaryDirectory() + "/history.jsonl"
        let home = HistoryStore.Home(parsing: path)
        var history = TestHistory()
        let first = HistoryStoreTests.run("a", time: 100, into: &history)
        try HistoryStore.append([first], of: history, to: home, known: [], root: "/")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let second = HistoryStoreTests.run("b", time: 200, into: &history)
        let plan = FaultPlan(.write, errno: ENOSPC, afterBytes: 20)
        #expect(throws: SystemCallError(.write, path: path, errno: ENOSPC)) {
            try FaultPlan.$current.withValue(plan) {
                try HistoryStore.append([second], of: history, to: home, known: Set(history.names), root: "/")
            }
        }
        #expect(plan.injected == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let reading = try HistoryStore.read(home, root: "/", latestTime: .max)
        #expect(reading.history.runs.map(\.id) == ["a"] && reading.warnings.isEmpty)
        #expect(
            try Self.entries((path as NSString).deletingLastPathComponent) == ["history.jsonl", "history.jsonl.lock"])
    }

    // MARK: A rename that fails

    @Test("a failed rename of an output file keeps the previous file and removes the temporary one")
    func failedRename() throws {
        let (folder, path) = try Self.previousOutput("report.json")
        let plan = FaultPlan(.rename, errno: EXDEV, pathSuffix: "/report.json")
        #expect(throws: SystemCallError(.write, path: path, errno: EXDEV)) {
            try FaultPlan.$current.withValue(plan) { try AtomicFile.write("new\n", to: path) }
        }
        #expect(plan.injected == 1)
        try #expect(String(contentsOfFile: path, encoding: .utf8) == "previous\n")
        #expect(try Self.entries(folder) == ["report.json"])
    }

    @Test("a failed swap of the HTML site (the new folder cannot be renamed in) puts the previous site back")
    func failedSiteSwap() throws {
        // The rename of the built folder onto `site`, after the previous one was renamed aside.
        let (site, error) = try Self.expectSiteKept(FaultPlan(.rename, errno: EIO, pathSuffix: "/site", times: 1))
        #expect(error == .cannotWrite(SystemCallError(.write, path: site, errno: EIO)))
    }

    // MARK: Inputs

    @Test("an export that vanishes between being found in its folder and being opened is an input error naming it")
    func vanishedInput() throws {
        let folder = try temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Fixture.sample.path("coverage.json"), toPath: folder + "/" + CoverageInput.runExportName)
        let located = try CoverageInput.locate(folder)
        #expect(located.path.hasSuffix("/" + CoverageInput.runExportName))
        let plan = FaultPlan(.open, errno: ENOENT, pathSuffix: CoverageInput.runExportName)
        let error = #expect(throws: CoverageInputError.self) {
            try FaultPlan.$current.withValue(plan) {
                try CoverageInput.readExport(located.path, keepMappings: false)
            }
        }
        #expect(error?.diagnostic.description == "\(located.path): error: cannot read: No such file or directory")
        #expect(error?.diagnostic.exitCode == 2)
    }

    @Test("a log that vanishes before it is opened is an input error naming it")
    func vanishedLog() throws {
        let path = Fixture.sample.path("swift-test-failing.log")
        let plan = FaultPlan(.open, errno: ENOENT, pathSuffix: "swift-test-failing.log")
        #expect(throws: TestResultsError.unreadable(path: path, reason: "No such file or directory")) {
            try FaultPlan.$current.withValue(plan) { try TestResultsReader.read(path: path, utcOffset: 0) }
        }
    }

    @Test("reads interrupted by a signal (EINTR) are retried: a pipe, read whole or as a stream, reads the same")
    func interruptedReads() throws {
        let log = try Data(contentsOf: URL(fileURLWithPath: Fixture.sample.path("swift-test-failing.log")))
        func pipeHolding(_ bytes: Data) throws -> Int32 {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            // Written by another thread: the log is larger than a pipe holds.
            let writer = ends[1]
            Thread.detachNewThread {
                bytes.withUnsafeBytes { _ = FileDescriptor.write($0.bindMemory(to: UInt8.self), to: writer) }
                close(writer)
            }
            return ends[0]
        }
        // Read whole (standard input, a pipe): `MappedFile`.
        let plan = FaultPlan(.read, errno: EINTR, times: 5)
        let reader = try pipeHolding(log)
        let file = try FaultPlan.$current.withValue(plan) { try MappedFile(descriptor: reader) }
        close(reader)
        #expect(plan.injected == 5)
        #expect(file.withUnsafeBytes { Data($0) } == log)

        // Read as it comes: the test results stream.
        let expected = try TestResultsReader.read(path: Fixture.sample.path("swift-test-failing.log"), utcOffset: 0)
        let streamPlan = FaultPlan(.read, errno: EINTR, times: 5)
        let streamReader = try pipeHolding(log)
        var stream = TestResultsStream(path: "-", utcOffset: 0)
        try FaultPlan.$current.withValue(streamPlan) {
            try TestResultsReader.read(descriptor: streamReader, path: "-", into: &stream)
        }
        close(streamReader)
        #expect(streamPlan.injected == 5)
        guard case .log(let read) = try stream.finish(), case .log(let whole) = expected else {
            Issue.record("not read as a log")
            return
        }
        #expect(read == whole && !read.suites.isEmpty)
    }

    @Test("a read that fails (EIO) is an input error naming the file")
    func failedRead() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        close(ends[1])
        var stream = TestResultsStream(path: "-", utcOffset: 0)
        #expect(throws: TestResultsError.unreadable(path: "-", reason: "Input/output error")) {
            try FaultPlan.$current.withValue(FaultPlan(.read, errno: EIO)) {
                try TestResultsReader.read(descriptor: ends[0], path: "-", into: &stream)
            }
        }
    }

    @Test("writes interrupted by a signal (EINTR) are retried: the file is whole")
    func interruptedWrites() throws {
        let folder = try temporaryDirectory()
        let text = String(repeating: "line of a report\n", count: 10_000)
        let plan = FaultPlan(.write, errno: EINTR, times: 3)
        try FaultPlan.$current.withValue(plan) { try AtomicFile.write(text, to: folder + "/out.txt") }
        #expect(plan.injected == 3)
        #expect(try String(contentsOfFile: folder + "/out.txt", encoding: .utf8) == text)
        #expect(try Self.entries(folder) == ["out.txt"])
    }

    @Test("a short write (a disk that takes part of a write) is finished by the next write")
    func shortWrites() throws {
        let folder = try temporaryDirectory()
        let text = String(repeating: "0123456789", count: 1000)
        // 100 bytes, then the rest of the write fails once with EINTR; the remainder is written.
        let plan = FaultPlan(.write, errno: EINTR, afterBytes: 100, times: 1)
        try FaultPlan.$current.withValue(plan) { try AtomicFile.write(text, to: folder + "/out.txt") }
        #expect(plan.injected == 1)
        #expect(try String(contentsOfFile: folder + "/out.txt", encoding: .utf8) == text)
    }
}
