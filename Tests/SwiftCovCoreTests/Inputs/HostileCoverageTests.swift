import Foundation
import Testing

@testable import SwiftCovCore

/// Invented exports with numbers no compiler writes — counts near Int64.max, lines near
/// UInt32.max, segments out of order, regions that end before they start: each gives either
/// llvm-cov's clamped number or one input error naming where, never a trap or a hang.
@Suite("Hostile numbers in coverage data", .removingTemporaryFolders)
struct HostileCoverageTests {
    func segment(_ line: UInt32, _ column: UInt32, _ count: UInt64, hasCount: Bool = true, entry: Bool = true)
        -> CoverageSegment
    {
        CoverageSegment(
            line: line, column: column, count: count, hasCount: hasCount, isRegionEntry: entry, isGapRegion: false)
    }

    /// An invented export with the given `files` and `functions` JSON.
    func export(files: String = "[]", functions: String? = nil) -> String {
        let functionsMember = functions.map { #","functions":\#($0)"# } ?? ""
        return
            #"{"data":[{"files":\#(files)\#(functionsMember)}],"type":"llvm.coverage.json.export","version":"3.0.1"}"#
    }

    func read(_ json: String, keepMappings: Bool = false) throws -> LLVMCovExport {
        let path = try temporaryDirectory() + "/coverage.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return try CoverageInput.readExport(path, keepMappings: keepMappings)
    }

    func readError(_ json: String) throws -> CoverageInputError {
        do {
            _ = try read(json)
        } catch let error as CoverageInputError {
            return error
        }
        Issue.record("read without an error")
        return .notFound(path: "")
    }

    @Test("the line view walks runs of lines: a segment at line 4294967295 costs nothing and does not trap")
    func lineAtTheLimit() {
        let segments = [segment(1, 1, 3), segment(UInt32.max, 1, 0, hasCount: false, entry: false)]
        // The closing segment's line is executable too: it carries the count in from line 1.
        #expect(LineCoverage.metric(of: segments) == Metric(count: Int(UInt32.max), covered: Int(UInt32.max)))
        var runs: [ClosedRange<UInt32>] = []
        segments.withUnsafeBufferPointer {
            LineCoverage.forEachExecutableRun(in: $0) { lines, _ in runs.append(lines) }
        }
        #expect(runs == [1...1, 2...(UInt32.max - 1), UInt32.max...UInt32.max])
        // A counted segment on the last line there is: the line after it is never computed.
        let last = [segment(UInt32.max - 1, 1, 2), segment(UInt32.max, 1, 2)]
        #expect(LineCoverage.lineCounts(of: last).map(\.line) == [UInt32.max - 1, UInt32.max])
    }

    @Test("runs give the same lines as walking every line between the segments")
    func runsMatchLines() {
        let segments = [
            segment(2, 1, 4), segment(3, 5, 0), segment(3, 9, 4, entry: false), segment(7, 2, 0, hasCount: false),
            segment(9, 1, 1), segment(12, 1, 0, hasCount: false, entry: false),
        ]
        #expect(
            LineCoverage.lineCounts(of: segments).map { [$0.line, UInt32($0.count)] } == [
                [2, 4], [3, 4], [4, 4], [5, 4], [6, 4], [9, 1], [10, 1], [11, 1], [12, 1],
            ])
        #expect(LineCoverage.metric(of: segments) == Metric(count: 9, covered: 9))
    }

    @Test("segments that go backwards end the walk instead of spinning")
    func backwardsSegments() {
        let segments = [segment(5, 1, 1), segment(3, 1, 1), segment(6, 1, 1), segment(2, 1, 1)]
        #expect(LineCoverage.lineCounts(of: segments).map(\.line) == [5, 3, 4, 5, 6, 2])
        let far = [segment(UInt32.max, 1, 1), segment(1, 1, 1)]
        #expect(LineCoverage.metric(of: far) == Metric(count: 2, covered: 2))
    }

