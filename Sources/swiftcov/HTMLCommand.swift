import SwiftCovCore

/// `swiftcov html`: a static site to browse coverage down to every line's execution count.
enum HTMLCommand {
    static let spec = CommandSpec(
        name: "html",
        abstract: "Write an HTML report: modules, files, and every line with its execution count.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageOptions.specs + [
            .init(
                ["--output", "-o"], value: "DIR",
                help:
                    "The folder to write the site into, replaced whole: it must be new, empty or an earlier site. Default: .build/swiftcov/html."
            ),
            .init(
                ["--timestamp"], help: "Show the time of generation in the footer (pages are otherwise reproducible)."),
            .init(
                ["--tests", "-t"], value: "LOG", repeatable: true,
                help:
                    "`swift test` output, a Swift Testing event stream or JUnit XML (shards' files merge) to summarize, failures linked to their lines."
            ),
        ],
        examples: [
            "swiftcov html SampleReports/coverage.json --output coverage-html",
            "swiftcov html --coverage . && open .build/swiftcov/html/index.html",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let output = arguments.value("--output") ?? ".build/swiftcov/html"
        // Before reading: a folder that may not be replaced fails at once.
        let site = try HTMLSite(directory: output)
        let report = try CoverageOptions.report(from: arguments, terminal: terminal)
        var options = HTMLReport.Options()
        if arguments.has("--timestamp") { options.generatedAt = Terminal.currentTimestamp() }
        var tests: TestRun?
        let logs = arguments.all("--tests")
        if !logs.isEmpty {
            let run = try TestLogInput.readResults(logs)
            TestLogInput.warnAboutDuplicates(in: run, command: "html", terminal: terminal)
            tests = run.resolving(
                with: TestLogInput.sourceIndex(report: report, workingDirectory: terminal.workingDirectory))
        }
        let extra = try tests.map {
            CoverageOptions.failureFiles(of: $0, report: report, request: try CoverageOptions.request(from: arguments))
        }
        let written = try site.write(report, tests: tests, extraFiles: extra ?? [], options: options)
        for warning in written.warnings { terminal.error("swiftcov: warning: \(warning.terminalSafe)\n") }
        terminal.error("Wrote \(output)/index.html (\(report.files.count) files)\n")
        return .success
    }
}
