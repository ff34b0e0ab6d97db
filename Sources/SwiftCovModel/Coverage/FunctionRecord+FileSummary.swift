extension FunctionRecord {
    /// A file's summary from its records (`indices` into `records`): instantiations grouped by
    /// where they start (one group = one function), each group counting its largest line and
    /// region numbers; with `includeFunctions`, each record's coverage too. Here, beside the
    /// record, so that its numbers are read in place, not through calls from another target.
    package static func fileSummary(_ indices: [Int], of records: [FunctionRecord], includeFunctions: Bool) -> (
        CoverageSummary, [FunctionCoverage]
    ) {
        var sorted = indices
        sorted.sort { records[$0].start < records[$1].start }
        var summary = CoverageSummary()
        var functions: [FunctionCoverage] = []
        if includeFunctions { functions.reserveCapacity(sorted.count) }
        var groupStart = 0
        while groupStart < sorted.count {
            let location = records[sorted[groupStart]].start
            var groupEnd = groupStart
            var executions: UInt64 = 0
            var lines = Metric()
            var regions = Metric()
            var branches = Metric()
            while groupEnd < sorted.count && records[sorted[groupEnd]].start == location {
                let index = sorted[groupEnd]
                // The numbers are read in place: copying a whole record would retain its name and mapping.
                let executionCount = records[index].executionCount
                executions = executions.addingSaturating(executionCount)
                lines = lines.merged(with: records[index].lines)
                regions = regions.merged(with: records[index].regions)
                branches = branches.merged(with: records[index].branches)
                summary.instantiations.count += 1
                if executionCount > 0 { summary.instantiations.covered += 1 }
                if includeFunctions {
                    let record = records[index]
                    let ran = record.executionCount > 0 ? 1 : 0
                    functions.append(
                        FunctionCoverage(
                            mangledName: record.name, line: record.start.line, column: record.start.column,
                            executionCount: record.executionCount,
                            summary: CoverageSummary(
                                lines: record.lines, functions: Metric(count: 1, covered: ran),
                                instantiations: Metric(count: 1, covered: ran), regions: record.regions,
                                branches: record.branches), endLine: record.end.line))
                }
                groupEnd += 1
            }
            summary.functions.count += 1
            if executions > 0 { summary.functions.covered += 1 }
            summary.lines += lines
            summary.regions += regions
            summary.branches += branches
            groupStart = groupEnd
        }
        return (summary, functions)
    }
}
