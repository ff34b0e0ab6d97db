import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov impacted`'s options, declared once: `--help` and the command reference come from them.
extension ImpactedCommand {
    /// How the impacted tests are printed.
    enum Format: String, CaseIterable, Sendable {
        /// One test ID a line.
        case list
        /// One regular expression for `swift test --filter`.
        case filter
    }

    static let base = ValueOption<String>(
        ["--base"], value: "REF",
        help:
            "The changes since git ref REF (git diff from the merge base of REF and HEAD to the working tree). Default: HEAD, the uncommitted changes."
    )
    static let diff = ValueOption<String>(
        ["--diff"], value: "FILE",
        help: "Read a unified diff (git diff --relative, diff -u) from FILE, '-' for stdin, instead of running git.")
    static let recordedAt = ValueOption<TestImpact.Side>(
        ["--recorded-at"], value: "SIDE",
        help:
            "The side of the diff the per-test data was recorded at. Default: base when recorded on a clean tree at the diff's base commit (with --diff: on any clean tree), else changed."
    )
    static let format = ValueOption<Format>(
        ["--format", "-f"], value: "FORMAT",
        help: "list: one test ID a line; filter: one regular expression for `swift test --filter`. Default: list.")
    static let output = ValueOption<String>(
        ["--output", "-o"], value: "FILE", help: "Write the list to FILE (atomically) instead of stdout.")

    struct Options {
        var stores: [String]
        var change: ChangeInput.Source
        var recordedAt: TestImpact.Side?
        var format: Format
        var output: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            stores = arguments.positionals
            change = try ChangeInput.Source(arguments, base: ImpactedCommand.base, diff: ImpactedCommand.diff)
            recordedAt = try arguments.value(ImpactedCommand.recordedAt)
            format = try arguments.value(ImpactedCommand.format) ?? .list
            output = try arguments.value(ImpactedCommand.output)
        }
    }
}
