import SwiftCovModel

/// A compact Markdown summary for a CI job summary or a pull-request comment: the total, a
/// table of modules, and the files in a collapsed section.
package enum CoverageMarkdownReport {
    /// Renders `report` as GitHub-flavoured Markdown.
    package static func render(_ report: CoverageReport, options: CoverageReportOptions) -> String {
        var text = "### Coverage: \(report.totals.lines.formattedPercent) of lines\n\n"
        text += "| Module | Lines | Functions | Regions |\n|:--|--:|--:|--:|\n"
        for module in report.modules(sortedBy: options.sort) {
            text += "| \(escape(module.name)) | \(cells(module.summary, report)) |\n"
        }
        text += "| **Total** | \(cells(report.totals, report, bold: true)) |\n"
        guard !report.files.isEmpty else { return text }
        text += "\n" + LineView.markdown(LineView.summaryNote(for: report))
        text += "\n<details><summary>\(report.files.count) files</summary>\n\n"
        text += "| File | Lines | Functions | Regions |\n|:--|--:|--:|--:|\n"
        for file in report.files(sortedBy: options.sort) {
            text += "| \(escape(file.displayPath)) | \(cells(file.summary, report)) |\n"
        }
        text += "\n</details>\n"
        return text
    }

    private static func cells(_ summary: CoverageSummary, _ report: CoverageReport, bold: Bool = false) -> String {
        [CoverageSummary.Kind.lines, .functions, .regions].map { kind in
            guard report.measured.contains(kind) else { return "—" }
            let metric = summary[kind]
            let value = "\(metric.formattedPercent) (\(metric.covered)/\(metric.count))"
            return bold ? "**\(value)**" : value
        }.joined(separator: " | ")
    }

    /// Text from the inputs, made inert in a Markdown table cell (and in the HTML it becomes).
    package static func escape(_ text: String) -> String {
        var result = ""
        for character in text.terminalSafe {
            switch character {
            case "|": result += "\\|"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "`", "*", "_", "[", "]", "\\": result += "\\\(character)"
            // GitHub would mention @user (and notify them): a zero-width space after the @
            // keeps the text as it reads, as Dependabot and Renovate write it.
            case "@": result += "@\u{200B}"
            default: result.append(character)
            }
        }
        return result
    }
}
