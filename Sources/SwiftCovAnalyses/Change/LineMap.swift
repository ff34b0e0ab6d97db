/// Where each line of a file went through a change: the line numbers a diff adds (in the new
/// file) and removes (in the old file) say it, as every other line is the same line on both
/// sides, in order. This is the mapping a person sees when reviewing the diff.
package struct LineMap: Sendable {
    /// The lines the change adds, in the current file. Ascending.
    package let added: [UInt32]
    /// The lines the change removes, in the base file. Ascending.
    package let removed: [UInt32]
    /// Where each run of unchanged lines starts on both sides, ascending on both.
    private var runs: [(current: UInt32, base: UInt32)] = [(1, 1)]

    /// The identity: a file the change leaves alone.
    package static let unchanged = LineMap(added: [], removed: [])

    package init(added: [UInt32], removed: [UInt32]) {
        self.added = added
        self.removed = removed
        var current = 1
        var base = 1
        var nextAdded = 0
        var nextRemoved = 0
        while nextAdded < added.count || nextRemoved < removed.count {
            let toAdded = nextAdded < added.count ? Int(added[nextAdded]) - current : Int.max
            let toRemoved = nextRemoved < removed.count ? Int(removed[nextRemoved]) - base : Int.max
            // Unchanged lines up to the next added or removed one (none when the lists are not
            // ascending: each entry is then taken where it stands).
            let step = max(0, min(toAdded, toRemoved))
            current += step
            base += step
            if toAdded <= toRemoved {
                current += 1
                nextAdded += 1
            } else {
                base += 1
                nextRemoved += 1
            }
            guard current <= Int(UInt32.max), base <= Int(UInt32.max) else { break }
            runs.append((UInt32(current), UInt32(base)))
        }
    }

    /// The base line `line` of the current file was, or nil when the change added it.
    package func baseLine(of line: UInt32) -> UInt32? {
        guard !Self.contains(added, line) else { return nil }
        let run = Self.lastIndex(in: runs.count) { runs[$0].current <= line }
        let offset = line - runs[run].current
        return runs[run].base.addingReportingOverflow(offset).overflow ? nil : runs[run].base + offset
    }

    /// The current line the base file's `line` became, or nil when the change removed it.
    package func currentLine(of line: UInt32) -> UInt32? {
        guard !Self.contains(removed, line) else { return nil }
        let run = Self.lastIndex(in: runs.count) { runs[$0].base <= line }
        let offset = line - runs[run].base
        return runs[run].current.addingReportingOverflow(offset).overflow ? nil : runs[run].current + offset
    }

    /// Where the base file's removed `line` stood in the current file: the current line it
    /// would come before (one past the last line when it was at the end). As git prints a
    /// change, removed lines come before the lines added in their place: right after the last
    /// unchanged line above them.
    package func insertionLine(ofRemoved line: UInt32) -> UInt32 {
        // Unchanged base lines above it, and the current line the last of them became: the
        // `kept`-th current line the change did not add.
        let removedAbove = Self.firstIndex(in: removed.count) { removed[$0] >= line }
        let kept = Int(line) - 1 - removedAbove
        guard kept > 0 else { return 1 }
        // Added lines before that line: those with fewer than `kept` unchanged lines above them.
        let addedAbove = Self.firstIndex(in: added.count) { Int(added[$0]) - $0 > kept }
        return UInt32(clamping: kept + addedAbove + 1)
    }

    /// Whether the ascending `lines` contain `line`.
    static func contains(_ lines: [UInt32], _ line: UInt32) -> Bool {
        let index = firstIndex(in: lines.count) { lines[$0] >= line }
        return index < lines.count && lines[index] == line
    }

    /// The first index below `count` where `isAtOrPast` holds (it holds from some index on), or `count`.
    private static func firstIndex(in count: Int, where isAtOrPast: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrPast(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The last index below `count` where `isBefore` holds (it holds up to some index; at 0 always).
    private static func lastIndex(in count: Int, where isBefore: (Int) -> Bool) -> Int {
        max(0, firstIndex(in: count) { !isBefore($0) } - 1)
    }
}
