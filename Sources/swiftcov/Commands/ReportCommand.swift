import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov report`: the coverage table, JSON or Markdown for one or more exports.
enum ReportCommand {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Show coverage per module, file and function, with llvm-cov's exact numbers.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageInputOptions.specs + [
            format.spec, show.spec, sort.spec, OutputOption.file.spec, ColorChoice.option.spec, tests.spec,
            siteURL.spec,
        ],
        examples: [
            "swiftcov report SampleReports/coverage.json",
            "swiftcov report --coverage . --show functions --sort coverage",
            "swiftcov report -c shard1.json -c shard2.json --format json -o coverage-report.json",
            "swiftcov report SampleReports/coverage.json --tests SampleReports/swift-test-failing.log",
            "swiftcov report --tests App.xcresult --format markdown --site-url https://ci.example.com/42/html",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        let destination = try terminal.output(options.output)
        guard let coverage = options.coverage else { return try runTestsOnly(options, destination, terminal) }
        let showsFunctions = options.details.contains(.functions)
        let (report, _) = try coverage.makeReport(terminal, includeFunctions: showsFunctions)
        let perTest =
            try options.details.contains(.tests)
            ? PerTestData.load(
                beside: coverage.inputs, command: "report", terminal: terminal, ownFiles: report.ownFiles) : nil
        let tests = try options.testLogs.isEmpty ? nil : readTests(options, terminal)
        let links = try tests.flatMap { try evidenceLinks(of: $0, options, terminal) }
        // The package's quarantine and flaky rule mark the failures that do not fail its gate.
        let judgement =
            tests == nil
            ? TestJudgement()
            : try GateOptions.testJudgement(around: coverage.packageRoot ?? terminal.workingDirectory)

        var reportOptions = CoverageReportOptions()
        reportOptions.showFunctions = showsFunctions
        reportOptions.showLines = options.details.contains(.lines)
        reportOptions.sort = options.sort
        reportOptions.colors = options.color.usesColor(terminal, writesToFile: options.output != nil)
        reportOptions.width = options.output == nil ? terminal.columns : nil

        let coverageReport = CoverageAndTestsReport(
            report, options: reportOptions, tests: tests, perTest: perTest, judgement: judgement, links: links)
        try destination.finish(writing: coverageReport, as: options.format)
        try terminal.github.addToStepSummary(coverageReport)
        if let tests { terminal.github.annotate(failuresOf: tests, judgement: judgement) }
        return .success
    }

    /// `report --tests LOG` without coverage: the test-run summary alone.
    private static func runTestsOnly(
        _ options: Options, _ destination: AtomicFile.Destination, _ terminal: Terminal
    ) throws -> ExitCode {
        let tests = try readTests(options, terminal)
        let links = try evidenceLinks(of: tests, options, terminal)
        let judgement = try GateOptions.testJudgement(around: terminal.workingDirectory)
        let summary = TestSummaryReport(
            tests, judgement: judgement, links: links,
            colors: options.color.usesColor(terminal, writesToFile: options.output != nil))
        try destination.finish(writing: summary, as: options.format)
        try terminal.github.addToStepSummary(summary)
        terminal.github.annotate(failuresOf: tests, judgement: judgement)
        return .success
    }

    /// The failing steps and the links to their pages, for Markdown: from the result bundles
    /// and the Swift Testing attachments among the inputs; nil when they hold none.
    private static func evidenceLinks(
        of tests: TestRun, _ options: Options, _ terminal: Terminal
    ) throws -> TestSummaryMarkdownReport.EvidenceLinks? {
        guard options.format == .markdown || terminal.github.isActive else { return nil }
        let runs = try TestResultsInput.evidence(
            of: tests, inputs: options.testLogs, command: "report", terminal: terminal)
        guard !runs.isEmpty else { return nil }
        return .init(evidence: HTMLReport.Evidence(runs: runs, policy: EvidencePolicy()), siteURL: options.siteURL)
    }

    /// The test run the `--tests` logs describe, with file names resolved in the package.
    private static func readTests(_ options: Options, _ terminal: Terminal) throws -> TestRun {
        try TestResultsInput.read(
            options.testLogs, resolvingWith: .package(coverage: nil, root: options.root), command: "report",
            terminal: terminal)
    }
}
