import SwiftCovAnalyses
import SwiftCovModel

/// The test-run summary for a CI job summary or a pull-request comment: the verdict, the
/// failures with `file:line`, and the suites in a collapsed table.
package enum TestSummaryMarkdownReport {
    /// At most this many failures are listed; the rest are counted.
    package static let failureLimit = 50

    /// Where a failure's steps and screenshots are: the tests' evidence, and the address the
    /// HTML site is published at (its `tests/` pages show them).
    package struct EvidenceLinks: Sendable {
        package var evidence: HTMLReport.Evidence
        /// The site's address, without its `index.html` (`https://ci.example.com/job/1/html`).
        package var siteURL: String?

        package init(evidence: HTMLReport.Evidence, siteURL: String?) {
            self.evidence = evidence
            self.siteURL = siteURL
        }
    }

    /// Renders the summary of `run` as GitHub-flavoured Markdown; `judgement` marks the failures
    /// that do not fail the gate (quarantined, order-dependent); with `links`, each failure says
    /// the step it failed at and links to its page of steps and screenshots.
    package static func render(
        _ run: TestRun, judgement: TestJudgement = TestJudgement(), links: EvidenceLinks? = nil
    ) -> String {
        let totals = run.totals
        let verdict = totals.hasFailures || !run.isComplete ? "failed" : "passed"
        var text = "### Tests \(verdict): \(run.sentence)\n\n"
        if let excused = TestSummaryTableReport.excusedSentence(run, judgement: judgement) { text += excused + "\n\n" }
        if !run.isComplete {
            text += "The log ends before the test run does: tests that were running are reported as errors.\n\n"
        }
        let failing = run.failingCases
        if !failing.isEmpty {
            text += "| Test | Where | Failure |\n|:--|:--|:--|\n"
            for testCase in failing.prefix(failureLimit) {
                let issue = testCase.failingIssues.first
                let location = issue?.location.map { "\($0.file):\($0.line)" } ?? ""
                let message = issue.map { String($0.message.prefix { $0 != "\n" }) } ?? ""
                let notes = TestSummaryTableReport.notes(on: testCase, judgement: judgement)
                let name = "\(testCase.className) › \(testCase.name)" + notes.map { " (\($0))" }.joined()
                let more = testCase.failingIssues.count > 1 ? " (+\(testCase.failingIssues.count - 1) more)" : ""
                text += "| \(cell(name)) | \(cell(location)) | \(cell(message))\(more)"
                if let links { text += evidence(of: testCase, links) }
                text += " |\n"
            }
            if failing.count > failureLimit { text += "\n… and \(failing.count - failureLimit) more failed tests.\n" }
            text += "\n"
        }
        for section in TestSummaryTableReport.sections(run, judgement: judgement) {
            text += "\(section.title):\n\n"
            for item in section.items { text += "- \(cell(item.name))\(cell(item.note))\n" }
            text += "\n"
        }
        guard !run.suites.isEmpty else { return text }
        text += "<details><summary>\(run.suites.count) suites</summary>\n\n"
        text += "| Suite | Tests | Passed | Failed | Errors | Skipped | Time (s) |\n|:--|--:|--:|--:|--:|--:|--:|\n"
        for suite in run.suites {
            text += "| \(cell(suite.name)) | \(counts(suite.totals, time: suite.duration)) |\n"
        }
        text += "| **Total** | \(counts(totals, time: run.duration)) |\n"
        text += "\n</details>\n"
        return text
    }

    /// The step `testCase` failed at and the link to its page, for its failure's cell.
    private static func evidence(of testCase: TestRun.Case, _ links: EvidenceLinks) -> String {
        let evidence = links.evidence
        guard let page = evidence.page(className: testCase.className, testName: testCase.testName) else { return "" }
        let runs = evidence.runs(className: testCase.className, testName: testCase.testName)
        var text = ""
        if let step = HTMLReport.failingStep(runs, evidence: evidence) { text += " — failed at “\(cell(step))”" }
        if let site = links.siteURL {
            let base = site.hasSuffix("/") ? String(site.dropLast()) : site
            text += " ([steps and screenshots](\(base)/\(page)))"
        }
        return text
    }

    private static func counts(_ totals: TestRun.Totals, time: Double) -> String {
        [totals.tests, totals.passed, totals.failed, totals.errors, totals.skipped].map(String.init)
            .joined(separator: " | ") + " | " + JUnitReport.seconds(time)
    }

    private static func cell(_ text: String) -> String {
        CoverageMarkdownReport.escape(text.strippingANSIEscapes)
    }
}
