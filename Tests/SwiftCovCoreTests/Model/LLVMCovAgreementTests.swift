import Foundation
import Testing

@testable import SwiftCovCore

/// Every number swiftcov shares with llvm-cov, checked against llvm-cov's own output for the
/// same real exports (the fixtures hold llvm-cov's answers, written by `scripts/make-fixture`).
@Suite("Agreement with llvm-cov on real exports")
struct LLVMCovAgreementTests {
    @Test("file summaries equal the export's own summary", arguments: Fixture.all)
    func fileSummariesEqualExport(fixture: Fixture) throws {
        let export = try fixture.export()
        let report = try fixture.report()
        #expect(report.files.count == export.files.count)
        for file in export.files {
            let mine = try #require(report.files.first { $0.path == file.filename })
            #expect(mine.summary == file.exportedSummary, "\(file.filename)")
        }
    }

    @Test("file rows and TOTAL equal llvm-cov report", arguments: Fixture.all)
    func rowsEqualLLVMCovReport(fixture: Fixture) throws {
        let rows = try fixture.llvmCovReportRows()
        let report = try fixture.report()
        func numbers(_ summary: CoverageSummary) -> [Int] {
            [summary.regions, summary.functions, summary.lines].flatMap { [$0.count, $0.missed] }
        }
        // llvm-cov report lists the files given to it; our fixture holds exactly those.
        let total = try #require(rows["TOTAL"])
        #expect(numbers(report.totals) == total)
        #expect(rows.count - 1 == report.files.count)
        for file in report.files {
            // llvm-cov report leaves out the folders all its files have in common.
            let key = rows.keys.first { file.path == $0 || file.path.hasSuffix("/" + $0) }
            let row = try #require(key.flatMap { rows[$0] }, "\(file.path) not in llvm-cov report")
            #expect(numbers(file.summary) == row, "\(file.path)")
        }
    }

    @Test("per-line counts equal llvm-cov's line view", arguments: Fixture.all)
    func lineCountsEqualLLVMCov(fixture: Fixture) throws {
        let expected = try fixture.llvmCovLineCounts()
        let report = try fixture.report()
        #expect(expected.count == report.files.count)
        for file in report.files {
            #expect(try file.lineCounts() == expected[file.path], "\(file.path)")
        }
    }

    @Test("each function's regions and lines equal llvm-cov report -show-functions", arguments: Fixture.all)
    func functionsEqualLLVMCov(fixture: Fixture) throws {
        let expected = try fixture.llvmCovFunctionRows()
        let report = try fixture.report()
        var compared = 0
        for file in report.files {
            let rows = try #require(expected[file.path])
            for function in file.functions {
                let row = try #require(rows[function.mangledName], "\(function.mangledName)")
                let summary = function.summary
                #expect(
                    [summary.regions.count, summary.regions.missed, summary.lines.count, summary.lines.missed] == row,
                    "\(function.mangledName)")
                compared += 1
            }
        }
        #expect(compared == expected.values.map(\.count).reduce(0, +))
    }

    @Test("demangled names equal swift demangle --no-sugar", arguments: Fixture.all)
    func namesEqualSwiftDemangle(fixture: Fixture) throws {
        let export = try fixture.export()
        let expected = try fixture.text("demangled.txt").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(expected.count >= export.functions.count)
        for (record, demangled) in zip(export.functions, expected) {
            #expect(SwiftDemangler.demangle(record.name) == String(demangled))
        }
    }

    @Test("segments rebuilt from function regions equal the exported segments", arguments: Fixture.all)
    func segmentBuilderReproducesExport(fixture: Fixture) throws {
        let export = try fixture.export(keepMappings: true)
        var builder = SegmentBuilder()
        #expect(!export.files.isEmpty)
        for file in export.files {
            var regions: [CountedRegion] = []
            for record in export.functions {
                let mapping = try #require(record.mapping)
                regions += mapping.regions.filter { mapping.filenames[Int($0.fileID)] == file.filename }
            }
            var rebuilt: [CoverageSegment] = []
            builder.build(regions, into: &rebuilt)
            #expect(rebuilt == (try export.segments(of: file)), "\(file.filename)")
        }
    }

    @Test("an export made with -skip-functions gives the same file numbers and lines", arguments: Fixture.all)
    func skipFunctionsExport(fixture: Fixture) throws {
        let full = try fixture.report()
        let skipped = try fixture.report("coverage-skip-functions.json")
        #expect(try fixture.export("coverage-skip-functions.json").hasFunctions == false)
        #expect(skipped.totals == full.totals)
        #expect(!full.files.isEmpty && skipped.files.count == full.files.count)
        for (a, b) in zip(full.files, skipped.files) {
            #expect(a.path == b.path)
            #expect(a.summary == b.summary)
            #expect(try a.lineCounts() == b.lineCounts())
            #expect(b.functions.isEmpty)
        }
    }

    @Test(
        "a report without a function list (records checked, not kept) has llvm-cov report's rows and lines",
        arguments: Fixture.all)
    func summariesOnlyRead(fixture: Fixture) throws {
        let export = try CoverageInput.readExport(
            fixture.path("coverage.json"), keepMappings: false, summariesOnly: true)
        #expect(export.recordsSkipped && export.functions.isEmpty && export.hasFunctions)
        let report = try CoverageReport.build(
            exports: [export], scope: CoverageScope(root: "/package", allFiles: true), includeFunctions: false)
        let rows = try fixture.llvmCovReportRows()
        func numbers(_ summary: CoverageSummary) -> [Int] {
            [summary.regions, summary.functions, summary.lines].flatMap { [$0.count, $0.missed] }
        }
        #expect(numbers(report.totals) == rows["TOTAL"])
        #expect(rows.count - 1 == report.files.count)
        let lines = try fixture.llvmCovLineCounts()
        for file in report.files {
            let key = rows.keys.first { file.path == $0 || file.path.hasSuffix("/" + $0) }
            #expect(key.flatMap { rows[$0] } == numbers(file.summary), "\(file.path)")
            #expect(try file.lineCounts() == lines[file.path], "\(file.path)")
        }
        // The same numbers as summed from the records, module by module.
        let full = try fixture.report()
        #expect(report.modules.map(\.summary) == full.modules.map(\.summary))
        #expect(report.totals == full.totals)
    }

    @Test("an export made with -summary-only gives the same file numbers", arguments: Fixture.all)
    func summaryOnlyExport(fixture: Fixture) throws {
        let full = try fixture.report()
        let summaryOnly = try fixture.report("coverage-summary-only.json")
        #expect(summaryOnly.totals == full.totals)
        #expect(summaryOnly.files.map(\.summary) == full.files.map(\.summary))
        #expect(try summaryOnly.files.allSatisfy { try $0.lineCounts().isEmpty })
    }
}
