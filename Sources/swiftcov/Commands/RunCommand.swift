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
/// evaluates the gate when one is configured. The work is `CoverageRun`'s; this shows it.
enum RunCommand {
    static let output = ValueOption<String>(
        ["--output", "-o"], value: "DIR",
        help: "Where to write html/, junit.xml, coverage.json and the test log. Default: .build/swiftcov.")
    static let shard = ValueOption<Shard>(
        ["--shard"], value: "K/N",
        help:
            "Run only shard K of N of the tests (`swift test list`), for N CI machines; merge their outputs with report -c, junit --tests.",
        parse: { (text: String) throws(UsageError) -> Shard in
            do throws(Shard.InvalidShard) { return try Shard(parsing: text) } catch {
                throw UsageError(error.description)
            }
        })
    static let scratchPath = ValueOption<String>(
        ["--scratch-path"], value: "DIR",
        help:
            "SwiftPM's build folder for the tests (passed to every `swift` command run makes). The plugin uses its own."
    )
    static let timings = ValueOption<String>(
        ["--timings"], value: "FILE",
        help:
            "With --shard: balance the shards by the tests' times in FILE (an earlier junit.xml, or coverage.json of run)."
    )

    static let spec = CommandSpec(
        name: "run",
        abstract: "Run `swift test` with coverage, then report, write HTML/JUnit/JSON and check the gate.",
        positional: "-- SWIFT-TEST-ARGUMENTS…",
        positionalHelp: "Passed to `swift test` (after `--`), e.g. -- --filter GameTests --parallel.",
        options: [output.spec] + GateOptions.specs + [shard.spec, scratchPath.spec, timings.spec]
            + [perTest.spec, testTimeout.spec, ColorChoice.option.spec] + ScopeOptions.specs,
        examples: [
            "swiftcov run",
            "swiftcov run --output coverage -- --filter TriviaGameTests",
            "swiftcov run --shard 2/4 --timings previous/junit.xml",
            "swiftcov run --per-test --test-timeout 60",
        ])

    struct Options {
        var output: String
        var gate: GateOptions
        var shard: Shard?
        var scratchPath: String?
        var timings: String?
        var perTest: Bool
        var testTimeout: Double?
        var color: ColorChoice
        var scope: ScopeOptions
        var testArguments: [String]

        /// The options; the paths given in them are relative to `folder` (where swiftcov was
        /// started, relative to the package root, where `run` works; empty at the root).
        init(_ arguments: ParsedArguments, folder: String = "") throws(UsageError) {
            func fromStart(_ path: String?) -> String? {
                guard let path, !folder.isEmpty, !path.hasPrefix("/") else { return path }
                return folder + "/" + path
            }
            output = fromStart(try arguments.value(RunCommand.output)) ?? ".build/swiftcov"
            gate = try GateOptions(arguments)
            gate.configPath = fromStart(gate.configPath)
            gate.baselinePath = fromStart(gate.baselinePath)
            shard = try arguments.value(RunCommand.shard)
            scratchPath = fromStart(try arguments.value(RunCommand.scratchPath))
            timings = fromStart(try arguments.value(RunCommand.timings))
            guard shard != nil || timings == nil else { throw UsageError("--timings needs --shard") }
            perTest = arguments.has(RunCommand.perTest)
            testTimeout = try arguments.value(RunCommand.testTimeout)
            guard perTest || testTimeout == nil else { throw UsageError("--test-timeout goes with --per-test") }
            color = try arguments.value(ColorChoice.option) ?? .auto
            scope = try ScopeOptions(arguments)
            testArguments = arguments.positionals
        }
    }

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
        let timings = try options.timings.map { try TestTimings.read(path: $0) }
        let toolchain = try Toolchain.locate()
        // One run at a time in an output folder: a second waits for the first.
        try OutputLock.acquire(options.output) {
            terminal.error("swiftcov: waiting for another swiftcov run writing to \(options.output) to end\n")
        }
        let clock = Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH"))
        var pipeline = CoverageRun(
            root: root, output: options.output, testArguments: options.testArguments, scratchPath: options.scratchPath)

        // 0. A shard: its share of the tests, from a build made the way `swift test` makes it
        // (with --per-test, the per-test run selects its share).
        if let shard = options.shard, !options.perTest {
            terminal.error("swiftcov: building and listing the tests for shard \(shard)\n")
            var progress = LiveProgress(terminal: terminal, live: terminal.stderrIsTerminal)
            let (selected, all, plan) = try pipeline.selectShard(shard, timings: timings) { progress.consume($0) }
            progress.finish()
            var note = "shard \(shard): \(selected.count) of \(all.count) tests"
            if timings != nil, !all.isEmpty {
                note += ", about \(JUnitReport.seconds(plan.expectedSeconds[shard.index - 1])) s by the timings"
            }
            terminal.emit(.note(note + " (listed in \(options.output)/shard-tests.txt)"))
        }

