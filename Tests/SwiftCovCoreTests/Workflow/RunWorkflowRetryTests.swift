import Foundation
import Testing

@testable import SwiftCovCore

/// `run --retry-failed` and `run --per-test`'s order check against the recorded `swift`: the
/// trivia modules' failing run, whose failed tests the fake runs again as the recording says.
extension RunWorkflowTests {
    /// The failing run's failed tests, as `swift test list` names them.
    static let failingIDs = [
        "TriviaCoreTests.QuestionsLoaderTests/testBundledQuestionsLoadOffline",
        "TriviaGameTests.GameTests/nextQuestionAvailability(choice:)",
        "TriviaGameTests.GameTests/scoresOncePerQuestion()",
        "TriviaGameTests.GameWrappingTests/testWrapsToFirstQuestionAfterLast",
        "TriviaGameTests.TriviaTerminalTests/playsARound()",
    ]

    /// The test a retry's `--filter` names (the ID the anchored pattern escapes), if it is a retry.
    static func retried(_ command: Command) -> String? {
        let arguments = command.arguments
        guard command.program == "swift", arguments.first == "test", arguments.contains("--skip-build"),
            let index = arguments.firstIndex(of: "--filter"), index + 1 < arguments.count,
            arguments[index + 1].hasPrefix("^")
        else { return nil }
        return failingIDs.first { TestID.filterPattern(of: $0) == arguments[index + 1] }
    }

    /// What a retry of `test` prints: GameWrappingTests passes from its second retry on,
    /// scoresOncePerQuestion() from its first (by its event stream), QuestionsLoaderTests fails
    /// again, nextQuestionAvailability(choice:) and playsARound() end before reporting anything.
    static func retryAnswer(_ test: String, attempt: Int, events: [String]) -> FakeSystem.Answer {
        func xctest(_ name: String, passed: Bool) -> String {
            """
            Test Suite 'Selected tests' started at 2026-11-22 14:05:00.000
            Test Suite '\(name.split(separator: ".")[0])' started at 2026-11-22 14:05:00.000
            Test Case '\(name)' started at 2026-11-22 14:05:00.000
            \(passed ? "" : "/p/Tests/X.swift:9: error: \(name) : XCTAssertEqual failed: again\n")\
            Test Case '\(name)' \(passed ? "passed" : "failed") (0.001 seconds)

            """
        }
        switch test {
        case failingIDs[0]:
            return .init(
                status: 1, output: xctest("QuestionsLoaderTests.testBundledQuestionsLoadOffline", passed: false))
        case failingIDs[1], failingIDs[4]:
            return .init(status: 1, output: "error: Exited with unexpected signal code 4\n")
        case failingIDs[2]:
            return .init(status: 0) { command in
                let index = try #require(command.arguments.firstIndex(of: "--experimental-event-stream-output"))
                try Data(events.joined(separator: "\n").utf8).write(
                    to: URL(fileURLWithPath: command.arguments[index + 1]))
            }
        default:
            let passed = attempt >= 2
            return .init(
                status: passed ? 0 : 1,
                output: xctest("GameWrappingTests.testWrapsToFirstQuestionAfterLast", passed: passed))
        }
    }

