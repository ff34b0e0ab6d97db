import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// Each line shape `swift test` prints, in every platform's form, and lines that only look alike.
@Suite("swift test line shapes")
struct TestLogLineTests {
    typealias Name = TestLogLine.XCTestName

    @Test(
        "XCTest lines, Linux and macOS forms",
        arguments: [
            (
                "Test Suite 'All tests' started at 2026-11-22 13:30:21.462",
                TestLogLine.suiteStarted(name: "All tests", timestamp: "2026-11-22 13:30:21.462")
            ),
            (
                "Test Suite 'OutputHandlerTests' passed at 2021-11-05 01:08:23.294.",
                .suiteFinished(name: "OutputHandlerTests", passed: true, timestamp: "2021-11-05 01:08:23.294")
            ),
            (
                "Test Case 'LoadQuestionsTests.testFailing' started at 2026-11-22 13:30:21.462",
                .testCaseStarted(Name(module: nil, className: "LoadQuestionsTests", method: "testFailing"))
            ),
            (
                "Test Case '-[TriviaCoreTests.LoadQuestionsTests testFailing]' passed (0.050 seconds).",
                .testCaseFinished(
                    Name(
                        module: "TriviaCoreTests", className: "LoadQuestionsTests", method: "testFailing",
                        form: .bracketed(instanceMethod: true)), .passed, seconds: 0.05)
            ),
            (
                "Test Case 'SkipTests.testSkipped' skipped (0.0 seconds)",
                .testCaseFinished(
                    Name(module: nil, className: "SkipTests", method: "testSkipped"), .skipped, seconds: 0)
            ),
            (
                "/abs/path/LoadQuestionsTests.swift:19: error: LoadQuestionsTests.testFailing : XCTAssertEqual failed: (\"1\") is not equal to (\"2\") - deliberate",
                .testCaseIssue(
                    Name(module: nil, className: "LoadQuestionsTests", method: "testFailing"),
                    location: TestRun.SourceLocation(file: "/abs/path/LoadQuestionsTests.swift", line: 19),
                    message: "XCTAssertEqual failed: (\"1\") is not equal to (\"2\") - deliberate")
            ),
            (
                "<unknown>:0: error: -[M.C testThrows] : failed: caught error: \"boom\"",
                .testCaseIssue(
                    Name(module: "M", className: "C", method: "testThrows", form: .bracketed(instanceMethod: true)),
                    location: nil,
                    message: "failed: caught error: \"boom\"")
            ),
            (
                "/abs/path/ExtraTests.swift:6: SkipTests.testSkipped : Test skipped - not on linux",
                .testCaseSkipped(
                    Name(module: nil, className: "SkipTests", method: "testSkipped"),
                    location: TestRun.SourceLocation(file: "/abs/path/ExtraTests.swift", line: 6),
                    reason: "not on linux")
            ),
            (
                "Test Case 'QuickSpec.a calculator, fails, with spaces & <xml> \"quotes\"' failed (0.001 seconds)",
                .testCaseFinished(
                    Name(
                        module: nil, className: "QuickSpec",
                        method: "a calculator, fails, with spaces & <xml> \"quotes\""), .failed,
                    seconds: 0.001)
            ),
            (
                "[2/5] Testing QuickTests.CalculatorSpec/a calculator, it's 1.5/2 \"x\"",
                .parallelProgress(
                    Name(
                        module: "QuickTests", className: "CalculatorSpec", method: "a calculator, it's 1.5/2 \"x\"",
                        form: .slashed),
                    index: 2, total: 5)
            ),
            (
                "\t Executed 4 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.006 (0.007) seconds",
                .executed(tests: 4, skipped: 1, failures: 1, unexpected: 0, seconds: 0.006, wallSeconds: 0.007)
            ),
            (
                "[3/12] Testing TriviaCoreTests.QuestionsLoaderTests/testProviderFailureIsWrapped",
                .parallelProgress(
                    Name(
                        module: "TriviaCoreTests", className: "QuestionsLoaderTests",
                        method: "testProviderFailureIsWrapped", form: .slashed),
                    index: 3, total: 12)
            ),
            (
                // Empty pieces of the counts are skipped, as `split` skips them.
                "[/3//12/] Testing M.C/m",
                .parallelProgress(Name(module: "M", className: "C", method: "m", form: .slashed), index: 3, total: 12)
            ),
            (
                "HostileXCTests/ArithmeticTests.swift:35: Fatal error: deliberate crash",
                .crash(
                    location: TestRun.SourceLocation(file: "HostileXCTests/ArithmeticTests.swift", line: 35),
                    message: "Fatal error: deliberate crash")
            ),
        ])
    func xctest(line: String, expected: TestLogLine) {
        let parsed = TestLogLine.parse(line)
        #expect(parsed == expected)
        // A name gives back the text it was printed as, and is found where it was printed.
        let name: TestLogLine.XCTestName? =
            switch parsed {
            case .testCaseStarted(let name), .testCaseFinished(let name, _, _), .testCaseIssue(let name, _, _),
                .testCaseSkipped(let name, _, _), .parallelProgress(let name, _, _):
                name
            default: nil
            }
        if let name, line.firstRange(of: name.printed) != nil {
            // A test case's lines are matched on the name its `started` line printed, taken from
            // the line itself: the same text.
            if line.hasPrefix("Test Case '") {
                #expect(LineText.with(line) { TestLogLine.printedCaseName($0, name)?.string } == name.printed)
            }
        } else if let name {
            Issue.record("\(name.printed) is not in the line")
        }
    }

