import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov check`'s options, declared once: `--help` and the command reference come from them.
extension CheckCommand {
    static let minLines = ValueOption<Double>.percentage(
        ["--min-lines"], help: "Minimum line coverage of the whole report (overrides the file).")
    static let minFunctions = ValueOption<Double>.percentage(
        ["--min-functions"], help: "Minimum function coverage of the whole report.")
    static let minRegions = ValueOption<Double>.percentage(
        ["--min-regions"], help: "Minimum region coverage of the whole report.")
    static let strict = FlagOption(
        ["--strict"], help: "Treat configuration warnings (rules that match nothing) as errors.")
    static let partial = FlagOption(
        ["--partial"],
        help: "Gate an export of part of the tests (one shard, a filtered run) as it is, instead of refusing it.")
    static let tests = TestsOption.option(
        help:
            "Also fail when a test failed: `swift test` output, an event stream or JUnit XML (shards' files merged). Repeatable."
    )

    struct Options {
        var coverage: CoverageInputOptions
        var gate: GateOptions
        /// `--min-lines` and the others, overriding the configuration's totals.
        var minimums: [(WritableKeyPath<GateConfiguration.Minimums, Double?>, Double)]
        var strict: Bool
        /// `--partial`: a shard's or a filtered run's export is gated as it is.
        var partial: Bool
        /// `--tests`: test results whose failures fail the gate too.
        var testLogs: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            coverage = try CoverageInputOptions(arguments)
            gate = try GateOptions(arguments)
            minimums = []
            for (option, keyPath) in [
                (CheckCommand.minLines, \GateConfiguration.Minimums.lines), (CheckCommand.minFunctions, \.functions),
                (CheckCommand.minRegions, \.regions),
            ] {
                if let percent = try arguments.value(option) { minimums.append((keyPath, percent)) }
            }
            strict = arguments.has(CheckCommand.strict)
            partial = arguments.has(CheckCommand.partial)
            testLogs = try arguments.values(CheckCommand.tests)
        }
    }
}
