import Foundation
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// xccov's JSON (real outputs: `xccov-report.json` from danger-swift-coverage, `xccov-only-targets.json`
/// from xccov-parse; `xccov-archive.json` made for these tests) read into reports whose numbers
/// are the ones in the JSON, read here by Foundation.
@Suite("Xcode's coverage from xccov's JSON")
struct XcodeCoverageJSONTests {
    static let fixture = Fixture(name: "xcode")

    static func report(_ files: [String], allFiles: Bool = false) throws -> CoverageReport {
        var request = CoverageRequest(inputs: files.map { fixture.path($0) }, root: "/Users/franco/Projects/swift")
        request.allFiles = allFiles
        return try request.makeReport(workingDirectory: "/")
    }

    /// The document as Foundation reads it.
    static func foundation(_ file: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.path(file))))
    }

    @Test("each file and function has xccov's numbers; each module is its target's")
    func reportNumbers() throws {
        let report = try Self.report(["xccov-report.json"], allFiles: true)
        #expect(report.origin == .xcode)
        #expect(report.measured == [.lines, .functions])
        let document = try #require(try Self.foundation("xccov-report.json") as? [String: Any])
        let targets = try #require(document["targets"] as? [[String: Any]])
        var fileCount = 0
        for target in targets {
            let name = try #require(target["name"] as? String)
            let bare = String(name[..<name.lastIndex(of: ".")!])
            let module = try #require(report.modules.first { $0.name == bare })
            #expect(
                module.summary.lines
                    == Metric(count: target["executableLines"] as! Int, covered: target["coveredLines"] as! Int))
            for file in try #require(target["files"] as? [[String: Any]]) {
                fileCount += 1
                let coverage = try #require(report.files.first { $0.path == file["path"] as? String })
                #expect(coverage.module == bare)
                #expect(
                    coverage.summary.lines
                        == Metric(count: file["executableLines"] as! Int, covered: file["coveredLines"] as! Int))
                let functions = try #require(file["functions"] as? [[String: Any]])
                #expect(coverage.functions.map(\.mangledName) == functions.map { $0["name"] as! String })
                #expect(
                    coverage.functions.map(\.executionCount) == functions.map { UInt64($0["executionCount"] as! Int) })
                #expect(coverage.functions.map { Int($0.line) } == functions.map { $0["lineNumber"] as! Int })
                #expect(coverage.summary.functions.count == functions.count)
                #expect(
                    coverage.summary.functions.covered == functions.filter { ($0["executionCount"] as! Int) > 0 }.count)
            }
        }
        #expect(report.files.count == fileCount)
        // Both targets are in scope (--all-files): the totals are xccov's.
        #expect(
            report.totals.lines
                == Metric(count: document["executableLines"] as! Int, covered: document["coveredLines"] as! Int))
    }

    @Test("by default test code and files outside the root are left out; a library's files under a test bundle stay")
    func defaultScope() throws {
        let report = try Self.report(["xccov-report.json"])
        // RunnerLib.xctest lists only `Sources/RunnerLib/…`: a library's files, in scope by file.
        #expect(report.modules.map(\.name) == ["Danger", "RunnerLib"])
        #expect(
            report.files.allSatisfy {
                $0.displayPath.hasPrefix("Sources/Danger/") || $0.displayPath.hasPrefix("Sources/RunnerLib/")
            })
        // Xcode's numbers for both targets (419/182 and 168/112).
        #expect(report.totals.lines == Metric(count: 587, covered: 294))
        var outside = CoverageRequest(inputs: [Self.fixture.path("xccov-report.json")], root: "/elsewhere")
        outside.includeFunctions = false
        #expect(try outside.makeReport(workingDirectory: "/").files.isEmpty)
    }

    @Test("--only-targets: the targets' lines, nothing else measured")
    func onlyTargets() throws {
        let report = try Self.report(["xccov-only-targets.json"], allFiles: true)
        #expect(report.files.isEmpty)
        #expect(report.measured == [.lines])
        let targets = try #require(try Self.foundation("xccov-only-targets.json") as? [[String: Any]])
        #expect(report.modules.count == targets.count)
        #expect(report.totals.lines.count == targets.reduce(0) { $0 + ($1["executableLines"] as! Int) })
        #expect(report.totals.lines.covered == targets.reduce(0) { $0 + ($1["coveredLines"] as! Int) })
        let table = CoverageTableReport.render(report, options: CoverageReportOptions())
        #expect(table.contains("Targets only"))
        let defaultScope = try Self.report(["xccov-only-targets.json"])
        #expect(defaultScope.modules.map(\.name) == ["GoogleToolboxForMac", "nanopb", "test.examples"])
    }

    @Test("with the archive, each file's line view is the archive's executable lines and counts")
    func archiveLines() throws {
        let report = try Self.report(["xccov-report.json", "xccov-archive.json"])
        let archive = try #require(try Self.foundation("xccov-archive.json") as? [String: [[String: Any]]])
        for (path, lines) in archive {
            let file = try #require(report.files.first { $0.path == path })
            let expected = lines.filter { $0["isExecutable"] as! Bool }.map {
                LineCount(line: UInt32($0["line"] as! Int), count: UInt64($0["executionCount"] as! Int))
            }
            #expect(try file.lineCounts() == expected)
            // The archive agrees with the report's totals for the file.
            #expect(expected.count == file.summary.lines.count)
            #expect(expected.filter { $0.count > 0 }.count == file.summary.lines.covered)
        }
        // A file the archive does not have has no line view, and says why.
        let without = try #require(report.files.first { $0.displayPath == "Sources/Danger/Danger.swift" })
        #expect(!without.hasLineData)
        #expect(
            throws: CoverageInputError.noLineData(
                path: Self.fixture.path("xccov-report.json"), filename: "Sources/Danger/Danger.swift")
        ) {
            try without.lineCounts()
        }
    }

    @Test("a subrange keeps the line's count and marks the part that ran another number of times")
    func subranges() {
        let segments = CoverageReport.segments(of: [
            XcodeCoverage.Line(line: 3, executionCount: 8),
            XcodeCoverage.Line(
                line: 4, executionCount: 8, subranges: [.init(column: 9, length: 26, executionCount: 0)]),
            XcodeCoverage.Line(line: 5, executionCount: nil),
            XcodeCoverage.Line(line: 6, executionCount: 0),
        ])
        #expect(
            LineCoverage.lineCounts(of: segments) == [
                LineCount(line: 3, count: 8), LineCount(line: 4, count: 8), LineCount(line: 6, count: 0),
            ])
        #expect(segments.contains { $0.line == 4 && $0.column == 9 && $0.count == 0 && $0.hasCount })
        #expect(segments.contains { $0.line == 4 && $0.column == 35 && $0.count == 8 })
    }

    @Test("archives of several runs add up per line")
    func archivesAddUp() throws {
        let first = [XcodeCoverage.Line(line: 1, executionCount: 2), XcodeCoverage.Line(line: 2, executionCount: 0)]
        let second = [
            XcodeCoverage.Line(line: 2, executionCount: 3), XcodeCoverage.Line(line: 3, executionCount: .max),
        ]
        let third = [XcodeCoverage.Line(line: 3, executionCount: 1)]
        let added = XcodeCoverageInput.added(XcodeCoverageInput.added(first, second), third)
        #expect(added.map(\.line) == [1, 2, 3])
        #expect(added.map(\.executionCount) == [2, 3, .max])
    }

    @Test("outputs: table, Markdown and JSON show the metrics Xcode has and the others as absent")
    func goldenOutputs() throws {
        let report = try Self.report(["xccov-report.json"])
        var options = CoverageReportOptions()
        options.showFunctions = true
        try assertGolden(CoverageTableReport.render(report, options: options), "xccov-report.txt")
        try assertGolden(CoverageMarkdownReport.render(report, options: options), "xccov-report.md")
        let json = try CoverageJSONReport.render(report, options: options)
        try assertGolden(json, "xccov-report.json")
        let document = try foundationJSON(json)
        #expect(document["measured"] == .array([.string("lines"), .string("functions")]))
        #expect(document["totals"]?["regions"] == .null)
        #expect(document["totals"]?["lines"]?["count"] == .number(587))
    }

    @Test("--show lines: each file the archive has lists its lines; the others have none to list")
    func jsonLines() throws {
        let report = try Self.report(["xccov-report.json", "xccov-archive.json"])
        let json = try CoverageJSONReport.render(report, options: CoverageReportOptions(showLines: true))
        guard case .array(let files)? = try foundationJSON(json)["files"] else {
            Issue.record("no files")
            return
        }
        let withLines = files.filter { $0["lineCounts"] != nil }.compactMap { $0["path"]?.stringValue }
        #expect(withLines.sorted() == report.files.filter(\.hasLineData).map(\.path).sorted())
        #expect(withLines.count == 2)
    }

    @Test("line-level outputs from the archive: lcov and Cobertura")
    func lineOutputs() throws {
        var request = CoverageRequest(
            inputs: [Self.fixture.path("xccov-report.json"), Self.fixture.path("xccov-archive.json")],
            root: "/Users/franco/Projects/swift",
            includes: [Glob("Sources/Danger/BitBucketServerDSL.swift"), Glob("Sources/Danger/DangerResults.swift")])
        request.includeFunctions = true
        let report = try request.makeReport(workingDirectory: "/")
        var lcov = OutputBuffer()
        try LcovReport.write(report, to: &lcov)
        try assertGolden(lcov.text, "xccov-archive.lcov")
        var xml = OutputBuffer()
        try CoberturaReport.write(report, options: InterchangeOptions(timestamp: 0, version: "test"), to: &xml)
        try assertGolden(xml.text, "xccov-archive-cobertura.xml")
    }

    @Test("wrong or hostile JSON: one error naming the key path")
    func errors() throws {
        func error(_ text: String, archive: Bool = false) -> XcodeInputError? {
            let value = try! JSONValue.parse(Array(text.utf8))
            do {
                if archive {
                    _ = try XcodeCoverage.readArchiveJSON(value, path: "x.json")
                } else {
                    _ = try XcodeCoverage.readReportJSON(value, path: "x.json")
                }
                return nil
            } catch {
                return error
            }
        }
        #expect(error(#"{"targets": 3, "executableLines": 1}"#)?.location == "targets")
        #expect(
            error(#"{"executableLines": 1, "targets": [{"name": "A", "executableLines": 1, "coveredLines": -1}]}"#)?
                .location == "targets[0].coveredLines")
        #expect(
            error(#"{"executableLines": 1, "targets": [{"name": "A", "executableLines": 1e300, "coveredLines": 0}]}"#)?
                .location == "targets[0].executableLines")
        #expect(
            error(
                #"{"/a.swift": [{"line": 2, "isExecutable": false}, {"line": 1, "isExecutable": false}]}"#,
                archive: true)?.location == "/a.swift[1].line")
        #expect(
            error(#"{"/a.swift": [{"line": 1, "isExecutable": true}]}"#, archive: true)?.location
                == "/a.swift[0].executionCount")
        #expect(
            error(#"{"/a.swift": [{"line": 99999999999, "isExecutable": false}]}"#, archive: true)?.location
                == "/a.swift[0].line")
        #expect(error(#"{"coverage": []}"#)?.message.contains("xccov view --report --json") == true)
        #expect(XcodeCoverage.jsonKind(of: try JSONValue.parse(Array(#"{"data": [], "type": "x"}"#.utf8))) == nil)
    }
}
