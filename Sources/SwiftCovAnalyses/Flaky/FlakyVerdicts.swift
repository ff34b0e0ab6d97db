import SwiftCovModel

/// What the history says about each test that ever failed: flaky (proven on one tree, or by its
/// flips across commits), order-dependent, broken, or healed — each verdict with the runs that
/// prove it and how many runs it rests on. Runs that say nothing about their tests (they did not
/// end) and runs where everything failed at once are left out of the verdicts, and listed.
///
/// A run is of one of two kinds: the whole suite (`swift test`, `run`, `history add`), or each
/// test alone (`run --per-test`); a retry counts as its run's kind. Evidence is weighed, not
/// ranked: every observation of a test on one tree and environment counts, by kind. The rules
/// (docs/commands.md, `swiftcov flaky`):
/// - **broken in NAME**: it failed every attempt of every run (two at least) in one environment
///   (or several), and passed every run of the others (two runs at least) — never called flaky;
/// - **broken**: it failed every attempt of every run (two at least) since a commit, and passed
///   on none of those runs' trees — never called flaky;
/// - **flaky (proven)**: one tree in one environment saw it pass and fail in the same kind of run
///   (across runs, or a failure then a pass on retry), however the other kind went — "also seen
///   failing alone" when a run alone failed it too;
/// - **order-dependent**: on one tree and environment, it ended one way alone and the other in the
///   suite, in two runs at least of each kind, or in one `run --per-test` that confirmed it (every
///   run alone agreed) and found the test it depends on; and never flipped within a kind — a run
///   whose runs alone disagreed saw it pass and fail alone;
/// - **flaky (statistical)**: on one branch, environment and kind of run, at least `minimumRuns`
///   runs and `minimumFlips` flips between passing and failing (one flip is a regression or a fix);
/// - **maybe order-dependent**: it ended differently alone than in the suite, but in fewer runs
///   than the order-dependent rule needs: one observation, which a coin toss explains as well;
/// - **healed**: flaky by a rule above, but no failure in its last `healAfter` runs.
///
/// A run with no tree and no commit (outside git, no `--commit`) is compared with no other run:
/// only its own retries can prove a flake, and the statistical rule judges it with the others.
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

    /// Order-dependence needs this many runs of each kind that agree, on one tree.
    package static let orderDependenceRuns = 2

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
        /// Passed and failed on one tree and environment, in the same kind of run: `failed` and
        /// `passed` (the same run when it passed on retry).
        case flaky(failed: RunReference, passed: RunReference)
        /// Flipped between passing and failing across commits on `branch`.
        case flakyStatistically(branch: String, runs: Int, failures: Int, flips: Int, interval: ClosedRange<Double>)
        /// Ended `alone` in every run alone and `inSuite` in every run of the suite, on one tree:
        /// `runs`, the runs alone that show it (two at least).
        case orderDependent(alone: TestRun.Status, inSuite: TestRun.Status, runs: [RunReference])
        /// Ended `alone` alone and `inSuite` in the suite in `run`, but too few times to tell
        /// order-dependence from chance.
        case maybeOrderDependent(alone: TestRun.Status, inSuite: TestRun.Status, run: RunReference)
        /// Failed every attempt of the last `runs` runs, since `since`.
        case broken(since: RunReference, runs: Int)
        /// Failed every attempt of all `runs` runs in `environment` (the environments' names,
        /// joined by ", "), the first of them `since`; passed all `passed` runs elsewhere.
        case brokenIn(environment: String, since: RunReference, runs: Int, passed: Int)
        /// Was flaky (last failed in `lastFailure`), and passed its last `passes` runs since.
        case healed(lastFailure: RunReference, passes: Int)

        /// The verdict's name, as tables and JSON show it.
        package var name: String {
            switch self {
            case .flaky: "flaky"
            case .flakyStatistically: "flaky (statistical)"
            case .orderDependent: "order-dependent"
            case .maybeOrderDependent: "maybe order-dependent"
            case .broken: "broken"
            case .brokenIn(let environment, _, _, _): "broken in " + environment
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

    /// How a test ended in the runs a verdict rests on, by kind of run: each run counts once per
    /// outcome it saw (a failure, then a pass on retry, counts as both).
    package struct Tally: Sendable, Equatable {
        package var suitePassed = 0
        package var suiteFailed = 0
        package var alonePassed = 0
        package var aloneFailed = 0

        /// A tally from its counts.
        package init(suitePassed: Int = 0, suiteFailed: Int = 0, alonePassed: Int = 0, aloneFailed: Int = 0) {
            self.suitePassed = suitePassed
            self.suiteFailed = suiteFailed
            self.alonePassed = alonePassed
            self.aloneFailed = aloneFailed
        }
    }

    /// The verdict on one test.
    package struct Finding: Sendable, Equatable {
        package var test: String
        package var verdict: Verdict
        /// Whether it failed in the newest run.
        package var failedLast: Bool
        /// The observations the verdict rests on: those on its tree and environment for a proven
        /// verdict, all of the test's otherwise.
        package var tally = Tally()
        /// Whether a run alone failed it where a suite run passed it: evidence of order-dependence
        /// that its flips outweigh (shown, not hidden).
        package var alsoFailedAlone = false
        /// The test it depends on, for an order-dependent test whose `run --per-test` found it.
        package var dependsOn: Dependency?

        /// The verdict's name with what contradicts it: "flaky, also seen failing alone".
        package var name: String {
            verdict.isFlaky && alsoFailedAlone ? verdict.name + ", also seen failing alone" : verdict.name
        }
    }

    /// What the analysis found.
    package struct Analysis: Sendable, Equatable {
        /// The tests with a verdict, by name.
        package var findings: [Finding]
        /// The runs left out: infrastructure failures (runs that did not end) and runs where
        /// everything failed.
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
        /// The runs of `excluded` where everything (more than 80% of five tests or more) failed.
        package var everythingFailed: [RunReference] = []
        /// The runs of `excluded` whose build failed.
        package var buildFailed: [RunReference] = []
        /// The newest run of the history, when it is left out: the headline describes it.
        package var newestLeftOut: LeftOut?
        /// The runs considered that have no tree and no commit (outside git, no `--commit`): no
        /// verdict across runs is proven on them.
        package var runsWithoutTree = 0

        /// Judges the new failures by the per-test data of the failing run and the lines a change
        /// touched (the coverage rule).
        package mutating func judgeByCoverage(perTest: PerTestCoverage, changedLines: [String: [UInt32]]) {
            let findings = FlakyVerdicts.coverageFindings(
                of: newFailures.map(\.test), perTest: perTest, changedLines: changedLines)
            for index in newFailures.indices { newFailures[index].coverage = findings[index].finding }
        }
    }

    /// The test an order-dependent test depends on, as the newest `run --per-test` that found it
    /// on the verdict's tree recorded it.
    package struct Dependency: Sendable, Equatable {
        /// The test it depends on.
        package var test: String
        /// Its runs alone in that run, and how many ended as the first.
        package var aloneRuns: Int
        package var aloneAgreeing: Int
        /// The runs of `test` then it, and how many ended as in the suite.
        package var runs: Int
        package var agreeing: Int
        /// The run that found it.
        package var run: RunReference
    }

    /// A run left out of the verdicts, and why.
    package struct LeftOut: Sendable, Equatable {
        package var run: RunReference
        package var reason: TestHistory.Run.LeftOutReason
    }

    /// A failure of the newest run that no verdict explains yet.
    package struct NewFailure: Sendable, Equatable {
        package var test: String
        package var coverage: CoverageFinding?
    }

    /// The runs verdicts rest on (those not left out), numbered from 0: the history's own runs,
    /// by position, never a copy of a million of them.
    private struct ConsideredRuns: RandomAccessCollection {
        let all: [TestHistory.Run]
        let positions: [Int]

        var startIndex: Int { 0 }
        var endIndex: Int { positions.count }
        subscript(index: Int) -> TestHistory.Run { all[positions[index]] }
    }

    /// One test's outcome in one run, of one kind.
    private struct Outcome {
        var run: Int
        var alone: Bool
        var passed: Bool
        var failed: Bool
        var failedLast: Bool
    }

    /// The outcomes of one run's tests, in the order the run first names them, found by test (an
    /// index into the history's names) in a table as long as the names: emptied for the next run by
    /// the tests it holds, not by all.
    private struct OutcomesOfRun {
        /// The tests, in order.
        private(set) var order: [Int32] = []
        /// Their outcomes, in the same order.
        var outcomes: [Outcome] = []
        /// By test, its place in `order`, or -1.
        private var positions: [Int32]

        init(tests: Int) { positions = [Int32](repeating: -1, count: tests) }

        func position(of test: Int32) -> Int? {
            let position = positions[Int(test)]
            return position < 0 ? nil : Int(position)
        }

        mutating func add(_ test: Int32, _ outcome: Outcome) {
            positions[Int(test)] = Int32(truncatingIfNeeded: order.count)
            order.append(test)
            outcomes.append(outcome)
        }

        mutating func removeAll() {
            for test in order { positions[Int(test)] = -1 }
            order.removeAll(keepingCapacity: true)
            outcomes.removeAll(keepingCapacity: true)
        }
    }

    /// The verdicts of `history`.
    package static func analyze(_ history: TestHistory, options: Options = Options()) -> Analysis {
        var excluded: [RunReference] = []
        var everythingFailed: [RunReference] = []
        var buildFailed: [RunReference] = []
        var considered: [Int] = []
        for (position, run) in history.runs.enumerated() {
            if let reason = run.leftOutReason {
                excluded.append(RunReference(run))
                if case .everythingFailed = reason { everythingFailed.append(RunReference(run)) }
                if reason == .buildFailed { buildFailed.append(RunReference(run)) }
            } else {
                considered.append(position)
            }
        }
        let runs = ConsideredRuns(all: history.runs, positions: considered)
        var outcomes = [[Outcome]](repeating: [], count: history.names.count)
        // The tests order-dependent ones depend on, as the runs that found them say, by test.
        var dependencies: [Int32: [(run: Int, dependency: Dependency)]] = [:]
        // Per test, its outcome in the run being read (any attempt passed, any failed, the last
        // failed), by test: a run's million executions are looked up by index, not hashed.
        var ofRun = OutcomesOfRun(tests: history.names.count)
        for (index, run) in runs.enumerated() {
            ofRun.removeAll()
            let alone = run.ranAlone
            for execution in run.executions where execution.status != .skipped {
                let failing = execution.isFailing
                if let position = ofRun.position(of: execution.test) {
                    ofRun.outcomes[position].passed = ofRun.outcomes[position].passed || execution.status == .passed
                    ofRun.outcomes[position].failed = ofRun.outcomes[position].failed || failing
                    ofRun.outcomes[position].failedLast = failing
                } else {
                    ofRun.add(
                        execution.test,
                        Outcome(
                            run: index, alone: alone, passed: execution.status == .passed, failed: failing,
                            failedLast: failing))
                }
            }
            // The suite run `run --per-test` compared with: an observation in the suite (before
            // the test's own, alone); and the outcome alone when no execution recorded it.
            var inSuite: [Int32: Outcome] = [:]
            for finding in run.orderDependent where inSuite[finding.test] == nil {
                if finding.isConsistent, let cause = finding.cause, finding.causeRuns > 0,
                    finding.causeAgreeing == finding.causeRuns
                {
                    dependencies[finding.test, default: []].append(
                        (
                            index,
                            Dependency(
                                test: history.names[Int(cause)], aloneRuns: Int(finding.aloneRuns),
                                aloneAgreeing: Int(finding.aloneAgreeing), runs: Int(finding.causeRuns),
                                agreeing: Int(finding.causeAgreeing), run: RunReference(run))
                        ))
                }
                let failed = finding.inSuite >= .failed
                inSuite[finding.test] = Outcome(
                    run: index, alone: false, passed: finding.inSuite == .passed, failed: failed, failedLast: failed)
                if ofRun.position(of: finding.test) == nil {
                    let failedAlone = finding.alone >= .failed
                    ofRun.add(
                        finding.test,
                        Outcome(
                            run: index, alone: true, passed: finding.alone == .passed, failed: failedAlone,
                            failedLast: failedAlone))
                }
            }
            // Runs alone that disagreed: it passed and failed alone in this run.
            for finding in run.orderDependent where !finding.isConsistent {
                if let position = ofRun.position(of: finding.test) {
                    ofRun.outcomes[position].passed = true
                    ofRun.outcomes[position].failed = true
                }
            }
            for (test, outcome) in zip(ofRun.order, ofRun.outcomes) {
                if !inSuite.isEmpty, let suite = inSuite[test] { outcomes[Int(test)].append(suite) }
                outcomes[Int(test)].append(outcome)
            }
        }
        let runsWithoutTree = runs.lazy.filter { $0.tree.isEmpty && $0.commit.isEmpty }.count
        var findings: [Finding] = []
        // The newest run that ran tests (a record of order-dependence alone runs none).
        let newest = runs.indices.last { !runs[$0].executions.isEmpty }
        for (test, seen) in outcomes.enumerated() {
            guard seen.contains(where: \.failed) else { continue }
            let failedLast = seen.last.map { $0.run == newest && $0.failedLast } ?? false
            // The code a run tested, in its environment; a run with no tree or commit is a place
            // of its own (compared with no other run).
            func place(_ outcome: Outcome) -> String {
                let run = runs[outcome.run]
                let code = run.tree.isEmpty ? run.commit : run.tree
                return (code.isEmpty ? "\u{1}\(outcome.run)" : code) + "\u{0}" + run.environmentOfEitherKind
            }
            var byPlace: [String: [Outcome]] = [:]
            for outcome in seen { byPlace[place(outcome), default: []].append(outcome) }
            // Ended differently alone than in the suite, on one tree: evidence of order.
            let alsoFailedAlone = byPlace.values.contains { outcomes in
                outcomes.contains { $0.alone && $0.failed } && outcomes.contains { !$0.alone && $0.passed }
            }
            var dependsOn: Dependency?
            func finding(_ verdict: Verdict, tally: Tally) {
                findings.append(
                    Finding(
                        test: history.names[test], verdict: verdict, failedLast: failedLast, tally: tally,
                        alsoFailedAlone: alsoFailedAlone, dependsOn: dependsOn))
            }
            // Broken in an environment: always failed there, always passed in the others.
            if let verdict = brokenInEnvironment(seen, runs: runs) {
                finding(verdict, tally: Self.tally(seen))
                continue
            }
            // Broken: the newest runs failed every attempt, and none of their trees saw a pass.
            // (One failing run is a new failure, not yet broken.)
            let tail = seen.reversed().prefix { $0.failed && !$0.passed }
            if tail.count >= 2, let oldest = tail.last, seen.last?.run == newest {
                let tailPlaces = Set(tail.map(place))
                let passedThere = seen.contains { $0.passed && tailPlaces.contains(place($0)) }
                if !passedThere {
                    finding(.broken(since: RunReference(runs[oldest.run]), runs: tail.count), tally: Self.tally(seen))
                    continue
                }
            }
            var verdict: Verdict?
            var tally = Self.tally(seen)
            // Proven: a pass and a failure on one tree and environment, in one kind of run.
            var firstPass: [String: Int] = [:]
            var firstFailure: [String: Int] = [:]
            for outcome in seen {
                let key = place(outcome) + (outcome.alone ? "\u{0}alone" : "\u{0}suite")
                if outcome.passed, firstPass[key] == nil { firstPass[key] = outcome.run }
                if outcome.failed, firstFailure[key] == nil { firstFailure[key] = outcome.run }
                if let failed = firstFailure[key], let passed = firstPass[key] {
                    verdict = .flaky(failed: RunReference(runs[failed]), passed: RunReference(runs[passed]))
                    tally = Self.tally(byPlace[place(outcome)]!)
                    break
                }
            }
            let found = dependencies[Int32(test)] ?? []
            if verdict == nil,
                let (order, place) = orderDependence(
                    byPlace, seen: seen, runs: runs, confirmed: Set(found.map(\.run)))
            {
                verdict = order
                if let place {
                    tally = Self.tally(byPlace[place]!)
                    let placeRuns = Set(byPlace[place]!.map(\.run))
                    dependsOn = found.last { placeRuns.contains($0.run) }?.dependency
                }
            }
            if verdict == nil || verdict?.name == "maybe order-dependent" {
                // Many flips across commits outweigh one observation alone.
                let suiteRuns = seen.map { ($0.run, $0.failedLast, $0.alone) }
                if let flips = statistical(suiteRuns, runs: runs, options: options) {
                    verdict = flips
                    tally = Self.tally(seen)
                }
            }
            guard var verdict else { continue }
            // Healed: no failure in its last runs.
            let recent = seen.suffix(options.healAfter)
            if verdict.isFlaky, recent.count == options.healAfter, !recent.contains(where: \.failed),
                let lastFailure = seen.last(where: \.failed)
            {
                verdict = .healed(
                    lastFailure: RunReference(runs[lastFailure.run]),
                    passes: seen.count - 1 - seen.lastIndex(where: \.failed)!)
            }
            finding(verdict, tally: tally)
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
        // The newest run of all, when it is left out: what the headline must speak of.
        var newestLeftOut: LeftOut?
        if let last = history.runs.last(where: { !$0.executions.isEmpty || $0.isInfrastructureFailure }),
            let reason = last.leftOutReason
        {
            newestLeftOut = LeftOut(run: RunReference(last), reason: reason)
        }
        var analysis = Analysis(
            findings: findings, excluded: excluded, runs: runs.count, newestFailures: newestFailures,
            newFailures: newestFailures.filter { !judged.contains($0) }.map { NewFailure(test: $0) })
        analysis.everythingFailed = everythingFailed
        analysis.buildFailed = buildFailed
        analysis.newestLeftOut = newestLeftOut
        analysis.runsWithoutTree = runsWithoutTree
        return analysis
    }

    /// The observations of `outcomes`, by kind.
    private static func tally(_ outcomes: [Outcome]) -> Tally {
        var tally = Tally()
        for outcome in outcomes {
            if outcome.alone {
                if outcome.passed { tally.alonePassed += 1 }
                if outcome.failed { tally.aloneFailed += 1 }
            } else {
                if outcome.passed { tally.suitePassed += 1 }
                if outcome.failed { tally.suiteFailed += 1 }
            }
        }
        return tally
    }

    /// Broken in one environment (or several): every run of it failed every attempt, in two runs
    /// at least each; every run of the other environments passed, in two runs at least; each
    /// environment seen in the whole suite.
    private static func brokenInEnvironment(_ seen: [Outcome], runs: ConsideredRuns) -> Verdict? {
        /// What one environment saw of the test.
        struct Seen {
            var failed = false
            var passed = false
            var inSuite = false
            var runs: Set<Int> = []

            mutating func add(_ outcome: Outcome) {
                failed = failed || outcome.failed
                passed = passed || outcome.passed
                inSuite = inSuite || !outcome.alone
                runs.insert(outcome.run)
            }
        }
        var byEnvironment: [String: Seen] = [:]
        // In place: a copy of the entry would copy its runs, once per outcome (quadratic).
        for outcome in seen { byEnvironment[runs[outcome.run].environmentOfEitherKind, default: Seen()].add(outcome) }
        // Each environment seen in the suite: an environment of runs alone only differs by order too.
        guard byEnvironment.count >= 2,
            byEnvironment.values.allSatisfy({ $0.failed != $0.passed && $0.inSuite }),
            case let failing = byEnvironment.filter({ $0.value.failed }), !failing.isEmpty,
            failing.values.allSatisfy({ $0.runs.count >= 2 })
        else { return nil }
        let passed = byEnvironment.values.filter(\.passed).reduce(0) { $0 + $1.runs.count }
        guard passed >= 2 else { return nil }
        let failedRuns = failing.values.reduce(into: Set<Int>()) { $0.formUnion($1.runs) }
        let names = Set(failing.values.compactMap { $0.runs.min().map { runs[$0].environmentDisplayName } })
        return .brokenIn(
            environment: names.sorted().joined(separator: ", "), since: RunReference(runs[failedRuns.min()!]),
            runs: failedRuns.count, passed: passed)
    }

    /// Order-dependence, with the place it rests on: on one tree and environment, every run
    /// alone ended one way and every suite run the other, in `orderDependenceRuns` runs of each
    /// kind at least (never a flip within a kind: the caller found none), or one run alone of the
    /// `confirmed` ones (a `run --per-test` that confirmed it and found the test it depends on).
    /// Fewer runs than that make it "maybe" (the newest such run named, and no place: all
    /// observations count).
    private static func orderDependence(
        _ byPlace: [String: [Outcome]], seen: [Outcome], runs: ConsideredRuns, confirmed: Set<Int>
    ) -> (Verdict, String?)? {
        var maybe: Verdict?
        for place in byPlace.keys.sorted() {
            let outcomes = byPlace[place]!
            let alone = outcomes.filter(\.alone)
            let suite = outcomes.filter { !$0.alone }
            guard let firstAlone = alone.first, let firstSuite = suite.first,
                firstAlone.failed != firstSuite.failed,
                alone.allSatisfy({ $0.failed == firstAlone.failed && $0.passed != $0.failed }),
                suite.allSatisfy({ $0.failed == firstSuite.failed && $0.passed != $0.failed })
            else { continue }
            let aloneRuns = Set(alone.map(\.run)).sorted()
            let suiteRuns = Set(suite.map(\.run))
            let aloneStatus: TestRun.Status = firstAlone.failed ? .failed : .passed
            let suiteStatus: TestRun.Status = firstSuite.failed ? .failed : .passed
            if aloneRuns.count >= orderDependenceRuns && suiteRuns.count >= orderDependenceRuns
                || aloneRuns.contains(where: confirmed.contains)
            {
                return (
                    .orderDependent(
                        alone: aloneStatus, inSuite: suiteStatus, runs: aloneRuns.map { RunReference(runs[$0]) }),
                    place
                )
            }
            let newest = maybe.flatMap { if case .maybeOrderDependent(_, _, let run) = $0 { run.time } else { nil } }
            if newest == nil || runs[aloneRuns.last!].time >= newest! {
                maybe = .maybeOrderDependent(
                    alone: aloneStatus, inSuite: suiteStatus, run: RunReference(runs[aloneRuns.last!]))
            }
        }
        return maybe.map { ($0, nil) }
    }

    /// Flaky by its flips: per branch, environment and kind of run, in time order, at least
    /// `minimumRuns` runs and `minimumFlips` changes between passing and failing (by each run's
    /// last attempt).
    private static func statistical(
        _ seen: [(run: Int, failed: Bool, alone: Bool)], runs: ConsideredRuns, options: Options
    ) -> Verdict? {
        var groups: [String: [Bool]] = [:]
        var order: [String] = []
        for (run, failed, alone) in seen {
            let key = runs[run].branch + "\u{0}" + runs[run].environmentOfEitherKind + (alone ? "\u{0}alone" : "")
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
