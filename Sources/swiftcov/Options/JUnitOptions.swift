import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov junit`'s options, declared once: `--help` and the command reference come from them.
extension JUnitCommand {
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

    struct Options {
        var inputs: [String]
        var output: String?
        var strict: Bool
        var noFail: Bool
        var coverage: String?
        var root: String?
        var quiet: Bool
        var evidence: EvidencePolicy

        init(_ arguments: ParsedArguments) throws(UsageError) {
            evidence = try EvidenceOptions.policy(arguments)
            inputs = try arguments.values(JUnitCommand.tests) + arguments.positionals
            root = try RootOption.value(arguments, option: JUnitCommand.root)
            if inputs.isEmpty, let package = PackageManifest.root(around: Terminal.currentDirectory) {
                // What `swiftcov run` left in the package around the working directory (its retries
                // too), read as `run` reads it: from the package root, paths shown relative to it.
                inputs = RunWorkflow.testResults(in: package + "/.build/swiftcov")
                if !inputs.isEmpty && root == nil { root = package }
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
            quiet = arguments.has(JUnitCommand.quiet)
        }
    }
}
