import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov trends`'s options, declared once: `--help` and the command reference come from them.
extension TrendsCommand {
    /// What `trends` writes.
    enum Format: String, CaseIterable, Sendable {
        case table, markdown, html
    }

    static let format = ValueOption<Format>(
        ["--format", "-f"], value: "FORMAT",
        help: "table, markdown (a pull-request comment) or html (a page with charts). Default: table.")
    static let since = ValueOption<String>(
        ["--since"], value: "COMMIT",
        help: "Measure the biggest movers from this commit (a ref or a hash prefix). Default: the first commit.")

    struct Options {
        var home: HistoryStore.Home
        var format: Format
        var output: String?
        var since: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            home = try HistoryService.home(arguments)
            format = try arguments.value(TrendsCommand.format) ?? .table
            output = try arguments.value(OutputOption.file)
            since = try arguments.value(TrendsCommand.since)
        }
    }
}
