import Foundation
import Testing

@testable import SwiftCovCore

@Suite("Finding the test an order-dependent test depends on: halving, bounded, and said when it gives up")
struct OrderSearchTests {
    /// Eight XCTest tests, in the suite's order.
    static let tests = (0..<8).map { TestID("M.C/test\($0)")! }

    /// A search where the dependent test ends as in the suite when `makesIt` says so of the
    /// subset run before it; the subsets tried, in order.
    static func search(
        _ candidates: [TestID] = tests, deadline: Double = .infinity, makesIt: ([TestID]) -> Bool
    ) -> (outcome: OrderSearch.Outcome, tried: [[TestID]]) {
        var tried: [[TestID]] = []
        let outcome = OrderSearch.find(among: candidates, deadline: deadline, now: { 0 }) { subset in
            tried.append(subset)
            return makesIt(subset)
        }
        return (outcome, tried)
    }

    @Test("each of eight candidates is found, in at most 2·log2(8) + 4 runs, with its two runs")
    func findsEachCandidate() {
        #expect(OrderSearch.maximumRuns(candidates: 8) == 10)
        #expect(OrderSearch.maximumRuns(candidates: 1) == 4)
        #expect(OrderSearch.maximumRuns(candidates: 9) == 12)
        for culprit in Self.tests {
            let (outcome, tried) = Self.search { $0.contains(culprit) }
            #expect(outcome == .found(OrderDependence.Cause(id: culprit.id, runs: 2, agreeing: 2)), "\(culprit)")
            #expect(tried.count <= OrderSearch.maximumRuns(candidates: 8))
            // All of them first, the culprit alone last; every run keeps the suite's order.
            #expect(tried.first == Self.tests && tried.last == [culprit])
            #expect(tried.allSatisfy { $0 == $0.sorted() })
        }
    }

    @Test("a polluter and a state-setter are found alike: the subset makes the test end as in the suite")
    func oneCandidate() {
        let (outcome, tried) = Self.search([Self.tests[0]]) { $0 == [Self.tests[0]] }
        #expect(outcome == .found(OrderDependence.Cause(id: "M.C/test0", runs: 2, agreeing: 2)))
        #expect(tried == [[Self.tests[0]], [Self.tests[0]]])
    }

    @Test("no test before it, none that makes it, two needed together, chance, the runs or the time used up")
    func givesUp() {
        #expect(Self.search([]) { _ in true }.outcome == .notFound("no test runs before it"))
        #expect(
            Self.search { _ in false }.outcome
                == .notFound("it did not end as in the suite after the 8 tests that run before it either"))
        // It needs test1 and test6 both: no half has both.
        let both = Self.search { $0.contains(Self.tests[1]) && $0.contains(Self.tests[6]) }
        #expect(
            both.outcome
                == .notFound(
                    "neither half of 8 tests makes it end as in the suite: it depends on several tests, or on chance"))
        #expect(both.tried.count == 3)
        // The culprit found, then not the second time: chance, not named.
        var runs = 0
        let flaky = Self.search([Self.tests[3]]) { _ in
            runs += 1
            return runs == 1
        }
        #expect(flaky.outcome == .notFound("it ended as in the suite after M.C/test3 in 1 of 2 runs only"))
        // A test that ends as in the suite after anything: the search goes down the first halves.
        let many = (0..<1000).map { TestID("M.C/test\($0)")! }
        let always = Self.search(many) { _ in true }
        #expect(always.outcome == .found(OrderDependence.Cause(id: "M.C/test0", runs: 2, agreeing: 2)))
        #expect(always.tried.count == 11)
        // The deadline passed: no run.
        let late = Self.search(deadline: 0) { _ in true }
        #expect(late.outcome == .notFound("gave up after 0 runs: the search's 600 seconds ran out"))
        #expect(late.tried.isEmpty)
    }
}

/// The order check of `run --per-test` against the recorded `swift`: the test that failed alone
/// runs again alone, then after the tests before it (`swift test --filter`), and the test it
/// depends on is named.
extension RunWorkflowTests {
    /// What `swift test` prints when it runs the filtered tests, the dependent one ending `passed` or not.
    static func filteredRun(_ command: Command, dependentPasses: (String) -> Bool) -> FakeSystem.Answer? {
        guard command.program == "swift", command.arguments.first == "test",
            let index = command.arguments.firstIndex(of: "--filter"), !command.arguments.contains("list")
        else { return nil }
        let pattern = command.arguments[index + 1]
        let passed = dependentPasses(pattern)
        let name = "TriviaExecutableTests.testEndOfInputExitsCleanly"
        return .init(
            status: passed ? 0 : 1,
            output: """
                Test Suite 'Selected tests' started at 2026-11-22 14:05:00.000
                Test Case '\(name)' started at 2026-11-22 14:05:00.000
                \(passed ? "" : "/p/Tests/X.swift:9: error: \(name) : XCTAssertTrue failed\n")\
                Test Case '\(name)' \(passed ? "passed" : "failed") (0.001 seconds)

                """)
    }

