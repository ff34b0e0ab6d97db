import SwiftCovAnalyses
import SwiftCovModel

/// Differential coverage as a pull-request comment (or a CI job summary): the headline first,
/// then coverage before → after, then a table of only the files the change touched or whose
/// coverage moved, with links to their lines when a URL template is given.
package enum DifferentialCoverageMarkdownReport {
    /// Renders `coverage` as GitHub-flavoured Markdown.
    package static func render(_ coverage: DifferentialCoverage, options: DifferentialCoverageReportOptions) -> String {
        let escape = CoverageMarkdownReport.escape
        let counts = coverage.counts
        var text = "### \(escape(coverage.headline.prefix(1).uppercased() + coverage.headline.dropFirst()))\n\n"
        if !options.failOn.isEmpty {
            let failing = coverage.failingLines(options.failOn)
            let codes = options.failOn.sorted().map(\.rawValue).joined(separator: ", ")
            text += failing == 0 ? "✅ No line in \(codes).\n\n" : "❌ \(failing) lines in \(codes).\n\n"
        }
        text += "Line coverage **\(coverage.totals.arrowText)**"
        if !coverage.totals.deltaText.isEmpty { text += " (\(coverage.totals.deltaText))" }
        var source = ""
        if let changes = options.changes.changesPhrase { source = " · changes " + escape(changes) }
        text += source + " · baseline \(escape(options.baseline))\n\n"

        let touched = coverage.files.filter(\.isTouched)
        let present = counts.present.filter { $0 != .CBC && $0 != .UBC }
        if touched.isEmpty {
            text += "The change touches no file the report covers and moves no file's coverage.\n"
        } else {
            text += "| File | Coverage | Δ |" + present.map { " \($0.rawValue) |" }.joined() + "\n"
            text += "|:--|--:|--:|" + String(repeating: "--:|", count: present.count) + "\n"
            for file in touched {
                var name = escape(file.path)
                if let url = options.url(path: file.path, line: 1) { name = "[\(name)](\(url))" }
                let annotation = file.status?.annotation(oldPath: file.basePath) ?? ""
                if !annotation.isEmpty { name += " " + escape(annotation) }
                text += "| \(name) | \(file.coverage.arrowText) | \(file.coverage.deltaText) |"
                for category in present {
                    let count = file.lines[category].count
                    if count == 0 {
                        text += " |"
                    } else if !category.isBaselineLine,
                        let url = options.url(path: file.path, line: file.lines[category][0])
                    {
                        text += " [\(count)](\(url)) |"
                    } else {
                        text += " \(count) |"
                    }
                }
                text += "\n"
            }
            text += "| **Total** | **\(coverage.totals.arrowText)** | **\(coverage.totals.deltaText)** |"
            text += present.map { " **\(counts[$0])** |" }.joined() + "\n"
        }

        let attention = [DifferentialCategory.UNC, .LBC, .UIC].filter { counts[$0] > 0 }
        if !attention.isEmpty {
            text += "\n<details><summary>Lines to test</summary>\n\n"
            for category in attention {
                text += "**\(category.rawValue)** (\(category.meaning)):\n"
                for file in coverage.files where !file.lines[category].isEmpty {
                    let links = file.ranges(category).map { range in
                        options.url(path: file.path, line: range.lowerBound).map { "[\(range.lineRangeText)](\($0))" }
                            ?? range.lineRangeText
                    }
                    text += "- \(escape(file.path)): \(links.joined(separator: ", "))\n"
                }
                text += "\n"
            }
            text += "</details>\n"
        }
        if coverage.modules.count > 1 {
            text +=
                "\n<details><summary>\(coverage.modules.count) modules</summary>\n\n| Module | Coverage | Δ |\n|:--|--:|--:|\n"
            for module in coverage.modules {
                text += "| \(escape(module.name)) | \(module.coverage.arrowText) | \(module.coverage.deltaText) |\n"
            }
            text += "\n</details>\n"
        }
        text += "\n<details><summary>What the codes mean</summary>\n\n| Code | Line |\n|:--|:--|\n"
        for category in DifferentialCategory.allCases { text += "| \(category.rawValue) | \(category.meaning) |\n" }
        text += "\n</details>\n"
        return text
    }
}