    @Test("20,000 nested, same-ending or overlapping regions (invented) are swept in n log n, not n²")
    func manyActiveRegions() {
        let n: UInt32 = 20_000
        func metric(_ regions: [CountedRegion]) -> Metric {
            var builder = SegmentBuilder()
            var segments: [CoverageSegment] = []
            builder.build(regions, into: &segments)
            return LineCoverage.metric(of: segments)
        }
        func region(_ l1: UInt32, _ c1: UInt32, _ l2: UInt32, _ c2: UInt32) -> CountedRegion {
            CountedRegion(
                start: SourcePosition(line: l1, column: c1), end: SourcePosition(line: l2, column: c2),
                executionCount: 1)
        }
        // Each inside the one before: all active at once, completed together at the end.
        let nested = (0..<n).map { region($0 + 1, 1, 2 * n - $0 + 1, 1) }
        #expect(metric(nested) == Metric(count: Int(2 * n + 1), covered: Int(2 * n + 1)))
        // All ending where the last starts, and each overlapping the next.
        #expect(metric((0..<n).map { region(1, $0 + 1, 2, 1) }) == Metric(count: 2, covered: 2))
        #expect(metric((0..<n).map { region(1, $0 + 1, 3, $0 + 1) }) == Metric(count: 3, covered: 3))
    }

