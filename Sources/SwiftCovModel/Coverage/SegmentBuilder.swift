/// Turns counted regions into the sorted segments llvm-cov renders from (docs/COVERAGE-ALGORITHMS.md §4).
///
/// This mirrors llvm's `SegmentBuilder` (CoverageMapping.cpp) rule for rule, because every
/// per-line count and every line total depends on it: sort nested regions (start ascending,
/// end descending, kind ascending), merge regions covering the same range (adding counts of the
/// active region's kind only), then sweep, emitting a segment where a region starts and where
/// the innermost active region changes. Rebuilding a file's segments from all its functions'
/// regions reproduces the export's `segments` exactly.
package struct SegmentBuilder {
    // Indices into the combined regions.
    private var active: [Int] = []
    private var ends: [Int] = []
    private var isCompleted: [Bool] = []
    private var completed: [Int] = []
    private var regions: [CountedRegion] = []

    package init() {}

    /// Builds the segments for `input` (regions of one file) into `segments`, replacing its contents.
    package mutating func build(_ input: some Collection<CountedRegion>, into segments: inout [CoverageSegment]) {
        segments.removeAllKeepingStorage()
        regions.removeAllKeepingStorage()
        regions.append(contentsOf: input)
        guard !regions.isEmpty else { return }
        regions.sort { lhs, rhs in
            if lhs.start != rhs.start { return lhs.start < rhs.start }
            if lhs.end != rhs.end { return rhs.end < lhs.end }  // the enclosing region first
            return lhs.kind < rhs.kind  // code before expansion before skipped
        }
        combineDuplicates()
        sweep(into: &segments)
    }

    /// Merges regions with identical ranges into the first, adding counts of the same kind only:
    /// a code and an expansion region on one range would otherwise count the range twice.
    private mutating func combineDuplicates() {
        var kept = 0
        for index in 1..<regions.count {
            let region = regions[index]
            if region.start == regions[kept].start && region.end == regions[kept].end {
                if region.kind == regions[kept].kind {
                    regions[kept].executionCount = regions[kept].executionCount.addingSaturating(region.executionCount)
                }
                continue
            }
            kept += 1
            if kept != index { regions[kept] = region }
        }
        regions.removeLast(regions.count - kept - 1)
    }

    /// The sweep keeps the active regions in the order they started (`active`, the innermost
    /// last) and, to find those that end before a new start without looking at all of them, in a
    /// min-heap by end (`ends`). A completed region leaves the heap at once and `active` when it
    /// reaches the top, so that each region is added and removed once: O(n log n) for n
    /// regions, however they nest (llvm scans every active region at every start).
    private mutating func sweep(into segments: inout [CoverageSegment]) {
        active.removeAllKeepingStorage()
        ends.removeAllKeepingStorage()
        isCompleted.removeAllKeepingStorage()
        isCompleted.append(contentsOf: repeatElement(false, count: regions.count))
        let count = regions.count
        for index in 0..<count {
            let region = regions[index]
            let start = region.start

            // Regions that end at or before this start are complete.
            if let first = ends.first, regions[first].end <= start {
                completed.removeAllKeepingStorage()
                while let first = ends.first, regions[first].end <= start {
                    popEnd()
                    completed.append(first)
                    isCompleted[first] = true
                }
                while let last = active.last, isCompleted[last] { active.removeLast() }
                completeRegions(until: start, innermost: active.last, into: &segments)
            }

            let isGap = region.kind == RegionKind.gap.rawValue
            if start == region.end {
                // A zero-length region never becomes active. The last one, or a skipped one,
                // ends as a skipped segment; otherwise its predecessor's count carries on.
                let skipped = index + 1 == count || region.kind == RegionKind.skipped.rawValue
                let source = active.last.map { regions[$0] } ?? region
                startSegment(source, at: start, isRegionEntry: !isGap, emitSkipped: skipped, into: &segments)
                if skipped, let last = active.last {
                    startSegment(regions[last], at: start, isRegionEntry: false, into: &segments)
                }
                continue
            }
            if index + 1 == count || start != regions[index + 1].start {
                startSegment(region, at: start, isRegionEntry: !isGap, into: &segments)
            }
            active.append(index)
            pushEnd(index)
        }
        if !ends.isEmpty {
            completed.removeAllKeepingStorage()
            completed.append(contentsOf: ends)
            ends.removeAllKeepingStorage()
            active.removeAllKeepingStorage()
            completeRegions(until: nil, innermost: nil, into: &segments)
        }
    }

    /// Emits the segments where the `completed` regions end, before `location`; `innermost` is
    /// the innermost region still active.
    private mutating func completeRegions(
        until location: SourcePosition?, innermost: Int?, into segments: inout [CoverageSegment]
    ) {
        // By end; on the same end, in the order they started (as a stable sort of llvm's list).
        completed.sort { regions[$0].end != regions[$1].end ? regions[$0].end < regions[$1].end : $0 < $1 }

        let total = completed.count
        var index = 1
        while index < total {
            let segmentLocation = regions[completed[index - 1]].end
            if let location, segmentLocation == location { break }
            let end = regions[completed[index]].end
            if segmentLocation == end {
                index += 1
                continue
            }
            // Use the count of the last completed region that ends at this location.
            var last = index
            while last + 1 < total && regions[completed[last + 1]].end == end { last += 1 }
            startSegment(regions[completed[last]], at: segmentLocation, isRegionEntry: false, into: &segments)
            index += 1
        }

        let last = regions[completed[total - 1]]
        if let innermost, last.end != location {
            // Fill the gap after the completed regions with the innermost region still active.
            startSegment(regions[innermost], at: last.end, isRegionEntry: false, into: &segments)
        } else if innermost == nil && (location == nil || location != last.end) {
            // Nothing is active any more: a skipped segment marks the gap up to the next region.
            startSegment(last, at: last.end, isRegionEntry: false, emitSkipped: true, into: &segments)
        }
    }

    /// Whether region `a` leaves the heap of ends before region `b`.
    private func endsBefore(_ a: Int, _ b: Int) -> Bool {
        regions[a].end != regions[b].end ? regions[a].end < regions[b].end : a < b
    }

    private mutating func pushEnd(_ region: Int) {
        ends.append(region)
        var child = ends.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard endsBefore(ends[child], ends[parent]) else { break }
            ends.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popEnd() {
        let last = ends.removeLast()
        guard !ends.isEmpty else { return }
        ends[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < ends.count else { break }
            var smallest = left
            if left + 1 < ends.count && endsBefore(ends[left + 1], ends[left]) { smallest = left + 1 }
            guard endsBefore(ends[smallest], ends[parent]) else { break }
            ends.swapAt(smallest, parent)
            parent = smallest
        }
    }

    private func startSegment(
        _ region: CountedRegion, at location: SourcePosition, isRegionEntry: Bool, emitSkipped: Bool = false,
        into segments: inout [CoverageSegment]
    ) {
        let hasCount = !emitSkipped && region.kind != RegionKind.skipped.rawValue
        // A segment that would not change what is rendered is left out.
        if !isRegionEntry && !emitSkipped, let last = segments.last,
            last.hasCount == hasCount, last.count == region.executionCount, !last.isRegionEntry
        {
            return
        }
        if hasCount {
            segments.append(
                CoverageSegment(
                    line: location.line, column: location.column, count: region.executionCount, hasCount: true,
                    isRegionEntry: isRegionEntry, isGapRegion: region.kind == RegionKind.gap.rawValue))
        } else {
            segments.append(
                CoverageSegment(
                    line: location.line, column: location.column, count: 0, hasCount: false,
                    isRegionEntry: isRegionEntry, isGapRegion: false))
        }
    }
}

extension UInt64 {
    /// The largest execution count: llvm-cov clamps counts to Int64.max when it writes them.
    package static let maximumCount = UInt64(Int64.max)

    /// Addition of execution counts that stops at `maximumCount` instead of growing past what
    /// llvm-cov can write (or trapping), as merged profile counts saturate.
    package func addingSaturating(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .maximumCount : Swift.min(sum, .maximumCount)
    }
}
