import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `swiftcov diff`: how much of what a change adds or modifies ran in the tests.
enum DiffCommand {
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Coverage of the lines a change adds or modifies, listing those that did not run.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageOptions.specs + [
            .init(
                ["--base"], value: "REF",
                help:
                    "Measure the changes since the working tree left git ref REF (git diff from the merge base of REF and HEAD). Default: HEAD, the uncommitted changes."
            ),
            .init(
                ["--diff"], value: "FILE",
                help: "Read a unified diff (git diff, diff -u) from FILE, '-' for stdin, instead of running git."),
            .init(
                ["--fail-under"], value: "PERCENT",
                help: "Exit 1 when less than PERCENT of the changed executable lines ran."),
            .init(
                ["--format", "-f"], value: "FORMAT", choices: ["table", "json", "markdown"],
                help: "Output format. Default: table."),
            .init(["--output", "-o"], value: "FILE", help: "Write the report to FILE (atomically) instead of stdout."),
            Terminal.colorOption,
            .init(
                ["--baseline"], value: "FILE",
                help:
                    "Differential coverage: compare with the base revision's coverage (an llvm-cov export, or `swiftcov report --format json --show lines`) and put every line in genhtml's categories (UNC, LBC, GNC, …)."
            ),
            .init(
                ["--fail-on"], value: "CODES",
                help:
                    "With --baseline: exit 1 when any line falls into one of these categories, e.g. UNC,LBC. Default: \"failOn\" in .swiftcov.json."
            ),
            .init(
                ["--url-template"], value: "TEMPLATE",
                help:
                    "With --baseline: link files and lines in the Markdown; {path} and {line} are replaced, e.g. https://github.com/OWNER/REPO/blob/SHA/{path}#L{line}."
            ),
        ],
        examples: [
            "swiftcov diff --coverage . --base origin/main --fail-under 80",
            "swiftcov diff . --baseline main-coverage.json --base origin/main --fail-on UNC,LBC -f markdown",
            "git diff --merge-base origin/main > change.diff; swiftcov diff . --diff change.diff --format markdown",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        for option in ["--fail-on", "--url-template"] where arguments.value(option) != nil {
            guard arguments.value("--baseline") != nil else { throw UsageError("\(option) needs --baseline FILE") }
        }
        if arguments.value("--baseline") != nil && arguments.value("--fail-under") != nil {
            throw UsageError("--fail-under measures changed lines; with --baseline give --fail-on CODES")
        }
        if arguments.value("--base") != nil && arguments.value("--diff") != nil {
            throw UsageError("give either --base REF or --diff FILE, not both")
        }
        var failUnder: Double?
        if let text = arguments.value("--fail-under") {
            guard let value = Double(text), value >= 0, value <= 100 else {
                throw UsageError("invalid value '\(text)' for '--fail-under'; expected a percentage from 0 to 100")
            }
            failUnder = value
        }
        let request = try CoverageOptions.request(from: arguments)
        if arguments.value("--diff") == "-" && request.inputs.contains("-") {
            throw UsageError("standard input ('-') can be read only once: give the export or the diff as a file")
        }
        let output = arguments.value("--output")
        let destination = try terminal.output(output)
        let report = try CoverageOptions.report(from: arguments, terminal: terminal)
        let root = report.scope.root ?? terminal.workingDirectory

        let diffText: String
        var options = DiffCoverageReportOptions(failUnder: failUnder)
        var prefix = ""
        if let path = arguments.value("--diff") {
            diffText = try readDiff(path)
            options.diffFile = path
            // A diff from the repository's top folder names files by their path there.
            if let result = try? Git.run(["rev-parse", "--show-prefix"], in: root), result.status == 0 {
                prefix = result.output.trimmingNewlines
            }
        } else {
            let base = arguments.value("--base") ?? "HEAD"
            diffText = try gitDiff(against: base, root: root, terminal: terminal)
            options.base = base
        }
        let diff: UnifiedDiff
        do {
            diff = try UnifiedDiff.parse(diffText)
        } catch {
            let name = options.diffFile.map { $0 == "-" ? "<stdin>" : $0 } ?? "git diff \(options.base ?? "")"
            throw DiffInputError("\(name):\(error.line): error: \(error.message)")
        }
        if let baseline = arguments.value("--baseline") {
            return try Differential.run(
                arguments, baseline: baseline, report: report, diff: diff, pathPrefix: prefix, changes: options,
                root: root, destination: destination, terminal: &terminal)
        }
        let coverage = try ChangedLineCoverage.compute(diff: diff, report: report, pathPrefix: prefix)

        options.colors = terminal.usesColor(arguments, writesToFile: output != nil)
        let text: String
        switch arguments.value("--format") ?? "table" {
        case "json": text = DiffCoverageJSONReport.render(coverage, options: options)
        case "markdown": text = DiffCoverageMarkdownReport.render(coverage, options: options)
        default: text = DiffCoverageTableReport.render(coverage, options: options)
        }
        try destination.finish(writing: text)
        // On GitHub Actions the job summary gets the Markdown version.
        if let summaryFile = terminal.environment("GITHUB_STEP_SUMMARY"), !summaryFile.isEmpty {
            terminal.append(DiffCoverageMarkdownReport.render(coverage, options: options), toFile: summaryFile)
        }
        if let failUnder, !coverage.meets(failUnder) { return .gateFailed }
        return .success
    }

