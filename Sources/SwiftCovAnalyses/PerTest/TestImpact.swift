import SwiftCovInputs
import SwiftCovModel

/// The tests a change can affect: those that executed a line the change touches, by per-test
/// data (`PerTestCoverage`). Test code counts like any other code, so a test whose own body the
/// change edits is listed.
package enum TestImpact {
    /// Which side of a diff the per-test data describes.
    package enum Side: String, CaseIterable, Sendable {
        /// Recorded at the diff's base (a main-branch artifact): the lines the change removes or
        /// rewrites are the old side's, where the data's line numbers are.
        case base
        /// Recorded on the changed tree: the lines the change adds or rewrites, new side.
        case changed
    }

    /// The changed lines of each file on `side`, by path relative to the package root.
    package static func changedLines(of diff: UnifiedDiff, side: Side) -> [String: [UInt32]] {
        var result: [String: [UInt32]] = [:]
        for file in diff.files where !file.isBinary {
            switch side {
            case .changed:
                guard let path = file.newPath, !file.addedLines.isEmpty else { continue }
                result[path, default: []] += file.addedLines
            case .base:
                guard let path = file.oldPath else { continue }
                let lines = baseLines(of: file)
                if !lines.isEmpty { result[path, default: []] += lines }
            }
        }
        return result
    }

    /// The IDs of the tests that executed any of `changedLines` (path → lines), in the order
    /// the tests were recorded.
    package static func tests(in coverage: PerTestCoverage, executing changedLines: [String: [UInt32]]) -> [String] {
        var chosen = Set<Int>()
        for (path, lines) in changedLines {
            chosen.formUnion(coverage.tests(executing: lines, inFile: path))
        }
        return chosen.sorted().map { coverage.tests[$0].id }
    }

    /// Which side `coverage` describes for a diff from `base` (a commit): the base side when it
    /// was recorded on a clean tree at that very commit, the changed side otherwise (the data
    /// was recorded with the change, or after it).
    package static func side(of coverage: PerTestCoverage, baseCommit: String?) -> Side {
        let recording = coverage.recording
        if let baseCommit, !recording.dirty, !recording.commit.isEmpty, recording.commit == baseCommit {
            return .base
        }
        return .changed
    }
}

extension TestImpact {
    /// The old side's lines `file` touches: the lines it removes or rewrites, and around each
    /// pure insertion the base lines on either side of it (code inserted into a function changes
    /// what its neighbours do; no base line is the inserted one).
    static func baseLines(of file: FileDiff) -> [UInt32] {
        let added = file.addedLines
        let removed = file.removedLines
        var lines = Set(removed)
        var current: UInt32 = 1
        var base: UInt32 = 1
        var nextAdded = 0
        var nextRemoved = 0
        while nextAdded < added.count || nextRemoved < removed.count {
            let toAdded = nextAdded < added.count ? Int(added[nextAdded]) - Int(current) : Int.max
            let toRemoved = nextRemoved < removed.count ? Int(removed[nextRemoved]) - Int(base) : Int.max
            let step = UInt32(max(0, min(toAdded, toRemoved)))
            current &+= step
            base &+= step
            if toAdded <= toRemoved {
                // A line added before base line `base`.
                if !lines.contains(base) && !(base > 1 && lines.contains(base - 1)) {
                    if base > 1 { lines.insert(base - 1) }
                    lines.insert(base)
                }
                current &+= 1
                nextAdded += 1
            } else {
                base &+= 1
                nextRemoved += 1
            }
        }
        return lines.sorted()
    }
}
