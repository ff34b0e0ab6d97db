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
        let configuration = try options.gate.loadConfiguration(root: root)
        let baseline = try options.gate.loadBaseline()
        var workflow = RunWorkflow(
            root: root, output: options.output, testArguments: options.testArguments, scratchPath: options.scratchPath,
            strategy: options.perTest
                ? .eachTestAlone(timeout: options.testTimeout ?? RunWorkflow.Strategy.defaultTimeout) : .wholeSuite,
            shard: options.shard, timings: try options.timings.map { try TestTimings.read(path: $0) })
        workflow.retries = options.retryFailed
        // The history file in the package is swiftcov's: never a change to the code the run tests.
        if case .file(let path) = options.history { workflow.ownFiles = [path] }
        let toolchain = try Toolchain.locate()
        let swiftVersion = Toolchain.swiftVersion(system: toolchain.system)
        workflow.takesAttachmentsPath = RunWorkflow.takesAttachmentsPath(swiftVersion: swiftVersion)
        // One run at a time in an output folder: a second waits for the first.
        try OutputLock.acquire(options.output) {
            terminal.emit(.note("waiting for another swiftcov run writing to \(options.output) to end"))
        }
        let clock = Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH"))
        let outcome: RunWorkflow.Outcome
        do {
            outcome = try workflow.run(toolchain: toolchain, clock: clock, sink: TerminalSink(terminal: terminal))
        } catch let error as RunWorkflow.BuildFailed {
            // A build break is a run of the history too: it says so, never "no failures".
            if let home = options.history {
                try HistoryService.record(
                    TestRun(), coverage: nil, buildFailed: true, alone: options.perTest, home: home, root: root,
                    given: historyKeys(options, arguments: workflow.tests.arguments, swiftVersion: swiftVersion),
                    now: clock.secondsSince1970,
                    terminal: terminal,
                    command: "run")
            }
            throw error
        }

        // Coverage: the run's export, in the scope and with the rules of the package.
        var request = options.scope.request(inputs: [outcome.exportPath], root: root)
        request.adopt(configuration)
        // The export, read once: the report and the files failures point at are made from it.
        let export =
            try outcome.export
            ?? CoverageInput.readExport(
                CoverageInput.locateExport(outcome.exportPath), keepMappings: false, names: request.includeFunctions)
        let report = try request.makeReport(workingDirectory: root, read: export)
        let tests = outcome.results.resolving(with: TestLogInput.sourceIndex(report: report, workingDirectory: root))
        let judgement = TestJudgement(configuration: configuration, orderDependent: outcome.orderDependent)
        for warning in configuration.unmatchedQuarantine(in: tests) { terminal.emit(warning) }

        // What a person reads: the coverage table and the test summary.
        var reportOptions = CoverageReportOptions()
        reportOptions.colors = options.color.usesColor(terminal)
        reportOptions.width = terminal.columns
        try terminal.out(CoverageTableReport.render(report, options: reportOptions))
        try terminal.out(
            "\n" + TestSummaryTableReport.render(tests, colors: reportOptions.colors, judgement: judgement))

        // The files CI keeps; with --per-test, the site shows which tests ran each line.
        let written = try workflow.writeOutputs(
            report: report, tests: tests, request: request, clock: clock, hostname: Clock.hostname,
            perTest: outcome.perTest, judgement: judgement, export: export, evidence: options.evidence)
        for warning in written.warnings { terminal.emit(warning) }
        terminal.status(wrote: written.paths)
        if let home = options.history {
            try HistoryService.record(
                tests, coverage: report, orderDependent: outcome.orderDependent, alone: options.perTest, home: home,
                root: root,
                given: historyKeys(options, arguments: workflow.tests.arguments, swiftVersion: swiftVersion),
                now: clock.secondsSince1970,
                terminal: terminal, command: "run")
        }

        // The gate: failed tests always count; thresholds when configured. A shard has a share
        // of the coverage: the package's rules are checked where the shards are merged (unless
        // --config names rules for the shard).
        // A filtered run (`-- --filter …`) has the coverage of its tests only, as a shard does.
        var rules = configuration
        let partSkipsRules =
            outcome.record.isPartial && options.gate.configPath == nil && configuration.hasCoverageRules
        if partSkipsRules { rules = configuration.withoutCoverageRules }
        if rules.hasCoverageRules || baseline != nil {
            try CoverageInputOptions.requireMeasured(report, inputs: [outcome.exportPath])
        }
        let result = Gate.evaluate(
            report, configuration: rules, baseline: baseline, failedTests: judgement.failedTests(of: tests))
        try terminal.out("\n" + GateReport.text(result))
        if partSkipsRules {
            if let shard = options.shard {
                try terminal.out(
                    "Shard \(shard) gates its tests only: the coverage rules of .swiftcov.json are checked where the "
                        + "shards are merged (swiftcov check -c SHARD-1-OUTPUT -c SHARD-2-OUTPUT …).\n")
            } else {
                try terminal.out(
                    "A filtered run gates its tests only: the coverage rules of .swiftcov.json need the whole suite "
                        + "(swiftcov run without --filter or --skip).\n")
            }
        }
        terminal.github.publishGate(report: report, result: result, tests: tests, judgement: judgement)
        // The gate judges the failed cases; a failure no case records fails the run all the same.
        return result.passed && (outcome.testsPassed || outcome.failuresRecorded) ? .success : .gateFailed
    }

    /// What the history knows of the run before it looks at git and the CI; `arguments`, the
    /// `swift test` arguments the run sorted.
    private static func historyKeys(
        _ options: Options, arguments: SwiftTestArguments, swiftVersion: String?
    ) -> HistoryKeys.Given {
        HistoryKeys.Given(
            environment: options.environment, shard: options.shard?.description,
            configuration: arguments.configuration,
            toolchain: swiftVersion, ownFiles: [options.output])
    }
}
