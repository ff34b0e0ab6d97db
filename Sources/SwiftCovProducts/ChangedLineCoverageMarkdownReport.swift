import SwiftCovAnalyses
import SwiftCovModel

/// Changed-line coverage as a pull-request comment (or a CI job summary): the verdict as the
/// heading, a table of the changed files with the lines that did not run, and the files not
/// measured in a collapsed section.
package enum ChangedLineCoverageMarkdownReport {
    /// Renders `coverage` as GitHub-flavoured Markdown.
    package static func render(_ coverage: ChangedLineCoverage, options: ChangedLineCoverageReportOptions) -> String {
        let totals = coverage.totals
        var text = "### Coverage of changed lines: "
        text +=
            totals.count == 0 ? "nothing to cover" : "\(totals.formattedPercent) (\(totals.covered)/\(totals.count))"
        text += "\n\n"
        if let minimum = options.failUnder {
            let required = CoverageFormatting.percent(minimum)
            text +=
                coverage.meets(minimum)
                ? "✅ Meets the required \(required).\n\n" : "❌ Below the required \(required).\n\n"
        }
        if let changes = options.changesPhrase {
            text += "Changed lines \(CoverageMarkdownReport.escape(changes)).\n\n"
        }
        if coverage.files.isEmpty {
            text += "No changed lines in the files the report covers.\n"
        } else {
            text += "| File | Changed lines | Executable | Covered | Not run (lines) |\n|:--|--:|--:|--:|:--|\n"
            for file in coverage.files {
                let annotation = file.status.annotation(oldPath: file.oldPath)
                var name = CoverageMarkdownReport.escape(file.path)
                if !annotation.isEmpty { name += " " + CoverageMarkdownReport.escape(annotation) }
                text += "| \(name) | \(file.changedLines) | \(file.lines.count) | \(cell(file.lines)) | "
                text += file.uncoveredText + " |\n"
            }
            text += "| **Total** | **\(coverage.changedLines)** | **\(totals.count)** | **\(cell(totals))** | |\n"
            if totals.count > 0 {
                text +=
                    "\n"
                    + LineView.markdown((coverage.origin == .xcode ? LineView.xcodeLineNote : LineView.lineViewNote))
            }
        }
        if !coverage.ignored.isEmpty {
            let count = coverage.ignored.count
            text += "\n<details><summary>\(count) changed file\(count == 1 ? "" : "s") not measured</summary>\n\n"
            text += "| File | Why |\n|:--|:--|\n"
            for file in coverage.ignored {
                text += "| \(CoverageMarkdownReport.escape(file.path)) | \(file.reason.explanation) |\n"
            }
            text += "\n</details>\n"
        }
        return text
    }

    private static func cell(_ metric: Metric) -> String {
        metric.count == 0 ? "-" : "\(metric.formattedPercent) (\(metric.covered)/\(metric.count))"
    }
}
