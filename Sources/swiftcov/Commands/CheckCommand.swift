import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov check`: the CI gate. Exit 0 when every rule holds, 1 when one does not, 2 when the
/// coverage, the configuration or the baseline cannot be read.
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Fail (exit 1) when coverage is below the agreed thresholds or dropped below a baseline.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageInputOptions.specs + GateOptions.specs + [
            minLines.spec, minFunctions.spec, minRegions.spec, strict.spec, partial.spec, tests.spec,
        ],
        examples: [
            "swiftcov check --min-lines 80",
            "swiftcov check -c shard-1 -c shard-2 --tests shard-1/junit.xml --tests shard-2/junit.xml",
            "swiftcov check SampleReports/coverage.json --config .swiftcov.json --baseline main-coverage.json",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        // The package's `.swiftcov.json`, from whichever folder `check` starts in.
        var configuration = try options.gate.loadConfiguration(
            root: options.coverage.packageRoot ?? terminal.workingDirectory)
        for (keyPath, percent) in options.minimums { configuration.totals[keyPath: keyPath] = percent }
        let baseline = try options.gate.loadBaseline()
        if baseline != nil && configuration.ratchetTolerance == nil { configuration.ratchetTolerance = 0 }
        let hasCoverageRules =
            !configuration.totals.isEmpty || !configuration.modules.isEmpty || !configuration.files.isEmpty
            || baseline != nil
        guard hasCoverageRules || !options.testLogs.isEmpty else {
            throw UsageError(
                "nothing to check: add rules to .swiftcov.json, or give --min-lines PERCENT, --baseline FILE or --tests LOG"
            )
        }
        var tests = try options.testLogs.isEmpty ? nil : TestLogInput.readResults(options.testLogs)
        if let tests { TestLogInput.warnAboutDuplicates(in: tests, command: "check", terminal: terminal) }
        if !hasCoverageRules {
            terminal.emit(
                .note("no coverage rules (.swiftcov.json, --min-lines, --baseline): only the tests are checked"))
        }

        let (report, _) = try options.coverage.makeReport(terminal, configuration: configuration)
        if hasCoverageRules {
            try CoverageInputOptions.requireMeasured(report, inputs: options.coverage.inputs)
            if !options.partial, let partial = Gate.partialCoverage(report) {
                throw Diagnostic(file: options.coverage.inputs.joined(separator: ", "), partial)
            }
        }
        if let (metric, rule) = Gate.unmeasuredRule(in: configuration, for: report) {
            throw Diagnostic(
                file: options.coverage.inputs.joined(separator: ", "),
                "a \(rule) rule on \(metric.rawValue), which Xcode's coverage does not measure "
                    + "(it has \(report.measured.map(\.rawValue).sorted().joined(separator: " and ")))")
        }
        tests?.resolve(with: TestLogInput.sourceIndex(report: report, workingDirectory: terminal.workingDirectory))
        let warnings = configuration.warnings(for: report, path: options.gate.configPath ?? ".swiftcov.json")
        for warning in warnings { terminal.emit(warning.diagnostic) }
        if options.strict && !warnings.isEmpty {
            throw UsageError("\(warnings.count) configuration warning(s) and --strict")
        }

        // Quarantined tests do not fail the gate; flaky ones as the configuration says.
        let judgement = TestJudgement(configuration: configuration)
        if let tests { for warning in configuration.unmatchedQuarantine(in: tests) { terminal.emit(warning) } }
        let result = Gate.evaluate(
            report, configuration: configuration, baseline: baseline,
            failedTests: tests.map(judgement.failedTests(of:)))
        try terminal.out(GateReport.text(result))
        terminal.github.publishGate(report: report, result: result, tests: tests, judgement: judgement)
        return result.passed ? .success : .gateFailed
    }
}