    @Test("a file whose line view would have more lines than any source file is an input error")
    func implausibleLineCount() throws {
        let files =
            #"[{"filename":"/p/Sources/M/a.swift","segments":[[1,1,3,true,true,false],[4000000000,1,0,false,false,false]]}]"#
        let report = try CoverageReport.build(
            exports: [try read(export(files: files))], scope: CoverageScope(root: "/p"))
        let file = try #require(report.files.first)
        #expect(throws: CoverageInputError.implausibleLines(filename: "/p/Sources/M/a.swift", count: 4_000_000_000)) {
            try file.lineCounts()
        }
        let message = CoverageInputError.implausibleLines(filename: "a.swift", count: 3_999_999_999).description
        #expect(
            message
                == "a.swift: error: the coverage data gives this file 3999999999 executable lines, more than 16777216; its line numbers cannot be right"
        )
    }

    @Test("segments out of order in an export are an input error naming the tuple")
    func segmentsOutOfOrder() throws {
        let files =
            #"[{"filename":"/p/Sources/M/a.swift","segments":[[5,1,3,true,true,false], [4,1,0,false,false,false]]}]"#
        let report = try CoverageReport.build(
            exports: [try read(export(files: files))], scope: CoverageScope(root: "/p"))
        let file = try #require(report.files.first)
        do {
            _ = try file.lineCounts()
            Issue.record("no error")
        } catch {
            guard case .malformed(_, _, let keyPath, let message) = error else { Issue.record("\(error)"); return }
            #expect(keyPath == "data[0].files[0].segments[1]")
            #expect(message == "segment at 4:1 comes after one at 5:1 (segments must be in order)")
        }
    }

    @Test("a region that ends before it starts is an input error, not minutes of work")
    func regionEndsBeforeStart() throws {
        let functions =
            #"[{"count":1,"filenames":["a.swift"],"name":"f","regions":[[1,1,9,1,1,0,0,0],[4000000000,1,2,1,1,0,0,0]]}]"#
        let error = try readError(export(functions: functions))
        guard case .malformed(_, _, let keyPath, let message) = error else { Issue.record("\(error)"); return }
        #expect(keyPath == "data[0].functions[0].regions[1]")
        #expect(message == "region ends at 2:1, before it starts at 4000000000:1")
    }

    @Test("summaries near Int64.max add up to Int64.max instead of trapping")
    func summariesSaturate() throws {
        let big = Int64.max - 1
        let summary = #"{"lines":{"count":\#(big),"covered":\#(big)},"regions":{"count":\#(big),"covered":1}}"#
        let files =
            #"[{"filename":"/p/Sources/M/a.swift","summary":\#(summary)},{"filename":"/p/Sources/M/b.swift","summary":\#(summary)}]"#
        let report = try CoverageReport.build(
            exports: [try read(export(files: files))], scope: CoverageScope(root: "/p"))
        #expect(report.totals.lines == Metric(count: Int.max, covered: Int.max))
        #expect(report.totals.regions == Metric(count: Int.max, covered: 2))
        #expect(report.totals.regions.missed == Int.max - 2)
        #expect(report.modules.first?.summary.lines.count == Int.max)
    }

    @Test("summary numbers that cannot be are input errors")
    func impossibleSummaries() throws {
        let negative = try readError(export(files: #"[{"filename":"a.swift","summary":{"lines":{"count":-1}}}]"#))
        #expect(negative.description.contains("negative count -1"))
        let over = try readError(
            export(files: #"[{"filename":"a.swift","summary":{"lines":{"count":2,"covered":3}}}]"#))
        guard case .malformed(_, _, let keyPath, let message) = over else { Issue.record("\(over)"); return }
        #expect(keyPath == "data[0].files[0].summary.lines")
        #expect(message == "3 covered of only 2")
    }

    @Test("merged execution counts stop at Int64.max, as llvm-cov clamps them")
    func mergedCountsClamp() throws {
        let functions =
            #"[{"count":9223372036854775807,"filenames":["/p/Sources/M/a.swift"],"name":"f","regions":[[1,1,3,2,9223372036854775807,0,0,0]]}]"#
        let files =
            #"[{"filename":"/p/Sources/M/a.swift","segments":[[1,1,9223372036854775807,true,true,false],[3,2,0,false,false,false]]}]"#
        let one = try read(export(files: files, functions: functions), keepMappings: true)
        let report = try CoverageReport.build(exports: [one, one], scope: CoverageScope(root: "/p"))
        let file = try #require(report.files.first)
        #expect(file.functions.first?.executionCount == UInt64(Int64.max))
        #expect(try file.lineCounts().map(\.count) == [UInt64(Int64.max), UInt64(Int64.max), UInt64(Int64.max)])
        #expect(UInt64.max.addingSaturating(1) == UInt64(Int64.max))
        #expect(Int.max.addingSaturating(1) == Int.max)
        #expect(Int.min.addingSaturating(-1) == Int.min)
    }

    @Test("lcov's FNDA, Cobertura's and SonarQube's counts stop at Int64.max (invented instantiations)")
    func exportedCountsClamp() throws {
        let max = Int64.max
        let record =
            #"{"count":\#(max),"filenames":["/p/Sources/M/a.swift"],"name":"NAME","regions":[[1,1,3,2,\#(max),0,0,0]]}"#
        let functions = "[" + record.replacing("NAME", with: "f1") + "," + record.replacing("NAME", with: "f2") + "]"
        let files =
            #"[{"filename":"/p/Sources/M/a.swift","segments":[[1,1,\#(max),true,true,false],[3,2,0,false,false,false]]}]"#
        let one = try read(export(files: files, functions: functions), keepMappings: true)
        let report = try CoverageReport.build(exports: [one, one], scope: CoverageScope(root: "/p"))
        let options = InterchangeOptions(timestamp: 0, version: "0")
        let lcov = try InterchangeFormat.lcov.render(report, options: options)
        #expect(lcov.contains("FNDA:9223372036854775807,f1\n"))
        #expect(lcov.contains("DA:1,9223372036854775807\n"))
        #expect(
            try InterchangeFormat.cobertura.render(report, options: options).contains("hits=\"9223372036854775807\"")
        )
        #expect(try InterchangeFormat.sonarqube.render(report, options: options).contains("covered=\"true\""))
    }

    @Test("an HTML page of a file with counts far apart has a row per count, not per line number")
    func htmlRowsBoundedByCounts() throws {
        let segments = [
            segment(1, 1, 3), segment(2, 1, 0, hasCount: false, entry: false), segment(4_000_000_000, 1, 7),
            segment(4_000_000_000, 9, 0, hasCount: false, entry: false),
        ]
        let file = FileCoverage.forTesting(path: "a.swift", segments: segments)
        let html = HTMLReport.filePage(
            file, segments: segments, source: .missing(path: "a.swift"), options: .init())
        #expect(html.components(separatedBy: "<tr id=\"L").count - 1 == 3)
        #expect(html.contains("id=\"L4000000000\""))
    }
}
