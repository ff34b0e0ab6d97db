import SwiftCovCore

/// `swiftcov report`: the coverage table, JSON or Markdown for one or more exports.
enum ReportCommand {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Show coverage per module, file and function, with llvm-cov's exact numbers.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: [
            .init(
                ["--coverage", "-c"], value: "PATH", repeatable: true,
                help:
                    "An llvm-cov JSON export, or a folder to find one in (package root, .build, codecov); '-' reads stdin. Several are merged."
            ),
            .init(
                ["--format", "-f"], value: "FORMAT", choices: ["table", "json", "markdown"],
                help: "Output format. Default: table."),
            .init(
                ["--show"], value: "WHAT", choices: ["functions", "lines"], repeatable: true,
                help: "Also list functions with their execution counts, or (json) per-line counts."),
            .init(
                ["--sort"], value: "ORDER", choices: ["name", "coverage"],
                help: "Order of modules and files. Default: name."),
            .init(
                ["--include"], value: "GLOB", repeatable: true,
                help: "Report only files matching GLOB (relative to the package root)."),
            .init(["--exclude"], value: "GLOB", repeatable: true, help: "Leave out files matching GLOB."),
            .init(
                ["--all-files"],
                help: "Also report Tests/, .build/ (generated files, dependencies) and files outside the root."),
            .init(["--root"], value: "DIR", help: "The package root. Default: inferred from the inputs."),
            .init(["--output", "-o"], value: "FILE", help: "Write the report to FILE (atomically) instead of stdout."),
            .init(
                ["--color"], value: "WHEN", choices: ["auto", "always", "never"],
                help: "Colour percentages. Default: auto (terminal, no NO_COLOR)."),
        ],
        examples: [
            "swiftcov report SampleReports/coverage.json",
            "swiftcov report --coverage . --show functions --sort coverage",
            "swiftcov report -c shard1.json -c shard2.json --format json -o coverage-report.json",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let inputs = arguments.all("--coverage") + arguments.positionals
        guard !inputs.isEmpty else {
            throw UsageError("no coverage input; give an export with --coverage PATH (or a package folder)")
        }
        guard inputs.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("standard input ('-') can be read only once")
        }
        let request = CoverageRequest(
            inputs: inputs, root: arguments.value("--root"), includes: arguments.all("--include").map(Glob.init),
            excludes: arguments.all("--exclude").map(Glob.init), allFiles: arguments.has("--all-files"))
        let progress = Progress(terminal: terminal, inputs: inputs)
        let report = try request.makeReport(workingDirectory: terminal.workingDirectory)
        progress.finish()

        let output = arguments.value("--output")
        var options = CoverageReportOptions()
        options.showFunctions = arguments.all("--show").contains("functions")
        options.showLines = arguments.all("--show").contains("lines")
        options.sort = CoverageReportOptions.Sort(rawValue: arguments.value("--sort") ?? "name") ?? .name
        switch arguments.value("--color") ?? "auto" {
        case "always": options.colors = true
        case "never": options.colors = false
        default: options.colors = output == nil && terminal.stdoutSupportsColor
        }

        let text: String
        switch arguments.value("--format") ?? "table" {
        case "json":
            do {
                text = try CoverageJSONReport.render(report, options: options)
            } catch {
                throw CoverageInputError.malformed(
                    path: inputs.joined(separator: ", "), offset: error.offset, keyPath: "segments",
                    message: error.message)
            }
        case "markdown":
            text = CoverageMarkdownReport.render(report, options: options)
        default:
            text = CoverageTableReport.render(report, options: options)
        }
        if let output {
            try AtomicFile.write(text, to: output)
        } else {
            terminal.out(text)
        }
        // On GitHub Actions the job summary gets the Markdown table.
        if let summaryFile = terminal.environment("GITHUB_STEP_SUMMARY"), !summaryFile.isEmpty {
            terminal.append(CoverageMarkdownReport.render(report, options: options), toFile: summaryFile)
        }
        return .success
    }
}

/// "Reading coverage.json (512 MB)…" on a terminal while a large export is read.
struct Progress {
    private let terminal: Terminal
    private let shown: Bool

    init(terminal: Terminal, inputs: [String]) {
        self.terminal = terminal
        let bytes = inputs.map { Terminal.fileSize($0) }.reduce(0, +)
        shown = terminal.stderrIsTerminal && bytes >= 32 << 20
        if shown {
            let names = inputs.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", ")
            terminal.error("Reading \(names) (\(bytes >> 20) MB)…")
        }
    }

    func finish() {
        if shown { terminal.error("\r\u{1B}[K") }
    }
}
