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

@Suite("Reading JUnit XML back, and merging the results of shards", .removingTemporaryFolders)
struct JUnitXMLReaderTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden").path

    /// swiftcov's JUnit files (reviewed golden files), every kind of outcome among them.
    static let ownFiles = [
        "junit-linux.xml", "junit-parallel-crash.xml", "junit-swift-testing-events.xml", "junit-hostile.xml",
        "junit-truncated-xctest.xml", "junit-truncated-swift-testing.xml", "junit-windows.xml",
        // Retries, as Maven Surefire writes them: flakyFailure (passed in the end), rerunFailure.
        "junit-xcode-Test-FlakyFixture.xml", "junit-xcode-test_repeated.xml", "junit-xcode-tests-json.xml",
    ]

    static func read(_ path: String) throws -> TestRun {
        try TestResultsReader.read(paths: [path], utcOffset: 0)
    }

    static func options() -> JUnitReport.Options {
        JUnitReport.Options(hostname: "ci-host", timestamp: "2026-11-22T14:03:53")
    }

    @Test("retries read back: flaky when it passed in the end, failed when a rerunFailure says so, whatever else")
    func retries() throws {
        let flaky = try Self.read(Self.goldenDirectory + "/junit-xcode-Test-FlakyFixture.xml")
        #expect(flaky.totals.flaky == 1 && flaky.totals.failed == 0)
        let xml = """
            <testsuites><testsuite name="S">
            <testcase classname="S" name="rerunOnly"><rerunFailure message="boom" type="failure"/></testcase>
            <testcase classname="S" name="twice"><failure message="first"/><rerunFailure message="second"/></testcase>
            <testcase classname="S" name="flaky"><flakyError message="crashed" type="crash"/></testcase>
            </testsuite></testsuites>
            """
        let run = try JUnitXMLReader.read(Array(xml.utf8), path: "r.xml")
        let cases = Dictionary(uniqueKeysWithValues: run.suites.flatMap(\.cases).map { ($0.name, $0) })
        // A rerunFailure without a failure beside it is still a failure: never a pass.
        #expect(cases["rerunOnly"]?.status == .failed && cases["rerunOnly"]?.issues.first?.message == "boom")
        #expect(cases["twice"]?.status == .failed && cases["twice"]?.issues.first?.message == "second")
        #expect(cases["twice"]?.attempts.map { $0.issues.first?.message } == ["first"])
        #expect(cases["flaky"]?.isFlaky == true && cases["flaky"]?.attempts.first?.status == .error)
        #expect(run.totals.failed == 2 && run.totals.flaky == 1)
    }

    @Test("a retried test whose runs failed in different ways reads back the same (found by fuzzing)")
    func retriesEndingDifferently() throws {
        // Failed first, then errored: the first run's element is named after its own outcome.
        var retried = TestRun.Case(className: "S", testName: "a", status: .error)
        retried.issues = [TestRun.Issue(kind: .crash, message: "crashed")]
        retried.attempts = [
            TestRun.Case.Attempt(status: .failed, issues: [TestRun.Issue(kind: .failure, message: "f")])
        ]
        var suite = TestRun.Suite(name: "S", framework: .xctest)
        suite.cases = [retried]
        let xml = JUnitReport.render(TestRun(suites: [suite]), options: Self.options())
        #expect(xml.contains("<failure message=\"f\" type=\"failure\">f</failure>"))
        #expect(xml.contains("<rerunError message=\"crashed\" type=\"crash\">"))
        let read = try JUnitXMLReader.read(Array(xml.utf8), path: "r.xml")
        #expect(read.cases == [retried])

        // The fuzzer's input: a rerun, a flaky run and a failure of one test, in any order.
        let fuzzed = """
            <testsuites><testsuite name="S"><testcase classname="S" name="a"><rerunFailure message="m">\
            <stackTrace>x</stackTrace></rerunFailure><flakyError type="crash"/><failure message="f">?rerunFailure/>\
            </failure></testcase></testsuite></testsuites>
            """
        let once = try JUnitXMLReader.read(Array(fuzzed.utf8), path: "f.xml")
        let twice = try JUnitXMLReader.read(
            Array(JUnitReport.render(once, options: Self.options()).utf8), path: "again.xml")
        #expect(once.cases.first?.status == .error && once.cases.first?.attempts.map(\.status) == [.failed, .failed])
        #expect(twice.cases == once.cases)
    }

    @Test("bytes that are not UTF-8 are an error naming where they are, not a trap in FoundationXML")
    func notUTF8() {
        let bytes = Array("<testsuites>\n  <testsuite name=\"A".utf8) + [0xFF, 0xFE] + Array("\"/></testsuites>".utf8)
        let error = #expect(throws: TestResultsError.self) { try JUnitXMLReader.read(bytes, path: "j.xml") }
        #expect(error?.description == "j.xml:2:21: error: not UTF-8 (byte offset 33); JUnit XML must be")
        #expect(JUnitXMLReader.firstInvalidUTF8(in: Array("é ok".utf8)) == nil)
        #expect(JUnitXMLReader.firstInvalidUTF8(in: [0x61, 0xC3]) == 1)
    }

    @Test("swiftcov's own JUnit reads back into the same document", arguments: ownFiles)
    func roundTrip(name: String) throws {
        let path = Self.goldenDirectory + "/" + name
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let run = try Self.read(path)
        #expect(run.hasTestOutput)
        let written = JUnitReport.render(run, options: Self.options())
        // The run's total time is the log's own summary, which JUnit does not keep: line 2 aside, the same bytes.
        var expectedLines = original.split(separator: "\n", omittingEmptySubsequences: false)
        var writtenLines = written.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(expectedLines.count == writtenLines.count)
        #expect(expectedLines[1].hasPrefix("<testsuites ") && writtenLines[1].hasPrefix("<testsuites "))
        expectedLines.removeFirst(2)
        writtenLines.removeFirst(2)
        for (index, (mine, theirs)) in zip(writtenLines, expectedLines).enumerated() where mine != theirs {
            Issue.record("line \(index + 3) differs:\n  golden: \(theirs)\n  read:   \(mine)")
            break
        }
    }

    @Test(
        "SwiftPM's --xunit-output files: every test with its outcome, grouped by class",
        arguments: [
            "yams-parallel-xunit.xml", "real-swift-log-parallel-xunit-swift-testing.xml",
            "real-swift-subprocess-xunit-swift-testing.xml", "hostile-parallel-xunit-swift-testing.xml",
            "hostile-parallel-crash-xunit.xml", "real-oddities-parallel-xunit.xml",
        ])
    func swiftPMFiles(name: String) throws {
        let fixture = LogFixture(name)
        let run = try fixture.run()
        let theirs = try SwiftPMXUnit(path: fixture.path).outcomes
        #expect(!theirs.isEmpty)
        var ours: [String: Bool] = [:]
        for testCase in run.cases { ours["\(testCase.className)/\(testCase.name)"] = testCase.status != .failed }
        #expect(ours == theirs)
        #expect(run.cases.count == theirs.count)
        for suite in run.suites {
            #expect(suite.cases.allSatisfy { $0.className == suite.name })
            #expect(suite.framework == (name.hasSuffix("-swift-testing.xml") ? .swiftTesting : .xctest))
        }
    }

    @Test("Swift Testing's skip reasons and multi-line failure messages come through")
    func swiftTestingDetails() throws {
        let run = try LogFixture("hostile-parallel-xunit-swift-testing.xml").run()
        let disabled = try #require(run.cases.first { $0.testName == "disabled()" })
        #expect(disabled.status == .skipped)
        #expect(disabled.skipReason == "waiting for <upstream> fix")
        #expect(run.cases.first { $0.testName == "conditionallyOff()" }?.skipReason == nil)
        let nested = try #require(run.cases.first { $0.testName == "nestedFails()" })
        #expect(nested.status == .failed)
        #expect(nested.issues.map(\.message) == ["Issue recorded (error): nested failure\nsecond line"])
        #expect(nested.duration == 0.000942526)
    }

    @Test("failure texts: located lines start issues, the rest continue them; the element's type marks its headline")
    func issueText() {
        let issues = JUnitXMLReader.issues(
            text: "Tests/A.swift:3: first\ncontinued at 12:30: still first\n/abs/B.swift:9: boom",
            headline: "boom", kind: .failure, headlineKind: .crash)
        #expect(issues.map(\.message) == ["first\ncontinued at 12:30: still first", "boom"])
        #expect(issues.map(\.kind) == [.failure, .crash])
        #expect(issues.map { $0.location?.description } == ["Tests/A.swift:3", "/abs/B.swift:9"])
        let plain = JUnitXMLReader.issues(text: "failure", headline: "failure", kind: .failure, headlineKind: .error)
        #expect(plain == [TestRun.Issue(kind: .error, message: "failure")])
    }

    @Test("shards' files merge into the whole run: every test once, in its suite")
    func shardsMerge() throws {
        let whole = try Self.read(Self.goldenDirectory + "/junit-linux.xml")
        // Split the run the way shards would: alternate test cases into two documents.
        var halves = [TestRun(), TestRun()]
        var number = 0
        for suite in whole.suites {
            var parts = [suite, suite]
            parts[0].cases = []
            parts[1].cases = []
            for testCase in suite.cases {
                parts[number % 2].cases.append(testCase)
                number += 1
            }
            for half in 0..<2 where !parts[half].cases.isEmpty { halves[half].suites.append(parts[half]) }
        }
        let directory = try temporaryDirectory()
        var paths: [String] = []
        for (index, half) in halves.enumerated() {
            let path = directory + "/shard\(index + 1).xml"
            try JUnitReport.render(half, options: Self.options()).write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let merged = try TestResultsReader.read(paths: paths, utcOffset: 0)
        #expect(merged.duplicates.isEmpty)
        #expect(merged.totals == whole.totals)
        func outcomes(_ run: TestRun) -> [String: TestRun.Status] {
            Dictionary(uniqueKeysWithValues: run.cases.map { ("\($0.className)/\($0.name)", $0.status) })
        }
        #expect(outcomes(merged) == outcomes(whole))
        #expect(Set(merged.suites.map(\.name)) == Set(whole.suites.map(\.name)))
        #expect(merged.suites.count == whole.suites.count)
    }

    @Test("a test two inputs report is kept once, with its worst outcome, and listed")
    func duplicates() throws {
        let directory = try temporaryDirectory()
        func write(_ status: String, _ name: String) throws -> String {
            let body = status == "passed" ? "" : status == "skipped" ? "<skipped/>" : "<\(status) message=\"m\"/>"
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites><testsuite name="TestResults">
                <testcase classname="M.C" name="testA" time="1.5">\(body)</testcase>
                <testcase classname="M.C" name="test\(name)"/>
                </testsuite></testsuites>
                """
            let path = directory + "/\(name).xml"
            try xml.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let run = try TestResultsReader.read(
            paths: [write("passed", "B"), write("failure", "C"), write("skipped", "D")], utcOffset: 0)
        #expect(run.cases.map(\.name) == ["testA", "testB", "testC", "testD"])
        #expect(run.cases.first?.status == .failed)
        #expect(
            run.duplicates == [
                TestRun.Duplicate(suite: "M.C", test: "testA", outcomes: [.passed, .failed], kept: .failed),
                TestRun.Duplicate(suite: "M.C", test: "testA", outcomes: [.failed, .skipped], kept: .failed),
            ])
        #expect(run.duplicates[0].description == "M.C.testA is reported more than once (passed, failed); kept failed")
    }

    @Test(
        "XML that is not JUnit, or not XML at all: one line naming the file and where",
        arguments: [
            ("<?xml version=\"1.0\"?>\n<html><body/></html>", "2:", "the root element is <html>"),
            (
                "<testsuites>\n<testsuite name=\"a\">\n<testcase name=\"x\">\n</testsuites>", "4:",
                "not well-formed XML (an end tag does not match its start tag)"
            ),
            ("<?xml version=\"1.0\"?>\n", "", "not well-formed XML"),
            (
                "<testsuites><testsuite name=\"&undefined;\"/></testsuites>", "1:",
                "not well-formed XML (an undeclared entity)"
            ),
            ("<testsuites><testcase name=\"x\"/></testsuites>", "1:", "<testcase> outside any <testsuite>"),
        ])
    func notJUnit(xml: String, line: String, message: String) throws {
        let directory = try temporaryDirectory()
        let path = directory + "/bad.xml"
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try Self.read(path)
            Issue.record("read \(xml) without an error")
        } catch let error as TestResultsError {
            let text = error.description
            #expect(text.hasPrefix(path + ":" + line), "\(text)")
            #expect(text.contains("error: "), "\(text)")
            #expect(text.contains(message), "\(text)")
            #expect(!text.contains("\n"))
        }
    }

    @Test("only XML starting like JUnit is read as JUnit; a log line like `<unknown>:0:` is a log")
    func recognizes() {
        func recognizes(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes { JUnitXMLReader.recognizes($0) } }
        #expect(recognizes("<?xml version=\"1.0\"?><testsuites/>"))
        #expect(recognizes("\u{FEFF}\n  <testsuites>"))
        #expect(recognizes("<testsuite name=\"x\">"))
        #expect(!recognizes("<unknown>:0: error: -[X y] : failed"))
        #expect(!recognizes("Building for debugging...\n<?xml"))
    }
}
