import Testing

@testable import SwiftCovCore

@Suite("Flaky verdicts: each rule, its evidence, and never flaky for a test that always fails")
struct FlakyVerdictsTests {
    /// A history from outcomes per run: `runs[i]` maps test names to their attempts' outcomes
    /// ("f", "p", "fp" for failed then passed on retry), on `trees[i]` (default one tree).
    static func history(
        _ runs: [[String: String]], trees: [String]? = nil, complete: [Bool]? = nil, branch: String = "main"
    ) -> TestHistory {
        var history = TestHistory()
        for (index, outcomes) in runs.enumerated() {
            var run = TestHistory.Run(
                id: "r\(index + 1)", time: 1_000 + Int64(index), commit: "c" + (trees?[index] ?? "1"),
                tree: "t" + (trees?[index] ?? "1"), branch: branch, environment: "Linux",
                isComplete: complete?[index] ?? true)
            for (name, attempts) in outcomes.sorted(by: { $0.key < $1.key }) {
                let test = history.intern(name)
                for (attempt, code) in attempts.enumerated() {
                    let status: TestRun.Status = code == "p" ? .passed : code == "e" ? .error : .failed
                    run.executions.append(TestHistory.Execution(test: test, status: status, attempt: UInt8(attempt)))
                    if attempt == attempts.count - 1 {
                        run.totals.tests += 1
                        if status == .passed { run.totals.passed += 1 } else { run.totals.failed += 1 }
                    }
                }
            }
            history.add(run)
        }
        return history
    }

    static func verdicts(_ history: TestHistory, _ options: FlakyVerdicts.Options = .init()) -> [String: FlakyVerdicts
        .Verdict]
    {
        Dictionary(
            uniqueKeysWithValues: FlakyVerdicts.analyze(history, options: options).findings.map {
                ($0.test, $0.verdict)
            })
    }

    @Test("a pass and a failure on one tree prove a flake, naming both runs; a pass on retry too")
    func proven() {
        let history = Self.history([["A": "p", "B": "fp"], ["A": "f", "B": "p"], ["A": "p", "B": "p"]])
        let verdicts = Self.verdicts(history)
        guard case .flaky(let failed, let passed)? = verdicts["A"] else {
            Issue.record("A: \(String(describing: verdicts["A"]))")
            return
        }
        #expect(failed.id == "r2" && passed.id == "r1")
        guard case .flaky(let failedB, let passedB)? = verdicts["B"] else {
            Issue.record("B: \(String(describing: verdicts["B"]))")
            return
        }
        #expect(failedB.id == "r1" && passedB.id == "r1")
        #expect(FlakyReport.evidence(verdicts["B"]!).hasPrefix("failed, then passed on retry, in run r1"))
    }

    @Test("failing every attempt since a commit is broken, never flaky — even after passing on older code")
    func broken() {
        let history = Self.history(
            [["A": "p"], ["A": "p"], ["A": "ff"], ["A": "f"], ["A": "f"]], trees: ["1", "1", "2", "2", "3"])
        guard case .broken(let since, let runs)? = Self.verdicts(history)["A"] else {
            Issue.record("A is not broken")
            return
        }
        #expect(since.id == "r3" && since.commit == "c2" && runs == 3)
        // One failing run is a new failure: no verdict yet.
        #expect(Self.verdicts(Self.history([["A": "p"], ["A": "f"]], trees: ["1", "2"]))["A"] == nil)
        // A test that failed on a tree where it also passed is flaky, not broken.
        let flaky = Self.history([["A": "p"], ["A": "f"], ["A": "f"]])
        #expect(Self.verdicts(flaky)["A"]?.name == "flaky")
    }

