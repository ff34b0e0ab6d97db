import SwiftCovCore

/// `swiftcov report`: the coverage table, JSON or Markdown for one or more exports.
enum ReportCommand {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Show coverage per module, file and function, with llvm-cov's exact numbers.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageOptions.specs + [
            .init(
                ["--format", "-f"], value: "FORMAT", choices: ["table", "json", "markdown"],
                help: "Output format. Default: table."),
            .init(
                ["--show"], value: "WHAT", choices: ["functions", "lines", "tests"], repeatable: true,
                help:
                    "Also list each file's functions with their execution counts, or (json) its per-line counts, or (json) the tests that ran each line (per-test data of `run --per-test`)."
            ),
            .init(
                ["--sort"], value: "ORDER", choices: ["name", "coverage"],
                help: "Order of modules and files. Default: name."),
            .init(["--output", "-o"], value: "FILE", help: "Write the report to FILE (atomically) instead of stdout."),
            Terminal.colorOption,
            .init(
                ["--tests", "-t"], value: "LOG", repeatable: true,
                help:
                    "Also (or only) summarize a test run: `swift test` output, a Swift Testing event stream or JUnit XML (shards' files merge); '-' reads stdin."
            ),
        ],
        examples: [
            "swiftcov report SampleReports/coverage.json",
            "swiftcov report --coverage . --show functions --sort coverage",
            "swiftcov report -c shard1.json -c shard2.json --format json -o coverage-report.json",
            "swiftcov report SampleReports/coverage.json --tests SampleReports/swift-test-failing.log",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let testLogs = arguments.all("--tests")
        let coverageInputs = arguments.all("--coverage") + arguments.positionals
        guard !(testLogs.contains("-") && coverageInputs.contains("-")) else {
            throw UsageError("standard input ('-') can be read only once")
        }
        guard testLogs.isEmpty || !coverageInputs.isEmpty else {
            return try runTestsOnly(arguments, testLogs: testLogs, &terminal)
        }
        let showsFunctions = arguments.all("--show").contains("functions")
        if arguments.all("--show").contains("lines") && (arguments.value("--format") ?? "table") != "json" {
            throw UsageError(
                "--show lines adds per-line counts to --format json; for lines on a page, see `swiftcov html`")
        }
        if arguments.all("--show").contains("tests") && (arguments.value("--format") ?? "table") != "json" {
            throw UsageError("--show tests adds each line's tests to --format json")
        }
        let perTest = try arguments.all("--show").contains("tests") ? perTestCoverage(for: coverageInputs) : nil
        let output = arguments.value("--output")
        let destination = try terminal.output(output)
        let report = try CoverageOptions.report(from: arguments, terminal: terminal, includeFunctions: showsFunctions)
        let tests = try testLogs.isEmpty ? nil : readTests(testLogs, arguments: arguments, terminal: terminal)

        var options = CoverageReportOptions()
        options.showFunctions = showsFunctions
        options.showLines = arguments.all("--show").contains("lines")
        options.sort = CoverageReportOptions.Sort(rawValue: arguments.value("--sort") ?? "name") ?? .name
        options.colors = terminal.usesColor(arguments, writesToFile: output != nil)

        switch arguments.value("--format") ?? "table" {
        case "json":
            // Streamed: with every function and line the JSON can be many times the export's size.
            var json = JSONWriter(destination.streamingBuffer())
            try CoverageJSONReport.write(report, options: options, tests: tests, perTest: perTest, to: &json)
            try destination.finish(json.finish())
        case "markdown":
            var text = CoverageMarkdownReport.render(report, options: options)
            if let tests { text += "\n" + TestSummaryMarkdownReport.render(tests) }
            try destination.finish(writing: text)
        default:
            var text = CoverageTableReport.render(report, options: options)
            if let tests { text += "\n" + TestSummaryTableReport.render(tests, colors: options.colors) }
            try destination.finish(writing: text)
        }
        // On GitHub Actions the job summary gets the Markdown table.
        if let summaryFile = terminal.environment("GITHUB_STEP_SUMMARY"), !summaryFile.isEmpty {
            var summary = CoverageMarkdownReport.render(report, options: options)
            if let tests { summary += "\n" + TestSummaryMarkdownReport.render(tests) }
            terminal.append(summary, toFile: summaryFile)
        }
        return .success
    }

    /// The per-test data beside the inputs (`run --per-test`'s output folder, or its export).
    private static func perTestCoverage(for inputs: [String]) throws -> PerTestCoverage {
        for input in inputs where input != "-" {
            let folder =
                Terminal.fileSize(input) > 0 ? String(input[..<(input.lastIndex(of: "/") ?? input.startIndex)]) : input
            let store = (folder.isEmpty ? "." : folder) + "/" + PerTestStore.fileName
            if Terminal.fileSize(store) > 0 { return try PerTestStore.read(path: store) }
        }
        return try ImpactedCommand.loadStore(inputs.first ?? ".build/swiftcov")
    }

    /// `report --tests LOG` without coverage: the test-run summary alone.
    private static func runTestsOnly(
        _ arguments: ParsedArguments, testLogs: [String], _ terminal: inout Terminal
    ) throws -> ExitCode {
        let output = arguments.value("--output")
        let destination = try terminal.output(output)
        let tests = try readTests(testLogs, arguments: arguments, terminal: terminal)
        let colors = terminal.usesColor(arguments, writesToFile: output != nil)
        let text: String
        switch arguments.value("--format") ?? "table" {
        case "json": text = TestSummaryJSONReport.render(tests)
        case "markdown": text = TestSummaryMarkdownReport.render(tests)
        default: text = TestSummaryTableReport.render(tests, colors: colors)
        }
        try destination.finish(writing: text)
        if let summaryFile = terminal.environment("GITHUB_STEP_SUMMARY"), !summaryFile.isEmpty {
            terminal.append(TestSummaryMarkdownReport.render(tests), toFile: summaryFile)
        }
        return .success
    }

    /// The test run the `--tests` logs describe, with file names resolved in the package.
    private static func readTests(_ logs: [String], arguments: ParsedArguments, terminal: Terminal) throws -> TestRun {
        var run = try TestLogInput.readResults(logs)
        TestLogInput.warnAboutDuplicates(in: run, command: "report", terminal: terminal)
        run.resolve(
            with: try TestLogInput.sourceIndex(
                coverage: nil, root: arguments.value("--root"), workingDirectory: terminal.workingDirectory))
        return run
    }
}
