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

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Real `swift test` logs read into test runs: the counts are those the logs state themselves,
/// and `--parallel` runs agree with SwiftPM's own xUnit files.
@Suite("swift test logs")
struct TestLogParserTests {
    @Test("counts equal the log's own summary lines", arguments: LogFixture.complete)
    func statedCounts(log: LogFixture) throws {
        let stated = try StatedCounts(log: log.text)
        #expect(stated.xctest != nil || stated.swiftTesting != nil, "the log states no counts")
        let run = try log.run()
        #expect(StatedCounts(run: run) == stated)
        #expect(run.isComplete)
        #expect(run.hasTestOutput)
    }

    @Test(
        "--parallel: every test SwiftPM's xUnit file names is there, with the same outcome",
        arguments: [
            ("hostile-parallel.log", "hostile-parallel-xunit.xml"), ("yams-parallel.log", "yams-parallel-xunit.xml"),
            ("hostile-parallel-crash.log", "hostile-parallel-crash-xunit.xml"),
        ])
    func parallelAgreesWithSwiftPM(log: String, xunit: String) throws {
        let run = try LogFixture(log).run()
        let theirs = try SwiftPMXUnit(path: LogFixture(xunit).path).outcomes
        #expect(!theirs.isEmpty)
        let xctest = run.cases.filter { testCase in
            run.suites.contains { $0.framework == .xctest && $0.name == testCase.className }
        }
        // SwiftPM shows skipped tests as passed, and so must we under --parallel: the log does not tell.
        var ours: [String: Bool] = [:]
        for testCase in xctest { ours[testCase.className + "/" + testCase.name] = testCase.failingIssues.isEmpty }
        for (name, passed) in theirs {
            #expect(ours[name] == passed, "\(name)")
        }
        #expect(ours.count == theirs.count)
        // The progress lines' total is the number of XCTest tests.
        let total = try #require(try LogFixture(log).text.firstMatch(of: #/\[\d+/(\d+)\] Testing /#)).1
        #expect(xctest.count == Int(total))
    }

    @Test(
        "--parallel after serial runs in one log: each test SwiftPM's xUnit file names once, in its module's class; a class the progress lines do not name keeps its cases"
    )
    func parallelAfterSerialRuns() throws {
        // Real logs of one package's tests run serially, then with --parallel, with another
        // package's serial run between (its classes are named by no progress line).
        let logs = ["yams.log", "swift-algorithms.log", "yams-parallel.log"].map(LogFixture.init)
        var parser = TestLogParser()
        for log in logs { try log.bytes.withUnsafeBytes { parser.consume($0) } }
        let run = parser.finish()
        let theirs = try SwiftPMXUnit(path: LogFixture("yams-parallel-xunit.xml").path).outcomes
        let xctest = run.suites.filter { $0.framework == .xctest }.flatMap(\.cases)
        let yams = xctest.filter { $0.className.hasPrefix("YamsTests.") }
        #expect(Set(yams.map { $0.className + "/" + $0.name }) == Set(theirs.keys))
        #expect(yams.count == theirs.count)
        // The algorithms' classes, as their log states them: "Executed 212 tests" for the whole run.
        let algorithms = xctest.filter { !$0.className.contains(".") }
        let stated = try #require(try logs[1].text.matches(of: #/Executed (\d+) tests/#).last).1
        #expect(algorithms.count == Int(stated))
        #expect(xctest.count == yams.count + algorithms.count)
        for suite in run.suites where suite.framework == .xctest {
            #expect(suite.cases.allSatisfy { $0.className == suite.name }, "\(suite.name)")
            #expect(suite.cases.map(\.testName) == suite.cases.map(\.testName).sorted(), "\(suite.name)")
        }
    }

    @Test("the trivia --parallel log has the failing run's XCTest results")
    func triviaParallel() throws {
        let parallel = try LogFixture("SampleReports/swift-test-parallel.log").run()
        let serial = try LogFixture("SampleReports/swift-test-failing.log").run()
        func failing(_ run: TestRun) -> [String] {
            let failed = run.cases.filter { $0.status == .failed }
            return failed.map { "\($0.className.split(separator: ".").last ?? "") \($0.name)" }.sorted()
        }
        #expect(failing(parallel) == failing(serial))
        #expect(parallel.totals.tests == serial.totals.tests)
        // The parallel log names modules; the serial one does not.
        #expect(parallel.suites.map(\.name).contains("TriviaCoreTests.QuestionsLoaderTests"))
        #expect(serial.suites.map(\.name).contains("QuestionsLoaderTests"))
    }

