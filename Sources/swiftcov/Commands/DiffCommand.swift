import SwiftCovCore

/// `swiftcov diff`: how much of what a change adds or modifies ran in the tests; with
/// `--baseline`, differential coverage (see `DiffCommand+Baseline.swift`).
enum DiffCommand {
    static let base = ValueOption<String>(
        ["--base"], value: "REF",
        help:
            "Measure the changes since the working tree left git ref REF (git diff from the merge base of REF and HEAD). Default: HEAD, the uncommitted changes."
    )
    static let diff = ValueOption<String>(
        ["--diff"], value: "FILE",
        help: "Read a unified diff (git diff, diff -u) from FILE, '-' for stdin, instead of running git.")
    static let failUnder = ValueOption<Double>.percentage(
        ["--fail-under"], help: "Exit 1 when less than PERCENT of the changed executable lines ran.")
    static let format = ValueOption<ReportFormat>(
        ["--format", "-f"], value: "FORMAT", help: "Output format. Default: table.")
    static let baseline = ValueOption<String>(
        ["--baseline"], value: "FILE",
        help:
            "Differential coverage: compare with the base revision's coverage (an llvm-cov export, or `swiftcov report --format json --show lines`) and put every line in genhtml's categories (UNC, LBC, GNC, …)."
    )
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
            base.spec, diff.spec, failUnder.spec, format.spec, OutputOption.file.spec, ColorChoice.option.spec,
            baseline.spec, failOn.spec, urlTemplate.spec,
        ],
        examples: [
            "swiftcov diff --coverage . --base origin/main --fail-under 80",
            "git diff --merge-base origin/main > change.diff; swiftcov diff . --diff change.diff --format markdown",
            "swiftcov diff . --baseline main-coverage.json --base origin/main --fail-on UNC,LBC -f markdown",
        ])

    /// Where the change comes from.
    enum ChangeSource {
        /// `git diff` against this ref (HEAD: the uncommitted changes).
        case git(base: String)
        /// A unified diff in a file, "-" for standard input.
        case file(String)

        /// `--base REF` or `--diff FILE` (not both), HEAD when neither is given.
        init(_ arguments: ParsedArguments, base: ValueOption<String>, diff: ValueOption<String>) throws(UsageError) {
            switch (try arguments.value(base), try arguments.value(diff)) {
            case (_?, _?): throw UsageError("give either --base REF or --diff FILE, not both")
            case (nil, let file?): self = .file(file)
            case (let ref, nil): self = .git(base: ref ?? "HEAD")
            }
        }

        /// Where the changes come from, as the reports say it.
        var reportOptions: DiffCoverageReportOptions {
            switch self {
            case .file(let path): DiffCoverageReportOptions(diffFile: path)
            case .git(let base): DiffCoverageReportOptions(base: base)
            }
        }
    }

    /// `--baseline` and the options that go with it.
    struct Differential {
        var baseline: String
        var failOn: Set<DifferentialCategory>?
        var urlTemplate: String?
    }

    struct Options {
        var coverage: CoverageInputOptions
        var change: ChangeSource
        var failUnder: Double?
        var format: ReportFormat
        var output: String?
        var color: ColorChoice
        var differential: Differential?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            coverage = try CoverageInputOptions(arguments)
            change = try ChangeSource(arguments, base: DiffCommand.base, diff: DiffCommand.diff)
            if case .file("-") = change, coverage.readsStandardInput {
                throw UsageError("standard input ('-') can be read only once: give the export or the diff as a file")
            }
            failUnder = try arguments.value(DiffCommand.failUnder)
            format = try arguments.value(DiffCommand.format) ?? .table
            output = try arguments.value(OutputOption.file)
            color = try arguments.value(ColorChoice.option) ?? .auto
            let failOn = try arguments.value(DiffCommand.failOn)
            let urlTemplate = try arguments.value(DiffCommand.urlTemplate)
            if let baseline = try arguments.value(DiffCommand.baseline) {
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
        let (diff, prefix) = try readChange(options.change, root: root, of: report, terminal: terminal)
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

    /// The change as a parsed diff, and the package's folder in the repository when the diff
    /// is a file (a diff from the repository's top folder names files by their path there).
    /// With the coverage `report` the change is measured against, a diff that is not of its
    /// sources is an error: its line numbers would put the changes on the wrong lines.
    static func readChange(
        _ change: ChangeSource, root: String, of report: CoverageReport? = nil, terminal: Terminal
    ) throws -> (diff: UnifiedDiff, pathPrefix: String) {
        let text: String
        let name: String
        var prefix = ""
        switch change {
        case .file(let path):
            text = try readDiff(path)
            name = path == "-" ? "<stdin>" : path
            prefix = Git.prefix(of: root)
        case .git(let base):
            let (diffText, note) = try Git.diff(against: base, root: root)
            if let note { terminal.emit(.note(note)) }
            text = diffText
            name = "git diff \(base)"
        }
        let diff: UnifiedDiff
        do {
            diff = try UnifiedDiff.parse(text)
        } catch {
            throw Diagnostic(file: name, at: .line(error.line), error.message)
        }
        if let report { try checkApplies(diff, pathPrefix: prefix, to: report, root: root) }
        return (diff, prefix)
    }

    /// Refuses a diff whose new side is not the current sources of the files `report` covers.
    private static func checkApplies(_ diff: UnifiedDiff, pathPrefix: String, to report: CoverageReport, root: String)
        throws
    {
        let covered = Set(report.files.map(\.displayPath))
        let sources = SourceFiles(root: root)
        try diff.checkApplies(pathPrefix: pathPrefix) { path in
            covered.contains(path) ? try? sources.read(path).get() : nil
        }
    }

    private static func readDiff(_ path: String) throws -> String {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw Diagnostic(file: path, "cannot read: \(error.message)")
        }
        return file.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }
}