    /// The recorded event stream's lines for scoresOncePerQuestion(), passing this time.
    func passingScoresEvents() throws -> [String] {
        let lines = String(decoding: events, as: UTF8.self).split(separator: "\n").map(String.init)
        let suite = try #require(lines.first { $0.contains(#""id":"TriviaGameTests.GameTests","#) })
        let mine = lines.filter { $0.contains(#"scoresOncePerQuestion()\/GameTests.swift:66:6""#) }
        return [suite] + mine.filter { !$0.contains(#""kind":"issueRecorded""#) }
    }

    /// A recorded `swift` that answers retries as `retryAnswer`, counting them, and lists `listed`.
    func retryingSwift(listed: [String], counts: Locked<[String: Int]>) throws -> FakeSystem {
        let events = try passingScoresEvents()
        return recordedSwift { command in
            if command.program == "swift", command.arguments.starts(with: ["test", "list"]) {
                return .init(output: listed.joined(separator: "\n") + "\n")
            }
            guard let test = Self.retried(command) else { return nil }
            let attempt = counts.withLock { counts in
                counts[test, default: 0] += 1
                return counts[test]!
            }
            return Self.retryAnswer(test, attempt: attempt, events: events)
        }
    }

    /// The case of `run` named `name`, with `arguments`.
    func testCase(_ run: TestRun, _ name: String, arguments: String? = nil) throws -> TestRun.Case {
        try #require(run.cases.first { $0.testName == name && $0.arguments == arguments }, "\(name)")
    }

    @Test(
        "--retry-failed 3: each failed test alone, anchored, with the user's options, until its first pass; every attempt kept"
    )
    func retries() throws {
        let counts = Locked<[String: Int]>([:])
        let system = try retryingSwift(listed: Self.failingIDs + Self.listed, counts: counts)
        var run = workflow(.wholeSuite, system: system)
        run.retries = 3
        let sink = CollectingSink()
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: sink)

        // Stopped at the first pass; tried three times when it never came.
        #expect(
            counts.withLock { $0 } == [
                Self.failingIDs[0]: 3, Self.failingIDs[1]: 3, Self.failingIDs[2]: 1, Self.failingIDs[3]: 2,
                Self.failingIDs[4]: 3,
            ])
        let retries = system.calls.filter { Self.retried($0) != nil }
        #expect(Self.carryUserArguments(retries), "\(retries)")
        #expect(retries.allSatisfy { $0.arguments.filter { $0 == "--filter" }.count == 1 })
        #expect(
            retries.first?.arguments.last
                == "^TriviaCoreTests\\.QuestionsLoaderTests/testBundledQuestionsLoadOffline(/|$)"
        )
        // Listed once, after the run; the coverage made before any retry (the retries' profiles
        // are not the run's).
        let kinds = system.calls.map { Array($0.arguments.prefix(2)) }
        let codecov = try #require(kinds.firstIndex(of: ["test", "--show-codecov-path"]))
        #expect(kinds.firstIndex(of: ["test", "list"]).map { $0 > codecov } == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: outcome.exportPath)) == Data(export))

        let results = outcome.results
        let wrapping = try testCase(results, "testWrapsToFirstQuestionAfterLast")
        #expect(wrapping.status == .passed && wrapping.isFlaky)
        #expect(wrapping.attempts.map(\.status) == [.failed, .failed])
        let scores = try testCase(results, "A question scores once, however often it is answered")
        #expect(scores.status == .passed && scores.isFlaky && scores.attempts.map(\.status) == [.failed])
        let loader = try testCase(results, "testBundledQuestionsLoadOffline")
        #expect(loader.status == .failed && loader.attempts.count == 3 && !loader.isFlaky)
        // A retry that reports nothing is an error attempt.
        let parameterized = try testCase(results, "nextQuestionAvailability(choice:)", arguments: "choice → .c")
        #expect(parameterized.status == .error && parameterized.attempts.count == 3)
        #expect(parameterized.issues.first?.message.hasPrefix("Not reported by the retry") == true)
        // The other cases of the parameterized test passed: not retried into attempts.
        #expect(
            results.cases.filter { $0.testName == "nextQuestionAvailability(choice:)" && !$0.attempts.isEmpty }.count
                == 1)
        #expect(results.totals.flaky == 2 && results.totals.failed + results.totals.errors == 3)
        #expect(!outcome.testsPassed && outcome.failuresRecorded)
        #expect(sink.diagnostics.map(\.message).contains("\(Self.failingIDs[3]) passed on retry 2: flaky"))
        let kept = try String(contentsOfFile: root + "/.build/swiftcov/" + RunWorkflow.retriesLogName, encoding: .utf8)
        #expect(kept.components(separatedBy: "=== swiftcov run --retry-failed:").count == 13)
        // The run's own log is as `swift test` printed it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: run.logPath)) == Data(log))
    }

