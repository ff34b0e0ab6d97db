/// One function record of an export (one instantiation, in llvm-cov's terms), with the numbers
/// llvm-cov computes for it.
package struct FunctionRecord: Sendable {
    /// The mangled name as exported (empty when the export was read without names).
    package var name: String
    /// How many times the function ran (the count of its first region).
    package var executionCount: UInt64
    /// The function's main file, its first file that is not the target of an expansion, as an
    /// index into its export's `filenames`; -1 when it has none.
    package var fileID: Int32
    /// Where its first region in the main file starts; llvm-cov groups instantiations by it.
    package var start: SourcePosition
    /// Lines (summary view), regions and branches of this record.
    package var lines: Metric
    package var regions: Metric
    package var branches: Metric
    /// The regions and file names, kept only when the export is merged with another.
    package var mapping: Mapping?
    /// Where its last region in the main file ends: with `start`, the function's extent.
    package var end = SourcePosition(line: 0, column: 0)

    /// What is needed to merge the record with the same function from another export and to
    /// rebuild file segments: its regions, branches and `filenames`.
    package struct Mapping: Sendable {
        package var regions: [CountedRegion]
        package var branches: [BranchRegion]
        package var filenames: [String]
    }
}

/// Computes a function record's own numbers from its regions (docs/COVERAGE-ALGORITHMS.md §3), mirroring
/// llvm's `FunctionCoverageSummary::get`; it keeps scratch buffers so that reading an export
/// allocates little per function.
package struct FunctionSummarizer {
    private var builder = SegmentBuilder()
    private var mainFileRegions: [CountedRegion] = []
    private var segments: [CoverageSegment] = []
    private var expanded: [Bool] = []

    package init() {}

    /// The main file's index in `filenames`: the lowest one that no expansion region expands into.
    package mutating func mainFileID(regions: [CountedRegion], fileCount: Int) -> UInt32? {
        guard fileCount > 0 else { return nil }
        expanded.removeAll(keepingCapacity: true)
        expanded.append(contentsOf: repeatElement(false, count: fileCount))
        for region in regions where region.kind == RegionKind.expansion.rawValue {
            if Int(region.expandedFileID) < fileCount { expanded[Int(region.expandedFileID)] = true }
        }
        return expanded.firstIndex(of: false).map { UInt32($0) }
    }

    /// Lines, regions, branches and the start location for a record's regions.
    package mutating func summarize(
        regions: [CountedRegion], branches: [BranchRegion], mainFileID: UInt32
    ) -> (start: SourcePosition, end: SourcePosition, lines: Metric, regions: Metric, branches: Metric) {
        // One code region (most closures, getters and one-line functions): its lines are all
        // executable and share its count, which is what the segments would say.
        if regions.count == 1, branches.isEmpty, let only = regions.first, only.isCode, only.fileID == mainFileID,
            only.start < only.end
        {
            let lines = Int(only.end.line - only.start.line) + 1
            let ran = only.executionCount > 0
            return (
                only.start, only.end, Metric(count: lines, covered: ran ? lines : 0),
                Metric(count: 1, covered: ran ? 1 : 0),
                Metric()
            )
        }
        var regionMetric = Metric()
        mainFileRegions.removeAll(keepingCapacity: true)
        var start: SourcePosition?
        var end = SourcePosition(line: 0, column: 0)
        for region in regions {
            // llvm-cov counts code regions of every file of the function.
            if region.isCode {
                regionMetric.count += 1
                if region.executionCount != 0 { regionMetric.covered += 1 }
            }
            if region.fileID == mainFileID {
                if start == nil { start = region.start }
                if end < region.end { end = region.end }
                mainFileRegions.append(region)
            }
        }
        builder.build(mainFileRegions, into: &segments)
        let lineMetric = segments.withUnsafeBufferPointer { LineCoverage.metric(of: $0) }

        // Each branch has a true and a false side. The export does not say which sides llvm
        // folded to a constant (it leaves those out); Swift emits no branches at all today.
        var branchMetric = Metric()
        for branch in branches where branch.fileID == mainFileID {
            branchMetric.count += 2
            if branch.trueCount > 0 { branchMetric.covered += 1 }
            if branch.falseCount > 0 { branchMetric.covered += 1 }
        }
        return (start ?? SourcePosition(line: 0, column: 0), end, lineMetric, regionMetric, branchMetric)
    }
}
