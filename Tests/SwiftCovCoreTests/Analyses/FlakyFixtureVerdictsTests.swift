import Foundation
import Testing

@testable import SwiftCovCore

/// The verdicts on real runs: Tests/Fixtures/FlakyHistory's 24 recorded runs of FlakyPackage (4
/// tests failing at random with p = 0.05 to 0.3, 2 always failing, an order-dependent test, a run
/// whose test process crashed), recorded in time order into a history as `history add` records
/// them, and judged after every run, as CI would judge them.
@Suite("Flaky verdicts on the recorded runs of a package with seeded flaky tests")
struct FlakyFixtureVerdictsTests {
    /// The history after each recording (prefixes, in time order), with the runs' names.
    static func histories() throws -> [TestHistory] {
        var history = TestHistory()
        var prefixes: [TestHistory] = []
        var lastSuite: TestRun?
        let parser = ISO8601DateFormatter()
        for recording in try FlakyHistoryTests.recordings() {
            let time = Int64(try #require(parser.date(from: recording.time)).timeIntervalSince1970)
            var keys = TestHistory.Run(
                id: recording.log, time: time, repository: "", commit: recording.commit,
                tree: recording.commit.replacingOccurrences(of: "c0ffee", with: "7ee7ee"), branch: "main",
                environment: "Linux x86_64 swift-6.3.1 debug")
            if recording.kind == "alone" {
                // What `run --per-test` records of a test that failed alone: both outcomes, no plain failure.
                let alone = try #require(recording.run.cases.first { $0.testName == FlakyHistoryTests.orderDependent })
                let inSuite = try #require(lastSuite?.cases.first { $0.testName == FlakyHistoryTests.orderDependent })
                keys.orderDependent = [
                    TestHistory.OrderDependent(
                        test: history.intern(TestHistory.testName(of: alone)), alone: alone.status,
                        inSuite: inSuite.status)
                ]
                history.add(keys)
            } else {
                history.add(.recording(recording.run, keys: keys, coverage: nil, into: &history))
                if recording.kind == "suite" { lastSuite = recording.run }
            }
            prefixes.append(history)
        }
        return prefixes
    }

    static func verdict(_ analysis: FlakyVerdicts.Analysis, _ test: String) -> FlakyVerdicts.Verdict? {
        analysis.findings.first { $0.test.hasSuffix("/" + test) }?.verdict
    }

    @Test("no test that always fails is ever called flaky, after any run; from the second run on it is broken")
    func brokenNeverFlaky() throws {
        let analyses = try Self.histories().map { FlakyVerdicts.analyze($0) }
        for (index, analysis) in analyses.enumerated() {
            for test in FlakyHistoryTests.broken {
                let verdict = Self.verdict(analysis, test)
                #expect(
                    verdict?.isFlaky != true && verdict?.name != "healed",
                    "\(test) after run \(index + 1): \(String(describing: verdict))")
                if index >= 1 { #expect(verdict?.name == "broken", "\(test) after run \(index + 1)") }
            }
        }
        // Broken since the first run, through the change of commit at run 18.
        guard case .broken(let since, _)? = Self.verdict(analyses.last!, "testPercentOfAThird") else {
            Issue.record("testPercentOfAThird is not broken at the end")
            return
        }
        #expect(since.id == "run-01.log")
    }

    @Test("every seeded flaky test is called flaky within 10 runs of its first failure, and never broken")
    func flakyFound() throws {
        let histories = try Self.histories()
        let analyses = histories.map { FlakyVerdicts.analyze($0) }
        var found = 0
        for test in FlakyHistoryTests.flaky.keys.sorted() {
            // The first run (after the infrastructure run's exclusion) in which it failed.
            guard
                let first = histories.indices.first(where: { index in
                    analyses[index].newestFailures.contains { $0.hasSuffix("/" + test) }
                })
            else {
                Issue.record("\(test) never failed in the recordings")
                continue
            }
            let window = analyses[first..<min(first + 10, analyses.count)]
            if window.contains(where: { Self.verdict($0, test)?.isFlaky == true }) { found += 1 }
            // At its first failure: flaky when that code passed before; on code never run before
            // (flakyTitleCase() first failed on the first run of the second commit) a new
            // failure, not yet judged: never broken.
            let atFirst = Self.verdict(analyses[first], test)
            #expect(
                atFirst == nil || atFirst?.isFlaky == true,
                "\(test) at run \(first + 1): \(String(describing: atFirst))")
            if atFirst == nil {
                #expect(histories[first].runs.last!.commit != histories[first - 1].runs.last!.commit)
            }
        }
        // Never broken, after any run (testFlakyMean failed in runs 22 and 23 in a row, on code
        // that had passed).
        for (index, analysis) in analyses.enumerated() {
            for test in FlakyHistoryTests.flaky.keys {
                #expect(Self.verdict(analysis, test)?.name != "broken", "\(test) after recording \(index + 1)")
            }
        }
        // At least 95% of them within 10 runs (of 4: all).
        #expect(found * 100 >= 95 * FlakyHistoryTests.flaky.count)
        // The headline of the last run sorts its failures.
        let last = analyses.last!
        #expect(FlakyReport.headline(last).hasSuffix("broken") || FlakyReport.headline(last).contains("known flaky"))
    }

