import SwiftCovCore

/// `swiftcov diff`: how much of what a change adds or modifies ran in the tests; with
/// `--baseline`, differential coverage (see `DiffCommand+Baseline.swift`).
enum DiffCommand {
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

    static let spec = CommandSpec(
        name: "diff",
        abstract: "Coverage of the lines a change adds or modifies, listing those that did not run.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageInputOptions.specs + [
            ChangeInput.base.spec, ChangeInput.diff.spec, failUnder.spec, format.spec, OutputOption.file.spec,
            ColorChoice.option.spec,
            ChangeInput.baseline.spec, failOn.spec, urlTemplate.spec,
        ],
        examples: [
            "swiftcov diff --coverage . --base origin/main --fail-under 80",
            "git diff --merge-base origin/main > change.diff; swiftcov diff . --diff change.diff --format markdown",
            "swiftcov diff . --baseline main-coverage.json --base origin/main --fail-on UNC,LBC -f markdown",
        ])

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

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        let destination = try terminal.output(options.output)
        let (report, _) = try options.coverage.makeReport(terminal)
        let root = report.scope.root ?? terminal.workingDirectory

        var reportOptions = options.change.reportOptions
        reportOptions.failUnder = options.failUnder
        let (diff, prefix) = try ChangeInput.read(options.change, root: root, of: report, terminal: terminal)
        reportOptions.colors = options.color.usesColor(terminal, writesToFile: options.output != nil)
        if let differential = options.differential {
            return try differentialReport(
                differential, format: options.format, report: report, diff: diff, pathPrefix: prefix,
                changes: reportOptions, root: root, destination: destination, terminal: terminal)
        }
        let coverage = try ChangedLineCoverage.compute(diff: diff, report: report, pathPrefix: prefix)

        let text: String
        switch options.format {
        case .json: text = DiffCoverageJSONReport.render(coverage, options: reportOptions)
        case .markdown: text = DiffCoverageMarkdownReport.render(coverage, options: reportOptions)
        case .table: text = DiffCoverageTableReport.render(coverage, options: reportOptions)
        }
        try destination.finish(writing: text)
        terminal.github.addToStepSummary(DiffCoverageMarkdownReport.render(coverage, options: reportOptions))
        if let failUnder = options.failUnder, !coverage.meets(failUnder) { return .gateFailed }
        return .success
    }
}
