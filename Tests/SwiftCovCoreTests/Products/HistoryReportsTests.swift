import Testing

@testable import SwiftCovCore

/// The history's reports on the trivia modules' real logs and coverage: a failing run twice on
/// one commit, then the fix on the next (with a file's coverage up), then a shard.
@Suite("Flaky and trends reports: golden files")
struct HistoryReportsTests {
    static func history() throws -> TestHistory {
        let failing = try TestResultsReader.read(paths: [Fixture.sample.path("swift-test-failing.log")], utcOffset: 0)
        let passing = try TestResultsReader.read(paths: [Fixture.sample.path("swift-test-passing.log")], utcOffset: 0)
        let coverage = TestHistory.Coverage(try Fixture.sample.report())
        var better = coverage
        // The fix also covered the least covered file's lines.
        let least = try #require(
            better.files.indices.min { better.files[$0].lines.percent < better.files[$1].lines.percent })
        let gained = better.files[least].lines.missed
        better.files[least].lines.covered += gained
        better.total.lines.covered += gained
        var history = TestHistory()
        func add(
            _ tests: TestRun, _ id: String, _ commit: String, _ time: Int64, _ coverage: TestHistory.Coverage?,
            shard: String = ""
        ) {
            var keys = TestHistory.Run(
                id: id, time: time, repository: "0f1e", commit: commit, tree: "t" + commit, branch: "main",
                environment: "Linux x86_64 swift-6.3.1 debug")
            keys.shard = shard
            history.add(.recording(tests, keys: keys, coverage: coverage, into: &history))
        }
        add(failing, "github-101-1-test", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", 1_795_000_000, coverage)
        add(passing, "github-102-1-test", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", 1_795_003_600, coverage)
        add(failing, "github-103-1-test", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", 1_795_007_200, coverage)
        add(passing, "github-104-1-test", "9d1b3a0c5e7f2468ace13579bdf02468ace13579", 1_795_010_800, better)
        add(failing, "github-105-1-test", "9d1b3a0c5e7f2468ace13579bdf02468ace13579", 1_795_014_400, nil, shard: "1/2")
        return history
    }

    @Test("swiftcov flaky: table, Markdown and JSON")
    func flaky() throws {
        let analysis = FlakyVerdicts.analyze(try Self.history())
        try assertGolden(FlakyReport.table(analysis), "flaky.txt")
        try assertGolden(FlakyReport.markdown(analysis), "flaky.md")
        try assertGolden(FlakyReport.json(analysis), "flaky.json")
        _ = try foundationJSON(FlakyReport.json(analysis))
    }

    @Test("swiftcov trends: table, Markdown and HTML")
    func trends() throws {
        let trends = HistoryTrends(try Self.history())
        try assertGolden(TrendsReport.table(trends), "trends.txt")
        try assertGolden(TrendsReport.markdown(trends), "trends.md")
        try assertGolden(TrendsReport.html(trends), "trends.html")
    }

    @Test("the history itself, as written: a golden file of its lines")
    func lines() throws {
        try assertGolden(HistoryFormat.encode(try Self.history()), "history.jsonl")
    }
}
