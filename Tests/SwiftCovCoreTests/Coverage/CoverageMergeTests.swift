import Testing

@testable import SwiftCovCore

@Suite("Merging several exports")
struct CoverageMergeTests {
    let fixture = Fixture(name: "yams")
    let scope = CoverageScope(root: "/package", allFiles: true)

    @Test("the same export twice: counts add up, coverage stays the same")
    func sameExportTwice() throws {
        let single = try fixture.report()
        let first = try fixture.export(keepMappings: true)
        let second = try fixture.export(keepMappings: true)
        let merged = try CoverageReport.build(exports: [first, second], scope: scope)
        #expect(merged.totals == single.totals)
        #expect(merged.files.count == single.files.count)
        for (a, b) in zip(single.files, merged.files) {
            #expect(a.summary == b.summary)
            #expect(
                a.functions.map { $0.executionCount.addingSaturating($0.executionCount) }
                    == b.functions.map(\.executionCount))
            let doubled = try a.lineCounts().map {
                LineCount(line: $0.line, count: $0.count.addingSaturating($0.count))
            }
            // Rebuilt from merged regions, so clamped Int64.max counts double to 2⁶⁴-2 there too.
            #expect(try b.lineCounts().map(\.line) == doubled.map(\.line))
            #expect(
                try zip(b.lineCounts(), doubled).allSatisfy { $0.count == $1.count || $1.count >= UInt64(Int64.max) })
        }
    }

    @Test("exports of different packages: files side by side, totals add up")
    func disjointExports() throws {
        let other = Fixture(name: "swift-algorithms")
        let merged = try CoverageReport.build(
            exports: [fixture.export(keepMappings: true), other.export(keepMappings: true)], scope: scope)
        let a = try fixture.report()
        let b = try other.report()
        #expect(merged.totals == a.totals + b.totals)
        #expect(merged.files.count == a.files.count + b.files.count)
    }

    @Test("one run covers what the other missed: a function covered in either is covered")
    func complementaryRuns() throws {
        // The same export with every count zeroed stands for a run that executed nothing.
        var zeroed = try fixture.export(keepMappings: true)
        for index in zeroed.functions.indices {
            zeroed.functions[index].executionCount = 0
            for region in zeroed.functions[index].mapping!.regions.indices {
                zeroed.functions[index].mapping!.regions[region].executionCount = 0
            }
        }
        let merged = try CoverageReport.build(exports: [zeroed, fixture.export(keepMappings: true)], scope: scope)
        #expect(merged.totals == (try fixture.report()).totals)
    }

    @Test("a file shared with an export that has no functions cannot be merged, and says which")
    func sharedFileWithoutFunctions() throws {
        let full = try fixture.export(keepMappings: true)
        let skipped = try fixture.export("coverage-skip-functions.json", keepMappings: true)
        #expect(throws: CoverageMergeError.self) {
            try CoverageReport.build(exports: [full, skipped], scope: scope)
        }
    }
}