    @Test(
        "--retry-failed with --shard: the shard's listing serves the retries; a pass on every retry makes the run pass")
    func shardRetries() throws {
        let counts = Locked<[String: Int]>([:])
        // Only the flaky ones fail in this recording's shard: every failure passes on a retry.
        let system = try retryingSwift(listed: [Self.failingIDs[2], Self.failingIDs[3]], counts: counts)
        var run = workflow(.wholeSuite, shard: try Shard(parsing: "1/1"), system: system)
        run.retries = 2
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: CollectingSink())
        #expect(system.calls.filter { $0.arguments.starts(with: ["test", "list"]) }.count == 1)
        // The recording fails tests the listing does not have: they cannot be retried and stay failed.
        #expect(counts.withLock { $0 } == [Self.failingIDs[2]: 1, Self.failingIDs[3]: 2])
        #expect(outcome.results.totals.flaky == 2)
        #expect(!outcome.testsPassed && outcome.failuresRecorded)
    }

    @Test("--retry-failed 0: no retry, no listing")
    func noRetries() throws {
        let counts = Locked<[String: Int]>([:])
        let system = try retryingSwift(listed: Self.failingIDs, counts: counts)
        let outcome = try workflow(.wholeSuite, system: system).run(
            toolchain: toolchain(system), clock: Self.clock, sink: CollectingSink())
        #expect(counts.withLock { $0 }.isEmpty)
        #expect(!system.calls.contains { $0.arguments.starts(with: ["test", "list"]) })
        #expect(outcome.results.totals.flaky == 0 && !outcome.testsPassed && outcome.failuresRecorded)
    }

    @Test(
        "each test alone: a test that fails alone is retried alone, then the suite runs once and finds it order-dependent"
    )
    func orderDependent() throws {
        let system = recordedSwift(failing: [Self.listed[1]])
        var run = workflow(.eachTestAlone(timeout: 30), system: system)
        run.jobs = 1
        run.retries = 1
        let sink = CollectingSink()
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: sink)

        let executions = system.calls.filter { $0.program.hasSuffix("PackageTests.xctest") }
        // Its first run, its retry, and three more runs to confirm it.
        #expect(executions.filter { $0.arguments.last == Self.listed[1] }.count == 5)
        #expect(executions.count == 7)
        // The suite, once, after the tests alone: as swift test runs it, with the user's options.
        let suiteRuns = system.calls.filter {
            $0.program == "swift" && $0.arguments.first == "test" && $0.arguments.contains("--skip-build")
                && !$0.arguments.starts(with: ["test", "list"]) && !$0.arguments.contains("--filter")
        }
        #expect(suiteRuns.count == 1)
        #expect(Self.carryUserArguments(suiteRuns))
        #expect(!(suiteRuns.first?.arguments.contains("--filter") ?? true))
        // In the recorded suite it passes: fails alone, passes in the suite.
        // Its retry counts as a run alone; the recorded suite passes it after the test before it too.
        #expect(
            outcome.orderDependent == [
                OrderDependence(
                    id: Self.listed[1], alone: .failed, inSuite: .passed, aloneRuns: 5, aloneAgreeing: 5,
                    cause: OrderDependence.Cause(id: Self.listed[0], runs: 2, agreeing: 2))
            ])
        #expect(
            outcome.orderDependent.first?.summary
                == "fails alone (5 of 5 runs), passes after \(Self.listed[0]) (2 of 2)")
        #expect(sink.diagnostics.contains { $0.severity == .warning && $0.message.hasPrefix("order-dependent test") })
        let failed = try testCase(outcome.results, "testEndOfInputExitsCleanly")
        #expect(failed.status == .failed && failed.attempts.count == 1)
        #expect(!outcome.testsPassed && outcome.failuresRecorded)
        #expect(FileManager.default.fileExists(atPath: root + "/.build/swiftcov/" + RunWorkflow.suiteLogName))
        // The store keeps the first run alone.
        #expect(outcome.perTest?.tests.first { $0.id == Self.listed[1] }?.outcome == .failed)
    }

    @Test("each test alone, every test passing: no retry and no suite run")
    func allPassAlone() throws {
        let system = recordedSwift()
        var run = workflow(.eachTestAlone(timeout: 30), system: system)
        run.retries = 2
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: CollectingSink())
        #expect(system.calls.filter { $0.program.hasSuffix("PackageTests.xctest") }.count == 3)
        #expect(
            !system.calls.contains {
                $0.arguments.contains("--skip-build") && $0.arguments.first == "test" && $0.arguments[1] != "list"
            })
        #expect(outcome.orderDependent.isEmpty && outcome.testsPassed)
    }
}
