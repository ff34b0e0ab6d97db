/// The gate's verdict for people (one line per rule not met, then the verdict), for GitHub
/// (workflow-command annotations) and for a job summary (Markdown).
package enum GateReport {
    /// One line per failed rule — level, name, metric, actual vs. required — and a verdict line.
    package static func text(_ result: GateResult) -> String {
        var table = TextTable(columns: [
            TextTable.Column("", .left), TextTable.Column("Level", .left), TextTable.Column("Name", .left),
            TextTable.Column("Detail", .left),
        ])
        for failure in result.failures {
            table.add([
                "FAIL", TextTable.Cell(failure.level.rawValue), TextTable.Cell(failure.name.terminalSafe),
                TextTable.Cell(failure.detail.terminalSafe.replacingNewlines),
            ])
        }
        let rows =
            result.failures.isEmpty
            ? "" : table.render().split(separator: "\n").dropFirst(2).joined(separator: "\n") + "\n"
        return rows + verdict(result) + "\n"
    }

    /// "Coverage gate passed: 12 rules met." or "Coverage gate failed: 2 of 12 rules not met."
    package static func verdict(_ result: GateResult) -> String {
        if result.passed {
            return "Coverage gate passed: \(result.rulesChecked) rule\(result.rulesChecked == 1 ? "" : "s") met."
        }
        let failedRules = Set(
            result.failures.map { failure in
                failure.level == .tests
                    ? "tests" : "\(failure.level.rawValue)|\(failure.name)|\(failure.metric?.rawValue ?? "")"
            }
        ).count
        return "Coverage gate failed: \(failedRules) of \(result.rulesChecked) rules not met."
    }

    /// GitHub Actions `::error` commands: one per failed file rule and failed test (with their
    /// location), and one per other failed rule.
    package static func githubAnnotations(_ result: GateResult) -> String {
        var text = ""
        for failure in result.failures {
            var properties: [(String, String)] = []
            if let file = failure.file { properties.append(("file", file)) }
            if let line = failure.line { properties.append(("line", String(line))) }
            let title =
                failure.level == .tests
                ? "Test failed: \(failure.name)" : "Coverage \(failure.level.rawValue) \(failure.name)"
            properties.append(("title", title))
            text += workflowCommand("error", properties: properties, message: failure.detail)
        }
        return text
    }

    /// One GitHub workflow command line: `::error file=…,line=…::message`.
    package static func workflowCommand(_ command: String, properties: [(String, String)], message: String) -> String {
        let list = properties.map { $0.0 + "=" + escapeProperty($0.1) }.joined(separator: ",")
        return "::" + command + " " + list + "::" + escapeData(message) + "\n"
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

    // GitHub's workflow commands escape `%`, CR and LF in messages, and also `:` and `,` in properties.
    private static func escapeData(_ text: String) -> String {
        text.strippingANSIEscapes.replacingOccurrences("%", "%25").replacingOccurrences("\r", "%0D")
            .replacingOccurrences("\n", "%0A")
    }

    private static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(":", "%3A").replacingOccurrences(",", "%2C")
    }
}

extension String {
    /// The text on one line: line breaks become " ⏎ ".
    fileprivate var replacingNewlines: String {
        replacingOccurrences("\r\n", " ⏎ ").replacingOccurrences("\n", " ⏎ ")
    }

    /// Every occurrence of `target` replaced (without Foundation).
    package func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
