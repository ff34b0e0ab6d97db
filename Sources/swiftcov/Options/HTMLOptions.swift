import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov html`'s options, declared once: `--help` and the command reference come from them.
extension HTMLCommand {
    static let output = ValueOption<String>(
        ["--output", "-o"], value: "DIR",
        help:
            "The folder to write the site into, replaced whole: it must be new, empty or an earlier site. Default: .build/swiftcov/html in the package."
    )
    static let timestamp = FlagOption(
        ["--timestamp"], help: "Show the time of generation in the footer (pages are otherwise reproducible).")
    static let tests = TestsOption.option(
        help:
            "`swift test` output, a Swift Testing event stream, JUnit XML or an Xcode result bundle (shards' files merge) to summarize, failures linked to their lines and to a page of their steps and attachments. Default: the test results of the `swiftcov run` whose output is read."
    )

    /// `--baseline` and where the change comes from.
    struct Differential {
        var baseline: String
        var change: ChangeInput.Source
    }

    struct Options {
        var coverage: CoverageInputOptions
        var output: String
        var timestamp: Bool
        var testLogs: [String]
        var differential: Differential?
        var evidence: EvidencePolicy

        init(_ arguments: ParsedArguments) throws(UsageError) {
            coverage = try CoverageInputOptions(arguments)
            output = try arguments.value(HTMLCommand.output) ?? HTMLCommand.defaultOutput(coverage)
            timestamp = arguments.has(HTMLCommand.timestamp)
            testLogs = try arguments.values(HTMLCommand.tests)
            evidence = try EvidenceOptions.policy(arguments)
            if testLogs.contains("-") && coverage.readsStandardInput {
                throw UsageError("standard input ('-') can be read only once")
            }
            let change = try ChangeInput.Source(arguments, base: ChangeInput.base, diff: ChangeInput.diff)
            if let baseline = try arguments.value(ChangeInput.baseline) {
                differential = Differential(baseline: baseline, change: change)
                if case .file("-") = change, coverage.readsStandardInput || testLogs.contains("-") {
                    throw UsageError("standard input ('-') can be read only once")
                }
            } else if try arguments.value(ChangeInput.base) != nil {
                throw UsageError("--base and --diff say what changed since a baseline: give --baseline FILE")
            } else if try arguments.value(ChangeInput.diff) != nil {
                throw UsageError("--base and --diff say what changed since a baseline: give --baseline FILE")
            }
        }
    }
}
