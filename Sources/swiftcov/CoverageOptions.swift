import SwiftCovCore

/// The options every coverage command shares: which exports to read and which files to cover.
/// Declared once here so that `report`, `html`, `export` and the others accept the same inputs.
enum CoverageOptions {
    /// The option specs, in help order.
    static let specs: [CommandSpec.Option] =
        [
            .init(
                ["--coverage", "-c"], value: "PATH", repeatable: true,
                help:
                    "An llvm-cov JSON export, or a folder to find one in (package root, .build, codecov); '-' reads stdin. Several are merged."
            )
        ] + scopeSpecs + [.init(["--root"], value: "DIR", help: "The package root. Default: inferred from the inputs.")]

    /// The options that say which files a report covers (also for `run`, which makes its own export).
    static let scopeSpecs: [CommandSpec.Option] = [
        .init(
            ["--include"], value: "GLOB", repeatable: true,
            help: "Report only files matching GLOB (relative to the package root)."),
        .init(["--exclude"], value: "GLOB", repeatable: true, help: "Leave out files matching GLOB."),
        .init(
            ["--all-files"],
            help: "Also report Tests/, .build/ (generated files, dependencies) and files outside the root."),
    ]

    /// The request the parsed options describe; `--coverage` values and positional paths are inputs.
    static func request(from arguments: ParsedArguments) throws -> CoverageRequest {
        let inputs = arguments.all("--coverage") + arguments.positionals
        guard !inputs.isEmpty else {
            throw UsageError("no coverage input; give an export with --coverage PATH (or a package folder)")
        }
        guard inputs.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("standard input ('-') can be read only once")
        }
        return scopedRequest(inputs: inputs, root: arguments.value("--root"), from: arguments)
    }

    /// A request for `inputs` with the scope options of `arguments`.
    static func scopedRequest(inputs: [String], root: String?, from arguments: ParsedArguments) -> CoverageRequest {
        CoverageRequest(
            inputs: inputs, root: root, includes: arguments.all("--include").map(Glob.init),
            excludes: arguments.all("--exclude").map(Glob.init), allFiles: arguments.has("--all-files"))
    }

    /// Reads the exports the options name and builds the report, showing progress on a terminal.
    /// Without `includeFunctions`, function names are not read (a table of files needs none).
    static func report(from arguments: ParsedArguments, terminal: Terminal, includeFunctions: Bool = true) throws
        -> CoverageReport
    {
        var request = try request(from: arguments)
        request.includeFunctions = includeFunctions
        let progress = Progress(terminal: terminal, inputs: request.inputs)
        defer { progress.finish() }
        return try request.makeReport(workingDirectory: terminal.workingDirectory)
    }
}

extension CoverageOptions {
    /// The files the tests' failures point at that `report` leaves out (test sources, usually),
    /// read again from `request`'s exports so that the HTML report can link failures to their lines.
    static func failureFiles(of tests: TestRun, report: CoverageReport, request: CoverageRequest) -> [FileCoverage] {
        let shown = Set(report.files.map(\.displayPath))
        var wanted = Set<String>()
        for test in tests.cases {
            for issue in test.failingIssues { if let file = issue.location?.file { wanted.insert(file) } }
            if let file = test.location?.file, test.status == .failed || test.status == .error { wanted.insert(file) }
        }
        wanted.subtract(shown)
        guard !wanted.isEmpty, !request.inputs.contains("-") else { return [] }
        var extra = request
        extra.includes = wanted.sorted().map(Glob.init)
        extra.allFiles = true
        extra.root = report.scope.root
        return (try? extra.makeReport(workingDirectory: report.scope.root ?? "."))?.files ?? []
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
