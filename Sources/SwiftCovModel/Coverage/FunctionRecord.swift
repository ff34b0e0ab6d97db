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
    /// Where its last region in the main file ends: with `start`, the function's extent.
    package var end = SourcePosition(line: 0, column: 0)
    // Lines, regions and branches, in 32 bits each (an export holds hundreds of thousands of
    // records, and no function has 4 billion of any); larger numbers stop at `UInt32.max`.
    private var lineCount: UInt32 = 0
    private var linesCovered: UInt32 = 0
    private var regionCount: UInt32 = 0
    private var regionsCovered: UInt32 = 0
    private var branchCount: UInt32 = 0
    private var branchesCovered: UInt32 = 0
    /// The regions and file names, kept only when the export is merged with another.
    package var mapping: Mapping?

    package init(
        name: String, executionCount: UInt64, fileID: Int32, start: SourcePosition, lines: Metric, regions: Metric,
        branches: Metric, mapping: Mapping?
    ) {
        self.name = name
        self.executionCount = executionCount
        self.fileID = fileID
        self.start = start
        self.mapping = mapping
        self.lines = lines
        self.regions = regions
        self.branches = branches
    }

    /// Lines of this record (the summary view: a line counts when some region on it ran).
    package var lines: Metric {
        get { Metric(count: Int(lineCount), covered: Int(linesCovered)) }
        set { (lineCount, linesCovered) = (UInt32(clamping: newValue.count), UInt32(clamping: newValue.covered)) }
    }

    /// Code regions of this record, in all its files.
    package var regions: Metric {
        get { Metric(count: Int(regionCount), covered: Int(regionsCovered)) }
        set { (regionCount, regionsCovered) = (UInt32(clamping: newValue.count), UInt32(clamping: newValue.covered)) }
    }

    /// Branch sides of this record, in its main file.
    package var branches: Metric {
        get { Metric(count: Int(branchCount), covered: Int(branchesCovered)) }
        set {
            (branchCount, branchesCovered) = (UInt32(clamping: newValue.count), UInt32(clamping: newValue.covered))
        }
    }

    /// What is needed to merge the record with the same function from another export and to
    /// rebuild file segments: its regions, branches and `filenames`.
    package struct Mapping: Sendable {
        package var regions: [CountedRegion]
        package var branches: [BranchRegion]
        package var filenames: [String]

        /// Whether `regions` and `branches` are laid out as this mapping's, in the same order (the
        /// same ranges, kinds and files): the same function's, whatever their counts.
        package func hasLayout(regions otherRegions: [CountedRegion], branches otherBranches: [BranchRegion]) -> Bool {
            guard regions.count == otherRegions.count, branches.count == otherBranches.count else { return false }
            for (a, b) in zip(regions, otherRegions)
            where a.start != b.start || a.end != b.end || a.kind != b.kind || a.fileID != b.fileID {
                return false
            }
            return zip(branches, otherBranches).allSatisfy { $0.start == $1.start && $0.fileID == $1.fileID }
        }

        package init(regions: [CountedRegion], branches: [BranchRegion], filenames: [String]) {
            self.regions = regions
            self.branches = branches
            self.filenames = filenames
        }
    }

    /// Adds the counts of the same function (regions and branches laid out as its mapping's), in place.
    package mutating func addCounts(executionCount count: UInt64, regions: [CountedRegion], branches: [BranchRegion]) {
        executionCount = executionCount.addingSaturating(count)
        guard mapping != nil else { return }
        for index in regions.indices {
            mapping!.regions[index].executionCount = mapping!.regions[index].executionCount.addingSaturating(
                regions[index].executionCount)
        }
        for index in branches.indices {
            mapping!.branches[index].trueCount = mapping!.branches[index].trueCount.addingSaturating(
                branches[index].trueCount)
            mapping!.branches[index].falseCount = mapping!.branches[index].falseCount.addingSaturating(
                branches[index].falseCount)
        }
    }

    /// Computes its lines, regions and branches again from its mapping, after counts were added to it.
    package mutating func summarizeAgain(with summarizer: inout FunctionSummarizer) {
        guard let mapping,
            let main = summarizer.mainFileID(regions: mapping.regions, fileCount: mapping.filenames.count)
        else { return }
        let numbers = summarizer.summarize(regions: mapping.regions, branches: mapping.branches, mainFileID: main)
        lines = numbers.lines
        regions = numbers.regions
        branches = numbers.branches
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
        expanded.removeAllKeepingStorage()
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
        mainFileRegions.removeAllKeepingStorage()
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