    @Test(
        "Swift Testing messages, with the text, SF Symbols and Windows symbols and ANSI colours",
        arguments: [
            ("◇ Test run started.", TestLogLine.SwiftTestingMessage.runStarted),
            ("\u{1007C8} Suite GameSuite started.", .started(isSuite: true, name: "GameSuite")),
            ("◊ Test \"Display name here\" started.", .started(isSuite: false, name: "\"Display name here\"")),
            (
                "➜ Test disabledOne() skipped: \"flaky upstream\"",
                .skipped(isSuite: false, name: "disabledOne()", reason: "flaky upstream")
            ),
            ("\u{10065F} Test off() skipped.", .skipped(isSuite: false, name: "off()", reason: nil)),
            // A name may hold either verdict: the last one is the line's.
            (
                "✘ Test \"a passed after b\" failed after 0.003 seconds.",
                .ended(
                    isSuite: false, name: "\"a passed after b\"", caseCount: nil, passed: false, seconds: 0.003,
                    counts: .init())
            ),
            (
                "✔ Test \"x failed after y passed after z\" passed after 0.002 seconds.",
                .ended(
                    isSuite: false, name: "\"x failed after y passed after z\"", caseCount: nil, passed: true,
                    seconds: 0.002, counts: .init())
            ),
            (
                "\u{1B}[92m✔\u{1B}[0m Test correctAnswer() passed after 0.001 seconds.",
                .ended(
                    isSuite: false, name: "correctAnswer()", caseCount: nil, passed: true, seconds: 0.001,
                    counts: .init())
            ),
            (
                "× Test param(x:) with 3 test cases failed after 0.001 seconds with 1 issue.",
                .ended(
                    isSuite: false, name: "param(x:)", caseCount: 3, passed: false, seconds: 0.001,
                    counts: .init(total: 1))
            ),
            (
                "✘ Test param(x:) recorded an issue with 1 argument x → 2 at ExtraTests.swift:12:52: Expectation failed: (x → 2) != 2",
                .issue(
                    name: "param(x:)", arguments: "x → 2",
                    location: TestRun.SourceLocation(file: "ExtraTests.swift", line: 12, column: 52), kind: .failure,
                    message: "Expectation failed: (x → 2) != 2")
            ),
            (
                "- Test known() recorded a known issue at A.swift:3:4: Expectation failed: 1 == 2",
                .issue(
                    name: "known()", arguments: nil,
                    location: TestRun.SourceLocation(file: "A.swift", line: 3, column: 4),
                    kind: .knownIssue, message: "Expectation failed: 1 == 2")
            ),
            (
                "⚠\u{FE0E} Test warns() recorded a warning at A.swift:3:4: Issue recorded",
                .issue(
                    name: "warns()", arguments: nil,
                    location: TestRun.SourceLocation(file: "A.swift", line: 3, column: 4),
                    kind: .warning, message: "Issue recorded")
            ),
            (
                "\u{100884} Test throws() recorded an issue at A.swift:40:6: Caught error: boom",
                .issue(
                    name: "throws()", arguments: nil,
                    location: TestRun.SourceLocation(file: "A.swift", line: 40, column: 6),
                    kind: .error, message: "Caught error: boom")
            ),
            (
                "◇ Test case passing 2 arguments name → \"a\", value → 1 to \"Pairs\" started.",
                .caseStarted(argumentsAndTest: "name → \"a\", value → 1 to \"Pairs\"")
            ),
            (
                "✘ Test run with 18 tests in 4 suites failed after 0.004 seconds with 9 issues (including 1 warning and 1 known issue).",
                .runEnded(
                    tests: 18, suites: 4, passed: false, seconds: 0.004,
                    counts: .init(total: 9, knownIssues: 1, warnings: 1))
            ),
            (
                "√ Test run with 1 test passed after 0.001 seconds.",
                .runEnded(tests: 1, suites: nil, passed: true, seconds: 0.001, counts: .init())
            ),
            ("↳ only x is fine", .details("only x is fine")),
            ("→ Testing Library Version: 6.3.1", .details("Testing Library Version: 6.3.1")),
        ])
    func swiftTesting(line: String, expected: TestLogLine.SwiftTestingMessage) {
        #expect(TestLogLine.parse(line) == .swiftTesting(expected))
    }

