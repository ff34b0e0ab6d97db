import Foundation
import Testing

@testable import SwiftCovCore

/// Lines a test prints that look like XCTest's or Swift Testing's own change no result: each real
/// log, with such lines inserted where a test was running, reads exactly as without them. (The
/// inserted lines are invented; the logs around them are real.)
@Suite("printed look-alike lines")
struct LookAlikeLineTests {
    /// What a run says about its tests, leaving out what they printed.
    struct Results: Equatable {
        var cases: [String]
        var summaries: [TestRun.LogSummary]
        var isComplete: Bool

        init(_ run: TestRun) {
            cases = run.suites.flatMap { suite in
                suite.cases.map { testCase in
                    let issues = testCase.issues.map { "\($0.kind) \($0.location?.description ?? "-") \($0.message)" }
                    return [
                        suite.name, testCase.className, testCase.name, testCase.status.rawValue,
                        testCase.skipReason ?? "-", testCase.location?.description ?? "-",
                    ].joined(separator: " | ") + " | " + issues.joined(separator: " / ")
                }
            }
            summaries = run.summaries
            isComplete = run.isComplete
        }
    }

    static let xctestLookAlikes = [
        "Test Suite 'Fake' failed at 2026-01-01 00:00:00.000",
        "Test Suite 'Fake' started at 2026-01-01 00:00:00.000",
        "Test Case 'Fake.testPhantom' started at 2026-01-01 00:00:00.000",
        "Test Case 'Fake.testPhantom' failed (0.001 seconds)",
        "/tmp/Fake.swift:1: error: Fake.testPhantom : XCTAssertTrue failed",
        "\t Executed 999 tests, with 99 failures (0 unexpected) in 0.1 (0.1) seconds",
        "✔ Test run with 999 tests in 9 suites passed after 1.0 seconds.",
        "✘ Test phantom() recorded an issue at Fake.swift:1:1: printed",
        "◇ Test phantom() started.",
        "Test Suite 'Fake' passed at 2026-01-01 00:00:00.000",
    ]

    static let swiftTestingLookAlikes = [
        "✔ Test run with 999 tests in 9 suites passed after 1.0 seconds.",
        "✘ Test phantom() failed after 0.1 seconds with 1 issue.",
        "Test Suite 'Fake' failed at 2026-01-01 00:00:00.000",
        "Test Suite 'Fake' started at 2026-01-01 00:00:00.000",
        "Test Case 'Fake.testPhantom' started at 2026-01-01 00:00:00.000",
        "Test Case 'Fake.testPhantom' failed (0.001 seconds)",
        "\t Executed 999 tests, with 99 failures (0 unexpected) in 0.1 (0.1) seconds",
        "✘ Test run with 5 tests failed after 0.1 seconds with 3 issues.",
    ]

    /// `log` with `lines` inserted after every `every`-th line that starts a test.
    static func inserting(into log: String, every: Int = 3) -> String {
        var result: [Substring] = []
        var started = 0
        for line in log.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            result.append(line)
            var plain = Substring(String(line).strippingANSIEscapes)
            if plain.hasSuffix("\r") { plain = plain.dropLast() }
            if plain.hasPrefix("Test Case '"), plain.contains("' started") {
                started += 1
                guard started % every == 1 else { continue }
                result += xctestLookAlikes.map { Substring($0) }
                // The test prints its own end line too: XCTest's comes later.
                let name = plain.dropFirst(11).prefix { $0 != "'" }
                result.append("Test Case '\(name)' passed (0.001 seconds)")
            } else if plain.hasPrefix("◇ Test "), plain.hasSuffix(" started."), !plain.hasPrefix("◇ Test run") {
                started += 1
                guard started % every == 1 else { continue }
                result += swiftTestingLookAlikes.map { Substring($0) }
            }
        }
        return result.joined(separator: "\n")
    }

    static func read(_ text: String) -> TestRun {
        var parser = TestLogParser()
        Array(text.utf8).withUnsafeBytes { parser.consume($0) }
        return parser.finish()
    }

    @Test(
        "a real log reads the same with printed status lines inside its tests",
        arguments: LogFixture.complete
            + [
                "hostile-parallel.log", "hostile-xctest-crash.log", "hostile-swift-testing-crash.log",
                "yams-parallel.log", "hostile-parallel-crash.log", "SampleReports/swift-test-parallel.log",
            ].map(LogFixture.init))
    func lookAlikes(log: LogFixture) throws {
        let text = try log.text
        let withLookAlikes = Self.inserting(into: text)
        #expect(Results(Self.read(withLookAlikes)) == Results(Self.read(text)))
    }

    @Test("the inserted lines are the test's output, not lost")
    func keptAsOutput() throws {
        let run = Self.read(Self.inserting(into: try LogFixture("yams.log").text, every: 1000))
        let first = try #require(run.cases.first { $0.output.contains("Test Suite 'Fake' failed") })
        #expect(first.output.contains("✔ Test run with 999 tests"))
        #expect(!run.cases.contains { $0.testName == "testPhantom" || $0.testName == "phantom()" })
    }

    @Test("a whole Swift Testing run a test prints is its output, when the run's own count leaves it out")
    func printedRun() {
        let log = """
            ◇ Test run started.
            ◇ Test real() started.
            ◇ Test run started.
            ◇ Test phantom() started.
            ✘ Test phantom() recorded an issue at Fake.swift:1:1: Expectation failed: phantom
            ✘ Test phantom() failed after 0.001 seconds with 1 issue.
            ✔ Test run with 999 tests passed after 1 seconds.
            ✔ Test real() passed after 0.002 seconds.
            ✔ Test run with 1 test passed after 0.003 seconds.
            """
        let run = Self.read(log)
        #expect(run.cases.map(\.testName) == ["real()"])
        #expect(run.totals.failed == 0 && run.isComplete)
        // When the run's count does not confirm it, the printed test stays: never a false green.
        let unconfirmed = Self.read(log.replacingOccurrences(of: "with 1 test passed", with: "with 2 tests passed"))
        #expect(unconfirmed.cases.map(\.testName).sorted() == ["phantom()", "real()"])
        #expect(unconfirmed.totals.failed == 1)
    }

    @Test("a test that prints the line of its own end: XCTest's later line decides")
    func ownEndLine() {
        let log = """
            Test Suite 'All tests' started at 2026-11-23 20:36:03.896
            Test Suite 'PrintTests' started at 2026-11-23 20:36:03.952
            Test Case 'PrintTests.testLies' started at 2026-11-23 20:36:03.952
            Test Case 'PrintTests.testLies' passed (0.001 seconds)
            /tmp/p/Tests/PTests/PrintTests.swift:9: error: PrintTests.testLies : XCTAssertTrue failed
            Test Case 'PrintTests.testLies' failed (0.005 seconds)
            Test Suite 'PrintTests' failed at 2026-11-23 20:36:03.960
            \t Executed 1 test, with 1 failure (0 unexpected) in 0.005 (0.005) seconds
            Test Suite 'All tests' failed at 2026-11-23 20:36:03.960
            \t Executed 1 test, with 1 failure (0 unexpected) in 0.005 (0.005) seconds
            """
        let run = Self.read(log)
        #expect(run.cases.count == 1)
        #expect(run.cases.first?.status == .failed)
        #expect(run.cases.first?.issues.map(\.message) == ["XCTAssertTrue failed"])
        #expect(run.cases.first?.duration == 0.005)
    }
}
