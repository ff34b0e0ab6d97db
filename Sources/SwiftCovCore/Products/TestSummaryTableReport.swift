/// The test-run summary for a terminal: one row per suite, the totals, then every failure with
/// `file:line` and its message, and a one-line verdict.
package enum TestSummaryTableReport {
    /// Renders the summary of `run`; `colors` paints failures and the verdict with ANSI codes.
    package static func render(_ run: TestRun, colors: Bool = false) -> String {
        var table = TextTable(columns: [
            TextTable.Column("Suite", .left), TextTable.Column("Tests"), TextTable.Column("Passed"),
            TextTable.Column("Failed"), TextTable.Column("Errors"), TextTable.Column("Skipped"),
            TextTable.Column("Time"),
        ])
        let red = colors ? ("\u{1B}[31m", "\u{1B}[0m") : nil
        func row(_ name: String, _ totals: TestRun.Totals, time: Double) -> [TextTable.Cell] {
            [
                TextTable.Cell(name), TextTable.Cell(String(totals.tests)), TextTable.Cell(String(totals.passed)),
                TextTable.Cell(String(totals.failed), style: totals.failed > 0 ? red : nil),
                TextTable.Cell(String(totals.errors), style: totals.errors > 0 ? red : nil),
                TextTable.Cell(String(totals.skipped)), TextTable.Cell(JUnitReport.seconds(time)),
            ]
        }
        for suite in run.suites {
            table.add(row(plain(suite.name), suite.totals, time: suite.duration))
        }
        table.addSeparator()
        table.add(row("TOTAL", run.totals, time: run.duration))
        var text = table.render()

        let failed = run.failingCases
        if !failed.isEmpty {
            text += "\nFailures:\n"
            for testCase in failed {
                let label = testCase.status == .error ? "ERROR " : "FAILED"
                text += "\n" + (red.map { $0.0 + label + $0.1 } ?? label)
                text += "  \(plain(testCase.className)) \(plain(testCase.name))\n"
                for issue in testCase.failingIssues {
                    let lines = JUnitReport.describe(issue).split(separator: "\n", omittingEmptySubsequences: false)
                    for line in lines { text += "        \(plain(String(line)))\n" }
                }
            }
        }
        let flaky = run.suites.flatMap { $0.cases.filter(\.isFlaky) }
        if !flaky.isEmpty {
            text += "\nFlaky (passed on retry):\n"
            for testCase in flaky {
                let failures = testCase.attempts.filter { $0.status >= .failed }.count
                text += "  \(plain(testCase.className)) \(plain(testCase.name)) (failed \(failures) of "
                text += "\(testCase.attempts.count + 1) runs)\n"
            }
        }
        text += "\n"
        if !run.isComplete {
            text += "The log ends before the test run does: tests that were running are reported as errors.\n"
        }
        let verdict = run.totals.hasFailures || !run.isComplete ? "FAILED" : "PASSED"
        let paint = colors ? (run.totals.hasFailures ? "\u{1B}[31m" : "\u{1B}[32m") : ""
        text += "Tests \(paint)\(verdict)\(colors ? "\u{1B}[0m" : ""): \(run.totals.sentence(seconds: run.duration))\n"
        return text
    }

    /// Text from a log made safe for a terminal: no ANSI codes, no control characters.
    private static func plain(_ text: String) -> String {
        text.strippingANSIEscapes.terminalSafe
    }
}

extension TestRun.Totals {
    /// "35 passed, 3 failed, 1 error, 2 skipped (41 tests in 0.518 s)"; "3 passed (1 only on
    /// retry: flaky)" when a test passed after failing.
    package func sentence(seconds: Double) -> String {
        var parts = ["\(passed) passed" + (flaky > 0 ? " (\(flaky) only on retry: flaky)" : "")]
        if failed > 0 { parts.append("\(failed) failed") }
        if errors > 0 { parts.append("\(errors) error" + (errors == 1 ? "" : "s")) }
        if skipped > 0 { parts.append("\(skipped) skipped") }
        let count = "\(tests) test" + (tests == 1 ? "" : "s")
        return parts.joined(separator: ", ") + " (\(count) in \(JUnitReport.seconds(seconds)) s)"
    }
}
