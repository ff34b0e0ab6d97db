import SwiftCovCore

/// `swiftcov html`: a static site to browse coverage down to every line's execution count.
enum HTMLCommand {
    static let output = ValueOption<String>(
        ["--output", "-o"], value: "DIR",
        help:
            "The folder to write the site into, replaced whole: it must be new, empty or an earlier site. Default: .build/swiftcov/html."
    )
    static let timestamp = FlagOption(
        ["--timestamp"], help: "Show the time of generation in the footer (pages are otherwise reproducible).")
    static let tests = TestsOption.option(
        help:
            "`swift test` output, a Swift Testing event stream or JUnit XML (shards' files merge) to summarize, failures linked to their lines."
    )

    static let spec = CommandSpec(
        name: "html",
        abstract: "Write an HTML report: modules, files, and every line with its execution count.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageInputOptions.specs + [output.spec, timestamp.spec, tests.spec],
        examples: [
            "swiftcov html SampleReports/coverage.json --output coverage-html",
            "swiftcov html --coverage . && open .build/swiftcov/html/index.html",
        ])

    struct Options {
        var coverage: CoverageInputOptions
        var output: String
        var timestamp: Bool
        var testLogs: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            coverage = try CoverageInputOptions(arguments)
            output = try arguments.value(HTMLCommand.output) ?? ".build/swiftcov/html"
            timestamp = arguments.has(HTMLCommand.timestamp)
            testLogs = try arguments.values(HTMLCommand.tests)
            if testLogs.contains("-") && coverage.readsStandardInput {
                throw UsageError("standard input ('-') can be read only once")
            }
        }
    }

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        // Before reading: a folder that may not be replaced fails at once.
        let site = try HTMLSite(directory: options.output)
        let (report, request) = try options.coverage.makeReport(terminal)
        var htmlOptions = HTMLReport.Options()
        if options.timestamp {
            htmlOptions.generatedAt =
                Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH"))
                .utcTimestamp
        }
        var tests: TestRun?
        if !options.testLogs.isEmpty {
            let run = try TestLogInput.readResults(options.testLogs)
            TestLogInput.warnAboutDuplicates(in: run, command: "html", terminal: terminal)
            tests = run.resolving(
                with: TestLogInput.sourceIndex(report: report, workingDirectory: terminal.workingDirectory))
        }
        let extra = tests.map { request.failureFiles(of: $0, report: report) } ?? []
        let written = try site.write(report, tests: tests, extraFiles: extra, options: htmlOptions)
        for warning in written.warnings { terminal.emit(warning) }
        terminal.error("Wrote \(options.output)/index.html (\(report.files.count) files)\n")
        return .success
    }
}
