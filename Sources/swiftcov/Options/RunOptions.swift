import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov run`'s options, declared once: `--help` and the command reference come from them.
extension RunCommand {
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

    static let perTest = FlagOption(
        ["--per-test"],
        help:
            "Run each test alone, on every core, and record which lines it executed (per-test.swiftcov in the output folder)."
    )
    static let testTimeout = ValueOption<Double>(
        ["--test-timeout"], value: "SECONDS",
        help: "With --per-test: kill a test still running after SECONDS and report it as timed out. Default: 300.",
        expected: "a number of seconds above 0"
    ) { text in
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else { return nil }
        return seconds
    }

    static let retryFailed = ValueOption<Int>(
        ["--retry-failed"], value: "N",
        help:
            "Run each failed test again, alone, up to N times (0 to \(RunWorkflow.maximumRetries)), until it passes: a pass on retry is flaky. Default: 0.",
        expected: "a whole number from 0 to \(RunWorkflow.maximumRetries)"
    ) { text in
        guard let count = Int(text), count >= 0, count <= RunWorkflow.maximumRetries else { return nil }
        return count
    }

    struct Options {
        var output: String
        var gate: GateOptions
        var shard: Shard?
        var scratchPath: String?
        var timings: String?
        var perTest: Bool
        var testTimeout: Double?
        var retryFailed: Int
        var color: ColorChoice
        var scope: ScopeOptions
        var testArguments: [String]
        var history: HistoryStore.Home?
        /// The run's environment's name, for the history.
        var environment: String?
        var evidence: EvidencePolicy

        /// The options; the paths given in them are relative to `folder` (where swiftcov was
        /// started, relative to the package root, where `run` works; empty at the root).
        init(_ arguments: ParsedArguments, folder: String = "") throws(UsageError) {
            evidence = try EvidenceOptions.policy(arguments)
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
            retryFailed = try arguments.value(RunCommand.retryFailed) ?? 0
            color = try arguments.value(ColorChoice.option) ?? .auto
            scope = try ScopeOptions(arguments)
            testArguments = arguments.positionals
            history = try arguments.value(HistoryService.option).map { HistoryStore.Home(parsing: fromStart($0) ?? $0) }
            environment = try arguments.value(HistoryService.environment)
            guard history != nil || environment == nil else { throw UsageError("--environment goes with --history") }
        }

        /// The workflow these options describe, for the package at `root`, with the toolchain it
        /// uses and what `swift --version` prints.
        func workflow(root: String) throws -> (RunWorkflow, Toolchain, swiftVersion: String?) {
            var workflow = RunWorkflow(
                root: root, output: output, testArguments: testArguments, scratchPath: scratchPath,
                strategy: perTest
                    ? .eachTestAlone(timeout: testTimeout ?? RunWorkflow.Strategy.defaultTimeout) : .wholeSuite,
                shard: shard, timings: try timings.map { try TestTimings.read(path: $0) })
            workflow.retries = retryFailed
            // The history file in the package is swiftcov's: never a change to the code the run tests.
            if case .file(let path) = history { workflow.ownFiles = [path] }
            let toolchain = try Toolchain.locate()
            let swiftVersion = Toolchain.swiftVersion(system: toolchain.system)
            workflow.takesAttachmentsPath = RunWorkflow.takesAttachmentsPath(swiftVersion: swiftVersion)
            return (workflow, toolchain, swiftVersion)
        }

        /// What the history knows of the run before it looks at git and the CI; `arguments`, the
        /// `swift test` arguments the run sorted.
        func historyKeys(arguments: SwiftTestArguments, swiftVersion: String?) -> HistoryKeys.Given {
            HistoryKeys.Given(
                environment: environment, shard: shard?.description, configuration: arguments.configuration,
                toolchain: swiftVersion, ownFiles: [output])
        }
    }
}
