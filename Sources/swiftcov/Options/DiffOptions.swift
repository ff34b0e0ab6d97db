import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov diff`'s options, declared once: `--help` and the command reference come from them.
extension DiffCommand {
    static let failUnder = ValueOption<Double>.percentage(
        ["--fail-under"], help: "Exit 1 when less than PERCENT of the changed executable lines ran.")
    static let format = ValueOption<ReportFormat>(
        ["--format", "-f"], value: "FORMAT", help: "Output format. Default: table.")
    static let failOn = ValueOption<Set<DifferentialCategory>>(
        ["--fail-on"], value: "CODES",
        help:
            "With --baseline: exit 1 when any line falls into one of these categories, e.g. UNC,LBC. Default: \"failOn\" in .swiftcov.json."
    ) { (text: String) throws(UsageError) -> Set<DifferentialCategory> in
        switch DifferentialCategory.parseList(text) {
        case .success(let categories): return categories
        case .failure(let error): throw UsageError("invalid value '\(text)' for '--fail-on': \(error.message)")
        }
    }
    static let urlTemplate = ValueOption<String>(
        ["--url-template"], value: "TEMPLATE",
        help:
            "With --baseline: link files and lines in the Markdown; {path} and {line} are replaced, e.g. https://github.com/OWNER/REPO/blob/SHA/{path}#L{line}."
    )

    /// `--baseline` and the options that go with it.
    struct Differential {
        var baseline: String
        var failOn: Set<DifferentialCategory>?
        var urlTemplate: String?
    }

    struct Options {
        var coverage: CoverageInputOptions
        var change: ChangeInput.Source
        var failUnder: Double?
        var format: ReportFormat
        var output: String?
        var color: ColorChoice
        var differential: Differential?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            coverage = try CoverageInputOptions(arguments)
            change = try ChangeInput.Source(arguments, base: ChangeInput.base, diff: ChangeInput.diff)
            if case .file("-") = change, coverage.readsStandardInput {
                throw UsageError("standard input ('-') can be read only once: give the export or the diff as a file")
            }
            failUnder = try arguments.value(DiffCommand.failUnder)
            format = try arguments.value(DiffCommand.format) ?? .table
            output = try arguments.value(OutputOption.file)
            color = try arguments.value(ColorChoice.option) ?? .auto
            let failOn = try arguments.value(DiffCommand.failOn)
            let urlTemplate = try arguments.value(DiffCommand.urlTemplate)
            if let baseline = try arguments.value(ChangeInput.baseline) {
                guard failUnder == nil else {
                    throw UsageError("--fail-under measures changed lines; with --baseline give --fail-on CODES")
                }
                differential = Differential(baseline: baseline, failOn: failOn, urlTemplate: urlTemplate)
            } else if failOn != nil || urlTemplate != nil {
                throw UsageError("\(failOn != nil ? "--fail-on" : "--url-template") needs --baseline FILE")
            }
        }
    }
}
