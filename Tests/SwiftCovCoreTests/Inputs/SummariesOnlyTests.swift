import Foundation
import Testing

@testable import SwiftCovCore

/// A report that lists no functions of one export reads the records without keeping them
/// (`summariesOnly`): every file's numbers are then the export's own summary. Invented exports
/// check the cases where the records must be kept after all, and that every record is still
/// checked as strictly as when it is kept. (The real exports are in `LLVMCovAgreementTests`.)
@Suite("Reports without a function list", .removingTemporaryFolders)
struct SummariesOnlyTests {
    /// The summary of a file with one function of `lines` lines that ran (or not).
    static func summary(lines: Int, ran: Bool) -> String {
        let covered = ran ? 1 : 0
        let metric = { (count: Int, covered: Int) in #"{"count":\#(count),"covered":\#(covered)}"# }
        return #"{"lines":\#(metric(lines, ran ? lines : 0)),"functions":\#(metric(1, covered)),"#
            + #""instantiations":\#(metric(1, covered)),"regions":\#(metric(1, covered))}"#
    }

    /// A record of `file` whose one code region spans lines `from`–`to`, run `count` times.
    static func record(_ name: String, _ file: String, from: Int, to: Int, count: Int) -> String {
        #"{"name":"\#(name)","count":\#(count),"filenames":["\#(file)"],"regions":[[\#(from),1,\#(to),2,\#(count),0,0,0]]}"#
    }

    static func export(files: [String], functions: [String], functionsFirst: Bool = false) -> String {
        let filesMember = #""files":[\#(files.joined(separator: ","))]"#
        let functionsMember = #""functions":[\#(functions.joined(separator: ","))]"#
        let members = functionsFirst ? functionsMember + "," + filesMember : filesMember + "," + functionsMember
        return #"{"data":[{\#(members)}],"type":"llvm.coverage.json.export","version":"3.0.1"}"#
    }

    func read(_ json: String, summariesOnly: Bool) throws -> LLVMCovExport {
        try CoverageInput.readExport(write(json), keepMappings: false, names: false, summariesOnly: summariesOnly)
    }

    func write(_ json: String) throws -> String {
        let path = try temporaryDirectory() + "/coverage.json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func report(_ export: LLVMCovExport) throws -> CoverageReport {
        try CoverageReport.build(
            exports: [export], scope: CoverageScope(root: "/p", allFiles: true), includeFunctions: false)
    }

    @Test("with every file's summary the records are checked, not kept, and the summaries are the numbers")
    func summariesRead() throws {
        let json = Self.export(
            files: [#"{"filename":"/p/a.swift","summary":\#(Self.summary(lines: 3, ran: true))}"#],
            functions: [Self.record("f", "/p/a.swift", from: 1, to: 3, count: 2)])
        let export = try read(json, summariesOnly: true)
        #expect(export.recordsSkipped)
        #expect(export.functions.isEmpty)
        let file = try #require(try report(export).files.first)
        #expect(file.summary.lines == Metric(count: 3, covered: 3))
        #expect(file.summary.functions == Metric(count: 1, covered: 1))
    }

    @Test(
        "a file without its own summary takes its numbers from the records, wherever the records are",
        arguments: [false, true])
    func fileWithoutSummary(functionsFirst: Bool) throws {
        // b.swift has no summary: its numbers can only come from its record (4 lines, not run).
        let json = Self.export(
            files: [
                #"{"filename":"/p/a.swift","summary":\#(Self.summary(lines: 3, ran: true))}"#,
                #"{"filename":"/p/b.swift"}"#,
            ],
            functions: [
                Self.record("f", "/p/a.swift", from: 1, to: 3, count: 2),
                Self.record("g", "/p/b.swift", from: 5, to: 8, count: 0),
            ],
            functionsFirst: functionsFirst)
        let export = try read(json, summariesOnly: true)
        #expect(!export.recordsSkipped)
        #expect(export.functions.count == 2)
        let files = try report(export).files
        #expect(files.map(\.path) == ["/p/a.swift", "/p/b.swift"])
        #expect(files.map(\.summary.lines) == [Metric(count: 3, covered: 3), Metric(count: 4, covered: 0)])
        #expect(files.map(\.summary.functions) == [Metric(count: 1, covered: 1), Metric(count: 1, covered: 0)])
    }

    @Test("a file named twice is merged from the records, as without summariesOnly", arguments: [false, true])
    func fileNamedTwice(functionsFirst: Bool) throws {
        // Two exports of the same file put together: f ran in one of them, so its 3 lines are covered.
        let file = #"{"filename":"/p/a.swift","summary":\#(Self.summary(lines: 3, ran: false))}"#
        let json = Self.export(
            files: [file, file],
            functions: [
                Self.record("f", "/p/a.swift", from: 1, to: 3, count: 0),
                Self.record("f", "/p/a.swift", from: 1, to: 3, count: 4),
            ],
            functionsFirst: functionsFirst)
        let export = try read(json, summariesOnly: true)
        #expect(!export.recordsSkipped)
        let merged = try #require(try report(export).files.first)
        #expect(merged.summary.lines == Metric(count: 3, covered: 3))
        #expect(merged.summary.instantiations == Metric(count: 1, covered: 1))
        let kept = try #require(try report(read(json, summariesOnly: false)).files.first)
        #expect(merged.summary == kept.summary)
    }

    @Test(
        "a bad record is the same input error whether the records are kept or only checked",
        arguments: [
            #"{"name":"f","count":1,"filenames":["/p/a.swift"],"regions":[[9,1,2,1,1,0,0,0]]}"#,
            #"{"name":"f","count":1,"filenames":["/p/a.swift"],"regions":[[1,1,2,1,1,1,0,0]]}"#,
            #"{"count":1,"filenames":["/p/a.swift"],"regions":[[1,1,2,1,1,0,0,0]]}"#,
            #"{"name":"f","count":-1,"filenames":["/p/a.swift"],"regions":[[1,1,2,1,1,0,0,0]]}"#,
            #"{"name":"f","count":1,"filenames":["/p/a.swift"],"regions":[[1,1,2,1,1,0,0,300]]}"#,
            #"{"name":"f","count":1,"filenames":["/p/a.swift"],"regions":[[1,1,2,1,1,0,0,0]],"branches":[[1]]}"#,
            #"{"name":1,"count":1,"filenames":["/p/a.swift"],"regions":[[1,1,2,1,1,0,0,0]]}"#,
            #"{"name":"f","count":1,"filenames":["/p/a.swift"],"regions":[[1,1,2,1,1,0,0,0],{}]}"#,
        ])
    func badRecord(record: String) throws {
        let json = Self.export(
            files: [#"{"filename":"/p/a.swift","summary":\#(Self.summary(lines: 2, ran: true))}"#], functions: [record])
        let path = try write(json)
        let errors = [false, true].compactMap { summariesOnly -> CoverageInputError? in
            let result = Result { () throws(CoverageInputError) in
                try CoverageInput.readExport(path, keepMappings: false, names: false, summariesOnly: summariesOnly)
            }
            guard case .failure(let error) = result else { return nil }
            return error
        }
        #expect(errors.count == 2)
        #expect(errors.first == errors.last)
        guard case .malformed(_, _, let keyPath, _)? = errors.first else {
            Issue.record("not a malformed-input error: \(errors)")
            return
        }
        #expect(keyPath.hasPrefix("data[0].functions[0]"))
    }

    @Test("an export whose records were only checked is not merged on its summaries: the file shared is refused")
    func notMergedOnSummaries() throws {
        let json = Self.export(
            files: [#"{"filename":"/p/a.swift","summary":\#(Self.summary(lines: 3, ran: true))}"#],
            functions: [Self.record("f", "/p/a.swift", from: 1, to: 3, count: 2)])
        let path = try write(json)
        let checked = try CoverageInput.readExport(path, keepMappings: false, names: false, summariesOnly: true)
        let kept = try CoverageInput.readExport(path, keepMappings: true)
        #expect(checked.recordsSkipped)
        #expect(throws: CoverageInputError.self) {
            try CoverageReport.build(
                exports: [checked, kept], scope: CoverageScope(root: "/p", allFiles: true), includeFunctions: false)
        }
    }
}
