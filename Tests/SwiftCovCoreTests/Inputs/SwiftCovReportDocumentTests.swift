import Foundation
import Testing

@testable import SwiftCovCore

/// swiftcov's own JSON report, read back by its one reader for the ratchet, the differential
/// baseline, the tests' times and finding the export beside it.
@Suite("Reading swiftcov's own JSON report", .removingTemporaryFolders)
struct SwiftCovReportDocumentTests {
    static let sample = Fixture.sample

    func sampleReport() throws -> CoverageReport {
        try Self.sample.report()
    }

    /// The trivia report as `report --format json --show lines --tests LOG` writes it.
    func sampleJSON() throws -> String {
        let report = try sampleReport()
        let tests = try TestResultsReader.read(paths: [Self.sample.path("swift-test-failing.log")], utcOffset: 0)
        var json = JSONWriter()
        try CoverageJSONReport.write(report, options: CoverageReportOptions(showLines: true), tests: tests, to: &json)
        return json.output
    }

    func recognizes(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { SwiftCovReportDocument.recognizes($0) }
    }

    func read(_ text: String, _ parts: SwiftCovReportDocument.Parts) throws(CoverageInputError)
        -> SwiftCovReportDocument
    {
        try SwiftCovReportDocument.read(MappedFile(bytes: Array(text.utf8)), path: "r.json", parts: parts)
    }

