import Testing

@testable import SwiftCovCore

@Suite("Trends: one point per commit, shards added up and carried forward, movers since a commit")
struct HistoryTrendsTests {
    static func run(
        _ id: String, commit: String, time: Int64, shard: String = "", tests: Int, failed: Int = 0,
        lines: (Int, Int)? = nil, files: [(String, Int, Int)] = []
    ) -> TestHistory.Run {
        var run = TestHistory.Run(id: id, time: time, commit: commit, tree: commit, branch: "main")
        run.shard = shard
        run.totals.tests = tests
        run.totals.failed = failed
        run.totals.passed = tests - failed
        if let lines {
            run.coverage = TestHistory.Coverage(
                total: .init(lines: Metric(count: lines.1, covered: lines.0)),
                modules: [("Core", .init(lines: Metric(count: lines.1, covered: lines.0)))],
                files: files.map { ($0.0, Metric(count: $0.2, covered: $0.1)) })
        }
        return run
    }

    @Test("a shard missing on a commit carries its last numbers forward, and the point says so")
    func carriedShards() {
        var history = TestHistory()
        history.add(Self.run("a1", commit: "c1", time: 1, shard: "1/2", tests: 10))
        history.add(Self.run("a2", commit: "c1", time: 2, shard: "2/2", tests: 20, failed: 1))
        history.add(Self.run("b1", commit: "c2", time: 3, shard: "1/2", tests: 11))
        let trends = HistoryTrends(history)
        #expect(trends.points.map(\.tests) == [30, 31])
        #expect(trends.points.map(\.failed) == [1, 1])
        #expect(trends.points.map(\.carriedShards) == [[], ["2/2"]])
        #expect(
            TrendsReport.table(trends).contains("1 commit lacked shards (2/2): their last numbers are carried forward.")
        )
    }

    @Test(
        "a commit's flaky and order-dependent tests come from all of its runs; a run alone never stands in for the suite"
    )
    func countsFromAllRuns() {
        var history = TestHistory()
        let a = history.intern("M.T/a")
        let b = history.intern("M.T/b")
        let c = history.intern("M.T/c")
        func run(
            _ id: String, _ time: Int64, commit: String = "c1", alone: Bool = false,
            _ outcomes: [(Int32, TestRun.Status, UInt8)], orderDependent: [TestHistory.OrderDependent] = []
        ) {
            var run = Self.run(id, commit: commit, time: time, tests: 3)
            run.isAlone = alone
            run.executions = outcomes.map { TestHistory.Execution(test: $0.0, status: $0.1, attempt: $0.2) }
            run.totals.failed = outcomes.filter { $0.1 == .failed && $0.2 == 0 }.count
            run.totals.passed = 3 - run.totals.failed
            run.orderDependent = orderDependent
            history.add(run)
        }
        // a: failed then passed on retry in one suite run; b: passed in one suite run, failed in
        // the other; c: passed in the suite, failed alone (the per-test run compared them).
        run("s1", 1, [(a, .failed, 0), (a, .passed, 1), (b, .passed, 0), (c, .passed, 0)])
        run("s2", 2, [(a, .passed, 0), (b, .failed, 0), (c, .passed, 0)])
        run(
            "alone", 3, alone: true, [(a, .passed, 0), (b, .passed, 0), (c, .failed, 0)],
            orderDependent: [TestHistory.OrderDependent(test: c, alone: .failed, inSuite: .passed)])
        // The next commit: the build broke, then everything failed.
        var broken = Self.run("build", commit: "c2", time: 4, tests: 0)
        broken.buildFailed = true
        broken.isComplete = false
        history.add(broken)
        history.add(Self.run("all", commit: "c2", time: 5, tests: 6, failed: 6))
        let trends = HistoryTrends(history)
        #expect(trends.points.map(\.commit) == ["c1", "c2"])
        let first = trends.points[0]
        #expect(first.flaky == 2 && first.orderDependent == 1)
        // Its tests and failures are the newest suite run's (s2), not the run alone's.
        #expect(first.tests == 3 && first.failed == 1)
        // A commit with no run but those left out is a point, and says why.
        #expect(trends.points[1].leftOut == [.buildFailed, .everythingFailed(failed: 6, tests: 6)])
        // Its failures count: never a green point.
        #expect(trends.points[1].tests == 6 && trends.points[1].failed == 6)
        let table = TrendsReport.table(trends)
        #expect(table.contains("Runs left out"))
        #expect(
            table.contains(
                "Runs left out of the numbers (no single test's outcome): c2 (the build failed; everything failed, 6 of 6 tests)."
            ), "\(table)")
        #expect(TrendsReport.markdown(trends).contains("| Order-dependent | "))
        #expect(TrendsReport.html(trends).contains("<th scope=\"col\">Runs left out</th>"))
        // Commits off the first-parent line are placed by their first run, whatever it was.
        run("s3", 6, [(a, .passed, 0), (b, .passed, 0), (c, .passed, 0)])
        #expect(HistoryTrends(history, firstParents: ["c9"]).points.map(\.commit) == ["c1", "c2"])
    }

    @Test("coverage comes from whole runs; movers are measured since the commit asked for, biggest first")
    func movers() {
        var history = TestHistory()
        history.add(
            Self.run(
                "r1", commit: "aaa1", time: 1, tests: 5, lines: (50, 100),
                files: [("A.swift", 10, 20), ("B.swift", 40, 80)]))
        history.add(
            Self.run(
                "r2", commit: "bbb2", time: 2, tests: 5, lines: (60, 100),
                files: [("A.swift", 20, 20), ("B.swift", 40, 80)]))
        history.add(Self.run("r3", commit: "ccc3", time: 3, shard: "1/2", tests: 6))
        history.add(
            Self.run(
                "r4", commit: "ddd4", time: 4, tests: 6, lines: (70, 100),
                files: [("A.swift", 20, 20), ("B.swift", 50, 80)]))
        let trends = HistoryTrends(history)
        #expect(trends.points.map(\.carriedCoverage) == [false, false, true, false])
        #expect(trends.since == "aaa1")
        #expect(trends.movers.map(\.name) == ["A.swift", "Core", "B.swift"])
        #expect(trends.movers.first?.change == 50)
        let sinceSecond = HistoryTrends(history, since: "bbb")
        #expect(sinceSecond.since == "bbb2")
        #expect(sinceSecond.movers.map(\.name) == ["B.swift", "Core"])
    }

    @Test(
        "commits in the order of HEAD's first-parent line, not the order run: the tip newest, movers with their sign"
    )
    func firstParentOrder() {
        // Run on the feature branch's commit first, then on its base, then on a commit the line lacks.
        let (base, feature) = (String(repeating: "b", count: 40), String(repeating: "f", count: 40))
        var history = TestHistory()
        history.add(
            Self.run("r1", commit: feature, time: 10, tests: 6, lines: (70, 100), files: [("A.swift", 14, 20)]))
        history.add(Self.run("r2", commit: base, time: 20, tests: 5, lines: (50, 100), files: [("A.swift", 10, 20)]))
        history.add(Self.run("r3", commit: "elsewhere", time: 30, tests: 4))
        history.add(Self.run("r4", commit: "", time: 5, tests: 4))
        let trends = HistoryTrends(history, firstParents: [feature, base, "older"])
        // The run without a commit (first, by time) and the unknown commit placed by time.
        #expect(trends.points.map(\.commit) == ["", base, feature, "elsewhere"])
        #expect(trends.placedByTime == 1)
        #expect(trends.since == base)
        #expect(trends.movers.map(\.name) == ["A.swift", "Core"])
        // From the base to the feature: up, not down.
        #expect(trends.movers.allSatisfy { abs($0.change - 20) < 1e-9 }, "\(trends.movers)")
        // Without git, by when first run.
        let unordered = HistoryTrends(history)
        #expect(unordered.points.map(\.commit) == ["", feature, base, "elsewhere"])
        #expect(unordered.placedByTime == 0)
    }

    @Test("git's first-parent line through the system seam; nil when git answers with an error")
    func firstParentCommits() {
        let commits = ["1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"]
        for status: Int32 in [0, 128] {
            let system = FakeSystem { command in
                command.program == "git"
                    && command.arguments == ["-C", "/p", "log", "--first-parent", "--format=%H", "HEAD", "--"]
                    ? .init(status: status, output: commits.joined(separator: "\n") + "\n") : nil
            }
            #expect(Git.firstParentCommits(root: "/p", system: system) == (status == 0 ? commits : nil))
        }
        #expect(Git.firstParentCommits(root: "/p", system: FakeSystem { _ in nil }) == nil)
    }

    @Test("sparklines span the values' range; values within 1% are flat; gaps are spaces")
    func sparklines() {
        #expect(TrendsReport.sparkline([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▂▃▄▅▆▇█")
        #expect(TrendsReport.sparkline([92.33, 92.34, nil, 92.33]) == "▄▄ ▄")
        #expect(TrendsReport.sparkline([]) == "")
        #expect(TrendsReport.sparkline([nil]) == " ")
        // One commit is one commit.
        var history = TestHistory()
        history.add(HistoryTrendsTests.run("r1", commit: "c1", time: 1, tests: 3))
        #expect(TrendsReport.table(HistoryTrends(history)).hasPrefix("1 commit, newest c1 on main\n"))
        #expect(TrendsReport.markdown(HistoryTrends(history)).hasPrefix("### Trends over 1 commit (newest `c1`)"))
    }
}
