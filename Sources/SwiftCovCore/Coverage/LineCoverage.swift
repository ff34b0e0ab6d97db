/// Per-line execution counts exactly as `llvm-cov show` prints them (FORMATS.md §2).
///
/// This is the *line view*: each source line once, with the highest count of the regions that
/// start on it or the count carried in from the line before. It is not the *summary view*
/// (`CoverageSummary.lines`), which llvm-cov sums per function, so that a line inside a closure
/// counts for the closure and for its enclosing function.
package enum LineCoverage {
    /// Calls `body(line, count)` for every executable line of `segments`, in order.
    package static func forEachExecutableLine(
        in segments: UnsafeBufferPointer<CoverageSegment>, _ body: (_ line: UInt32, _ count: UInt64) -> Void
    ) {
        let total = segments.count
        guard total > 0 else { return }
        var line = segments[0].line
        var wrapped: CoverageSegment?
        var previousStart = 0
        var previousEnd = 0
        var next = 0
        while next < total {
            if previousEnd > previousStart { wrapped = segments[previousEnd - 1] }
            let lineStart = next
            while next < total && segments[next].line == line { next += 1 }
            previousStart = lineStart
            previousEnd = next

            var regionStarts = 0
            var highestStart: UInt64 = 0
            var entersCountedRegion = false
            for index in lineStart..<next {
                let segment = segments[index]
                guard segment.hasCount && segment.isRegionEntry else { continue }
                entersCountedRegion = true
                if !segment.isGapRegion {
                    regionStarts += 1
                    highestStart = max(highestStart, segment.count)
                }
            }
            let startsSkippedRegion =
                next > lineStart && !segments[lineStart].hasCount && segments[lineStart].isRegionEntry
            let wrappedHasCount = wrapped?.hasCount ?? false
            let mapped = (!startsSkippedRegion && (wrappedHasCount || regionStarts > 0)) || entersCountedRegion
            if mapped {
                var count = wrapped?.count ?? 0
                if regionStarts > 0 { count = max(count, highestStart) }
                body(line, count)
            }
            line += 1
        }
    }

    /// Calls `body(line, count)` for every executable line of `segments`, in order.
    package static func forEachExecutableLine(
        in segments: [CoverageSegment], _ body: (_ line: UInt32, _ count: UInt64) -> Void
    ) {
        segments.withUnsafeBufferPointer { forEachExecutableLine(in: $0, body) }
    }

    /// The executable lines of `segments` with their counts.
    package static func lineCounts(of segments: [CoverageSegment]) -> [LineCount] {
        var counts: [LineCount] = []
        forEachExecutableLine(in: segments) { counts.append(LineCount(line: $0, count: $1)) }
        return counts
    }

    /// How many lines of `segments` are executable and how many of those ran.
    package static func metric(of segments: UnsafeBufferPointer<CoverageSegment>) -> Metric {
        var metric = Metric()
        forEachExecutableLine(in: segments) { _, count in
            metric.count += 1
            if count > 0 { metric.covered += 1 }
        }
        return metric
    }
}

/// An executable source line and how many times it ran.
package struct LineCount: Equatable, Sendable {
    package var line: UInt32
    package var count: UInt64

    package init(line: UInt32, count: UInt64) {
        self.line = line
        self.count = count
    }
}

extension LineCoverage {
    /// The parts of lines that ran (count > 0) where a region inside them never ran: for each
    /// such line, byte-column ranges (1-based, `upperBound` exclusive, `UInt32.max` for the end
    /// of the line) whose innermost region has a count of 0 — the highlights `llvm-cov show`
    /// puts inside a line, such as the `else { return }` of a `guard` that always passed.
    package static func unexecutedColumns(in segments: [CoverageSegment]) -> [UInt32: [Range<UInt32>]] {
        var result: [UInt32: [Range<UInt32>]] = [:]
        var lineCounts: [UInt32: UInt64] = [:]
        forEachExecutableLine(in: segments) { lineCounts[$0] = $1 }
        func neverRan(_ segment: CoverageSegment?) -> Bool {
            guard let segment else { return false }
            return segment.hasCount && segment.count == 0 && !segment.isGapRegion
        }
        var active: CoverageSegment?
        var index = 0
        while index < segments.count {
            let line = segments[index].line
            let lineRan = (lineCounts[line] ?? 0) > 0
            var column: UInt32 = 1
            var ranges: [Range<UInt32>] = []
            while index < segments.count && segments[index].line == line {
                let segment = segments[index]
                if lineRan && neverRan(active) && segment.column > column { ranges.append(column..<segment.column) }
                column = max(column, segment.column)
                active = segment
                index += 1
            }
            if lineRan && neverRan(active) { ranges.append(column..<UInt32.max) }
            if !ranges.isEmpty { result[line] = ranges }
        }
        return result
    }
}
