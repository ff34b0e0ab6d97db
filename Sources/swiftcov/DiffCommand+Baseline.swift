import SwiftCovCore

extension DiffCommand {
    /// `swiftcov diff --baseline FILE`: differential coverage against the base revision's.
    enum Differential {
        static func run(
            _ arguments: ParsedArguments, baseline path: String, report: CoverageReport, diff: UnifiedDiff,
            pathPrefix: String, changes: DiffCoverageReportOptions, root: String, destination: AtomicFile.Destination,
            terminal: inout Terminal
        ) throws -> ExitCode {
            var options = DifferentialCoverageReportOptions()
            if let codes = arguments.value("--fail-on") {
                switch DifferentialCategory.parseList(codes) {
                case .success(let categories): options.failOn = categories
                case .failure(let error): throw UsageError("invalid value '\(codes)' for '--fail-on': \(error.message)")
                }
            } else {
                options.failOn = try CheckCommand.loadConfiguration(nil, root: root).failOn
            }
            let baseline = try DifferentialBaseline.read(path: path)
            let sources = SourceFiles(root: root)
            let coverage = try DifferentialCoverage.compute(
                current: report, baseline: baseline, diff: diff, pathPrefix: pathPrefix
            ) { file in try? sources.read(file).get().lineCount }
            for warning in coverage.warnings { terminal.error("swiftcov: " + warning + "\n") }

            options.changes = changes
            options.baseline = path
            options.urlTemplate = arguments.value("--url-template")
            options.colors = terminal.usesColor(arguments, writesToFile: arguments.value("--output") != nil)
            let text: String
            switch arguments.value("--format") ?? "table" {
            case "json": text = DifferentialCoverageJSONReport.render(coverage, options: options)
            case "markdown": text = DifferentialCoverageMarkdownReport.render(coverage, options: options)
            default: text = DifferentialCoverageTableReport.render(coverage, options: options)
            }
            try destination.finish(writing: text)
            // On GitHub Actions: annotations on the UNC and LBC lines, and the Markdown in the job summary.
            let (shown, more) = DifferentialAnnotations.annotations(coverage, failOn: options.failOn)
            if terminal.environment("GITHUB_ACTIONS") == "true" {
                try terminal.out(DifferentialAnnotations.text(shown))
            }
            if let summaryFile = terminal.environment("GITHUB_STEP_SUMMARY"), !summaryFile.isEmpty {
                terminal.append(
                    DifferentialCoverageMarkdownReport.render(coverage, options: options, moreLines: more),
                    toFile: summaryFile)
            }
            return coverage.failingLines(options.failOn) > 0 ? .gateFailed : .success
        }
    }
}