    @Test("the quarantine: a flaky test stays, a broken one is called out, a steady one may leave")
    func quarantine() throws {
        let history = try Self.histories().last!
        let analysis = FlakyVerdicts.analyze(history)
        let ids = [
            "FlakyTests.StatisticsTests/testFlakyMean", "FlakyTests.StatisticsTests/testPercentOfAThird",
            "FlakyTests.StatisticsTests/testSum", "FlakyTests.StatisticsTests/testGone",
        ].compactMap(TestID.init)
        let states = FlakyVerdicts.quarantine(ids, in: history, analysis: analysis, healAfter: 10)
        #expect(
            states.map(\.state) == [
                .stays(verdict: "flaky"),
                .broken(
                    since: try #require(
                        analysis.findings.first { $0.test.hasSuffix("/testPercentOfAThird") }.flatMap {
                            if case .broken(let since, _) = $0.verdict { since } else { nil }
                        }), runs: 24),
                .release(runs: 24), .notInHistory,
            ])
        var withQuarantine = analysis
        withQuarantine.quarantine = states
        #expect(
            FlakyReport.table(withQuarantine).contains(
                "FlakyTests.StatisticsTests/testSum: passed its last 24 runs: release it from the quarantine"))
        #expect(FlakyReport.markdown(withQuarantine).contains("broken, not flaky"))
    }

    @Test(
        "the order-dependent test is named, with both outcomes, once two runs alone agree; the crashed run is left out")
    func orderDependentAndInfrastructure() throws {
        let histories = try Self.histories()
        let analysis = FlakyVerdicts.analyze(histories.last!)
        guard
            case .orderDependent(let alone, let inSuite, let runs)? = Self.verdict(
                analysis, FlakyHistoryTests.orderDependent)
        else {
            Issue.record("testBReadsDefaults is not order-dependent")
            return
        }
        #expect(alone == .failed && inSuite == .passed)
        // The two runs alone on the second commit; the first commit's one run alone is not enough.
        #expect(runs.map(\.id) == ["alone-02.log", "alone-03.log"])
        let firstAlone = try #require(histories.firstIndex { $0.runs.last?.id == "alone-01.log" })
        #expect(
            Self.verdict(FlakyVerdicts.analyze(histories[firstAlone]), FlakyHistoryTests.orderDependent)?.name
                == "maybe order-dependent")
        #expect(analysis.excluded.map(\.id) == ["infra-01.log"])
        // No steady test has a verdict, and the infrastructure run's crash is charged to nobody.
        for test in FlakyHistoryTests.steady where test != "testARegistersDefaults" {
            #expect(Self.verdict(analysis, test) == nil, "\(test)")
        }
    }
}