    static func readDiff(_ path: String) throws -> String {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw DiffInputError("\(path): error: cannot read: \(error.message)")
        }
        return file.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `git diff` from the merge base of `ref` and HEAD to the working tree — the changes of a
    /// branch, as a pull request shows them — for the files under `root`, with paths relative
    /// to it. Without a merge base (a shallow clone), from `ref` itself.
    static func gitDiff(against ref: String, root: String, terminal: Terminal) throws -> String {
        var base = ref
        let mergeBase = try Git.run(["merge-base", ref, "HEAD"], in: root)
        if mergeBase.status == 0 {
            base = mergeBase.output.trimmingNewlines
        } else {
            let verify = try Git.run(["rev-parse", "--verify", ref + "^{commit}"], in: root)
            guard verify.status == 0 else {
                throw DiffInputError("\(root): error: git cannot compare with '\(ref)': \(verify.firstErrorLine)")
            }
            terminal.error(
                "swiftcov: note: '\(ref)' and HEAD have no common ancestor here (a shallow clone?); "
                    + "measuring the changes since '\(ref)' itself\n")
        }
        let diff = try Git.run(
            [
                "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--relative", "--find-renames",
                "--src-prefix=a/", "--dst-prefix=b/", "--unified=0", base, "--",
            ], in: root)
        guard diff.status == 0 else {
            throw DiffInputError("\(root): error: git diff failed: \(diff.firstErrorLine)")
        }
        return diff.output
    }
}

/// A diff that cannot be had or read. Exit code 2.
struct DiffInputError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Runs git: the one program swiftcov starts.
enum Git {
    /// What a run of git printed and how it ended.
    struct Result {
        var status: Int32
        var output: String
        var error: String

        /// Git's first line on stderr, for a one-line error message.
        var firstErrorLine: String {
            let line = error.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
            return line.terminalSafe
        }
    }

    /// Runs `git -C directory arguments…` with no input, capturing stdout and stderr.
    static func run(_ arguments: [String], in directory: String) throws -> Result {
        let result: Subprocess.Result
        do {
            result = try Subprocess.capture("git", ["-C", directory] + arguments)
        } catch {
            throw DiffInputError("swiftcov: error: cannot run git: \(error.reason); give the diff with --diff FILE")
        }
        return Result(status: result.status, output: result.outputText, error: result.errorText)
    }
}

extension String {
    /// The text without the newlines git ends its output with.
    fileprivate var trimmingNewlines: String {
        var text = self
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
