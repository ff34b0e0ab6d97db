import SwiftCovAnalyses
import SwiftCovFormats

/// The gate's verdict for people (one line per rule not met, then the verdict) and for a job
/// summary (Markdown); `GitHubAnnotations` attaches the failures to their lines.
package enum GateReport {
    /// One line per failed rule — level, name, metric, actual vs. required — and a verdict line.
    package static func text(_ result: GateResult) -> String {
        var table = TextTable(columns: [
            TextTable.Column("", .left), TextTable.Column("Level", .left), TextTable.Column("Name", .left),
            TextTable.Column("Detail", .left),
        ])
        for rule in result.met {
            table.add([
                "ok", TextTable.Cell(rule.level.rawValue), TextTable.Cell(rule.name.terminalSafe),
                TextTable.Cell(rule.detail.terminalSafe.replacingNewlines),
            ])
        }
        for failure in result.failures {
            table.add([
                "FAIL", TextTable.Cell(failure.level.rawValue), TextTable.Cell(failure.name.terminalSafe),
                TextTable.Cell(failure.detail.terminalSafe.replacingNewlines),
            ])
        }
        let rows =
            result.failures.isEmpty && result.met.isEmpty
            ? "" : table.render().split(separator: "\n").dropFirst(2).joined(separator: "\n") + "\n"
        let note =
            result.failures.contains { $0.metric == .lines }
            ? (result.origin == .xcode ? LineView.xcodeGateNote : LineView.gateNote) + "\n" : ""
        // The verdict stays the last line (scripts read it).
        return rows + note + verdict(result) + "\n"
    }

    /// "Coverage gate passed: 12 rules met.", "Coverage gate failed: 2 of 12 rules not met.", or,
    /// when tests failed, what failed: "Gate failed: 4 tests failed; coverage: 11 rules met."
    package static func verdict(_ result: GateResult) -> String {
        if result.passed {
            return "Coverage gate passed: \(result.rulesChecked) rule\(result.rulesChecked == 1 ? "" : "s") met."
        }
        let failedTests = Set(result.failures.filter { $0.level == .tests }.map(\.name)).count
        let failedRules = Set(
            result.failures.filter { $0.level != .tests }.map { failure in
                "\(failure.level.rawValue)|\(failure.name)|\(failure.metric?.rawValue ?? "")"
            }
        ).count
        guard failedTests > 0 else {
            return "Coverage gate failed: \(failedRules) of \(result.rulesChecked) rules not met."
        }
        // The tests count as one rule of `rulesChecked`; the others are coverage rules.
        let coverageRules = result.rulesChecked - 1
        let tests = "\(failedTests) test\(failedTests == 1 ? "" : "s") failed"
        let coverage =
            coverageRules == 0
            ? "no coverage rule configured"
            : failedRules == 0
                ? "coverage: \(coverageRules) rule\(coverageRules == 1 ? "" : "s") met"
                : "coverage: \(failedRules) of \(coverageRules) rules not met"
        return "Gate failed: \(tests); \(coverage)."
    }

    /// The verdict and the failed rules as Markdown, to follow the coverage table in a job summary.
    package static func markdown(_ result: GateResult) -> String {
        var text = "\n**\(result.passed ? "✅" : "❌") \(CoverageMarkdownReport.escape(verdict(result)))**\n"
        guard !result.passed else { return text }
        text += "\n| Level | Name | Detail |\n|:--|:--|:--|\n"
        for failure in result.failures {
            text +=
                "| \(failure.level.rawValue) | \(CoverageMarkdownReport.escape(failure.name)) | "
                + "\(CoverageMarkdownReport.escape(failure.detail.replacingNewlines)) |\n"
        }
        return text
    }
}

extension String {
    /// The text on one line: line breaks become " ⏎ ".
    package var replacingNewlines: String {
        replacingOccurrences("\r\n", " ⏎ ").replacingOccurrences("\n", " ⏎ ")
    }

    /// Every occurrence of `target` replaced (without Foundation).
    package func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
