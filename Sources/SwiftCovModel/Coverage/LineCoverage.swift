/// Per-line execution counts exactly as `llvm-cov show` prints them (docs/COVERAGE-ALGORITHMS.md §2).
///
/// This is the *line view*: each source line once, with the highest count of the regions that
/// start on it or the count carried in from the line before. It is not the *summary view*
/// (`CoverageSummary.lines`), which llvm-cov sums per function, so that a line inside a closure
/// counts for the closure and for its enclosing function.
///
/// llvm-cov walks every line from the first segment's line to the last one's. Lines without a
/// segment of their own all look the same (the count carried in from the last line that had
/// segments), so this walks *runs* instead: one per line with segments and one per stretch of
/// lines between them. The work is bounded by the number of segments, not by the line numbers
/// an export claims, and the lines and counts are the same.
package enum LineCoverage {
    /// The most executable lines one file's line view may have. No source file comes near it
    /// (it would hold 16 Mi lines); an export claiming more has line numbers that cannot be
    /// right, and listing them line by line would take gigabytes.
    package static let maximumExecutableLines = 1 << 24

    /// Calls `body(lines, count)` for every run of executable lines of `segments`, in order:
    /// each line of `lines` is executable with `count`.
    package static func forEachExecutableRun(
        in segments: UnsafeBufferPointer<CoverageSegment>,
        _ body: (_ lines: ClosedRange<UInt32>, _ count: UInt64) -> Void
    ) {
        let total = segments.count
        guard total > 0 else { return }
        var wrapped: CoverageSegment?
        var next = 0
        while next < total {
            let line = segments[next].line
            let lineStart = next
            while next < total && segments[next].line == line { next += 1 }

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
            let startsSkippedRegion = !segments[lineStart].hasCount && segments[lineStart].isRegionEntry
            let wrappedHasCount = wrapped?.hasCount ?? false
            if (!startsSkippedRegion && (wrappedHasCount || regionStarts > 0)) || entersCountedRegion {
                var count = wrapped?.count ?? 0
                if regionStarts > 0 { count = max(count, highestStart) }
                body(line...line, count)
            }
            wrapped = segments[next - 1]

            // The lines up to the next segment's have no segment: each carries `wrapped` in.
            // (Segments are sorted; should they not be, a later line is simply taken next.)
            guard next < total, let carried = wrapped, carried.hasCount else { continue }
            let following = segments[next].line
            if following > line && following - line > 1 { body((line + 1)...(following - 1), carried.count) }
        }
    }

    /// Calls `body(line, count)` for every executable line of `segments`, in order.
    package static func forEachExecutableLine(
        in segments: UnsafeBufferPointer<CoverageSegment>, _ body: (_ line: UInt32, _ count: UInt64) -> Void
    ) {
        forEachExecutableRun(in: segments) { lines, count in
            for line in lines { body(line, count) }
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
        counts.reserveCapacity(min(metric(of: segments).count, maximumExecutableLines))
        forEachExecutableLine(in: segments) { counts.append(LineCount(line: $0, count: $1)) }
        return counts
    }

    /// How many lines of `segments` are executable and how many of those ran.
    package static func metric(of segments: UnsafeBufferPointer<CoverageSegment>) -> Metric {
        var metric = Metric()
        forEachExecutableRun(in: segments) { lines, count in
            metric += Metric(count: lines.count, covered: count > 0 ? lines.count : 0)
        }
        return metric
    }

    /// How many lines of `segments` are executable and how many of those ran.
    package static func metric(of segments: [CoverageSegment]) -> Metric {
        segments.withUnsafeBufferPointer { metric(of: $0) }
    }
}

/// An executable source line and how many times it ran.
package struct LineCount: Equatable, Sendable {
    package var line: UInt32
    package var count: UInt64

    /// Whether the count is a counter that went below zero. llvm-cov's counters for code after a
    /// branch are differences of others; when threads increment the same counter at once
    /// (instrumentation counters are not atomic) one can come out negative. `llvm-cov show` and
    /// its lcov output print it as an unsigned 64-bit number (2^64 minus the deficit, e.g.
    /// 18446744073709551294); the JSON export clamps it to `Int64.max`, and so lost the deficit.
    /// Real counts do not reach `Int64.max` (it takes centuries), so that value marks the line.
    package var isCounterUnderflow: Bool { count == .maximumCount }

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
        // Only lines with segments can hold a highlight, and each of those is a run of its own.
        var lineCounts: [UInt32: UInt64] = [:]
        segments.withUnsafeBufferPointer {
            forEachExecutableRun(in: $0) { lines, count in
                if lines.count == 1 { lineCounts[lines.lowerBound] = count }
            }
        }
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
