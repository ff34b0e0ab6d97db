import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov report`'s options, declared once: `--help` and the command reference come from them.
extension ReportCommand {
    /// What to list besides modules and files.
    enum Detail: String, CaseIterable, Sendable {
        case functions, lines, tests
    }

    static let format = ValueOption<ReportFormat>(
        ["--format", "-f"], value: "FORMAT", help: "Output format. Default: table.")
    static let show = ValueOption<Detail>(
        ["--show"], value: "WHAT", repeatable: true,
        help:
            "Also list each file's functions with their execution counts, or (json) its per-line counts, or the tests that ran each file (table) or each line (json) (per-test data of `run --per-test`)."
    )
    static let sort = ValueOption<CoverageReportOptions.Sort>(
        ["--sort"], value: "ORDER", help: "Order of modules and files. Default: name.")
    static let tests = TestsOption.option(
        help:
            "Also (or only) summarize a test run: `swift test` output, a Swift Testing event stream, JUnit XML or an Xcode result bundle (shards' files merge); '-' reads stdin."
    )

    static let siteURL = ValueOption<String>(
        ["--site-url"], value: "URL",
        help:
            "Where the `swiftcov html` site of this run is published: in Markdown, each failure links to its steps and screenshots there."
    )

    /// The options of one `report`, read and checked.
    struct Options {
        /// Nil when only test logs are given (a test summary alone).
        var coverage: CoverageInputOptions?
        var format: ReportFormat
        var details: Set<Detail>
        var sort: CoverageReportOptions.Sort
        var output: String?
        var color: ColorChoice
        var testLogs: [String]
        var root: String?
        var siteURL: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            siteURL = try arguments.value(ReportCommand.siteURL)
            testLogs = try arguments.values(ReportCommand.tests)
            let hasCoverage =
                !(try arguments.values(CoverageInputOptions.coverage)).isEmpty || !arguments.positionals.isEmpty
            coverage = testLogs.isEmpty || hasCoverage ? try CoverageInputOptions(arguments) : nil
            root = try RootOption.value(arguments)
            format = try arguments.value(ReportCommand.format) ?? .table
            details = Set(try arguments.values(ReportCommand.show))
            sort = try arguments.value(ReportCommand.sort) ?? .name
            output = try arguments.value(OutputOption.file)
            color = try arguments.value(ColorChoice.option) ?? .auto
            if testLogs.contains("-") && coverage?.readsStandardInput == true {
                throw UsageError("standard input ('-') can be read only once")
            }
            if details.contains(.lines) && format != .json {
                throw UsageError(
                    "--show lines adds per-line counts to --format json; for lines on a page, see `swiftcov html`")
            }
            if details.contains(.tests) && format == .markdown {
                throw UsageError("--show tests lists each file's tests in the table, and each line's in --format json")
            }
        }
    }
}
