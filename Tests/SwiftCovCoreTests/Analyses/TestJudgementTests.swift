import Foundation
import Testing

@testable import SwiftCovCore

/// How the gate judges tests: `"tests"` and `"quarantine"` in `.swiftcov.json`, test IDs matched
/// to the cases of a run, and the summaries that say which failures do not fail the gate. The
/// run is the trivia modules' failing run (SampleReports/).
@Suite("test judgement: flaky, order-dependent, quarantine")
struct TestJudgementTests {
    let run: TestRun

    init() throws {
        run = try LogFixture("SampleReports/swift-test-failing.log").run(
            events: "SampleReports/swift-testing-events.jsonl")
    }

    func configuration(_ json: String, path: String = ".swiftcov.json") throws -> GateConfiguration {
        try GateConfiguration.parse(Array(json.utf8), path: path)
    }

    func parseError(_ json: String) -> String? {
        #expect(throws: GateConfigurationError.self) { try configuration(json) }?.diagnostic.description
    }

    @Test("tests and quarantine: read, defaults pass, errors name the key, did-you-mean")
    func configurationKeys() throws {
        let defaults = try configuration("{}")
        #expect(defaults.tests == GateConfiguration.TestRules(flaky: .pass, orderDependent: .pass))
        let strict = try configuration(
            #"{"tests": {"flaky": "fail", "orderDependent": "fail"}, "quarantine": ["M.A/testB", "M.S/f(x:)"]}"#)
        #expect(strict.tests == GateConfiguration.TestRules(flaky: .fail, orderDependent: .fail))
        #expect(strict.quarantine.map(\.id.id) == ["M.A/testB", "M.S/f(x:)"])
        #expect(strict.quarantine.map(\.location) == [.keyPath("quarantine[0]"), .keyPath("quarantine[1]")])
        // A file, relative to the configuration's folder.
        #expect(try configuration(#"{"quarantine": "q.txt"}"#, path: "ci/gate.json").quarantineFile == "ci/q.txt")
        #expect(try configuration(#"{"quarantine": "q.txt"}"#).quarantineFile == "q.txt")
        #expect(
            try configuration(#"{"quarantine": "/abs/q.txt"}"#, path: "ci/gate.json").quarantineFile == "/abs/q.txt")

        #expect(
            parseError(#"{"tests": {"flakey": "pass"}}"#)
                == #".swiftcov.json: error: tests.flakey: unknown key; did you mean "flaky"?"#)
        #expect(
            parseError(#"{"quarantin": []}"#)
                == #".swiftcov.json: error: quarantin: unknown key; did you mean "quarantine"?"#)
        #expect(
            parseError(#"{"tests": {"flaky": "sometimes"}}"#)
                == #".swiftcov.json: error: tests.flaky: expected "pass" or "fail", found "sometimes""#)
        #expect(parseError(#"{"tests": []}"#)?.contains("tests: expected an object") == true)
        #expect(
            parseError(#"{"quarantine": ["M.A/t", "not a test"]}"#)?.hasPrefix(
                ".swiftcov.json: error: quarantine[1]: expected a test ID") == true)
        #expect(
            parseError(#"{"quarantine": 3}"#)?.contains("expected an array of test IDs or the path of a file") == true)
        // A shard keeps the test rules (only coverage rules are the merge's).
        #expect(strict.withoutCoverageRules.tests == strict.tests)
        #expect(strict.withoutCoverageRules.quarantine == strict.quarantine)
    }

    @Test("a quarantine file: one ID a line, comments and blank lines left out; a bad line is file:line")
    func quarantineFile() throws {
        let text = "\u{FEFF}# flaky on CI\n\nM.A/testB   # issue 4\r\n  M.S/f(x:)\n"
        let tests = try GateConfiguration.parseQuarantine(Array(text.utf8), path: "q.txt")
        #expect(tests.map(\.id.id) == ["M.A/testB", "M.S/f(x:)"])
        #expect(tests.map(\.location) == [.line(3), .line(4)])
        let error = #expect(throws: GateConfigurationError.self) {
            try GateConfiguration.parseQuarantine(Array("M.A/testB\nTests PASSED\n".utf8), path: "q.txt")
        }
        #expect(error?.diagnostic.description.hasPrefix(#"q.txt:2: error: "Tests PASSED": expected a test ID"#) == true)
        #expect(error?.diagnostic.exitCode == 2)
    }

    @Test(
        "a test ID names its cases: XCTest with or without the module, Swift Testing by suite and function",
        arguments: [
            ("M.Class/testA", "M.Class", "testA", nil, true),
            ("M.Class/testA", "Class", "testA", nil, true),
            ("M.Class/testA", "N.Class", "testA", nil, false),
            ("M.Class/testA", "M.Class", "testB", nil, false),
            ("M.Suite/Inner/f(x:)", "M.Suite.Inner", "f(x:)", nil, true),
            ("M.Suite/f()", "M.Suite", "Does a thing", "f()", true),
            ("M.Suite/f()", "M.Suite", "Does a thing", nil, false),
            ("M.f()", "M", "f()", nil, true),
            ("M.f()", "Swift Testing", "f()", nil, true),
            ("M.Suite/f()", "M.Other", "f()", nil, false),
        ] as [(String, String, String, String?, Bool)])
    func matching(id: String, className: String, name: String, function: String?, matches: Bool) throws {
        var testCase = TestRun.Case(className: className, testName: name, arguments: "x → 1", status: .failed)
        testCase.function = function
        #expect(try #require(TestID(id)).matches(testCase) == matches)
    }

    @Test("the event stream keeps a display-named test's function, so that its ID finds it")
    func displayNames() throws {
        let scores = try #require(run.cases.first { $0.testName.hasPrefix("A question scores once") })
        #expect(scores.function == "scoresOncePerQuestion()")
        #expect(try #require(TestID("TriviaGameTests.GameTests/scoresOncePerQuestion()")).matches(scores))
        #expect(
            run.failingIDs(among: [try #require(TestID("TriviaGameTests.GameTests/scoresOncePerQuestion()"))]).count
                == 1)
    }

    /// The trivia run with a flaky test (GameWrappingTests passed on a retry).
    func runWithRetry() throws -> TestRun {
        var run = run
        var retry = TestRun()
        var suite = TestRun.Suite(name: "GameWrappingTests", framework: .xctest)
        suite.cases = [
            TestRun.Case(
                className: "GameWrappingTests", testName: "testWrapsToFirstQuestionAfterLast", status: .passed,
                duration: 0.001)
        ]
        retry.suites = [suite]
        let id = try #require(TestID("TriviaGameTests.GameWrappingTests/testWrapsToFirstQuestionAfterLast"))
        let allPass = run.recordRetry(retry, of: id)
        #expect(allPass)
        return run
    }

    @Test(
        "the gate: a quarantined failure and an order-dependent one do not fail it; flaky and order-dependent fail it when the rules say so"
    )
    func judgement() throws {
        let run = try runWithRetry()
        let all = TestJudgement().failedTests(of: run).map(\.name)
        #expect(all.count == 4 && !all.contains { $0.contains("testWraps") })
        let configuration = try configuration(
            #"{"quarantine": ["TriviaCoreTests.QuestionsLoaderTests/testBundledQuestionsLoadOffline", "Gone.Class/testGone"]}"#
        )
        let dependence = OrderDependence(
            id: "TriviaGameTests.GameTests/nextQuestionAvailability(choice:)", alone: .failed, inSuite: .passed)
        let reverse = OrderDependence(
            id: "TriviaCoreTests.QuestionsLoaderTests/testFallback", alone: .passed, inSuite: .failed)
        var judgement = TestJudgement(configuration: configuration, orderDependent: [dependence, reverse])
        #expect(
            judgement.failedTests(of: run).map(\.name) == [
                "TriviaGameTests.GameTests.A question scores once, however often it is answered",
                "TriviaGameTests.TriviaTerminalTests.A round as the player sees it: a wrong answer, the right one, "
                    + "then the next question",
            ])
        #expect(
            judgement.excused(in: run).map(\.excuse.label) == [
                "quarantined", "order-dependent: fails alone, passes in the suite",
            ])
        #expect(
            configuration.unmatchedQuarantine(in: run).map(\.description) == [
                ".swiftcov.json: warning: quarantine[1]: quarantined test Gone.Class/testGone matches no test of the run"
            ])

        // Its runs alone disagreed (run --per-test's confirmation): flaky, excused as a flaky test is.
        var disagreeing = judgement
        disagreeing.orderDependent[0].aloneRuns = 4
        disagreeing.orderDependent[0].aloneAgreeing = 2
        #expect(
            disagreeing.excused(in: run).map(\.excuse.label).last
                == "flaky, also seen failing alone (failed 2 of 4 runs alone, passes in the suite)")
        disagreeing.rules = GateConfiguration.TestRules(flaky: .fail, orderDependent: .pass)
        #expect(
            disagreeing.failedTests(of: run).contains { $0.name.contains("nextQuestionAvailability") },
            "\(disagreeing.failedTests(of: run).map(\.name))")

        judgement.rules = GateConfiguration.TestRules(flaky: .fail, orderDependent: .fail)
        let strict = judgement.failedTests(of: run)
        #expect(strict.count == 5)
        #expect(
            strict.contains {
                $0.name.hasSuffix("testWrapsToFirstQuestionAfterLast") && $0.message == "flaky: failed 1 of 2 runs"
            })
        #expect(
            strict.contains {
                $0.name == reverse.id && $0.message == "order-dependent: passes alone, fails in the suite"
            })
        // Quarantine wins over every rule.
        #expect(!strict.contains { $0.name.contains("QuestionsLoaderTests.testBundledQuestionsLoadOffline") })
        #expect(FailedTest.all(of: run).count == 4)
    }

    @Test(
        "table, Markdown and JSON say which failures do not fail the gate, the flaky tests and their runs (golden files)"
    )
    func goldens() throws {
        var run = try runWithRetry()
        // A test that failed every retry.
        var again = TestRun()
        var suite = TestRun.Suite(name: "QuestionsLoaderTests", framework: .xctest)
        var failing = TestRun.Case(
            className: "QuestionsLoaderTests", testName: "testBundledQuestionsLoadOffline", status: .failed)
        failing.issues = [
            TestRun.Issue(
                kind: .failure, message: "XCTAssertEqual failed: again",
                location: .init(file: "Tests/TriviaCoreTests/QuestionsLoaderTests.swift", line: 45))
        ]
        suite.cases = [failing]
        again.suites = [suite]
        let loader = try #require(TestID("TriviaCoreTests.QuestionsLoaderTests/testBundledQuestionsLoadOffline"))
        let passes = run.recordRetry(again, of: loader)
        #expect(!passes)
        let judgement = TestJudgement(
            configuration: try configuration(
                #"{"quarantine": ["TriviaCoreTests.QuestionsLoaderTests/testBundledQuestionsLoadOffline"]}"#),
            orderDependent: [
                OrderDependence(
                    id: "TriviaGameTests.GameTests/nextQuestionAvailability(choice:)", alone: .failed, inSuite: .passed),
                OrderDependence(
                    id: "triviaTests.TriviaExecutableTests/testEndOfInputExitsCleanly", alone: .passed, inSuite: .failed
                ),
            ])
        try assertGolden(TestSummaryTableReport.render(run, judgement: judgement), "tests-table-judged.txt")
        try assertGolden(TestSummaryMarkdownReport.render(run, judgement: judgement), "tests-report-judged.md")
        var json = JSONWriter()
        json.beginObject(.block)
        TestSummaryJSONReport.writeMember(run, judgement: judgement, to: &json)
        json.endObject()
        try assertGolden(json.output, "tests-report-judged.json")
        // On GitHub: the excused failures are warnings, after the errors.
        let annotations = GitHubAnnotations.failures(of: run, judgement: judgement)
        #expect(
            annotations.filter { $0.severity == .warning }.map(\.title) == [
                "Test failed: QuestionsLoaderTests.testBundledQuestionsLoadOffline (quarantined: does not fail the gate)",
                "Test failed: TriviaGameTests.GameTests.nextQuestionAvailability(choice:) (choice → .c) (order-dependent: fails alone, passes in the suite: does not fail the gate)",
            ])
        #expect(annotations.last?.severity == .warning && annotations.first?.severity == .error)
    }
}
