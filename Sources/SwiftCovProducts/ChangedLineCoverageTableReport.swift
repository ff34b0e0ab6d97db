import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovModel

/// The terminal report of changed-line coverage: a table of the changed files, the lines that
/// did not run as `file:line` ranges, the files not measured and why, and the verdict.
package enum ChangedLineCoverageTableReport {
    /// Renders `coverage` as text.
    package static func render(_ coverage: ChangedLineCoverage, options: ChangedLineCoverageReportOptions) -> String {
        var text = "Coverage of changed lines"
        if let changes = options.changesPhrase { text += " " + changes.terminalSafe }
        text += "\n\n"
        if coverage.files.isEmpty {
            text += "No changed lines in the files the report covers.\n"
        } else {
            var table = TextTable(columns: [
                TextTable.Column("File", .left), TextTable.Column("Changed"), TextTable.Column("Executable"),
                TextTable.Column("Missed"), TextTable.Column("Cover"),
            ])
            let paint = Painter(enabled: options.colors)
            func row(_ name: String, changed: Int, _ lines: Metric) -> [TextTable.Cell] {
                [
                    TextTable.Cell(name), TextTable.Cell(String(changed)), TextTable.Cell(String(lines.count)),
                    TextTable.Cell(String(lines.missed)), paint.percent(lines),
                ]
            }
            for file in coverage.files {
                let annotation = file.status.annotation(oldPath: file.oldPath)
                let name = annotation.isEmpty ? file.path : file.path + " " + annotation
                table.add(row(name.terminalSafe, changed: file.changedLines, file.lines))
            }
            table.addSeparator()
            table.add(row("TOTAL", changed: coverage.changedLines, coverage.totals))
            text += table.render()
        }
        let unrun = coverage.files.filter { !$0.uncovered.isEmpty }
        if !unrun.isEmpty {
            text += "\nChanged lines that did not run:\n"
            for file in unrun {
                for range in file.uncovered {
                    text += "  \(file.path.terminalSafe):\(range.lineRangeText)\n"
                }
            }
        }
        if !coverage.ignored.isEmpty {
            text += "\nNot measured:\n"
            let width = coverage.ignored.map { $0.path.terminalSafe.count }.max() ?? 0
            for file in coverage.ignored {
                let path = file.path.terminalSafe
                text +=
                    "  " + path + String(repeating: " ", count: width - path.count) + "  "
                    + file.reason.explanation + "\n"
            }
        }
        text += "\n" + verdict(coverage, options: options) + "\n"
        if coverage.totals.count > 0 {
            text += (coverage.origin == .xcode ? LineView.xcodeLineNote : LineView.lineViewNote) + "\n"
        }
        return text
    }

    /// One line: the changed-line coverage and, with a minimum, whether it is met.
    package static func verdict(_ coverage: ChangedLineCoverage, options: ChangedLineCoverageReportOptions) -> String {
        let totals = coverage.totals
        var text: String
        if totals.count == 0 {
            text = "No executable line was added or changed: nothing to cover."
        } else {
            text =
                "\(totals.formattedPercent) of the changed executable lines ran (\(totals.covered) of \(totals.count))."
        }
        if let minimum = options.failUnder {
            let required = CoverageFormatting.percent(minimum)
            text +=
                coverage.meets(minimum)
                ? " Required: \(required): passed." : " Required: \(required): FAILED."
        }
        return text
    }
}