        if !options.perTest, pipeline.removeEarlierPerTestData() {
            terminal.emit(
                .note(
                    "removed \(options.output)/\(PerTestStore.fileName) of an earlier `run --per-test`: "
                        + "it would not match this run's coverage"))
        }

        // 1. The tests, with live progress on a terminal and the output as it comes otherwise; with
        // --per-test each test alone, its lines recorded.
        let (exportPath, status, results) =
            options.perTest
            ? try runPerTest(
                options, root: root, toolchain: toolchain, clock: clock, timings: timings, terminal: terminal)
            : try runTests(pipeline, toolchain: toolchain, terminal: terminal)
        var testRun = results

        // 2. Coverage: SwiftPM's export when the tests passed, otherwise made from the raw profiles.
        var request = options.scope.request(inputs: [exportPath], root: root)
        request.adopt(configuration)
        let report = try request.makeReport(workingDirectory: root)
        testRun = testRun.resolving(with: TestLogInput.sourceIndex(report: report, workingDirectory: root))

        // 3. What a person reads: the coverage table and the test summary.
        var reportOptions = CoverageReportOptions()
        reportOptions.colors = options.color.usesColor(terminal)
        reportOptions.width = terminal.columns
        try terminal.out(CoverageTableReport.render(report, options: reportOptions))
        try terminal.out("\n" + TestSummaryTableReport.render(testRun, colors: reportOptions.colors))

        // 4. The files CI keeps.
        // With --per-test, the site shows which tests ran each line.
        let perTest = options.perTest ? try PerTestStore.read(path: pipeline.output + "/" + PerTestStore.fileName) : nil
        let written = try pipeline.writeOutputs(
            report: report, tests: testRun, request: request, clock: clock, hostname: Clock.hostname,
            perTest: perTest)
        for warning in written.warnings { terminal.emit(warning) }
        terminal.status(wrote: written.paths)

        // 5. The gate: failed tests always count; thresholds when configured. A shard has a share
        // of the coverage: the package's rules are checked where the shards are merged (unless
        // --config names rules for the shard).
        var rules = configuration
        let shardSkipsRules = options.shard != nil && options.gate.configPath == nil && configuration.hasCoverageRules
        if shardSkipsRules { rules = configuration.withoutCoverageRules }
        let result = Gate.evaluate(
            report, configuration: rules, baseline: baseline, failedTests: CoverageRun.failedTests(of: testRun))
        try terminal.out("\n" + GateReport.text(result))
        if shardSkipsRules, let shard = options.shard {
            try terminal.out(
                "Shard \(shard) gates its tests only: the coverage rules of .swiftcov.json are checked where the "
                    + "shards are merged (swiftcov check -c SHARD-1-OUTPUT -c SHARD-2-OUTPUT …).\n")
        }
        terminal.github.publishGate(report: report, result: result, tests: testRun)
        return result.passed && status == 0 ? .success : .gateFailed
    }

    /// Runs `swift test` (step 1) and makes the export: the export's path, `swift test`'s status
    /// and the results.
    private static func runTests(
        _ pipeline: CoverageRun, toolchain: Toolchain, terminal: Terminal
    ) throws -> (exportPath: String, status: Int32, results: TestRun) {
        let command = pipeline.swiftTestArguments
        let shown = command.prefix(command.count - (pipeline.selection?.count ?? 0))
        terminal.error(
            "swiftcov: running swift \(shown.joined(separator: " "))"
                + (pipeline.selection == nil ? "" : " (and a --filter for the shard's tests)") + "\n")
        var progress = LiveProgress(terminal: terminal, live: terminal.stderrIsTerminal)
        let status = try pipeline.runTests { progress.consume($0) }
        progress.finish()
        let results = try pipeline.readResults(utcOffset: Clock.system().utcOffset)
        guard results.hasTestOutput else {
            // The build failed (usually): on a terminal its errors were hidden behind the progress line.
            if progress.live {
                let errors = pipeline.buildErrors()
                if !errors.isEmpty { terminal.error(errors.terminalSafeKeepingLines + "\n") }
            }
            throw Diagnostic(
                file: pipeline.logPath, "`swift test` exited with status \(status) before running any test")
        }
        let exportPath = try pipeline.coverageExport(toolchain: toolchain) { terminal.emit(.note($0)) }
        return (exportPath, status, results)
    }
}
