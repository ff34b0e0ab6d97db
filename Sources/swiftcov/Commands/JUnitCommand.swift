import SwiftCovCore

/// `swiftcov junit`: JUnit XML from `swift test` output, for CI.
enum JUnitCommand {
    static let tests = TestsOption.option(
        help:
            "Console output of `swift test`, a Swift Testing event stream (--experimental-event-stream-output), or JUnit XML (swiftcov's, SwiftPM's --xunit-output); '-' reads stdin. Several are combined: shards merge, each test once."
    )
    static let output = ValueOption<String>(
        ["--output", "-o"], value: "FILE",
        help: "Write the XML to FILE (atomically). With --tests -, stdin is passed through to stdout meanwhile.")
    static let strict = FlagOption(
        ["--strict"], help: "Valid against Jenkins' xUnit schema (junit-10.xsd): no file/line on testcase.")
    static let noFail = FlagOption(["--no-fail"], help: "Exit 0 even when tests failed or the run was cut off.")
    static let coverage = ValueOption<String>(
        ["--coverage", "-c"], value: "PATH",
        help: "An llvm-cov export (or a folder with one) whose file list resolves locations given as a file name.")
    static let root = ValueOption<String>(
        ["--root"], value: "DIR",
        help:
            "The package root: resolves file names and XCTest modules. Default: the package around the current folder.")
    static let quiet = FlagOption(
        ["--quiet", "-q"], help: "Neither pass stdin through nor print the one-line summary on stderr.")

    static let spec = CommandSpec(
        name: "junit",
        abstract: "Write JUnit XML from `swift test` output (XCTest, Swift Testing, --parallel) for CI.",
        positional: "LOG…",
        positionalHelp: "Same as --tests LOG. Default: what `swiftcov run` left in the package's .build/swiftcov.",
        options: [tests.spec, output.spec, strict.spec, noFail.spec, coverage.spec, root.spec, quiet.spec],
        examples: [
            "swift test 2>&1 | swiftcov junit --tests - --output junit.xml",
            "swiftcov junit SampleReports/swift-test-failing.log SampleReports/swift-testing-events.jsonl -o junit.xml",
            "swiftcov junit --tests swift-test.log --strict --no-fail > junit.xml",
        ])

    struct Options {
        var inputs: [String]
        var output: String?
        var strict: Bool
        var noFail: Bool
        var coverage: String?
        var root: String?
        var quiet: Bool

        init(_ arguments: ParsedArguments) throws(UsageError) {
            inputs = try arguments.values(JUnitCommand.tests) + arguments.positionals
            if inputs.isEmpty, let package = PackageManifest.root(around: Terminal.currentDirectory) {
                // What `swiftcov run` left in the package around the working directory.
                inputs = RunWorkflow.testResults(in: package + "/.build/swiftcov")
            }
            guard !inputs.isEmpty else {
                throw UsageError(
                    "no test output; give a `swift test` log with --tests LOG ('-' for standard input), "
                        + "or run `swiftcov run` in the package first")
            }
            output = try arguments.value(JUnitCommand.output)
            strict = arguments.has(JUnitCommand.strict)
            noFail = arguments.has(JUnitCommand.noFail)
            coverage = try arguments.value(JUnitCommand.coverage)
            root = try RootOption.value(arguments, option: JUnitCommand.root)
            quiet = arguments.has(JUnitCommand.quiet)
        }
    }

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        var run = try TestLogInput.read(options.inputs, passThrough: options.output != nil && !options.quiet)
        TestLogInput.warnAboutDuplicates(in: run, command: "junit", terminal: terminal)
        run.resolve(
            with: try TestLogInput.sourceIndex(
                coverage: options.coverage, root: options.root, workingDirectory: terminal.workingDirectory))
        var status: ExitCode = run.totals.hasFailures || !run.isComplete ? .gateFailed : .success
        if let missing = TestLogInput.missingResults(run, inputs: options.inputs) {
            // CI still gets a file, with one error that says why.
            run = TestResultsReader.missingResults(
                sources: options.inputs.map(TestLogInput.displayName), output: run.output,
                interrupted: run.wasInterrupted)
            terminal.emit(missing.diagnostic, command: "junit")
            status = .usage
        }
        let destination = try terminal.output(options.output)
        var xml = destination.streamingBuffer()
        let clock = Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH"))
        JUnitReport.write(
            run,
            options: JUnitReport.Options(
                strict: options.strict, hostname: Clock.hostname, timestamp: clock.localTimestamp),
            to: &xml)
        try destination.finish(xml)
        if !options.quiet, status != .usage {
            terminal.status(wrote: options.output.map { [$0] } ?? [], run.totals.sentence(seconds: run.duration))
        }
        terminal.github.annotate(failuresOf: run, root: options.root)
        if status == .gateFailed && options.noFail { return .success }
        return status
    }
}
