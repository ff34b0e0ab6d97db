import Testing

@testable import SwiftCovCore

@Suite("Flaky verdicts: each rule, its evidence, and never flaky for a test that always fails")
struct FlakyVerdictsTests {
    /// A history from outcomes per run: `runs[i]` maps test names to their attempts' outcomes
    /// ("f", "p", "fp" for failed then passed on retry), on `trees[i]` (default one tree).
    static func history(
        _ runs: [[String: String]], trees: [String]? = nil, complete: [Bool]? = nil, branch: String = "main",
        environments: [String]? = nil
    ) -> TestHistory {
        var history = TestHistory()
        for (index, outcomes) in runs.enumerated() {
            var run = TestHistory.Run(
                id: "r\(index + 1)", time: 1_000 + Int64(index), commit: "c" + (trees?[index] ?? "1"),
                tree: "t" + (trees?[index] ?? "1"), branch: branch, environment: "Linux",
                isComplete: complete?[index] ?? true)
            run.environmentName = environments?[index] ?? ""
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

    /// `history` with a run of each test alone (`run --per-test`) on tree `tree`: `alone` maps tests
    /// to their attempts alone ("f", "fp"), `inSuite` to their outcome in the suite run it compared
    /// with, recorded as an order-dependence when the two differ (as `checkOrder` does).
    static func addingAloneRun(
        to history: inout TestHistory, id: String, tree: String = "1", alone: [String: String],
        inSuite: [String: TestRun.Status] = [:]
    ) {
        var run = TestHistory.Run(
            id: id, time: (history.runs.last?.time ?? 1_000) + 1, commit: "c" + tree, tree: "t" + tree,
            branch: "main", environment: "Linux" + TestHistory.Run.aloneMark)
        run.isAlone = true
        for (name, attempts) in alone.sorted(by: { $0.key < $1.key }) {
            let test = history.intern(name)
            for (attempt, code) in attempts.enumerated() {
                run.executions.append(
                    TestHistory.Execution(test: test, status: code == "p" ? .passed : .failed, attempt: UInt8(attempt)))
            }
            run.totals.tests += 1
            if let suite = inSuite[name] {
                let last: TestRun.Status = attempts.last == "p" ? .passed : .failed
                run.orderDependent.append(TestHistory.OrderDependent(test: test, alone: last, inSuite: suite))
            }
        }
        history.add(run)
    }

    @Test("one run alone that failed is not order-dependent yet: maybe, with its run, and never new")
    func orderDependentOnce() {
        var history = Self.history([["A": "p"]])
        Self.addingAloneRun(to: &history, id: "r2", alone: ["A": "f"], inSuite: ["A": .passed])
        let analysis = FlakyVerdicts.analyze(history)
        let finding = analysis.findings.first { $0.test == "A" }
        #expect(finding?.verdict.name == "maybe order-dependent")
        #expect(
            finding.map { FlakyReport.evidence($0.verdict) }?.hasPrefix(
                "failed alone, passed in the whole suite (run r2)") == true)
        // Observed: two passes in the suite (r1, and r2's suite run), one failure alone.
        #expect(finding?.tally == FlakyVerdicts.Tally(suitePassed: 2, aloneFailed: 1))
        #expect(FlakyReport.headline(analysis) == "1 failure: 1 maybe order-dependent")
    }

    @Test("order-dependent when two runs alone agree, each kind of run never flipping, on one tree")
    func orderDependentConfirmed() {
        var history = Self.history([["A": "p"], ["A": "p"]])
        Self.addingAloneRun(to: &history, id: "r3", alone: ["A": "f"], inSuite: ["A": .passed])
        Self.addingAloneRun(to: &history, id: "r4", alone: ["A": "f"], inSuite: ["A": .passed])
        let finding = FlakyVerdicts.analyze(history).findings.first { $0.test == "A" }
        guard case .orderDependent(let alone, let inSuite, let runs)? = finding?.verdict else {
            Issue.record("A: \(String(describing: finding))")
            return
        }
        #expect(alone == .failed && inSuite == .passed && runs.map(\.id) == ["r3", "r4"])
        #expect(finding?.tally == FlakyVerdicts.Tally(suitePassed: 4, aloneFailed: 2))
        // On two trees, one run each: not yet.
        var apart = Self.history([["A": "p"]])
        Self.addingAloneRun(to: &apart, id: "r2", tree: "1", alone: ["A": "f"], inSuite: ["A": .passed])
        Self.addingAloneRun(to: &apart, id: "r3", tree: "2", alone: ["A": "f"], inSuite: ["A": .passed])
        #expect(Self.verdicts(apart)["A"]?.name == "maybe order-dependent")
        // Once it passes alone on that tree too, it flipped within a kind: flaky, and said so.
        Self.addingAloneRun(to: &history, id: "r5", alone: ["A": "p"])
        let flaky = FlakyVerdicts.analyze(history).findings.first { $0.test == "A" }
        #expect(flaky?.verdict == Self.verdicts(history)["A"])
        guard case .flaky(let failed, let passed)? = flaky?.verdict else {
            Issue.record("A after a pass alone: \(String(describing: flaky))")
            return
        }
        #expect(failed.id == "r3" && passed.id == "r5")
        #expect(flaky?.name == "flaky, also seen failing alone")
    }

    @Test("one run --per-test that confirmed it and found the test it depends on is order-dependent, naming it")
    func orderDependentWithCause() throws {
        /// A suite run, then a run alone where B failed (the suite run it was compared with passed it).
        func history(aloneAgreeing: UInt8 = 4, cause: Bool = true) -> TestHistory {
            var history = Self.history([["A": "p", "B": "p"]])
            let (a, b) = (history.intern("A"), history.intern("B"))
            var run = TestHistory.Run(
                id: "r2", time: 2_000, commit: "c1", tree: "t1", branch: "main", environment: "Linux alone")
            run.isAlone = true
            run.executions = [
                TestHistory.Execution(test: a, status: .passed), TestHistory.Execution(test: b, status: .failed),
            ]
            var finding = TestHistory.OrderDependent(test: b, alone: .failed, inSuite: .passed)
            (finding.aloneRuns, finding.aloneAgreeing) = (4, aloneAgreeing)
            if cause { (finding.cause, finding.causeRuns, finding.causeAgreeing) = (history.intern("M.C/testA"), 2, 2) }
            run.orderDependent = [finding]
            history.add(run)
            return history
        }
        let analysis = FlakyVerdicts.analyze(history())
        let finding = try #require(analysis.findings.first { $0.test == "B" })
        guard case .orderDependent(.failed, .passed, let runs) = finding.verdict else {
            Issue.record("B: \(finding)")
            return
        }
        #expect(runs.map(\.id) == ["r2"])
        #expect(finding.dependsOn?.test == "M.C/testA" && finding.dependsOn?.run.id == "r2")
        #expect(
            FlakyReport.evidence(finding).contains(
                "; in run r2 it fails alone (4 of 4 runs), passes after M.C/testA (2 of 2): testA sets up state B needs;"
            ))
        let json = FlakyReport.json(analysis)
        #expect(json.contains(#""dependsOn""#) && json.contains(#""kind": "state-setter""#), "\(json)")
        #expect(FlakyReport.markdown(analysis).contains("passes after M.C/testA (2 of 2)"))
        // Without the test it depends on (the search gave up), one run stays "maybe".
        #expect(Self.verdicts(history(cause: false))["B"]?.name == "maybe order-dependent")
        // Its runs alone disagreed: it passed and failed alone in one run, flaky.
        let flaky = FlakyVerdicts.analyze(history(aloneAgreeing: 3)).findings.first { $0.test == "B" }
        #expect(flaky?.name == "flaky, also seen failing alone" && flaky?.dependsOn == nil)
    }