    @Test(
        "lines that only look like test output are not recognised",
        arguments: [
            "[3/12] Compiling TriviaCore Question.swift",
            "[3/12/1] Testing M.C/m", "[3] Testing M.C/m", "[3/x] Testing M.C/m", "[3/12] Testing M.C/",
            "[3/12] Testing MC/m", "[3/12] Testing M .C/m",
            "/src/Sources/A.swift:3:9: error: cannot find 'x' in scope",
            "/src/Sources/A.swift:3:9: warning: variable 'y' was never used",
            "Build complete! (2.54s)",
            "- a bullet printed by a test",
            "Test Suite",
            "plain output line",
            "",
        ])
    func notRecognised(line: String) {
        #expect(TestLogLine.parse(line) == nil, "\(line)")
    }

    @Test(
        "XCTest's counts line in its usual shapes is read straight through, as word by word; other shapes word by word")
    func executedLines() throws {
        // Every counts line of the real logs kept here, and shapes beside them.
        let real = try ["yams.log", "real-quick.log", "swift-algorithms.log", "real-swift-log-parallel.log"].flatMap {
            try LogFixture($0).bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        }.compactMap { line in line.range(of: "Executed ").map { String(line[$0.upperBound...]) } }
        #expect(real.count > 20)
        let usual =
            real + [
                "3 tests, with 1 test skipped and 0 failures (0 unexpected) in 0.100 (0.200) seconds",
                "3 tests, with 2 tests skipped and 1 failure (1 unexpected) in 12.5 (12.75) seconds",
                "1 test, with 1 failure (0 unexpected) in 0 (0) seconds",
            ]
        let others = [
            "+3 tests, with 0 failures (0 unexpected) in 0.1 (0.1) seconds",
            "3  tests, with 0 failures (0 unexpected) in 0.1 (0.1) seconds",
            "3 tests, with 0 failures (0 unexpected) in 0.1 seconds",
            "3 tests, with 0 failures (0 unexpected) in 0.1 (0.1.) seconds",
            "3 tests, with 0 failures (0 unexpected) in 0.1 (0.1) seconds and more",
            "12345678901234567890 tests, with 0 failures (0 unexpected) in 0.1 (0.1) seconds",
            "3 tests, with 1 test skipped, 0 failures (0 unexpected) in 0.1 (0.1) seconds",
            "3 tests, with 0 failures (0 unexpected) in x (0.1) seconds",
            "3 tests, with 0 failures (0 unexpected) in in 0.1 (0.1) seconds",
        ]
        for line in usual + others {
            LineText.with(line) { text in
                let common = TestLogLine.parseCommonExecuted(text)
                #expect(common == nil || common == TestLogLine.parseExecutedWords(text), "\(line)")
                #expect((common != nil) == usual.contains(line), "\(line)")
            }
        }
    }

    @Test("a CR LF line end and ANSI codes around the whole line are ignored")
    func terminalDecorations() {
        #expect(
            TestLogLine.parse("\u{1B}[90m◇\u{1B}[0m Test run started.\r") == .swiftTesting(.runStarted))
        #expect(
            TestLogLine.parse("Test Case 'A.b' passed (0.1 seconds)\r")
                == .testCaseFinished(Name(module: nil, className: "A", method: "b"), .passed, seconds: 0.1))
    }
}
