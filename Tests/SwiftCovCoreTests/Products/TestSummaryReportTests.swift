import Foundation
import Testing

@testable import SwiftCovCore

/// The test-run summary of `swiftcov report --tests`: table, JSON and Markdown, alone and with coverage.
@Suite("test-run summary")
struct TestSummaryReportTests {
    func trivia() throws -> TestRun {
        try LogFixture("SampleReports/swift-test-failing.log").run(events: "SampleReports/swift-testing-events.jsonl")
    }

    @Test("table, JSON and Markdown match their golden files")
    func goldens() throws {
        let run = try trivia()
        try assertGolden(TestSummaryTableReport.render(run), "tests-table.txt")
        try assertGolden(TestSummaryJSONReport.render(run), "tests-report.json")
        try assertGolden(TestSummaryMarkdownReport.render(run), "tests-report.md")
        try assertGolden(
            TestSummaryTableReport.render(try LogFixture("hostile-xctest-crash.log").run()), "tests-table-truncated.txt"
        )
    }

    @Test("JSON: totals and failures as the run has them; next to coverage, the coverage keys stay as they were")
    func json() throws {
        let run = try trivia()
        let value = try foundationJSON(TestSummaryJSONReport.render(run))
        #expect(value["schemaVersion"] == .number(1))
        let totals = try #require(value["tests"]?["totals"])
        #expect(totals["tests"] == .number(Double(run.totals.tests)))
        #expect(totals["failed"] == .number(5))
        guard case .array(let failures)? = value["tests"]?["failures"] else {
            Issue.record("no failures array")
            return
        }
        #expect(failures.count == run.cases.flatMap(\.failingIssues).count)

        let coverage = try CoverageJSONReport.render(Fixture.sample.report(), options: CoverageReportOptions())
        var writer = JSONWriter()
        try CoverageJSONReport.write(Fixture.sample.report(), options: CoverageReportOptions(), tests: run, to: &writer)
        let combined = writer.output
        // The test summary is one more member after the coverage report's, which stay as they were.
        #expect(combined.hasPrefix(String(coverage.dropLast("\n}\n".count)) + ",\n  \"tests\": {\n"))
        let parsed = try foundationJSON(combined)
        let original = try foundationJSON(coverage)
        guard case .object(let members) = parsed, case .object(let originalMembers) = original else {
            Issue.record("not objects")
            return
        }
        #expect(Set(members.map(\.key)) == Set(originalMembers.map(\.key) + ["tests"]))
        for (key, value) in originalMembers { #expect(parsed[key] == value, "\(key)") }
    }

    @Test("Markdown and the table show no control characters or raw markup from hostile names")
    func hostile() throws {
        let run = try LogFixture("hostile-xctest-and-swift-testing.log").run()
        let markdown = TestSummaryMarkdownReport.render(run)
        #expect(!markdown.contains("<display>"))
        #expect(markdown.contains("&lt;display&gt;"))
        let table = TestSummaryTableReport.render(run)
        #expect(!table.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }
}
