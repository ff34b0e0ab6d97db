import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov flaky`: what the history of runs says about each test that failed — flaky (proven,
/// or by its flips), order-dependent, broken or healed — with the runs that prove it.
enum FlakyCommand {
    static let spec = CommandSpec(
        name: "flaky",
        abstract: "Tell flaky tests from broken and order-dependent ones, from the history of runs, with evidence.",
        positional: nil,
        positionalHelp: nil,
        options: [
            HistoryService.option.spec, perTest.spec, ChangeInput.base.spec, ChangeInput.diff.spec, format.spec,
            OutputOption.file.spec, healAfter.spec, minimumRuns.spec,
        ],
        examples: [
            "swiftcov flaky --history .swiftcov-history/history.jsonl",
            "swiftcov flaky --history git-notes --format markdown >> \"$GITHUB_STEP_SUMMARY\"",
            "swiftcov flaky --history history.jsonl --per-test .build/swiftcov --base origin/main",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        let destination = try terminal.output(options.output)
        let (history, root, _) = try HistoryService.load(options.home, terminal: terminal, command: "flaky")
        var analysis = FlakyVerdicts.analyze(history, options: options.verdicts)
        if let perTestPath = options.perTest, let change = options.change, !analysis.newFailures.isEmpty {
            // The coverage rule: the failing run's per-test data against the lines the change touched.
            let diff = try ChangeInput.read(change, root: root, terminal: terminal).diff
            let perTest = try PerTestData.load(
                [perTestPath], command: "flaky", terminal: terminal,
                ownFiles: PerTestData.OwnFiles("this package or the diff") { _ in true })
            analysis.judgeByCoverage(
                perTest: perTest, changedLines: TestImpact.changedLines(of: diff, side: .changed))
        }
        // The package's quarantine: which tests may leave it, and which hide a broken test.
        let configuration = try GateOptions.configuration(root: root)
        analysis.quarantine = FlakyVerdicts.quarantine(
            configuration.quarantine.map(\.id), in: history, analysis: analysis, healAfter: options.verdicts.healAfter)
        switch options.format {
        case .table: try destination.finish(writing: FlakyReport.table(analysis))
        case .json: try destination.finish(writing: FlakyReport.json(analysis))
        case .markdown: try destination.finish(writing: FlakyReport.markdown(analysis))
        }
        terminal.github.addToStepSummary(FlakyReport.markdown(analysis))
        terminal.github.annotate(
            analysis.findings.filter { $0.failedLast && $0.verdict.isFlaky }.map {
                GitHubAnnotation(
                    .warning, title: "Known flaky: \($0.test)", message: FlakyReport.evidence($0))
            })
        return .success
    }
}