    @Test("one failure alone never outranks many flips in the suite on the same tree: flaky, contradiction shown")
    func flipsOutweighOneRunAlone() {
        // The issue's campaign: p = 0.5 in the suite, one coin toss alone that failed.
        let suite = ["p", "f", "p", "f", "f", "p", "p", "f", "p", "f", "p", "p"]
        var history = Self.history(suite.map { ["A": $0] })
        Self.addingAloneRun(to: &history, id: "alone", alone: ["A": "f"], inSuite: ["A": .passed])
        let analysis = FlakyVerdicts.analyze(history)
        let finding = analysis.findings.first { $0.test == "A" }
        #expect(finding?.verdict.isFlaky == true)
        #expect(finding?.name == "flaky, also seen failing alone")
        // Every observation counts, by kind: 7 passes in the suite plus the alone run's suite
        // run, 5 failures; one failure alone.
        #expect(finding?.tally == FlakyVerdicts.Tally(suitePassed: 8, suiteFailed: 5, aloneFailed: 1))
        let row = FlakyReport.table(analysis).split(separator: "\n").first { $0.hasPrefix("A ") }
        #expect(row?.contains("runs: suite 8 passed, 5 failed; alone 1 failed") == true)
        #expect(FlakyReport.json(analysis).contains(#""verdict": "flaky, also seen failing alone""#))
    }

