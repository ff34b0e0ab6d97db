import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovModel

/// The test-run summary for a terminal: one row per suite, the totals, then every failure with
/// `file:line` and its message, and a one-line verdict.
package enum TestSummaryTableReport {
    /// Renders the summary of `run`; `colors` paints failures and the verdict with ANSI codes;
    /// `judgement` marks the failures that do not fail the gate (quarantined, order-dependent).
    package static func render(_ run: TestRun, colors: Bool = false, judgement: TestJudgement = TestJudgement())
        -> String
    {
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
                text += "  \(plain(testCase.className)) \(plain(testCase.name))"
                text += notes(on: testCase, judgement: judgement).map { " (\($0))" }.joined() + "\n"
                for issue in testCase.failingIssues {
                    let lines = JUnitReport.describe(issue).split(separator: "\n", omittingEmptySubsequences: false)
                    for line in lines { text += "        \(plain(String(line)))\n" }
                }
            }
        }
        for section in sections(run, judgement: judgement) {
            text += "\n\(section.title):\n"
            for item in section.items { text += "  \(plain(item.name))\(item.note)\n" }
        }
        text += "\n"
        if !run.isComplete {
            text += "The log ends before the test run does: tests that were running are reported as errors.\n"
        }
        let verdict = run.totals.hasFailures || !run.isComplete ? "FAILED" : "PASSED"
        let paint = colors ? (run.totals.hasFailures ? "\u{1B}[31m" : "\u{1B}[32m") : ""
        text += "Tests \(paint)\(verdict)\(colors ? "\u{1B}[0m" : ""): \(run.sentence)\n"
        if let excused = excusedSentence(run, judgement: judgement) { text += excused + "\n" }
        return text
    }

    /// The lists after the failures, for the table and Markdown: the flaky tests with their runs
    /// (`FlakyTests.RetryTests testFlaky`, ` (failed 1 of 2 runs)`), and the tests that passed
    /// alone but fail in the suite.
    package static func sections(
        _ run: TestRun, judgement: TestJudgement
    ) -> [(title: String, items: [(name: String, note: String)])] {
        var sections: [(title: String, items: [(name: String, note: String)])] = []
        let flaky = run.suites.flatMap { $0.cases.filter(\.isFlaky) }
        if !flaky.isEmpty {
            sections.append(
                (
                    "Flaky (passed on retry)",
                    flaky.map { testCase in
                        let failures = testCase.attempts.filter { $0.status >= .failed }.count
                        return (
                            "\(testCase.className) \(testCase.name)",
                            " (failed \(failures) of \(testCase.attempts.count + 1) runs)"
                        )
                    }
                ))
        }
        let passingAlone = judgement.orderDependent.filter { !$0.failsAlone }
        if !passingAlone.isEmpty {
            sections.append(("Order-dependent (passed alone)", passingAlone.map { ($0.id, ": " + $0.summary) }))
        }
        return sections
    }

    /// What the reports add to a failed case's name: its attempts ("failed 3 of 3 runs") and why
    /// it does not fail the gate, if it does not.
    package static func notes(on testCase: TestRun.Case, judgement: TestJudgement) -> [String] {
        var notes: [String] = []
        if !testCase.attempts.isEmpty {
            let failures = testCase.attempts.filter { $0.status >= .failed }.count + 1
            notes.append("failed \(failures) of \(testCase.attempts.count + 1) runs")
        }
        if let excuse = judgement.excuse(for: testCase) {
            notes.append(excuse.label + ": does not fail the gate")
        } else if let dependence = judgement.orderDependence(of: testCase) {
            notes.append(dependence.label)
        }
        return notes
    }

    /// "2 failed tests do not fail the gate: 1 quarantined, 1 order-dependent."; nil when every
    /// failure counts.
    package static func excusedSentence(_ run: TestRun, judgement: TestJudgement) -> String? {
        let excused = judgement.excused(in: run)
        guard !excused.isEmpty else { return nil }
        let quarantined = excused.filter { $0.excuse == .quarantined }.count
        var parts: [String] = []
        if quarantined > 0 { parts.append("\(quarantined) quarantined") }
        if excused.count > quarantined { parts.append("\(excused.count - quarantined) order-dependent") }
        let tests = excused.count == 1 ? "1 failed test does" : "\(excused.count) failed tests do"
        return "\(tests) not fail the gate: " + parts.joined(separator: ", ") + "."
    }

    /// Text from a log made safe for a terminal: no ANSI codes, no control characters.
    private static func plain(_ text: String) -> String {
        text.strippingANSIEscapes.terminalSafe
    }
}

extension TestRun {
    /// "35 passed, 3 failed, 1 error, 2 skipped (41 tests in 0.518 s)"; "3 passed (1 only on
    /// retry: flaky)" when a test passed after failing; "(42 tests in 0.001 s; 40 without a time)"
    /// when the time leaves out tests their results give no time for (`untimedTests`).
    package var sentence: String {
        let totals = self.totals
        var parts = ["\(totals.passed) passed" + (totals.flaky > 0 ? " (\(totals.flaky) only on retry: flaky)" : "")]
        if totals.failed > 0 { parts.append("\(totals.failed) failed") }
        if totals.errors > 0 { parts.append("\(totals.errors) error" + (totals.errors == 1 ? "" : "s")) }
        if totals.skipped > 0 { parts.append("\(totals.skipped) skipped") }
        let count = "\(totals.tests) test" + (totals.tests == 1 ? "" : "s")
        let untimed = untimedTests
        let untimedNote = untimed > 0 ? "; \(untimed) without a time" : ""
        return parts.joined(separator: ", ") + " (\(count) in \(JUnitReport.seconds(duration)) s\(untimedNote))"
    }
}
