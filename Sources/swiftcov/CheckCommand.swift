import SwiftCovCore

/// `swiftcov check`: the CI gate. Exit 0 when every rule holds, 1 when one does not, 2 when the
/// coverage, the configuration or the baseline cannot be read.
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Fail (exit 1) when coverage is below the agreed thresholds or dropped below a baseline.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageOptions.specs + [
            .init(
                ["--config"], value: "FILE",
                help: "The gate configuration. Default: .swiftcov.json in the package root, if any."),
            .init(["--baseline"], value: "FILE", help: "An earlier `swiftcov report --format json`, for the ratchet."),
            .init(
                ["--min-lines"], value: "PERCENT",
                help: "Minimum line coverage of the whole report (overrides the file)."),
            .init(["--min-functions"], value: "PERCENT", help: "Minimum function coverage of the whole report."),
            .init(["--min-regions"], value: "PERCENT", help: "Minimum region coverage of the whole report."),
            .init(["--strict"], help: "Treat configuration warnings (rules that match nothing) as errors."),
        ],
        examples: [
            "swiftcov check --coverage . --min-lines 80",
            "swiftcov check SampleReports/coverage.json --config .swiftcov.json --baseline main-coverage.json",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let root = arguments.value("--root") ?? terminal.workingDirectory
        var configuration = try loadConfiguration(arguments.value("--config"), root: root)
        for (option, keyPath) in [
            ("--min-lines", \GateConfiguration.Minimums.lines), ("--min-functions", \.functions),
            ("--min-regions", \.regions),
        ] {
            guard let text = arguments.value(option) else { continue }
            guard let percent = Double(text), percent >= 0, percent <= 100 else {
                throw UsageError("\(option) needs a percentage from 0 to 100, not '\(text)'")
            }
            configuration.totals[keyPath: keyPath] = percent
        }
        let baseline = try arguments.value("--baseline").map(loadBaseline)
        if baseline != nil && configuration.ratchetTolerance == nil { configuration.ratchetTolerance = 0 }
        guard
            !configuration.totals.isEmpty || !configuration.modules.isEmpty || !configuration.files.isEmpty
                || baseline != nil
        else {
            throw UsageError(
                "nothing to check: add rules to .swiftcov.json, or give --min-lines PERCENT or --baseline FILE")
        }

        var request = try CoverageOptions.request(from: arguments)
        request.adopt(configuration)
        let progress = Progress(terminal: terminal, inputs: request.inputs)
        let report = try request.makeReport(workingDirectory: terminal.workingDirectory)
        progress.finish()

        let configurationName = arguments.value("--config") ?? ".swiftcov.json"
        let warnings = configuration.warnings(for: report, path: configurationName)
        for warning in warnings { terminal.error(warning.description + "\n") }
        if arguments.has("--strict") && !warnings.isEmpty {
            throw UsageError("\(warnings.count) configuration warning(s) and --strict")
        }

        let result = Gate.evaluate(report, configuration: configuration, baseline: baseline)
        try terminal.out(GateReport.text(result))
        try publishOnGitHub(report: report, result: result, terminal: terminal)
        return result.passed ? .success : .gateFailed
    }

    /// On GitHub Actions: annotations for what failed, and the table and verdict in the job summary.
    static func publishOnGitHub(report: CoverageReport, result: GateResult, terminal: Terminal) throws {
        if terminal.environment("GITHUB_ACTIONS") == "true" {
            try terminal.out(GateReport.githubAnnotations(result))
        }
        if let summary = terminal.environment("GITHUB_STEP_SUMMARY"), !summary.isEmpty {
            terminal.append(
                CoverageMarkdownReport.render(report, options: CoverageReportOptions()) + GateReport.markdown(result),
                toFile: summary)
        }
    }

    /// The configuration at `path`, or `.swiftcov.json` in `root` when there is one, or none.
    static func loadConfiguration(_ path: String?, root: String) throws -> GateConfiguration {
        let file = path ?? root + "/.swiftcov.json"
        guard path != nil || Terminal.fileSize(file) > 0 else { return GateConfiguration() }
        let bytes: [UInt8]
        do {
            let document = try MappedFile(path: file)
            bytes = document.withUnsafeBytes { Array($0) }
        } catch {
            throw CoverageInputError.unreadable(path: path ?? ".swiftcov.json", reason: error.message)
        }
        return try GateConfiguration.parse(bytes, path: path ?? ".swiftcov.json")
    }

    static func loadBaseline(_ path: String) throws -> CoverageBaseline {
        do {
            let document = try MappedFile(path: path)
            return try CoverageBaseline.parse(document.withUnsafeBytes { Array($0) }, path: path)
        } catch let error as MappedFile.ReadError {
            throw CoverageInputError.unreadable(path: path, reason: error.message)
        }
    }
}
