import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov history`'s options, declared once: `--help` and the command reference come from them.
extension HistoryCommand {
    static let coverage = ValueOption<String>(
        ["--coverage", "-c"], value: "PATH",
        help:
            "The run's coverage: an llvm-cov export or a folder with one. Default: the export in a `swiftcov run` output folder given."
    )
    static let commit = ValueOption<String>(
        ["--commit"], value: "SHA", help: "The commit the tests ran on. Default: HEAD (and the working tree's changes)."
    )
    static let branch = ValueOption<String>(
        ["--branch"], value: "NAME", help: "The branch. Default: the CI's (GitHub Actions, GitLab CI), else git's.")
    static let runID = ValueOption<String>(
        ["--run-id"], value: "ID",
        help: "A unique name for the run. Default: the CI's run, attempt and job; else local-TIME-PID.")
    static let configuration = ValueOption<String>(
        ["--configuration"], value: "debug|release", help: "The build configuration of the run. Default: debug.")
    static let keepRuns = ValueOption<Int>(
        ["--keep-runs"], value: "N", help: "compact: keep the newest N runs.", expected: "a whole number above 0"
    ) { text in Int(text).flatMap { $0 > 0 ? $0 : nil } }
    static let keepDays = ValueOption<Int>(
        ["--keep-days"], value: "DAYS", help: "compact: keep the runs of the last DAYS days.",
        expected: "a whole number above 0"
    ) { text in Int(text).flatMap { $0 > 0 ? $0 : nil } }

    enum Action {
        case add([String])
        case compact
    }

    struct Options {
        var action: Action
        var home: HistoryStore.Home
        var coverage: String?
        var given: HistoryKeys.Given
        var keepRuns: Int?
        var keepDays: Int?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            var positionals = arguments.positionals
            guard !positionals.isEmpty else {
                throw UsageError("say what to do: history add INPUT… or history compact")
            }
            let verb = positionals.removeFirst()
            keepRuns = try arguments.value(HistoryCommand.keepRuns)
            keepDays = try arguments.value(HistoryCommand.keepDays)
            switch verb {
            case "add":
                guard !positionals.isEmpty else { throw UsageError("history add needs test output to record") }
                guard keepRuns == nil, keepDays == nil else {
                    throw UsageError("--keep-runs and --keep-days go with compact")
                }
                action = .add(positionals)
            case "compact":
                guard positionals.isEmpty else { throw UsageError("history compact takes no inputs") }
                guard keepRuns != nil || keepDays != nil else {
                    throw UsageError("history compact needs --keep-runs N or --keep-days DAYS")
                }
                action = .compact
            default:
                throw UsageError("unknown history action '\(verb.terminalSafe)'; use add or compact")
            }
            home = try HistoryService.home(arguments)
            coverage = try arguments.value(HistoryCommand.coverage)
            given = HistoryKeys.Given(
                commit: try arguments.value(HistoryCommand.commit), branch: try arguments.value(HistoryCommand.branch),
                runID: try arguments.value(HistoryCommand.runID),
                environment: try arguments.value(HistoryService.environment),
                configuration: try arguments.value(HistoryCommand.configuration) ?? "debug")
        }
    }
}
