import Foundation
import Testing

@testable import SwiftCovCore

/// The shipped trivia sample: its numbers against llvm-cov's, and every report format against
/// its golden file.
@Suite("The trivia sample")
struct SampleReportTests {
    let sample = Fixture.sample

    var report: CoverageReport {
        get throws {
            try CoverageReport.build(exports: [sample.export()], scope: CoverageScope(root: "/checkout"))
        }
    }

    @Test("modules are the trivia targets, files are grouped under them")
    func modules() throws {
        let report = try report
        #expect(report.modules.map(\.name) == ["TriviaCore", "TriviaGame", "trivia"])
        #expect(report.files.allSatisfy { $0.displayPath.hasPrefix("Sources/\($0.module)/") })
        #expect(report.modules.map(\.fileCount).reduce(0, +) == report.files.count)
        #expect(report.modules.map(\.summary).reduce(CoverageSummary(), +) == report.totals)
    }

    @Test("file rows and TOTAL equal llvm-cov report; per-line counts equal llvm-cov's")
    func agreesWithLLVMCov() throws {
        let report = try report
        let rows = try sample.llvmCovReportRows()
        func numbers(_ summary: CoverageSummary) -> [Int] {
            [summary.regions, summary.functions, summary.lines].flatMap { [$0.count, $0.missed] }
        }
        #expect(numbers(report.totals) == rows["TOTAL"])
        #expect(rows.count - 1 == report.files.count)
        for file in report.files {
            let key = rows.keys.first { file.path == $0 || file.path.hasSuffix("/" + $0) }
            #expect(key.flatMap { rows[$0] } == numbers(file.summary), "\(file.path)")
        }
        let lines = try sample.llvmCovLineCounts()
        for file in report.files {
            #expect(try file.lineCounts() == lines[file.path], "\(file.path)")
        }
    }

    @Test("some trivia code is deliberately left uncovered")
    func partiallyCovered() throws {
        let report = try report
        #expect(report.totals.lines.covered < report.totals.lines.count)
        #expect(report.files.contains { $0.functions.contains { $0.executionCount == 0 } })
        let network = try #require(report.files.first { $0.path.hasSuffix("NetworkTriviaAPI.swift") })
        #expect(network.summary.lines.percent < 50)
    }

    @Test("table", arguments: [CoverageReportOptions.Sort.name, .coverage])
    func table(sort: CoverageReportOptions.Sort) throws {
        try assertGolden(
            CoverageTableReport.render(report, options: CoverageReportOptions(sort: sort)), "sample-table-\(sort).txt")
    }

    @Test("table with functions and colours")
    func tableWithFunctions() throws {
        let options = CoverageReportOptions(showFunctions: true, colors: true)
        try assertGolden(CoverageTableReport.render(report, options: options), "sample-table-functions-color.txt")
    }

    @Test("JSON with per-line counts")
    func json() throws {
        let text = try CoverageJSONReport.render(
            report, options: CoverageReportOptions(showFunctions: true, showLines: true))
        try assertGolden(text, "sample-report.json")
        // It is JSON, and it says what the table says.
        let value = try foundationJSON(text)
        #expect(value["schemaVersion"] == .number(1))
        #expect(value["totals"]?["lines"]?["covered"]?.numberValue == Double(try report.totals.lines.covered))
    }

    @Test("Markdown")
    func markdown() throws {
        try assertGolden(CoverageMarkdownReport.render(report, options: CoverageReportOptions()), "sample-report.md")
    }

    @Test("each format through the one entry of `Report`, streamed 256 bytes at a time: the same files")
    func throughReport() throws {
        let withLines = CoverageAndTestsReport(
            try report, options: CoverageReportOptions(showFunctions: true, showLines: true))
        try assertGolden(try streamed(withLines, .json), "sample-report.json")
        let plain = CoverageAndTestsReport(try report, options: CoverageReportOptions())
        try assertGolden(try streamed(plain, .markdown), "sample-report.md")
        try assertGolden(try streamed(plain, .table), "sample-table-name.txt")
        #expect(try plain.text(.markdown) == (try streamed(plain, .markdown)))
    }

    /// `report` in `format`, written through a buffer that flushes to a file every 256 bytes, read back.
    func streamed<R: Report>(_ report: R, _ format: R.Format) throws -> String {
        let path = NSTemporaryDirectory() + "/swiftcov-report-\(UUID().uuidString)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        var output = OutputBuffer(flushingTo: descriptor, chunkSize: 256)
        try report.write(format, to: &output)
        output.flush()
        #expect(output.writeError == 0)
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