    @Test("a run alone that failed, then passed on retry, is flaky — never also order-dependent")
    func retryAloneIsFlakyOnly() {
        var history = Self.history([["A": "p"]])
        let test = history.intern("A")
        var run = TestHistory.Run(
            id: "r2", time: 2_000, commit: "c1", tree: "t1", branch: "main", environment: "Linux alone")
        run.isAlone = true
        run.executions = [
            TestHistory.Execution(test: test, status: .failed),
            TestHistory.Execution(test: test, status: .passed, attempt: 1),
        ]
        // The order check compared its first attempt alone with the suite.
        run.orderDependent = [TestHistory.OrderDependent(test: test, alone: .failed, inSuite: .passed)]
        history.add(run)
        let verdicts = Self.verdicts(history)
        guard case .flaky(let failed, let passed)? = verdicts["A"] else {
            Issue.record("A: \(String(describing: verdicts["A"]))")
            return
        }
        #expect(failed.id == "r2" && passed.id == "r2")
    }

    @Test("runs alone and runs of the suite on one machine are compared: the alone mark is not an environment")
    func aloneMarkIsNotAnEnvironment() {
        var run = TestHistory.Run(id: "r", time: 1, environment: "Linux x86_64 swift-6.3.1 debug alone")
        #expect(run.ranAlone && run.environmentOfEitherKind == "Linux x86_64 swift-6.3.1 debug")
        run.environment = "Linux x86_64 swift-6.3.1 debug"
        #expect(!run.ranAlone && run.environmentOfEitherKind == run.environment)
    }

