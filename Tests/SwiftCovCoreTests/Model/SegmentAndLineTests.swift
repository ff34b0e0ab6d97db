import Testing

@testable import SwiftCovCore

/// Small invented region sets for the corner cases of llvm-cov's segment and line rules; the
/// real exports in `LLVMCovAgreementTests` check the same code on thousands of functions.
@Suite("Segments and lines")
struct SegmentAndLineTests {
    func region(_ l1: UInt32, _ c1: UInt32, _ l2: UInt32, _ c2: UInt32, _ count: UInt64, _ kind: RegionKind = .code)
        -> CountedRegion
    {
        CountedRegion(
            start: SourcePosition(line: l1, column: c1), end: SourcePosition(line: l2, column: c2),
            executionCount: count, kind: kind)
    }

    func lines(_ regions: [CountedRegion]) -> [LineCount] {
        var builder = SegmentBuilder()
        var segments: [CoverageSegment] = []
        builder.build(regions, into: &segments)
        return LineCoverage.lineCounts(of: segments)
    }

    @Test("a guard's else that never ran leaves the line with the guard's count")
    func guardElse() {
        // func f() {            line 1
        //     guard x else { return }   line 2, else block never ran
        // }                      line 3
        let counts = lines([region(1, 10, 3, 2, 5), region(2, 18, 2, 28, 0)])
        #expect(counts == [LineCount(line: 1, count: 5), LineCount(line: 2, count: 5), LineCount(line: 3, count: 5)])
    }

    @Test("a region that starts on a line raises its count; a line inside a zero region is 0")
    func nestedRegions() {
        let counts = lines([region(1, 1, 6, 2, 1), region(2, 5, 4, 6, 0), region(5, 1, 5, 10, 7)])
        #expect(counts.map(\.count) == [1, 1, 0, 0, 7, 1])
    }

    @Test("identical ranges add up counts of the same kind only")
    func duplicatesCombine() {
        #expect(lines([region(1, 1, 2, 1, 2), region(1, 1, 2, 1, 3)]).map(\.count) == [5, 5])
        #expect(lines([region(1, 1, 2, 1, 2), region(1, 1, 2, 1, 3, .expansion)]).map(\.count) == [2, 2])
    }

    @Test("skipped regions are not executable; gap regions carry no start")
    func skippedAndGap() {
        #expect(lines([region(1, 1, 3, 1, 0, .skipped)]).isEmpty)
        let gap = lines([region(1, 1, 1, 20, 4), region(1, 20, 3, 1, 0, .gap), region(3, 1, 3, 9, 4)])
        #expect(gap == [LineCount(line: 1, count: 4), LineCount(line: 2, count: 0), LineCount(line: 3, count: 4)])
    }

    @Test("percentages are computed as llvm-cov computes them")
    func percent() {
        #expect(Metric(count: 9897, covered: 8740).percent == 88.30958876427201)
        #expect(Metric(count: 0, covered: 0).percent == 0)
        #expect(Metric(count: 3, covered: 2).formattedPercent == "66.67%")
        #expect(Metric(count: 0, covered: 0).formattedPercent == "-")
        #expect(CoverageFormatting.percent(0.125) == "0.12%")  // %.2f rounds the binary value
    }
}
