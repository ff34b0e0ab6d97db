import SwiftCovAnalyses
import SwiftCovInputs

/// What a changed-line coverage report says besides the numbers; shared by every format.
package struct ChangedLineCoverageReportOptions: Sendable {
    /// The git ref the changes were taken against (`--base`), if any.
    package var base: String?
    /// The diff file the changes were read from (`--diff`; "-" for standard input), if any.
    package var diffFile: String?
    /// The minimum percentage of changed executable lines that must have run (`--fail-under`).
    package var failUnder: Double?
    /// Colour percentages with ANSI codes (terminal only).
    package var colors = false

    package init(base: String? = nil, diffFile: String? = nil, failUnder: Double? = nil, colors: Bool = false) {
        self.base = base
        self.diffFile = diffFile
        self.failUnder = failUnder
        self.colors = colors
    }

    /// Where the changes come from, to follow "changed lines": "since origin/main", "in change.diff".
    package var changesPhrase: String? {
        if let base { return "since \(base)" }
        if let diffFile { return diffFile == "-" ? "in the diff on standard input" : "in \(diffFile)" }
        return nil
    }
}

extension ChangedLineCoverage.File {
    /// The uncovered lines as `12-14, 20`.
    package var uncoveredText: String {
        uncovered.map(\.lineRangeText).joined(separator: ", ")
    }
}

extension ClosedRange<UInt32> {
    /// `12-14`, or `20` for a single line.
    package var lineRangeText: String {
        lowerBound == upperBound ? "\(lowerBound)" : "\(lowerBound)-\(upperBound)"
    }
}

extension FileDiff.Status {
    /// How a file's status reads after its path, e.g. "(renamed from Old.swift)"; empty when modified.
    package func annotation(oldPath: String?) -> String {
        switch self {
        case .modified: ""
        case .added: "(new)"
        case .deleted: "(deleted)"
        case .renamed: oldPath.map { "(renamed from \($0))" } ?? "(renamed)"
        case .copied: oldPath.map { "(copied from \($0))" } ?? "(copied)"
        }
    }
}
