/// Turns counted regions into the sorted segments llvm-cov renders from (FORMATS.md §4).
///
/// This mirrors llvm's `SegmentBuilder` (CoverageMapping.cpp) rule for rule, because every
/// per-line count and every line total depends on it: sort nested regions (start ascending,
/// end descending, kind ascending), merge regions covering the same range (adding counts of the
/// active region's kind only), then sweep, emitting a segment where a region starts and where
/// the innermost active region changes. Rebuilding a file's segments from all its functions'
/// regions reproduces the export's `segments` exactly.
package struct SegmentBuilder {
    private var active: [Int] = []  // indices into the combined regions
    private var scratch: [Int] = []
    private var regions: [CountedRegion] = []

    package init() {}

    /// Builds the segments for `input` (regions of one file) into `segments`, replacing its contents.
    package mutating func build(_ input: some Collection<CountedRegion>, into segments: inout [CoverageSegment]) {
        segments.removeAll(keepingCapacity: true)
        regions.removeAll(keepingCapacity: true)
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

    private mutating func sweep(into segments: inout [CoverageSegment]) {
        active.removeAll(keepingCapacity: true)
        let count = regions.count
        for index in 0..<count {
            let region = regions[index]
            let start = region.start

            // Regions that end at or before this start are complete.
            if active.contains(where: { regions[$0].end <= start }) {
                // Stable partition: still-active first, completed after, each in their order.
                scratch.removeAll(keepingCapacity: true)
                var kept = 0
                for position in active.indices {
                    let candidate = active[position]
                    if regions[candidate].end <= start {
                        scratch.append(candidate)
                    } else {
                        active[kept] = candidate
                        kept += 1
                    }
                }
                active.removeSubrange(kept...)
                active.append(contentsOf: scratch)
                completeRegions(until: start, firstCompleted: kept, into: &segments)
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
        }
        if !active.isEmpty {
            completeRegions(until: nil, firstCompleted: 0, into: &segments)
        }
    }

    /// Emits the segments where completed regions (`active[firstCompleted...]`) end, before `location`.
    private mutating func completeRegions(
        until location: SourcePosition?, firstCompleted: Int, into segments: inout [CoverageSegment]
    ) {
        // Stable insertion sort of the completed regions by end location (there are few).
        if active.count - firstCompleted > 1 {
            for position in (firstCompleted + 1)..<active.count {
                let moving = active[position]
                var target = position
                while target > firstCompleted && regions[moving].end < regions[active[target - 1]].end {
                    active[target] = active[target - 1]
                    target -= 1
                }
                active[target] = moving
            }
        }

        let total = active.count
        var index = firstCompleted + 1
        while index < total {
            var completed = regions[active[index]]
            let segmentLocation = regions[active[index - 1]].end
            if let location, segmentLocation == location { break }
            if segmentLocation == completed.end {
                index += 1
                continue
            }
            // Use the count of the last completed region that ends at this location.
            var later = index + 1
            while later < total {
                if regions[active[later]].end == completed.end { completed = regions[active[later]] }
                later += 1
            }
            startSegment(completed, at: segmentLocation, isRegionEntry: false, into: &segments)
            index += 1
        }

        let last = regions[active[total - 1]]
        if firstCompleted > 0 && last.end != location {
            // Fill the gap after the completed regions with the innermost region still active.
            startSegment(regions[active[firstCompleted - 1]], at: last.end, isRegionEntry: false, into: &segments)
        } else if firstCompleted == 0 && (location == nil || location != last.end) {
            // Nothing is active any more: a skipped segment marks the gap up to the next region.
            startSegment(last, at: last.end, isRegionEntry: false, emitSkipped: true, into: &segments)
        }
        active.removeSubrange(firstCompleted...)
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
