import SwiftCovModel

/// What a coverage report shows and in what order; shared by every format.
package struct CoverageReportOptions: Sendable {
    /// The order of modules and files.
    package enum Sort: String, CaseIterable, Sendable {
        /// By name.
        case name
        /// Lowest line coverage first: what to work on comes first.
        case coverage
    }

    /// List each function with its execution count under its file.
    package var showFunctions = false
    /// Include per-line execution counts (JSON only).
    package var showLines = false
    package var sort = Sort.name
    /// Colour percentages with ANSI codes (terminal only).
    package var colors = false
    /// The width of the terminal the table is shown on: names are shortened to fit (table only).
    package var width: Int?

    package init(showFunctions: Bool = false, showLines: Bool = false, sort: Sort = .name, colors: Bool = false) {
        self.showFunctions = showFunctions
        self.showLines = showLines
        self.sort = sort
        self.colors = colors
    }
}

extension CoverageReport {
    /// Modules in the requested order.
    package func modules(sortedBy sort: CoverageReportOptions.Sort) -> [ModuleCoverage] {
        switch sort {
        case .name: return modules
        case .coverage: return modules.sorted { lowerCoverage($0.summary, $0.name, $1.summary, $1.name) }
        }
    }

    /// Files in the requested order.
    package func files(sortedBy sort: CoverageReportOptions.Sort) -> [FileCoverage] {
        switch sort {
        case .name: return files
        case .coverage: return files.sorted { lowerCoverage($0.summary, $0.displayPath, $1.summary, $1.displayPath) }
        }
    }

    private func lowerCoverage(_ a: CoverageSummary, _ aName: String, _ b: CoverageSummary, _ bName: String) -> Bool {
        let (pa, pb) = (a.lines.percent, b.lines.percent)
        if pa != pb { return pa < pb }
        if a.lines.missed != b.lines.missed { return a.lines.missed > b.lines.missed }
        return aName < bName
    }
}

extension Metric {
    /// "83.33%" as `llvm-cov report` prints it, or "-" when there is nothing to cover.
    package var formattedPercent: String {
        guard count > 0 else { return "-" }
        return CoverageFormatting.percent(percent)
    }
}
