import SwiftCovCore

extension DiffCommand {
    /// `swiftcov diff --base-coverage FILE`: differential coverage against the base revision's.
    static func differentialReport(
        _ differential: Differential, failOn: Set<DifferentialCategory>, format: ReportFormat,
        report: CoverageReport, diff: UnifiedDiff, pathPrefix: String, changes: ChangedLineCoverageReportOptions,
        root: String,
        destination: AtomicFile.Destination,
        terminal: Terminal
    ) throws -> ExitCode {
        var options = DifferentialCoverageReportOptions()
        options.failOn = failOn
        let coverage = try ChangeInput.differentialCoverage(
            baseline: differential.baseline, report: report, diff: diff, pathPrefix: pathPrefix, root: root,
            terminal: terminal)

        options.changes = changes
        options.baseline = differential.baseline
        options.urlTemplate = differential.urlTemplate
        options.colors = changes.colors
        let differentialReport = DifferentialCoverageReport(coverage, options: options)
        try destination.finish(writing: differentialReport, as: format)
        // On GitHub Actions: the Markdown in the job summary, and annotations on the UNC and LBC lines.
        try terminal.github.addToStepSummary(differentialReport)
        terminal.github.annotate(GitHubAnnotations.untestedLines(of: coverage, failOn: options.failOn), root: root)
        return coverage.failingLines(options.failOn) > 0 ? .gateFailed : .success
    }
}