/// The coverage rule on a real change of the seeded package: its `run --per-test` after one edit
/// of `percent(_:of:)` (Tests/Fixtures/FlakyHistory/change).
@Suite("The coverage rule on a real change: a failure that ran no changed line is likely flaky")
struct FlakyCoverageRuleTests {
    static let folder = FlakyHistoryTests.folder + "/change"

    static func inputs() throws -> (perTest: PerTestCoverage, changed: [String: [UInt32]]) {
        let store = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/per-test.swiftcov")))
        let diff = try UnifiedDiff.parse(String(contentsOfFile: folder + "/change.diff", encoding: .utf8))
        return (try PerTestStore.decode(store), TestImpact.changedLines(of: diff, side: .changed))
    }

    @Test("the test that runs percent(_:of:) is not flaky by coverage; the flaky ones that failed ran none of it")
    func findings() throws {
        let (perTest, changed) = try Self.inputs()
        #expect(changed == ["Sources/Flaky/Statistics.swift": [37, 38]])
        // Named as the history names them: XCTest classes without their module (a Linux log).
        let failures = [
            "StatisticsTests/testPercentOfAThird", "StatisticsTests/testFlakyMedian",
            "FlakyTests.WordsTests/flakyReversedWords()", "Elsewhere/testUnknown",
        ]
        let findings = Dictionary(
            uniqueKeysWithValues: FlakyVerdicts.coverageFindings(of: failures, perTest: perTest, changedLines: changed)
                .map { ($0.test, $0.finding) })
        #expect(
            findings["StatisticsTests/testPercentOfAThird"]
                == .ran(["Sources/Flaky/Statistics.swift:37", "Sources/Flaky/Statistics.swift:38"], total: 2))
        let none = FlakyVerdicts.CoverageFinding.ranNone(
            changed: ["Sources/Flaky/Statistics.swift:37", "Sources/Flaky/Statistics.swift:38"], total: 2)
        #expect(findings["StatisticsTests/testFlakyMedian"] == none)
        #expect(findings["FlakyTests.WordsTests/flakyReversedWords()"] == none)
        #expect(findings["Elsewhere/testUnknown"] == .notRecorded)
    }

    @Test("the failing run's new failures, judged: likely flaky, or the change's; the headline counts them")
    func judged() throws {
        let (perTest, changed) = try Self.inputs()
        // The per-test run as the history's only run: every failure is new.
        var history = TestHistory()
        var run = TestHistory.Run(id: "change", time: 10, commit: "c2", tree: "t2")
        for test in perTest.tests {
            run.executions.append(
                TestHistory.Execution(
                    test: history.intern(test.id), status: test.outcome == .passed ? .passed : .failed))
        }
        history.add(run)
        var analysis = FlakyVerdicts.analyze(history)
        #expect(FlakyReport.headline(analysis).hasSuffix(" new"))
        #expect(FlakyReport.table(analysis).contains("cannot tell flaky from broken yet"))
        analysis.judgeByCoverage(perTest: perTest, changedLines: changed)
        let table = FlakyReport.table(analysis)
        let rows = Dictionary(
            table.split(separator: "\n").compactMap { line in
                line.split(separator: " ").first.map { (String($0), String(line)) }
            }, uniquingKeysWith: { first, _ in first })
        #expect(rows["FlakyTests.StatisticsTests/testFlakyMedian"]?.contains(" likely flaky (coverage) ") == true)
        #expect(rows["FlakyTests.StatisticsTests/testPercentOfAThird"]?.contains(" new failure ") == true)
        // (slugKeepsAccents() always fails: alone in a history it is "new" and ran no changed line —
        // the rule's known false alarm; with the runs before, it is broken, and not judged by coverage.)
        #expect(
            table.contains("ran 2 changed lines (Sources/Flaky/Statistics.swift:37, Sources/Flaky/Statistics.swift:38)")
        )
        #expect(FlakyReport.headline(analysis).contains("likely flaky (ran no changed line)"))
    }
}