    /// `text` with its keys sorted and no white space (as `jq -S -c` writes it).
    func reformatted(_ text: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    @Test("recognized by its content, however it is formatted; an export or other JSON is not a report")
    func recognition() throws {
        let json = try sampleJSON()
        #expect(recognizes(json))
        let sorted = try reformatted(json)
        #expect(!sorted.hasPrefix("{\n  \"schemaVersion\""))
        #expect(recognizes(sorted))
        #expect(recognizes(#"{ "tests": {"suites": []}, "schemaVersion" : 1 }"#))
        // Cut short after its version: still a report (reading it says where it breaks).
        #expect(recognizes(#"{"schemaVersion": 1, "files": [{"#))
        let export = try String(contentsOfFile: Self.sample.path("coverage.json"), encoding: .utf8)
        #expect(!recognizes(export))
        #expect(!recognizes(#"{"data": [], "schemaVersion": 1}"#))
        #expect(!recognizes(#"{"schemaVersion": "1"}"#))
        #expect(!recognizes("{}"))
        #expect(!recognizes("[1]"))
        #expect(!recognizes("schemaVersion"))
        #expect(!recognizes(""))
    }

    @Test("every part reads back what the writer wrote")
    func roundTrip() throws {
        let report = try sampleReport()
        let json = try sampleJSON()
        for text in [json, try reformatted(json)] {
            let document = try read(text, [.summaries, .lineCounts, .testSuites])
            #expect(document.totals == report.totals)
            #expect(document.modules.map(\.name) == report.modules.map(\.name))
            #expect(document.modules.map(\.summary) == report.modules.map(\.summary))
            #expect(document.files.map(\.path) == report.files.map(\.path))
            for (read, file) in zip(document.files, report.files) {
                #expect(read.lineCounts == (try file.lineCounts()))
            }
            let run = try TestResultsReader.read(paths: [Self.sample.path("swift-test-failing.log")], utcOffset: 0)
            #expect(document.testSuites.map(\.name) == run.suites.map(\.name))
            #expect(document.testSuites.map(\.tests) == run.suites.map(\.totals.tests))
            // Parts not asked for are skipped.
            let summaries = try read(text, .summaries)
            #expect(summaries.files.isEmpty && summaries.testSuites.isEmpty && summaries.totals == report.totals)
        }
    }

    @Test("errors name the file, the byte offset and the key path")
    func errors() throws {
        func error(_ text: String, _ parts: SwiftCovReportDocument.Parts) -> CoverageInputError? {
            do {
                _ = try read(text, parts)
                return nil
            } catch {
                return error
            }
        }
        let metric = #"{"count": 1, "covered": 1}"#
        let summary = #"{"lines": \#(metric), "functions": \#(metric), "regions": \#(metric)}"#
        let badModule =
            #"{"schemaVersion": 1, "totals": \#(summary), "modules": [{"name": "A", "summary": "#
            + #"{"lines": {"count": 1, "covered": 2}, "functions": \#(metric), "regions": \#(metric)}}]}"#
        let lineMetric = Array(badModule.utf8).firstRange(of: Array(#"{"count": 1, "covered": 2}"#.utf8))!.lowerBound
        #expect(
            error(badModule, .summaries)
                == .malformed(
                    path: "r.json", offset: lineMetric, keyPath: "modules[0].summary.lines",
                    message: "a metric with 2 covered of 1: expected 0 ≤ covered ≤ count"))
        #expect(
            error(badModule, .summaries)?.description
                == "r.json: error: a metric with 2 covered of 1: expected 0 ≤ covered ≤ count (byte offset "
                + "\(lineMetric), at modules[0].summary.lines)")
        #expect(
            error("{}", .summaries)?.description
                == "r.json: error: not a swiftcov JSON report (make one with `swiftcov report --format json`) "
                + "(byte offset 0, at (root))")
        #expect(
            error(#"{"schemaVersion": 2, "totals": {}}"#, .summaries)?.description.contains(
                "schema version 2 of a swiftcov JSON report; this swiftcov reads version 1 (byte offset 18, at schemaVersion)"
            )
                == true)
        #expect(error(#"{"schemaVersion": 1}"#, .summaries)?.description.contains("without \"totals\"") == true)
        #expect(error(#"{"schemaVersion": 1, "totals": {"lines": null}}"#, .summaries) != nil)
        // What is not asked for is not read: a file without line counts is fine for the ratchet.
        #expect(error(#"{"schemaVersion": 1, "totals": \#(summary), "files": [{"path": "a"}]}"#, .summaries) == nil)
        #expect(
            error(#"{"schemaVersion": 1, "totals": \#(summary), "files": [{"path": "a"}]}"#, .lineCounts)?.description
                .contains("--show lines` (byte offset 160, at files[0])") == true)
        #expect(
            error(#"{"schemaVersion": 1}"#, .testSuites)?.description.contains("no \"tests\" with \"suites\"") == true)
        #expect(
            error(
                #"{"schemaVersion": 1, "tests": {"suites": [{"name": "A", "tests": 1e300, "time": 1}]}}"#, .testSuites)?
                .description.contains("at tests.suites[0].tests") == true)
        #expect(
            error(#"{"schemaVersion": 1, "tests": {"suites": [{"name": "A", "tests": 1, "time": -1}]}}"#, .testSuites)?
                .description.contains("at tests.suites[0]") == true)
        #expect(
            error(#"{"schemaVersion": 1, "totals": \#(summary)} x"#, .summaries)?.description.contains(
                "unexpected data after the document") == true)
    }

    @Test("run's coverage.json, reformatted, still stands for the export beside it")
    func locatesTheExportBesideAReformattedReport() throws {
        let folder = try temporaryDirectory()
        let export = folder + "/" + CoverageInput.runExportName
        try FileManager.default.copyItem(atPath: Self.sample.path("coverage.json"), toPath: export)
        let report = folder + "/coverage.json"
        try reformatted(try sampleJSON()).write(toFile: report, atomically: true, encoding: .utf8)
        #expect(try CoverageInput.locateExport(report) == export)
        try FileManager.default.removeItem(atPath: export)
        #expect(throws: CoverageInputError.reportWithoutExport(path: report, export: export)) {
            try CoverageInput.locateExport(report)
        }
    }

    @Test("--timings: run's coverage.json (with or without per-test data), or any test output")
    func timings() throws {
        let folder = try temporaryDirectory()
        let json = try sampleJSON()
        let report = folder + "/coverage.json"
        try json.write(toFile: report, atomically: true, encoding: .utf8)
        // What Foundation reads in the same document.
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let suites = (object["tests"] as! [String: Any])["suites"] as! [[String: Any]]
        let expected = TestTimings(
            suites: suites.map {
                ($0["name"] as! String, ($0["tests"] as! NSNumber).intValue, ($0["time"] as! NSNumber).doubleValue)
            })
        let fromReport = try TestTimings.read(path: report)
        #expect(!fromReport.isEmpty)
        #expect(fromReport == expected)
        // With per-test data, the summary is `testSummary` and `tests` lists the tests.
        var perTest = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        perTest["testSummary"] = perTest["tests"]
        perTest["tests"] = [
            ["id": "A/b", "outcome": "passed", "milliseconds": 1, "executedLines": 0, "recorded": true]
        ]
        try JSONSerialization.data(withJSONObject: perTest).write(to: URL(fileURLWithPath: report))
        #expect(try TestTimings.read(path: report) == expected)
        // A count no test run has is an error with where, not a trap.
        try #"{"schemaVersion": 1, "tests": {"suites": [{"name": "A", "tests": 1e300, "time": 1}]}}"#.write(
            toFile: report, atomically: true, encoding: .utf8)
        #expect(throws: CoverageInputError.self) { try TestTimings.read(path: report) }
        // A Swift Testing event stream is test output, not a report, though it starts with `{`.
        #expect(!(try TestTimings.read(path: Self.sample.path("swift-testing-events.jsonl"))).isEmpty)
    }
}
