import SwiftCovModel

/// The two views of lines llvm-cov has (docs/COVERAGE-ALGORITHMS.md), as the outputs that show a
/// line percentage name them: `report`'s lines are llvm-cov's *summary view* (per function, a line
/// in a closure counted for the closure and for its function), `diff`, lcov and Cobertura count
/// the *line view* (each line once, as `llvm-cov show`). The same package can read 77.85% in one
/// and 78.72% in the other; each output says which it shows.
package enum LineView {
    /// Under `report`'s (and `run`'s) table.
    package static let summaryNote =
        "Lines: llvm-cov's summary view (as `llvm-cov report`); `diff`, lcov and Cobertura count the line view (as `llvm-cov show`)."

    /// Under a table of Xcode's numbers.
    package static let xcodeNote =
        "Lines: Xcode's executable lines (as `xccov`); regions, instantiations and branches are not in Xcode's report (—)."

    /// The note under a report's table: which lines its numbers count.
    package static func summaryNote(for report: CoverageReport) -> String {
        report.origin == .xcode ? xcodeNote : summaryNote
    }

    /// Under `diff`'s table, for Xcode's per-line counts.
    package static let xcodeLineNote = "Lines: Xcode's per-line counts (as `xccov view --archive`)."

    /// Under a gate's failures on lines of Xcode's numbers.
    package static let xcodeGateNote = "Lines: Xcode's executable lines (as `xccov` and `swiftcov report`)."

    /// Under `diff`'s table.
    package static let lineViewNote =
        "Lines: the line view (as `llvm-cov show`, lcov and Cobertura); `report` shows llvm-cov's summary view (as `llvm-cov report`)."

    /// Under a gate's failures when a rule on lines failed: thresholds apply to the summary view.
    package static let gateNote = "Lines: llvm-cov's summary view (as `llvm-cov report` and `swiftcov report`)."

    /// Under the HTML index's files of Xcode's numbers.
    package static let htmlXcodeNote =
        "Lines: Xcode&#39;s executable lines (as <code>xccov</code>); Xcode&#39;s report has no regions or branches."

    /// Under the HTML index's files (whose pages list every line's count: the line view).
    package static let htmlSummaryNote =
        "Lines: llvm-cov's summary view (as <code>llvm-cov report</code>); the pages' per-line counts are the line view (as <code>llvm-cov show</code>)."

    /// `text` as a Markdown footnote.
    package static func markdown(_ text: String) -> String {
        "<sub>\(text)</sub>\n"
    }
}
