import SwiftCovCommandLine
import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        let start = terminal.workingDirectory
        guard let root = PackageManifest.root(around: start) else {
            throw UsageError("no Package.swift in \(start) or any folder above it: run it in a package")
        }
        let options = try Options(arguments, folder: root == start ? "" : String(start.dropFirst(root.count + 1)))
        if root != start {
            guard chdir(root) == 0 else { throw UsageError("cannot work in the package root \(root)") }
            terminal.emit(.note("working in the package root \(root)"))
        }
        let gate = try GateService(options.gate, root: root)
        var workflow = try options.workflow(root: root)
        let toolchain = try Toolchain.locate()
        let swiftVersion = Toolchain.swiftVersion(system: toolchain.system)
        workflow.takesAttachmentsPath = RunWorkflow.takesAttachmentsPath(swiftVersion: swiftVersion)
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

        // Coverage: the run's export, in the scope and with the rules of the package.
        var request = options.scope.request(inputs: [outcome.exportPath], root: root)
        request.adopt(gate.configuration)
        // The export, read once: the report and the files failures point at are made from it.
        let export =
            try outcome.export
            ?? CoverageInput.readExport(
                CoverageInput.locateExport(outcome.exportPath), keepMappings: false, names: request.includeFunctions)
        let report = try request.makeReport(workingDirectory: root, read: export)
        let tests = outcome.results.resolving(
            with: TestResultsInput.sourceIndex(report: report, workingDirectory: root))
        let judgement = gate.judgement(of: tests, orderDependent: outcome.orderDependent, terminal: terminal)

        // What a person reads: the coverage table and the test summary.
        var reportOptions = CoverageReportOptions()
        reportOptions.colors = options.color.usesColor(terminal)
        reportOptions.width = terminal.columns
        try terminal.out(
            CoverageAndTestsReport(report, options: reportOptions, tests: tests, judgement: judgement).text(.table))

        // The files CI keeps; with --per-test, the site shows which tests ran each line.
        let written = try workflow.writeOutputs(
            report: report, tests: tests, request: request, clock: clock, hostname: Clock.hostname,
            perTest: outcome.perTest, judgement: judgement, export: export, evidence: options.evidence)
        for warning in written.warnings { terminal.emit(warning) }
        terminal.status(wrote: written.paths)
        try record(tests, report, outcome.orderDependent)

        // The gate: failed tests always count; thresholds when configured, but a part of the
        // tests (a shard, a filtered run) has a share of the coverage.
        let skipped = gate.coverageRulesSkipped(
            partial: outcome.record.isPartial, shard: options.shard, configurationGiven: options.gate.configPath != nil)
        if skipped == nil && gate.configuration.hasCoverageRules || gate.baseline != nil {
            try CoverageInputOptions.requireMeasured(report, inputs: [outcome.exportPath])
        }
        let passed = try gate.evaluate(
            report, tests: tests, judgement: judgement, coverageRulesSkipped: skipped, separated: true,
            terminal: terminal)
        // The gate judges the failed cases; a failure no case records fails the run all the same.
        return passed && (outcome.testsPassed || outcome.failuresRecorded) ? .success : .gateFailed
    }
}