    @Test("failing every run of one environment and passing every run of the others is broken there, never flaky")
    func brokenInEnvironment() {
        // A fails in Tokyo only; B flips in UTC on one tree (flaky); C fails in one Tokyo run only, on
        // a tree no other Tokyo run tested.
        let environments = ["utc", "tokyo", "utc", "tokyo", "utc", "tokyo"]
        let runs: [[String: String]] = [
            ["A": "p", "B": "p", "C": "p"], ["A": "f", "B": "p", "C": "f"], ["A": "p", "B": "f", "C": "p"],
            ["A": "ff", "B": "p", "C": "p"], ["A": "p", "B": "p", "C": "p"], ["A": "f", "B": "p", "C": "p"],
        ]
        let history = Self.history(runs, trees: ["1", "1", "1", "2", "2", "2"], environments: environments)
        let analysis = FlakyVerdicts.analyze(history)
        let finding = analysis.findings.first { $0.test == "A" }
        guard case .brokenIn(let environment, let since, let failed, let passed)? = finding?.verdict else {
            Issue.record("A: \(String(describing: finding))")
            return
        }
        #expect(environment == "tokyo" && since.id == "r2" && failed == 3 && passed == 3)
        #expect(finding?.name == "broken in tokyo" && finding?.verdict.isFlaky == false)
        #expect(analysis.findings.first { $0.test == "B" }?.verdict.name == "flaky")
        #expect(analysis.findings.first { $0.test == "C" } == nil)
        #expect(FlakyReport.headline(analysis) == "1 failure: 1 broken")
        #expect(FlakyReport.table(analysis).contains("broken in tokyo"))
        #expect(
            FlakyReport.markdown(analysis).contains(
                "| A ❌ | broken in tokyo | failed every attempt of all 3 runs in tokyo"))
        let json = FlakyReport.json(analysis)
        #expect(json.contains(#""verdict": "broken in tokyo""#) && json.contains(#""environment": "tokyo""#))
        #expect(json.contains(#""passedElsewhere": 3"#))
        // One run in Tokyo is not enough; nor is one passing run elsewhere; nor a pass in Tokyo.
        let once = Self.history(Array(runs.prefix(3)), environments: Array(environments.prefix(3)))
        #expect(Self.verdicts(once)["A"]?.name != "broken in tokyo")
        let onePass = Self.history(
            [["A": "f"], ["A": "f"], ["A": "p"]], environments: ["tokyo", "tokyo", "utc"])
        #expect(Self.verdicts(onePass)["A"]?.name != "broken in tokyo")
        let passedThere = Self.history(
            runs + [["A": "p", "B": "p", "C": "p"]], environments: environments + ["tokyo"])
        #expect(Self.verdicts(passedThere)["A"]?.name.hasPrefix("broken in") == false)
        // The names differ, the automatic key does not: the name is the dimension.
        #expect(history.runs[0].environmentOfEitherKind != history.runs[1].environmentOfEitherKind)
        #expect(history.runs[1].environmentDisplayName == "tokyo")
    }

    @Test("a newest run where everything failed is named in the headline, never 'no failures'")
    func everythingFailed() {
        let all = ["A": "f", "B": "f", "C": "f", "D": "f", "E": "f"]
        let history = Self.history([["A": "p", "B": "p", "C": "p", "D": "p", "E": "p"], all, all])
        let analysis = FlakyVerdicts.analyze(history)
        let headline = FlakyReport.headline(analysis)
        #expect(!headline.contains("no failures"))
        #expect(headline.hasPrefix("Everything failed in the newest run, r3 (5 of 5 tests)"))
        #expect(analysis.everythingFailed.map(\.id) == ["r2", "r3"])
        #expect(
            FlakyReport.table(analysis).contains(
                "left out, everything failed (more than 80% of the tests at once): r2, r3"))
        #expect(FlakyReport.json(analysis).contains(#""everythingFailed""#))
        // A newest run that did not end is named too.
        let cut = Self.history([["A": "p"], ["A": "f"]], complete: [true, false])
        #expect(FlakyReport.headline(FlakyVerdicts.analyze(cut)).hasPrefix("The newest run, r2, did not end"))
        // An older run where everything failed leaves the headline to the newest.
        let later = Self.history([all, ["A": "p", "B": "p", "C": "p", "D": "p", "E": "p"]])
        #expect(FlakyReport.headline(FlakyVerdicts.analyze(later)).hasPrefix("The newest run had no failures"))
    }

    @Test("outside git, with no commit: no verdict proven across runs, only a retry; the output says why")
    func noKnownTree() {
        // Failed once, then passed: a fixed bug as likely as a flake.
        var stripped = TestHistory()
        for (index, outcomes) in [["f", "f", "p"], ["p", "p"]].enumerated() {
            // A: its first attempt; B: every attempt (failed, then passed on retry, in the first run).
            let a = stripped.intern("A")
            let b = stripped.intern("B")
            var run = TestHistory.Run(id: "r\(index + 1)", time: Int64(index), environment: "Linux")
            run.executions.append(TestHistory.Execution(test: a, status: outcomes[0] == "p" ? .passed : .failed))
            for (attempt, code) in outcomes.dropFirst().enumerated() {
                run.executions.append(
                    TestHistory.Execution(test: b, status: code == "p" ? .passed : .failed, attempt: UInt8(attempt)))
            }
            stripped.add(run)
        }
        let analysis = FlakyVerdicts.analyze(stripped)
        #expect(!analysis.findings.contains { $0.test == "A" })
        // A pass on retry is the same code, in the same run.
        #expect(analysis.findings.first { $0.test == "B" }?.verdict.name == "flaky")
        #expect(analysis.runsWithoutTree == 2)
        #expect(FlakyReport.table(analysis).contains("2 of them have no commit (outside git, no --commit)"))
        // The statistical rule still judges them.
        let outcomes = ["p", "f", "p", "f", "p", "p", "f", "p", "p", "f", "p", "p"]
        var many = TestHistory()
        for (index, outcome) in outcomes.enumerated() {
            let test = many.intern("A")
            many.add(
                TestHistory.Run(
                    id: "r\(index)", time: Int64(index), environment: "Linux",
                    executions: [TestHistory.Execution(test: test, status: outcome == "p" ? .passed : .failed)]))
        }
        #expect(Self.verdicts(many)["A"]?.name == "flaky (statistical)")
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