    @Test("each test alone: a test failing alone 4 of 4 runs and passing after the test before it names it")
    func orderDependentStateSetter() throws {
        let system = recordedSwift(failing: [Self.listed[1]]) { command in
            Self.filteredRun(command) { $0.contains("testCorrectAnswerOffersNextQuestion") }
        }
        var run = workflow(.eachTestAlone(timeout: 30), system: system)
        run.jobs = 1
        let sink = CollectingSink()
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: sink)
        let cause = OrderDependence.Cause(id: Self.listed[0], runs: 2, agreeing: 2)
        #expect(
            outcome.orderDependent == [
                OrderDependence(
                    id: Self.listed[1], alone: .failed, inSuite: .passed, aloneRuns: 4, aloneAgreeing: 4, cause: cause)
            ])
        // Alone: the first run and three more.
        let alone = system.calls.filter {
            $0.program.hasSuffix("PackageTests.xctest") && $0.arguments.last == Self.listed[1]
        }
        #expect(alone.count == 4)
        // After the one XCTest test before it (the Swift Testing one is of another process), twice, in one process.
        let searches = system.calls.filter { Self.filteredRun($0) { _ in true } != nil }
        #expect(searches.count == 2)
        #expect(
            searches.allSatisfy {
                $0.arguments.contains(TestList.filterPattern(forIDs: [Self.listed[0], Self.listed[1]]))
                    && $0.arguments.contains("--skip-build")
            })
        #expect(Self.carryUserArguments(searches))
        #expect(
            sink.diagnostics.contains {
                $0.message
                    == "order-dependent test \(Self.listed[1]): fails alone (4 of 4 runs), passes after \(Self.listed[0]) "
                    + "(2 of 2): testCorrectAnswerOffersNextQuestion sets up state testEndOfInputExitsCleanly needs"
            }, "\(sink.diagnostics)")
        let log = try String(
            contentsOfFile: root + "/.build/swiftcov/" + RunWorkflow.orderSearchLogName, encoding: .utf8)
        #expect(log.hasPrefix("=== swiftcov run --per-test: \(Self.listed[1]) after 1 tests, passed\n"))
        // run.json keeps it, and reads it back.
        let record = try #require(RunRecord.read(inFolder: root + "/.build/swiftcov"))
        #expect(record.orderDependent == outcome.orderDependent)
    }

    @Test("each test alone: no test before it makes it pass, and a test whose runs alone disagree is flaky, unsearched")
    func orderDependentNotFoundOrFlaky() throws {
        let system = recordedSwift(failing: [Self.listed[1]]) { command in
            Self.filteredRun(command) { _ in false }
        }
        var run = workflow(.eachTestAlone(timeout: 30), system: system)
        run.jobs = 1
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: CollectingSink())
        #expect(outcome.orderDependent.first?.cause == nil)
        #expect(
            outcome.orderDependent.first?.notFound
                == "it did not end as in the suite after the 1 tests that run before it either")
        #expect(
            outcome.orderDependent.first?.description.hasSuffix(
                "fails alone (4 of 4 runs), passes in the suite; the test it depends on was not found: it did not end "
                    + "as in the suite after the 1 tests that run before it either") == true)

        // It passes its second run alone: flaky, no search.
        let runsAlone = Locked(0)
        let flaky = recordedSwift { command in
            guard command.program.hasSuffix("PackageTests.xctest"), command.arguments.last == Self.listed[1] else {
                return Self.filteredRun(command) { _ in true }
            }
            let count = runsAlone.withLock { count -> Int in
                count += 1
                return count
            }
            return Self.testExecutable(command, failing: count == 2 ? [] : [Self.listed[1]])
        }
        var flakyRun = workflow(.eachTestAlone(timeout: 30), system: flaky)
        flakyRun.jobs = 1
        let sink = CollectingSink()
        let found = try flakyRun.run(toolchain: toolchain(flaky), clock: Self.clock, sink: sink)
        #expect(
            found.orderDependent == [
                OrderDependence(id: Self.listed[1], alone: .failed, inSuite: .passed, aloneRuns: 4, aloneAgreeing: 3)
            ])
        #expect(!flaky.calls.contains { Self.filteredRun($0) { _ in true } != nil })
        #expect(
            sink.diagnostics.contains {
                $0.message
                    == "\(Self.listed[1]): flaky, also seen failing alone (failed 3 of 4 runs alone, passes in the suite)"
            }, "\(sink.diagnostics)")
    }
}
