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

        switch options.format {
        case .json:
            // Streamed: with every function and line the JSON can be many times the export's size.
            var json = JSONWriter(destination.streamingBuffer())
            try CoverageJSONReport.write(
                report, options: reportOptions, tests: tests, perTest: perTest, judgement: judgement, to: &json)
            try destination.finish(json.finish())
        case .markdown:
            var text = CoverageMarkdownReport.render(report, options: reportOptions)
            if let tests {
                text += "\n" + TestSummaryMarkdownReport.render(tests, judgement: judgement, links: links)
            }
            try destination.finish(writing: text)
        case .table:
            var text = CoverageTableReport.render(report, options: reportOptions)
            if let perTest {
                text += "\n" + PerTestTableReport.render(report, perTest: perTest, width: reportOptions.width)
            }
            if let tests {
                text += "\n" + TestSummaryTableReport.render(tests, colors: reportOptions.colors, judgement: judgement)
            }
            try destination.finish(writing: text)
        }
        terminal.github.addToStepSummary(
            CoverageMarkdownReport.render(report, options: reportOptions)
                + (tests.map { "\n" + TestSummaryMarkdownReport.render($0, judgement: judgement, links: links) } ?? ""))
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
        let colors = options.color.usesColor(terminal, writesToFile: options.output != nil)
        switch options.format {
        case .json:
            // Streamed: a log of a million tests gives a JSON document larger than the log.
            var json = JSONWriter(destination.streamingBuffer())
            TestSummaryJSONReport.write(tests, judgement: judgement, to: &json)
            try destination.finish(json.finish())
        case .markdown:
            try destination.finish(writing: TestSummaryMarkdownReport.render(tests, judgement: judgement, links: links))
        case .table:
            try destination.finish(writing: TestSummaryTableReport.render(tests, colors: colors, judgement: judgement))
        }
        terminal.github.addToStepSummary(TestSummaryMarkdownReport.render(tests, judgement: judgement, links: links))
        terminal.github.annotate(failuresOf: tests, judgement: judgement)
        return .success
    }

    /// The failing steps and the links to their pages, for Markdown: from the result bundles
    /// and the Swift Testing attachments among the inputs; nil when they hold none.
    private static func evidenceLinks(
        of tests: TestRun, _ options: Options, _ terminal: Terminal
    ) throws -> TestSummaryMarkdownReport.EvidenceLinks? {
        guard options.format == .markdown || terminal.github.isActive else { return nil }
        let runs = try TestLogInput.evidence(of: tests, inputs: options.testLogs, command: "report", terminal: terminal)
        guard !runs.isEmpty else { return nil }
        return .init(evidence: HTMLReport.Evidence(runs: runs, policy: EvidencePolicy()), siteURL: options.siteURL)
    }

    /// The test run the `--tests` logs describe, with file names resolved in the package.
    private static func readTests(_ options: Options, _ terminal: Terminal) throws -> TestRun {
        var run = try TestLogInput.readResults(options.testLogs)
        TestLogInput.warnAboutDuplicates(in: run, command: "report", terminal: terminal)
        // In place: a copy would hold the whole run twice.
        run.resolve(
            with: try TestLogInput.sourceIndex(
                coverage: nil, root: options.root, workingDirectory: terminal.workingDirectory))
        return run
    }
}
