import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov flaky`'s options, declared once: `--help` and the command reference come from them.
extension FlakyCommand {
    static let format = ValueOption<ReportFormat>(
        ["--format", "-f"], value: "FORMAT", help: "table, json or markdown (a pull-request comment). Default: table.")
    static let healAfter = ValueOption<Int>(
        ["--heal-after"], value: "K", help: "A flaky test with no failure in its last K runs is healed. Default: 10.",
        expected: "a whole number above 0"
    ) { text in Int(text).flatMap { $0 > 0 ? $0 : nil } }
    static let minimumRuns = ValueOption<Int>(
        ["--min-runs"], value: "N",
        help:
            "Flaky by its flips across commits needs N runs on one branch (and 2 flips). Default: 10.",
        expected: "a whole number above 1"
    ) { text in Int(text).flatMap { $0 > 1 ? $0 : nil } }

    static let perTest = ValueOption<String>(
        ["--per-test"], value: "PATH",
        help:
            "The failing run's per-test data (per-test.swiftcov of `run --per-test`, or its folder): new failures that ran no changed line are likely flaky."
    )

    struct Options {
        var home: HistoryStore.Home
        var perTest: String?
        var change: ChangeInput.Source?
        var format: ReportFormat
        var output: String?
        var verdicts: FlakyVerdicts.Options

        init(_ arguments: ParsedArguments) throws(UsageError) {
            home = try HistoryService.home(arguments)
            format = try arguments.value(FlakyCommand.format) ?? .table
            output = try arguments.value(OutputOption.file)
            perTest = try arguments.value(FlakyCommand.perTest)
            let base = try arguments.value(ChangeInput.base)
            let diff = try arguments.value(ChangeInput.diff)
            let hasChange = base != nil || diff != nil
            change = hasChange ? try ChangeInput.Source(arguments, base: ChangeInput.base, diff: ChangeInput.diff) : nil
            if perTest != nil, change == nil { change = .git(base: "HEAD") }
            guard change == nil || perTest != nil else {
                throw UsageError("--base and --diff go with --per-test: the failing run's per-test data")
            }
            verdicts = FlakyVerdicts.Options()
            if let healAfter = try arguments.value(FlakyCommand.healAfter) { verdicts.healAfter = healAfter }
            if let minimumRuns = try arguments.value(FlakyCommand.minimumRuns) { verdicts.minimumRuns = minimumRuns }
        }
    }
}
