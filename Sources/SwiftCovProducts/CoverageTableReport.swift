import SwiftCovFormats
import SwiftCovModel

/// The terminal table: modules, their files, optionally each file's functions, then TOTAL,
/// with the columns of `llvm-cov report` (regions, functions, lines; missed and percent).
package enum CoverageTableReport {
    /// Renders `report` as a text table.
    package static func render(_ report: CoverageReport, options: CoverageReportOptions) -> String {
        var columns = [TextTable.Column("Module / File", .left)]
        if options.showFunctions { columns.append(TextTable.Column("Count")) }
        columns += [
            TextTable.Column("Regions"), TextTable.Column("Missed"), TextTable.Column("Cover"),
            TextTable.Column("Functions"), TextTable.Column("Missed"), TextTable.Column("Executed"),
            TextTable.Column("Lines"), TextTable.Column("Missed"), TextTable.Column("Cover"),
        ]
        let hasBranches = report.totals.branches.count > 0 && report.measured.contains(.branches)
        if hasBranches {
            columns += [TextTable.Column("Branches"), TextTable.Column("Missed"), TextTable.Column("Cover")]
        }
        var table = TextTable(columns: columns)
        let paint = Painter(enabled: options.colors)

        /// Count, missed and percent; a dash for each when the inputs do not measure the metric.
        func metricCells(_ summary: CoverageSummary, _ kind: CoverageSummary.Kind) -> [TextTable.Cell] {
            guard report.measured.contains(kind) else { return ["—", "—", "—"] }
            let metric = summary[kind]
            return [TextTable.Cell(String(metric.count)), TextTable.Cell(String(metric.missed)), paint.percent(metric)]
        }

        func row(_ name: String, count: String?, _ summary: CoverageSummary, isFunction: Bool = false) -> [TextTable
            .Cell]
        {
            var cells: [TextTable.Cell] = [TextTable.Cell(name)]
            if options.showFunctions { cells.append(TextTable.Cell(count ?? "")) }
            cells += metricCells(summary, .regions)
            if isFunction {
                cells += ["", "", ""]
            } else {
                cells += metricCells(summary, .functions)
            }
            cells += metricCells(summary, .lines)
            if hasBranches {
                cells += metricCells(summary, .branches)
            }
            return cells
        }

        let filesByModule = Dictionary(grouping: report.files(sortedBy: options.sort), by: \.module)
        for module in report.modules(sortedBy: options.sort) {
            table.add(row(module.name.terminalSafe, count: nil, module.summary))
            for file in filesByModule[module.name] ?? [] {
                table.add(row("  " + file.displayPath.terminalSafe, count: nil, file.summary))
                guard options.showFunctions else { continue }
                for (function, names) in zip(file.functions, file.functionNames) {
                    let name = "      " + abbreviated(names.display.terminalSafe)
                    table.add(row(name, count: String(function.executionCount), function.summary, isFunction: true))
                }
            }
        }
        table.addSeparator()
        table.add(row("TOTAL", count: nil, report.totals))
        var text = table.render(maxWidth: options.width)
        if report.files.isEmpty && report.origin == .xcode && !report.modules.isEmpty {
            text += "Targets only (as `xccov view --only-targets`): no files or functions.\n"
        } else if report.files.isEmpty {
            text += "No source files in scope. Use --all-files or --include GLOB to widen it.\n"
        } else {
            text += LineView.summaryNote(for: report) + "\n"
        }
        return text
    }

    /// Names still long (closures in closures) are cut for the table; JSON keeps them whole.
    private static func abbreviated(_ name: String) -> String {
        let limit = 72
        guard name.count > limit else { return name }
        return String(name.prefix(limit - 1)) + "…"
    }
}

/// ANSI colours for percentages: green from 80%, yellow from 50%, red below.
struct Painter {
    var enabled: Bool

    func percent(_ metric: Metric) -> TextTable.Cell {
        let text = metric.formattedPercent
        guard enabled, metric.count > 0 else { return TextTable.Cell(text) }
        let code = metric.percent >= 80 ? "32" : metric.percent >= 50 ? "33" : "31"
        return TextTable.Cell(text, style: ("\u{1B}[\(code)m", "\u{1B}[0m"))
    }
}
