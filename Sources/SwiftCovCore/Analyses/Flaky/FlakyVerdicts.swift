/// What the history says about each test that ever failed: flaky (proven on one tree, or by its
/// flips across commits), order-dependent, broken, or healed — each verdict with the runs that
/// prove it. Runs that say nothing about their tests (infrastructure failures) are left out, and
/// listed.
///
/// The rules, strongest first (docs/commands.md, `swiftcov flaky`):
/// - **order-dependent**: `run --per-test` saw it end one way alone and another in the suite;
/// - **broken**: it failed every attempt of every run (two at least) since a commit, and passed
///   on none of those runs' trees — never called flaky;
/// - **flaky (proven)**: one tree in one environment saw it pass and fail (across runs, or a
///   failure then a pass on retry);
/// - **flaky (statistical)**: on one branch and environment, at least `minimumRuns` runs and
///   `minimumFlips` flips between passing and failing (one flip is a regression or a fix);
/// - **healed**: flaky by a rule above, but no failure in its last `healAfter` runs.
package enum FlakyVerdicts {
    /// The thresholds.
    package struct Options: Sendable, Equatable {
        package var minimumRuns = 10
        package var minimumFlips = 2
        package var healAfter = 10

        package init(minimumRuns: Int = 10, minimumFlips: Int = 2, healAfter: Int = 10) {
            self.minimumRuns = minimumRuns
            self.minimumFlips = minimumFlips
            self.healAfter = healAfter
        }
    }

    /// A run, as evidence names it.
    package struct RunReference: Sendable, Equatable {
        package var id: String
        package var commit: String
        package var time: Int64

        init(_ run: TestHistory.Run) {
            id = run.id
            commit = run.commit
            time = run.time
        }
    }

    /// A verdict on one test, and why.
    package enum Verdict: Sendable, Equatable {
        /// Passed and failed on one tree and environment: `failed` and `passed` (the same run when
        /// it passed on retry).
        case flaky(failed: RunReference, passed: RunReference)
        /// Flipped between passing and failing across commits on `branch`.
        case flakyStatistically(branch: String, runs: Int, failures: Int, flips: Int, interval: ClosedRange<Double>)
        /// Ended `alone` when run alone and `inSuite` in the whole suite.
        case orderDependent(alone: TestRun.Status, inSuite: TestRun.Status, run: RunReference)
        /// Failed every attempt of the last `runs` runs, since `since`.
        case broken(since: RunReference, runs: Int)
        /// Was flaky (last failed in `lastFailure`), and passed its last `passes` runs since.
        case healed(lastFailure: RunReference, passes: Int)

        /// The verdict's name, as tables and JSON show it.
        package var name: String {
            switch self {
            case .flaky: "flaky"
            case .flakyStatistically: "flaky (statistical)"
            case .orderDependent: "order-dependent"
            case .broken: "broken"
            case .healed: "healed"
            }
        }

        /// Whether a failure of the test is a known flake (flaky, statistically or proven).
        package var isFlaky: Bool {
            switch self {
            case .flaky, .flakyStatistically: true
            default: false
            }
        }
    }

    /// The verdict on one test.
    package struct Finding: Sendable, Equatable {
        package var test: String
        package var verdict: Verdict
        /// Whether it failed in the newest run.
        package var failedLast: Bool
    }

    /// What the analysis found.
    package struct Analysis: Sendable, Equatable {
        /// The tests with a verdict, by name.
        package var findings: [Finding]
        /// The runs left out: infrastructure failures.
        package var excluded: [RunReference]
        /// The runs considered.
        package var runs: Int
        /// The newest run's failing tests (its last attempts), by name.
        package var newestFailures: [String]
        /// Those of them with no verdict: new failures, with what the change's coverage says of
        /// them once `judgeByCoverage` is called.
        package var newFailures: [NewFailure] = []
        /// The quarantined tests' states, when the package has a quarantine.
        package var quarantine: [QuarantineState] = []

        /// Judges the new failures by the per-test data of the failing run and the lines a change
        /// touched (the coverage rule).
        package mutating func judgeByCoverage(perTest: PerTestCoverage, changedLines: [String: [UInt32]]) {
            let findings = FlakyVerdicts.coverageFindings(
                of: newFailures.map(\.test), perTest: perTest, changedLines: changedLines)
            for index in newFailures.indices { newFailures[index].coverage = findings[index].finding }
        }
    }

    /// A failure of the newest run that no verdict explains yet.
    package struct NewFailure: Sendable, Equatable {
        package var test: String
        package var coverage: CoverageFinding?
    }

    /// The verdicts of `history`.
    package static func analyze(_ history: TestHistory, options: Options = Options()) -> Analysis {
        var excluded: [RunReference] = []
        var runs: [TestHistory.Run] = []
        for run in history.runs {
            if run.isInfrastructureFailure { excluded.append(RunReference(run)) } else { runs.append(run) }
        }
        // Per test: its outcome in each run it ran in (index into `runs`), as (any attempt passed,
        // any attempt failed, last attempt failed).
        struct Outcome {
            var run: Int
            var passed: Bool
            var failed: Bool
            var failedLast: Bool
        }
        var outcomes = [[Outcome]](repeating: [], count: history.names.count)
        for (index, run) in runs.enumerated() {
            var lastIndexOfTest: [Int32: Int] = [:]
            for execution in run.executions where execution.status != .skipped {
                let test = Int(execution.test)
                if let position = lastIndexOfTest[execution.test] {
                    outcomes[test][position].passed = outcomes[test][position].passed || execution.status == .passed
                    outcomes[test][position].failed = outcomes[test][position].failed || execution.isFailing
                    outcomes[test][position].failedLast = execution.isFailing
                } else {
                    lastIndexOfTest[execution.test] = outcomes[test].count
                    outcomes[test].append(
                        Outcome(
                            run: index, passed: execution.status == .passed, failed: execution.isFailing,
                            failedLast: execution.isFailing))
                }
            }
        }
        var orderDependent: [Int32: Verdict] = [:]
        for run in runs {
            for finding in run.orderDependent {
                orderDependent[finding.test] = .orderDependent(
                    alone: finding.alone, inSuite: finding.inSuite, run: RunReference(run))
            }
        }
        var findings: [Finding] = []
        // The newest run that ran tests (a record of order-dependence alone runs none).
        let newest = runs.indices.last { !runs[$0].executions.isEmpty }
        for (test, seen) in outcomes.enumerated() {
            let failedLast = seen.last.map { $0.run == newest && $0.failedLast } ?? false
            func finding(_ verdict: Verdict) {
                findings.append(Finding(test: history.names[test], verdict: verdict, failedLast: failedLast))
            }
            if let verdict = orderDependent[Int32(test)] {
                finding(verdict)
                continue
            }
            guard seen.contains(where: \.failed) else { continue }
            // The code a run tested, in its environment.
            func place(_ outcome: Outcome) -> String {
                let run = runs[outcome.run]
                return (run.tree.isEmpty ? run.commit : run.tree) + "\u{0}" + run.environment
            }
            // Broken: the newest runs failed every attempt, and none of their trees saw a pass.
            // (One failing run is a new failure, not yet broken.)
            let tail = seen.reversed().prefix { $0.failed && !$0.passed }
            if tail.count >= 2, let oldest = tail.last, seen.last?.run == newest {
                let tailPlaces = Set(tail.map(place))
                let passedThere = seen.contains { $0.passed && tailPlaces.contains(place($0)) }
                if !passedThere {
                    finding(.broken(since: RunReference(runs[oldest.run]), runs: tail.count))
                    continue
                }
            }
            var verdict: Verdict?
            // Proven: a pass and a failure on one tree and environment.
            var firstPass: [String: Int] = [:]
            var firstFailure: [String: Int] = [:]
            for outcome in seen {
                let key = place(outcome)
                if outcome.passed, firstPass[key] == nil { firstPass[key] = outcome.run }
                if outcome.failed, firstFailure[key] == nil { firstFailure[key] = outcome.run }
                if let failed = firstFailure[key], let passed = firstPass[key] {
                    verdict = .flaky(failed: RunReference(runs[failed]), passed: RunReference(runs[passed]))
                    break
                }
            }
            if verdict == nil {
                verdict = statistical(seen.map { ($0.run, $0.failedLast) }, runs: runs, options: options)
            }
            guard var verdict else { continue }
            // Healed: no failure in its last runs.
            let recent = seen.suffix(options.healAfter)
            if recent.count == options.healAfter, !recent.contains(where: \.failed),
                let lastFailure = seen.last(where: \.failed)
            {
                verdict = .healed(
                    lastFailure: RunReference(runs[lastFailure.run]),
                    passes: seen.count - 1 - seen.lastIndex(where: \.failed)!)
            }
            finding(verdict)
        }
        let newestFailures: [String] =
            newest.map { newest in
                var names: [String] = []
                var seenNames = Set<Int32>()
                for execution in runs[newest].executions.reversed() where seenNames.insert(execution.test).inserted {
                    if execution.isFailing { names.append(history.names[Int(execution.test)]) }
                }
                return names.reversed()
            } ?? []
        findings.sort { $0.test < $1.test }
        let judged = Set(findings.map(\.test))
        return Analysis(
            findings: findings, excluded: excluded, runs: runs.count, newestFailures: newestFailures,
            newFailures: newestFailures.filter { !judged.contains($0) }.map { NewFailure(test: $0) })
    }

    /// Flaky by its flips: per branch and environment, in time order, at least `minimumRuns`
    /// runs and `minimumFlips` changes between passing and failing (by each run's last attempt).
    private static func statistical(
        _ seen: [(run: Int, failed: Bool)], runs: [TestHistory.Run], options: Options
    ) -> Verdict? {
        var groups: [String: [Bool]] = [:]
        var order: [String] = []
        for (run, failed) in seen {
            let key = runs[run].branch + "\u{0}" + runs[run].environment
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(failed)
        }
        for key in order {
            let sequence = groups[key]!
            guard sequence.count >= options.minimumRuns else { continue }
            let flips = zip(sequence, sequence.dropFirst()).filter { $0 != $1 }.count
            guard flips >= options.minimumFlips else { continue }
            let failures = sequence.filter { $0 }.count
            let branch = String(key.prefix { $0 != "\u{0}" })
            return .flakyStatistically(
                branch: branch, runs: sequence.count, failures: failures, flips: flips,
                interval: wilsonInterval(failures: failures, runs: sequence.count))
        }
        return nil
    }

    /// The Wilson score interval (95%) of a failure rate: where the true rate lies, even for
    /// few runs or none failing.
    package static func wilsonInterval(failures: Int, runs: Int) -> ClosedRange<Double> {
        guard runs > 0 else { return 0...1 }
        let z = 1.959_963_984_540_054
        let n = Double(runs)
        let p = Double(failures) / n
        let denominator = 1 + z * z / n
        let centre = (p + z * z / (2 * n)) / denominator
        let margin = z * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot() / denominator
        return max(0, centre - margin)...min(1, centre + margin)
    }
}
