import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovModel

/// The terminal report of differential coverage: per file the lines in each category that
/// occurs and the coverage before → after, the same per module, the lines that need tests, and
/// the headline with the gate's verdict.
package enum DifferentialCoverageTableReport {
    /// Renders `coverage` as text.
    package static func render(_ coverage: DifferentialCoverage, options: DifferentialCoverageReportOptions) -> String {
        var text = "Differential coverage"
        if let changes = options.changes.changesPhrase { text += " of the changes " + changes.terminalSafe }
        text += " against " + options.baseline.terminalSafe + "\n\n"
        let counts = coverage.counts
        let present = counts.present
        let touched = coverage.files.filter(\.isTouched)
        let paint = Painter(enabled: options.colors)
        var table = TextTable(
            columns: [TextTable.Column("File", .left)] + present.map { TextTable.Column($0.rawValue) } + [
                TextTable.Column("Before"), TextTable.Column("After"), TextTable.Column("Delta"),
            ])
        func row(_ name: String, _ lines: CategoryCounts, _ change: CoverageChange) -> [TextTable.Cell] {
            [TextTable.Cell(name)] + present.map { TextTable.Cell(lines[$0] == 0 ? "" : String(lines[$0])) } + [
                change.before.count == 0 ? "-" : paint.percent(change.before),
                change.after.count == 0 ? "-" : paint.percent(change.after), TextTable.Cell(change.deltaText),
            ]
        }
        for file in touched { table.add(row(file.annotatedPath.terminalSafe, file.lines.counts, file.coverage)) }
        if !touched.isEmpty { table.addSeparator() }
        let untouched = coverage.files.count - touched.count
        table.add(
            row(
                untouched > 0 ? "TOTAL (and \(untouched) files the change left alone)" : "TOTAL", counts,
                coverage.totals))
        text += table.render()

        if coverage.modules.count > 1 {
            var modules = TextTable(columns: [
                TextTable.Column("Module", .left), TextTable.Column("Before"), TextTable.Column("After"),
                TextTable.Column("Delta"),
            ])
            for module in coverage.modules {
                modules.add([
                    TextTable.Cell(module.name.terminalSafe),
                    module.coverage.before.count == 0 ? "-" : paint.percent(module.coverage.before),
                    module.coverage.after.count == 0 ? "-" : paint.percent(module.coverage.after),
                    TextTable.Cell(module.coverage.deltaText),
                ])
            }
            text += "\n" + modules.render()
        }

        for category in [DifferentialCategory.UNC, .LBC, .UIC] where counts[category] > 0 {
            text += "\n\(category.rawValue) (\(category.meaning)):\n"
            for file in coverage.files where !file.lines[category].isEmpty {
                for range in file.ranges(category) { text += "  \(file.path.terminalSafe):\(range.lineRangeText)\n" }
            }
        }
        if !coverage.ignored.isEmpty {
            text += "\nNot measured:\n"
            for file in coverage.ignored { text += "  \(file.path.terminalSafe)  \(file.reason.explanation)\n" }
        }
        text += "\n" + verdict(coverage, options: options) + "\n"
        return text
    }

    /// The headline, the coverage before → after, and the gate's verdict, on one line.
    package static func verdict(_ coverage: DifferentialCoverage, options: DifferentialCoverageReportOptions) -> String
    {
        var text = coverage.headline.prefix(1).uppercased() + coverage.headline.dropFirst() + ". "
        text += "Line coverage \(coverage.totals.arrowText)"
        if !coverage.totals.deltaText.isEmpty { text += " (\(coverage.totals.deltaText))" }
        text += "."
        if !options.failOn.isEmpty {
            let failing = coverage.failingLines(options.failOn)
            let codes = options.failOn.sorted().map(\.rawValue).joined(separator: ", ")
            text += failing == 0 ? " Fail on \(codes): passed." : " Fail on \(codes): FAILED (\(failing) lines)."
        }
        return text
    }
}
