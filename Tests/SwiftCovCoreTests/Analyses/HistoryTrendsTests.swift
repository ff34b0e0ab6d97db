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
