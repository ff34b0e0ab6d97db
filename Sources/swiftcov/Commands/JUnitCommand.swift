import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov junit`: JUnit XML from `swift test` output, for CI.
enum JUnitCommand {
    static let spec = CommandSpec(
        name: "junit",
        abstract: "Write JUnit XML from `swift test` output (XCTest, Swift Testing, --parallel) for CI.",
        positional: "LOG…",
        positionalHelp: "Same as --tests LOG. Default: what `swiftcov run` left in the package's .build/swiftcov.",
        options: [tests.spec, output.spec, strict.spec, noFail.spec, coverage.spec, root.spec, quiet.spec]
            + EvidenceOptions.specs,
        examples: [
            "swift test 2>&1 | swiftcov junit --tests - --output junit.xml",
            "swiftcov junit SampleReports/swift-test-failing.log SampleReports/swift-testing-events.jsonl -o junit.xml",
            "swiftcov junit --tests swift-test.log --strict --no-fail > junit.xml",
            "swiftcov junit App.xcresult -o reports/junit.xml  # screenshots of failures in reports/junit-attachments",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        var run = try TestResultsInput.read(
            options.inputs, resolvingWith: .package(coverage: options.coverage, root: options.root), command: "junit",
            terminal: terminal, passThrough: options.output != nil && !options.quiet, allowingNoResults: true)
        // The package's `.swiftcov.json`: quarantined tests do not fail, flaky ones as it says.
        let judgement = try GateOptions.testJudgement(around: options.root ?? terminal.workingDirectory)
        var status: ExitCode = !judgement.failedTests(of: run).isEmpty || !run.isComplete ? .gateFailed : .success
        if let missing = TestResultsInput.missingResults(run, inputs: options.inputs) {
            // CI still gets a file, with one error that says why.
            run = TestResultsReader.missingResults(
                sources: options.inputs.map(TestResultsInput.displayName), output: run.output,
                interrupted: run.wasInterrupted)
            terminal.emit(missing.diagnostic, command: "junit")
            status = .usage
        }
        let destination = try terminal.output(options.output)
        var xml = destination.streamingBuffer()
        let clock = Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH"))
        var report = JUnitReport.Options(
            strict: options.strict, hostname: Clock.hostname, timestamp: clock.localTimestamp)
        report.folder = options.output.map { output in
            let path = terminal.absolutePath(output)
            return String(path[..<path.lastIndex(of: "/")!])
        }
        // A result bundle's screenshots and files, copied beside the JUnit file for GitLab.
        if let output = options.output, let folder = report.folder, options.evidence.scope != .none, status != .usage {
            let evidence = try TestResultsInput.bundleEvidence(options.inputs, command: "junit", terminal: terminal)
            if !evidence.isEmpty {
                let directory = folder + "/" + JUnitReport.attachmentsFolder(for: output)
                let files = try EvidenceFiles.write(evidence, policy: options.evidence, to: directory)
                for warning in files.warnings(policy: options.evidence) { terminal.emit(warning, command: "junit") }
                run = run.adding(evidence, copiedIn: files, root: directory)
            }
        }
        JUnitReport.write(run, options: report, to: &xml)
        try destination.finish(xml)
        if !options.quiet, status != .usage {
            terminal.status(wrote: options.output.map { [$0] } ?? [], run.sentence)
        }
        terminal.github.annotate(failuresOf: run, root: options.root, judgement: judgement)
        ProcessLifetime.keepUntilExit(run)
        if status == .gateFailed && options.noFail { return .success }
        return status
    }
}