    @Test("fed in pieces of any size, as a pipe delivers it, the log reads the same", arguments: [1, 7, 4096])
    func streaming(pieceSize: Int) throws {
        let bytes = try LogFixture("hostile-build-and-test.log").bytes
        #expect(Self.parse(bytes, inPiecesOf: pieceSize) == (try LogFixture("hostile-build-and-test.log").run()))
    }

    /// `bytes` read as a log given in pieces of `size` bytes.
    static func parse(_ bytes: [UInt8], inPiecesOf size: Int) -> TestRun {
        var parser = TestLogParser()
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            bytes[offset..<end].withUnsafeBytes { parser.consume($0) }
            offset = end
        }
        return parser.finish()
    }

    @Test(
        "plain lines, coloured ones and bad UTF-8 mixed, a multi-byte symbol cut between pieces: read as line by line",
        arguments: [1, 5, 16, 61, 4096])
    func plainAndOtherLinesInPieces(pieceSize: Int) {
        // A piece's lines are told plain all at once, unless one is not: then each line is.
        var log: [UInt8] = []
        for round in 0..<30 {
            log += Array("Test Suite 'S\(round)' started at 2026-11-22 14:03:53.085\n".utf8)
            log += Array("Test Case 'S\(round).testA' started at 2026-11-22 14:03:53.085\n".utf8)
            if round % 4 == 1 { log += [0x62, 0x61, 0x64, 0xFF, 0xC3, 0x0A] }
            log += Array("Test Case 'S\(round).testA' passed (0.001 seconds)\n".utf8)
            if round % 3 == 0 {
                // A test whose lines count only once their colours are taken off.
                log += Array("\u{1B}[31mred output\u{1B}[0m\n".utf8)
                log += Array("\u{1B}[1mTest Case 'S\(round).testB' started at 2026-11-22 14:03:53.085\u{1B}[0m\n".utf8)
                log += Array("\u{1B}[1mTest Case 'S\(round).testB' passed (0.001 seconds)\u{1B}[0m\n".utf8)
            }
            log += Array("Test Suite 'S\(round)' passed at 2026-11-22 14:03:53.086.\n".utf8)
            log += Array("\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds\n".utf8)
        }
        log += Array("◇ Test run started.\n".utf8)
        for round in 0..<30 {
            log += Array("◇ Test t\(round)(x:) started.\n✔ Test t\(round)(x:) passed after 0.002 seconds.\n".utf8)
        }
        log += Array("✔ Test run with 30 tests passed after 0.1 seconds.\n".utf8)
        var lineByLine = TestLogParser()
        for line in log.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            lineByLine.consume(line: String(decoding: line, as: UTF8.self))
        }
        let expected = lineByLine.finish()
        #expect(expected.totals.tests == 70)
        #expect(Self.parse(log, inPiecesOf: pieceSize) == expected)
    }

    @Test(
        "a merged --parallel class's cases in order of name, each name's in the order they came, as a stable sort gives"
    )
    func casesSortedByName() {
        var generator = SplitMix64(seed: 0xCA5E)
        // Names repeated (and one written two ways that are the same text), told apart by duration.
        let names = ["testB", "testA", "test_a_long_name_beyond_fifteen_bytes", "é", "e\u{301}", "Z", "testA2", ""]
        for count in [0, 1, 2, 17, 300] {
            let cases = (0..<count).map { index in
                TestRun.Case(
                    className: "C", testName: names[Int(generator.next() % UInt64(names.count))], status: .passed,
                    duration: Double(index))
            }
            // The cases once, and again and again as the runs of a class come.
            for sample in [cases, Array(repeating: cases, count: 3).flatMap { $0 }] {
                let expected = sample.enumerated().sorted {
                    $0.element.testName != $1.element.testName
                        ? $0.element.testName < $1.element.testName : $0.offset < $1.offset
                }.map(\.element)
                var sorted = sample
                TestLogParser.sortByName(&sorted)
                #expect(sorted == expected, "\(count)")
                #expect(TestLogParser.names(of: sample[...]) == Set(cases.map(\.testName)), "\(count)")
            }
        }
    }

    @Test("read from a pipe: every piece seen before it is parsed; stopped, what came before is kept")
    func readFromDescriptor() throws {
        let bytes = try LogFixture("hostile-build-and-test.log").bytes
        for stopAfterFirst in [false, true] {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            let writing = ends[1]
            // Written by another thread while it is read.
            let writer = Thread {
                bytes.withUnsafeBytes { raw in
                    var written = 0
                    while written < raw.count {
                        let count = write(writing, raw.baseAddress! + written, raw.count - written)
                        if count <= 0 { break }
                        written += count
                    }
                }
                close(writing)
            }
            writer.start()
            var stream = TestResultsStream(path: "-", utcOffset: 0)
            var seen: [UInt8] = []
            try TestResultsReader.read(
                descriptor: ends[0], path: "-", into: &stream, piece: { seen += $0 },
                stop: { stopAfterFirst && !seen.isEmpty })
            if stopAfterFirst {
                // The rest is drained, so that the writer ends.
                var rest = [UInt8](repeating: 0, count: 1 << 16)
                while read(ends[0], &rest, rest.count) > 0 {}
            }
            close(ends[0])
            #expect(seen.count <= bytes.count && Array(bytes.prefix(seen.count)) == seen)
            if stopAfterFirst {
                #expect(!seen.isEmpty)
            } else {
                #expect(seen == bytes)
                let input = try stream.finish()
                guard case .log(let run) = input else {
                    Issue.record("read as \(input)")
                    continue
                }
                #expect(run == (try LogFixture("hostile-build-and-test.log").run()))
            }
        }
    }

    @Test("build output around the tests is kept apart from them")
    func buildOutput() throws {
        let run = try LogFixture("hostile-build-and-test.log").run()
        #expect(run.output.contains { $0.hasPrefix("Build complete!") })
        #expect(!run.cases.contains { $0.output.contains("Compiling") })
        let plain = try LogFixture("hostile-xctest-and-swift-testing.log").run()
        #expect(run.totals == plain.totals)
    }

    @Test("what a test prints is its output; a failure message over several lines stays whole")
    func outputAndMessages() throws {
        let run = try LogFixture("hostile-xctest-and-swift-testing.log").run()
        let printing = try #require(run.cases.first { $0.name == "testPrintsOutput" })
        #expect(printing.output == "plain output line\n\u{1B}[31mred text\u{1B}[0m and <&\"'> and nul:\u{0}:end")
        let twoFailures = try #require(run.cases.first { $0.name == "testTwoFailures" })
        #expect(
            twoFailures.issues.map(\.message) == [
                "XCTAssertEqual failed: (\"4\") is not equal to (\"5\") - first",
                "XCTAssertEqual failed: (\"6\") is not equal to (\"7\") - second\nspans two lines",
            ])
        #expect(twoFailures.issues.map(\.location?.line) == [11, 12])
        let thrown = try #require(run.cases.first { $0.name == "testThrows" })
        #expect(thrown.status == .error)
        #expect(thrown.issues.map(\.location) == [nil])
        let skipped = try #require(run.cases.first { $0.name == "testSkipped" })
        #expect(skipped.status == .skipped)
        #expect(skipped.skipReason == "not on this platform <yet>")

        let multiline = try #require(run.cases.first { $0.name == "multilineFailure()" })
        #expect(
            multiline.issues.first?.message
                == "Expectation failed: (text → \"line one\nline two\") == (\"line one\\nline 2\" → \"line one\nline 2\")"
        )
        let commented = try #require(run.cases.first { $0.name == "Doc commented (value → \"y\")" })
        #expect(
            commented.issues.first?.message
                == "Expectation failed: (value → \"y\") == \"x\"\nonly x is fine\nsecond comment line")
        #expect(run.cases.first { $0.name == "Doc commented (value → \"x\")" }?.status == .passed)
        let known = try #require(run.cases.first { $0.name == "knownIssue()" })
        #expect(known.status == .passed)
        #expect(known.issues.map(\.kind) == [.knownIssue])
        #expect(run.cases.first { $0.name == "warns()" }?.issues.map(\.kind) == [.warning])
        #expect(run.cases.first { $0.name == "throwsError()" }?.status == .error)
        #expect(run.cases.first { $0.name == "Free <display> & \"name\"" }?.status == .failed)
    }

    @Test("an XCTest crash: the test that was running is an error with the crash message; Swift Testing still counts")
    func xctestCrash() throws {
        let log = LogFixture("hostile-xctest-crash.log")
        let run = try log.run()
        #expect(!run.isComplete)
        let crashed = try #require(run.cases.first { $0.name == "testCrashes" })
        #expect(crashed.status == .error)
        #expect(crashed.issues.first?.kind == .crash)
        #expect(crashed.issues.first?.message.hasSuffix("Fatal error: deliberate crash") == true)
        #expect(
            crashed.issues.first?.location
                == TestRun.SourceLocation(file: "HostileXCTests/ArithmeticTests.swift", line: 35))
        #expect(crashed.output.contains("Program crashed"))
        #expect(StatedCounts(run: run).swiftTesting?.tests == (try StatedCounts(log: log.text)).swiftTesting?.tests)
    }

    @Test(
        "two Swift Testing tests of one name run at once: the issue goes to the one that fails",
        arguments: [false, true])
    func sameNameAtOnce(failingEndsFirst: Bool) {
        let ends = [
            "✔ Test same() passed after 0.002 seconds.", "✘ Test same() failed after 0.003 seconds with 1 issue.",
        ]
        let log =
            [
                "◇ Test run started.", "◇ Test same() started.", "◇ Test same() started.",
                "✘ Test same() recorded an issue at A.swift:3:5: Expectation failed: (x → 1) == 2",
            ] + (failingEndsFirst ? ends.reversed() : ends) + [
                "✘ Test run with 2 tests failed after 0.004 seconds with 1 issue."
            ]
        var parser = TestLogParser()
        for line in log { parser.consume(line: line) }
        let run = parser.finish()
        #expect(run.cases.map(\.status).sorted() == [.passed, .failed])
        #expect(run.cases.flatMap(\.issues).map(\.message) == ["Expectation failed: (x → 1) == 2"])
        #expect(run.cases.first { $0.status == .failed }?.issues.count == 1)
    }

    @Test("a Swift Testing crash: every test still running is an error, none is lost")
    func swiftTestingCrash() throws {
        let log = LogFixture("hostile-swift-testing-crash.log")
        let text = try log.text
        let run = try log.run()
        #expect(!run.isComplete)
        let started = Set(
            text.matches(of: #/◇ Test (.+) started\./#).map { String($0.1) }.filter {
                !$0.hasPrefix("case passing ") && $0 != "run"
            })
        let ended = Set(
            text.matches(of: #/[✔✘━] Test (.+?)(?: with \d+ test cases?)? (?:passed|failed) after/#).map {
                String($0.1)
            })
        let running = started.subtracting(ended).map(TestLogParser.unquoted)
        #expect(!running.isEmpty)
        for name in running {
            #expect(run.cases.contains { $0.testName == name && $0.status == .error }, "\(name)")
        }
        #expect(run.cases.filter { $0.issues.contains { $0.kind == .crash } }.count == running.count)
    }

    @Test("a log cut at any line: the test it stops in is an error, nothing before it changes")
    func cutAnywhere() throws {
        let lines = try LogFixture("SampleReports/swift-test-failing.log").text.split(
            separator: "\n", omittingEmptySubsequences: false)
        for count in stride(from: 1, to: lines.count, by: 3) {
            var parser = TestLogParser()
            for line in lines.prefix(count) { parser.consume(line: String(line)) }
            let run = parser.finish()
            let last = lines.prefix(count).last { $0.hasPrefix("Test Case '") }
            if let last, last.contains("' started at ") {
                let name = last.split(separator: "'")[1].split(separator: ".").last.map(String.init)
                #expect(run.cases.last { $0.testName == name }?.status == .error, "cut after line \(count)")
                #expect(!run.isComplete)
            }
            if !lines.prefix(count).contains(where: { $0.hasPrefix("◇ Test run started.") }) {
                #expect(run.cases.filter { $0.status == .error }.count <= 1)
            }
        }
    }

    @Test("macOS XCTest names carry the module; failures, skips and caught errors read as on Linux")
    func macOS() throws {
        let run = try LogFixture("invented-macos.log").run()
        #expect(run.suites.first?.name == "HostileXCTests.ArithmeticTests")
        #expect(run.suites.first?.timestamp == "2026-11-22T15:10:01")
        let thrown = try #require(run.cases.first { $0.name == "testThrows" })
        #expect(thrown.status == .error)
        #expect(run.cases.first { $0.name == "testSkipped" }?.skipReason == "not on this platform <yet>")
    }

    @Test("a test case is a few dozen bytes; what most tests leave empty takes no room")
    func compactCases() {
        #expect(MemoryLayout<TestRun.Case>.stride <= 56)
        var testCase = TestRun.Case(className: "C", testName: "t", status: .passed)
        testCase.output = ""
        testCase.skipReason = nil
        testCase.issues = []
        #expect(testCase == TestRun.Case(className: "C", testName: "t", status: .passed))
        testCase.output = "printed"
        #expect(testCase.output == "printed")
        #expect(testCase != TestRun.Case(className: "C", testName: "t", status: .passed))
    }

}

/// SwiftPM's `--xunit-output` file: `classname/name` → passed (no `failure` element).
struct SwiftPMXUnit {
    let outcomes: [String: Bool]

    init(path: String) throws {
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
        let delegate = Delegate()
        parser.delegate = delegate
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        outcomes = delegate.outcomes
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var outcomes: [String: Bool] = [:]
        var current: String?

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if element == "testcase" {
                current = "\(attributes["classname"] ?? "")/\(attributes["name"] ?? "")"
                outcomes[current!] = true
            } else if element == "failure" || element == "error", let current {
                outcomes[current] = false
            }
        }
    }
}
