import SwiftCovCore

/// What swiftcov does when it runs in a GitHub Actions job: annotations that attach problems to
/// the lines of the pull request, and Markdown in the job summary. Nothing outside GitHub.
struct GitHubActions {
    let terminal: Terminal

    /// Whether this is a GitHub Actions job (`GITHUB_ACTIONS=true`).
    var isActive: Bool { terminal.environment("GITHUB_ACTIONS") == "true" }

    /// Appends `markdown` to the job summary (`GITHUB_STEP_SUMMARY`), when there is one; the
    /// Markdown is only rendered then. Other steps append to it too: it is added on a line of its
    /// own, and taken back whole when it cannot be written (a full disk), with a warning.
    func addToStepSummary(_ markdown: @autoclosure () -> String) {
        guard let path = terminal.environment("GITHUB_STEP_SUMMARY"), !path.isEmpty else { return }
        do throws(SystemCallError) { try AppendOnlyFile.append(markdown(), to: path) } catch {
            terminal.emit(.warning(file: path, "cannot write the job summary: \(error.reason)"))
        }
    }

    /// Appends `report`'s Markdown to the job summary, when there is one.
    func addToStepSummary<R: Report>(_ report: R) throws where R.Format == ReportFormat {
        guard let path = terminal.environment("GITHUB_STEP_SUMMARY"), !path.isEmpty else { return }
        let markdown = try report.text(.markdown)
        addToStepSummary(markdown)
    }

    /// Writes `annotations` as workflow commands on stderr (GitHub reads both streams; stdout
    /// may be a report), most important first within GitHub's limits; the rest go to the job
    /// summary. `root` is the package root the annotations' paths are relative to.
    func annotate(_ annotations: [GitHubAnnotation], root: String? = nil) {
        guard isActive, !annotations.isEmpty else { return }
        let (commands, leftOut) = GitHubAnnotations.commands(annotations, pathPrefix: pathPrefix(root: root))
        terminal.error(commands)
        addToStepSummary(GitHubAnnotations.markdown(leftOut: leftOut))
    }

    /// Annotations for every failure of the failed tests of `run`.
    func annotate(failuresOf run: TestRun, root: String? = nil, judgement: TestJudgement = TestJudgement()) {
        guard isActive else { return }  // nothing to compute outside GitHub: a run may hold a million tests
        annotate(GitHubAnnotations.failures(of: run, judgement: judgement), root: root)
    }

    /// The package root's path inside the repository (`GITHUB_WORKSPACE`), with a trailing
    /// slash; "" when the package is the repository or lies outside it.
    func pathPrefix(root: String?) -> String {
        guard let workspace = terminal.environment("GITHUB_WORKSPACE"), !workspace.isEmpty else { return "" }
        let cwd = terminal.workingDirectory
        let packageRoot = CoverageScope.normalized(root.map { $0.hasPrefix("/") ? $0 : cwd + "/" + $0 } ?? cwd)
        let base = CoverageScope.normalized(workspace)
        guard packageRoot.hasPrefix(base + "/") else { return "" }
        return String(packageRoot.dropFirst(base.count + 1)) + "/"
    }
}

extension GitHubActions {
    /// The gate's outcome where GitHub shows it (`check`, `run`): the coverage table and the
    /// verdict in the job summary, and an annotation for each failed test, then each rule not met.
    func publishGate(
        report: CoverageReport, result: GateResult, tests: TestRun?, judgement: TestJudgement = TestJudgement()
    ) {
        guard isActive || terminal.environment("GITHUB_STEP_SUMMARY") != nil else { return }
        // The tests' summary too, saying which failures do not fail the gate (quarantined, order-dependent).
        addToStepSummary(
            CoverageMarkdownReport.render(report, options: CoverageReportOptions()) + GateReport.markdown(result)
                + (tests.map { "\n" + TestSummaryMarkdownReport.render($0, judgement: judgement) } ?? ""))
        let tests = tests.map { GitHubAnnotations.failures(of: $0, judgement: judgement) } ?? []
        annotate(tests + GitHubAnnotations.failures(of: result), root: report.scope.root)
    }
}