    @Test("across commits: at least 10 runs and 2 flips on one branch, with the failure rate's interval")
    func statistical() {
        // Every run on new code: never proven; fails 3 times in 12 runs, 5 flips.
        let outcomes = ["p", "p", "f", "p", "p", "p", "f", "p", "p", "f", "p", "p"]
        let history = Self.history(outcomes.map { ["A": $0] }, trees: outcomes.indices.map(String.init))
        guard
            case .flakyStatistically(let branch, let runs, let failures, let flips, let interval)? =
                Self.verdicts(history)["A"]
        else {
            Issue.record("A is not statistically flaky")
            return
        }
        #expect(branch == "main" && runs == 12 && failures == 3 && flips == 6)
        // Wilson's interval of 3 in 12 (computed by hand: 0.0889 to 0.5323).
        #expect(abs(interval.lowerBound - 0.0889) < 0.0005 && abs(interval.upperBound - 0.5323) < 0.0005)
        // One transition is a regression (or a fix), however many runs: broken, not flaky.
        let regression = ["p", "p", "p", "p", "p", "p", "f", "f", "f", "f", "f", "f"]
        let once = Self.history(regression.map { ["A": $0] }, trees: regression.indices.map(String.init))
        #expect(Self.verdicts(once)["A"]?.name == "broken")
        let fixed = Self.history(regression.reversed().map { ["A": $0] }, trees: regression.indices.map(String.init))
        #expect(Self.verdicts(fixed)["A"] == nil)
        // Fewer than 10 runs: not enough.
        let few = Self.history(outcomes.prefix(9).map { ["A": $0] }, trees: (0..<9).map(String.init))
        #expect(Self.verdicts(few)["A"] == nil)
    }

    @Test("no failure in the last K runs is healed")
    func healed() {
        let runs = [["A": "f"], ["A": "p"]] + Array(repeating: ["A": "p"], count: 10)
        let verdicts = Self.verdicts(Self.history(runs))
        guard case .healed(let last, let passes)? = verdicts["A"] else {
            Issue.record("A is not healed: \(String(describing: verdicts["A"]))")
            return
        }
        #expect(last.id == "r1" && passes == 11)
        #expect(Self.verdicts(Self.history(runs), .init(healAfter: 20))["A"]?.name == "flaky")
    }

    @Test("a run that did not end, or where most tests failed at once, is left out and listed")
    func infrastructure() {
        var outcomes: [[String: String]] = [["A": "p", "B": "p", "C": "p", "D": "p", "E": "p"]]
        outcomes.append(["A": "f", "B": "f", "C": "f", "D": "f", "E": "p"])  // 80%: still judged
        outcomes.append(["A": "f", "B": "f", "C": "f", "D": "f", "E": "f"])  // all failed: left out
        outcomes.append(["A": "p", "B": "f", "C": "p", "D": "p", "E": "p"])
        let analysis = FlakyVerdicts.analyze(
            Self.history(
                outcomes + [["A": "p", "B": "p", "C": "p", "D": "p", "E": "f"]],
                complete: [true, true, true, true, false]))
        #expect(analysis.excluded.map(\.id) == ["r3", "r5"])
        #expect(analysis.runs == 3)
        // E failed only in the runs left out: no verdict.
        #expect(!analysis.findings.contains { $0.test == "E" })
        #expect(FlakyReport.table(analysis).contains("left out as infrastructure failures"))
    }

    @Test("order-dependent, as run --per-test records it, with both outcomes")
    func orderDependent() {
        var history = Self.history([["A": "p"]])
        let test = history.intern("A")
        var run = history.runs[0]
        run.id = "r2"
        run.time += 1
        run.orderDependent = [TestHistory.OrderDependent(test: test, alone: .failed, inSuite: .passed)]
        history.add(run)
        let verdict = Self.verdicts(history)["A"]
        #expect(verdict.map(FlakyReport.evidence) == "failed alone, passed in the whole suite (run r2)")
    }

    @Test("the headline sorts the newest run's failures: known flaky, broken, new")
    func headline() {
        let history = Self.history(
            [
                ["A": "p", "B": "f", "C": "p"], ["A": "f", "B": "f", "C": "p"], ["A": "f", "B": "f", "C": "f"],
            ], trees: ["1", "1", "2"])
        // C failed once, on new code: a new failure.
        #expect(FlakyReport.headline(FlakyVerdicts.analyze(history)) == "3 failures: 1 known flaky, 1 broken, 1 new")
    }
}
