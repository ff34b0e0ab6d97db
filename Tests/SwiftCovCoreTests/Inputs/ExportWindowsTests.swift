import Foundation
import Testing

@testable import SwiftCovCore

/// An export larger than the reader's window (`MappedFile.Reading.inWindows`) is read a window at
/// a time, the pages read dropped as it goes: what it reads is what its bytes say, and a file's
/// segments read back from the file after their pages were dropped.
@Suite("Exports read in windows", .removingTemporaryFolders)
struct ExportWindowsTests {
    /// One file of `count` one-line functions, the odd ones run once: line `i + 1` is function
    /// `i`'s, its count `i % 2`.
    static func export(count: Int) -> String {
        var functions: [String] = []
        var segments: [String] = []
        for index in 0..<count {
            let (line, ran) = (index + 1, index % 2)
            functions.append(
                #"{"branches":[],"count":\#(ran),"filenames":["/p/Sources/A/a.swift"],"name":"f\#(index)","#
                    + #""regions":[[\#(line),1,\#(line),10,\#(ran),0,0,0]]}"#)
            segments.append("[\(line),1,\(ran),true,true,false],[\(line),10,0,false,false,false]")
        }
        let half = count / 2
        let metric = #"{"count":\#(count),"covered":\#(half)}"#
        let summary = #"{"lines":\#(metric),"functions":\#(metric),"instantiations":\#(metric),"regions":\#(metric)}"#
        let file =
            #"{"filename":"/p/Sources/A/a.swift","segments":[\#(segments.joined(separator: ","))],"#
            + #""summary":\#(summary)}"#
        return #"{"data":[{"files":[\#(file)],"functions":[\#(functions.joined(separator: ","))]}],"#
            + #""type":"llvm.coverage.json.export","version":"2.0.1"}"#
    }

    @Test(
        "an export of several windows reads as its bytes do, and its segments read back after their pages are dropped")
    func severalWindows() throws {
        let count = 30_000
        let text = Self.export(count: count)
        #expect(text.utf8.count > 4 * (1 << 20), "not several windows")
        let path = try temporaryDirectory() + "/coverage.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let scope = CoverageScope(root: "/p", allFiles: true)

        let windowed = try CoverageReport.build(
            export: CoverageInput.readExport(path, keepMappings: false), scope: scope, includeFunctions: true)
        #expect(windowed.totals.lines == Metric(count: count, covered: count / 2))
        #expect(windowed.totals.functions == Metric(count: count, covered: count / 2))
        #expect(windowed.totals.regions == Metric(count: count, covered: count / 2))
        let file = try #require(windowed.files.first)
        #expect(file.functions.count == count)
        #expect(file.functions.map(\.executionCount) == (0..<count).map { UInt64($0 % 2) })
        let lines = try file.lineCounts()
        #expect(lines.map(\.line) == (1...count).map(UInt32.init))
        #expect(lines.map(\.count) == (0..<count).map { UInt64($0 % 2) })

        let copied = try CoverageReport.build(
            export: LLVMCovExportReader.read(MappedFile(bytes: Array(text.utf8))), scope: scope,
            includeFunctions: true)
        #expect(copied.totals == windowed.totals)
        #expect(try copied.files[0].lineCounts().map(\.count) == lines.map(\.count))
    }
}
