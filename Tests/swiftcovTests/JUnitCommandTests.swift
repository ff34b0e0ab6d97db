import Foundation
import Testing

/// `swiftcov junit` and `swiftcov report --tests` run as CI runs them: files and pipes in; the
/// JUnit file, the passed-through log, stderr and the exit code out.
@Suite("swiftcov junit, end to end", .removingTemporaryFolders)
struct JUnitCommandTests {
    static let logs = "Tests/SwiftCovCoreTests/Fixtures/logs/"

    /// The library's golden JUnit file as this machine writes it: with its host name.
    func goldenJUnit(_ name: String) throws -> String {
        try golden(name).replacingOccurrences(of: "hostname=\"ci-host\"", with: "hostname=\"\(hostname())\"")
    }

    func hostname() -> String {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, 255)
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("a log and its event stream: the golden JUnit file, a summary on stderr, exit 1 for the failures")
    func logAndEvents() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/junit.xml"
        let result = try swiftcov([
            "junit", "SampleReports/swift-test-failing.log", "--tests", "SampleReports/swift-testing-events.jsonl",
            "--root", directory, "-o", output,
        ])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "swiftcov: wrote \(output) — 65 passed, 5 failed, 3 skipped (73 tests in 2.448 s)\n")
        #expect(
            try String(contentsOfFile: output, encoding: .utf8) == (try goldenJUnit("junit-swift-testing-events.xml")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["junit.xml"])
    }

    @Test("piped: the log passes through to stdout unchanged and the file is written")
    func piped() throws {
        let directory = try temporaryDirectory()
        let log = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/SampleReports/swift-test-failing.log"))
        let result = try swiftcov(
            ["junit", "--tests", "-", "--output", directory + "/junit.xml", "--root", directory], stdin: log)
        #expect(result.status == 1)
        #expect(result.stdout == String(decoding: log, as: UTF8.self))
        #expect(
            try String(contentsOfFile: directory + "/junit.xml", encoding: .utf8)
                == (try goldenJUnit("junit-linux.xml")))
    }

    @Test("piped: each line is passed on as it arrives, not when the run ends")
    func pipedLive() throws {
        let directory = try temporaryDirectory()
        let run = try LiveRun(["junit", "--tests", "-", "-o", directory + "/junit.xml", "--root", directory])
        try run.write("Test Suite 'All tests' started at 2026-11-22 14:03:53.085\n")
        #expect(run.readStdout(until: "14:03:53.085\n"))
        try run.write(
            "Test Suite 'All tests' passed at 2026-11-22 14:03:53.540\n\t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds\n"
        )
        let status = try run.finish()
        #expect(status == 0)
    }

    @Test("interrupted mid-test (Ctrl-C, a CI timeout): the file is still written, the running test an error")
    func interrupted() throws {
        let directory = try temporaryDirectory()
        let run = try LiveRun(["junit", "--tests", "-", "-o", directory + "/junit.xml", "--root", directory])
        try run.write(
            "Test Suite 'All tests' started at 2026-11-22 14:03:53.085\nTest Suite 'SlowTests' started at 2026-11-22 14:03:53.085\nTest Case 'SlowTests.testForever' started at 2026-11-22 14:03:53.085\n"
        )
        #expect(run.readStdout(until: "testForever' started at 2026-11-22 14:03:53.085\n"))
        run.process.interrupt()
        let status = try run.finish(closeInput: false)
        #expect(status == 1)
        let xml = try String(contentsOfFile: directory + "/junit.xml", encoding: .utf8)
        #expect(xml.contains("name=\"testForever\""))
        #expect(xml.contains("<error message=\"The test did not finish"))
    }

    @Test("a crashed run read from stdin: the crashed test is an error, the rest is reported")
    func crashed() throws {
        let directory = try temporaryDirectory()
        let log = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/" + Self.logs + "hostile-xctest-crash.log"))
        let result = try swiftcov(["junit", "-t", "-", "-o", directory + "/junit.xml", "--quiet"], stdin: log)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
        let xml = try String(contentsOfFile: directory + "/junit.xml", encoding: .utf8)
        #expect(xml.contains("type=\"crash\">HostileXCTests/ArithmeticTests.swift:35: The test process crashed"))
    }

    @Test("--no-fail exits 0; --strict leaves out file and line; without --output the XML goes to stdout")
    func flags() throws {
        let result = try swiftcov(["junit", "SampleReports/swift-test-failing.log", "--strict", "--no-fail"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("<?xml"))
        #expect(!result.stdout.contains(" file=\""))
        let passing = try swiftcov(["junit", "SampleReports/swift-test-passing.log"])
        #expect(passing.status == 0)
        #expect(passing.stdout.contains(" file=\""))
    }

    @Test(
        "unreadable input exits 2 naming the file",
        arguments: [
            (["junit", "missing.log"], "missing.log: error: cannot read: No such file or directory"),
            (["junit"], "no test output"),
            (["junit", "-", "--tests", "-"], "standard input ('-') can be read only once"),
        ])
    func unreadable(arguments: [String], message: String) throws {
        let result = try swiftcov(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("a log in which no test ran (a failed build) exits 2 and still replaces the JUnit file with an error")
    func noTests() throws {
        let directory = try temporaryDirectory()
        try "stale\n".write(toFile: directory + "/junit.xml", atomically: true, encoding: .utf8)
        let build = Data("Building for debugging...\n/p/Sources/A.swift:3:9: error: cannot find 'x' in scope\n".utf8)
        let result = try swiftcov(["junit", "--tests", "-", "-o", directory + "/junit.xml"], stdin: build)
        #expect(result.status == 2)
        #expect(result.stderr.contains("standard input: error: no test results (did the build fail?"))
        let xml = try String(contentsOfFile: directory + "/junit.xml", encoding: .utf8)
        #expect(xml.contains("errors=\"1\""))
        #expect(xml.contains("cannot find &apos;x&apos; in scope"))
    }

    @Test("--help names every option")
    func help() throws {
        let result = try swiftcov(["junit", "--help"])
        #expect(result.status == 0)
        for option in ["--tests", "--output", "--strict", "--no-fail", "--coverage", "--root", "--quiet"] {
            #expect(result.stdout.contains(option))
        }
        #expect(try swiftcov(["--help"]).stdout.contains("junit"))
    }

    @Test("report --tests: the summary alone, and next to coverage in every format")
    func report() throws {
        let table = try swiftcov([
            "report", "--tests", "SampleReports/swift-test-failing.log", "--tests",
            "SampleReports/swift-testing-events.jsonl",
        ])
        #expect(table.status == 0)
        #expect(table.stdout.hasPrefix("Suite "))
        #expect(table.stdout.hasSuffix("Tests FAILED: 65 passed, 5 failed, 3 skipped (73 tests in 2.448 s)\n"))

        let json = try swiftcov(["report", "--tests", "SampleReports/swift-test-failing.log", "-f", "json"])
        #expect(json.stdout.hasPrefix("{\n  \"schemaVersion\": 1,\n  \"tests\": {"))

        let both = try swiftcov([
            "report", "SampleReports/coverage.json", "-t", "SampleReports/swift-test-failing.log", "-f", "json",
            "--show",
            "lines", "--show", "functions",
        ])
        let coverage = try golden("sample-report.json")
        #expect(both.stdout.hasPrefix(String(coverage.dropLast(3))))
        #expect(both.stdout.contains(",\n  \"tests\": {\n    \"totals\": {\"tests\": 73,"))

        let summary = try temporaryDirectory() + "/summary.md"
        let markdown = try swiftcov(
            [
                "report", "SampleReports/coverage.json", "--tests", "SampleReports/swift-test-failing.log", "-f",
                "markdown",
            ],
            environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(markdown.stdout.hasPrefix(try golden("sample-report.md")))
        #expect(markdown.stdout.contains("### Tests failed: 65 passed, 5 failed, 3 skipped"))
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == markdown.stdout)
    }
}

/// A `swiftcov` process fed and read while it runs.
final class LiveRun {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var received = Data()

    init(_ arguments: [String]) throws {
        process.executableURL = swiftcovExecutable()
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func write(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Reads stdout until it ends with `suffix`; false after 20 seconds without it.
    func readStdout(until suffix: String) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        let descriptor = output.fileHandleForReading.fileDescriptor
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return false }
            received += chunk
            if String(decoding: received, as: UTF8.self).hasSuffix(suffix) { return true }
        }
        return false
    }

    /// Closes stdin (unless the process is to stop by itself) and waits for the exit status.
    func finish(closeInput: Bool = true) throws -> Int32 {
        if closeInput { try input.fileHandleForWriting.close() }
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if !closeInput { try? input.fileHandleForWriting.close() }
        return process.terminationStatus
    }
}
