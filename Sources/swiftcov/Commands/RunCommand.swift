import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov run`: the whole workflow in one command, from a package root. Runs the tests with
/// coverage, keeps their log, makes the coverage even when tests failed (SwiftPM writes none
/// then), prints the coverage table and the test summary, writes HTML, JUnit and JSON, and
/// evaluates the gate when one is configured. The work is `RunWorkflow`'s; this shows it.
enum RunCommand {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Run `swift test` with coverage, then report, write HTML/JUnit/JSON and check the gate.",
        positional: "-- SWIFT-TEST-ARGUMENTS…",
        positionalHelp: "Passed to `swift test` (after `--`), e.g. -- --filter GameTests --parallel.",
        options: [output.spec] + GateOptions.specs + [shard.spec, scratchPath.spec, timings.spec]
            + [
                perTest.spec, testTimeout.spec, retryFailed.spec, HistoryService.option.spec,
                HistoryService.environment.spec, ColorChoice.option.spec,
            ]
            + EvidenceOptions.specs + ScopeOptions.specs,
        examples: [
            "swiftcov run",
            "swiftcov run --output coverage -- --filter TriviaGameTests",
            "swiftcov run --shard 2/4 --timings previous/junit.xml",
            "swiftcov run --per-test --test-timeout 60",
            "swiftcov run --history .swiftcov-history/history.jsonl",
            "swiftcov run --retry-failed 2",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        // From any folder of a package: `run` works in its root, as SwiftPM does.
        let package = try PackageRoot(around: terminal.workingDirectory)
        let options = try Options(arguments, folder: package.startFolder)
        try package.enter(terminal)
        let root = package.path
        let gate = try GateService(options.gate, root: root)
        let (workflow, toolchain, swiftVersion) = try options.workflow(root: root)
        // One run at a time in an output folder: a second waits for the first.
        try OutputLock.acquire(options.output) {
            terminal.emit(.note("waiting for another swiftcov run writing to \(options.output) to end"))
        }
        let clock = Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH"))
        func record(_ tests: TestRun, _ coverage: CoverageReport?, _ orderDependent: [OrderDependence]) throws {
            guard let home = options.history else { return }
            try HistoryService.record(
                tests, coverage: coverage, orderDependent: orderDependent, buildFailed: coverage == nil,
                alone: options.perTest, home: home, root: root,
                given: options.historyKeys(arguments: workflow.tests.arguments, swiftVersion: swiftVersion),
                now: clock.secondsSince1970, terminal: terminal, command: "run")
        }
        let outcome: RunWorkflow.Outcome
        do {
            outcome = try workflow.run(toolchain: toolchain, clock: clock, sink: TerminalSink(terminal: terminal))
        } catch let error as RunWorkflow.BuildFailed {
            // A build break is a run of the history too: it says so, never "no failures".
            try record(TestRun(), nil, [])
            throw error
        }
        // The coverage, in the scope and with the rules of the package; the tests, with their files.
        let run = try workflow.results(
            of: outcome, scope: options.scope.request(inputs: [], root: root), configuration: gate.configuration)
        let judgement = gate.judgement(of: run.tests, orderDependent: outcome.orderDependent, terminal: terminal)
        // What a person reads: the coverage table and the test summary.
        var reportOptions = CoverageReportOptions()
        reportOptions.colors = options.color.usesColor(terminal)
        reportOptions.width = terminal.columns
        try terminal.out(
            CoverageAndTestsReport(run.coverage, options: reportOptions, tests: run.tests, judgement: judgement)
                .text(.table))
        // The files CI keeps; with --per-test, the site shows which tests ran each line.
        let written = try workflow.writeOutputs(
            run, clock: clock, hostname: Clock.hostname, perTest: outcome.perTest, judgement: judgement,
            evidence: options.evidence)
        for warning in written.warnings { terminal.emit(warning) }
        terminal.status(wrote: written.paths)
        try record(run.tests, run.coverage, outcome.orderDependent)
        // The gate judges the failed cases; a failure no case records fails the run all the same.
        let passed = try gate.evaluate(run, record: outcome.record, judgement: judgement, terminal: terminal)
        return passed && (outcome.testsPassed || outcome.failuresRecorded) ? .success : .gateFailed
    }
}
