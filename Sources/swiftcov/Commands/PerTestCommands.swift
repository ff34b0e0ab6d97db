import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `swiftcov run --per-test`: each test alone, its lines recorded (the work is `PerTestRun`'s;
/// this shows it), and `swiftcov impacted`: the tests a change can affect.
extension RunCommand {
    static let perTest = FlagOption(
        ["--per-test"],
        help:
            "Run each test alone, on every core, and record which lines it executed (per-test.swiftcov in the output folder)."
    )
    static let testTimeout = ValueOption<Double>(
        ["--test-timeout"], value: "SECONDS",
        help: "With --per-test: kill a test still running after SECONDS and report it as timed out. Default: 300.",
        expected: "a number of seconds above 0"
    ) { text in
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else { return nil }
        return seconds
    }

    /// Builds, lists and runs the tests one by one; leaves the log, the event stream and the export
    /// where a plain run leaves them. Returns the export's path, an exit status for the tests (0
    /// when every test passed or was skipped) and their results.
    static func runPerTest(
        _ options: Options, root: String, toolchain: Toolchain, clock: Clock, timings: TestTimings?,
        terminal: Terminal
    ) throws -> (exportPath: String, status: Int32, results: TestRun) {
        var run = PerTestRun(
            root: root, output: options.output, testArguments: options.testArguments,
            scratchPath: options.scratchPath)
        if let seconds = options.testTimeout { run.timeout = seconds }
        terminal.error("swiftcov: building the tests with coverage\n")
        var buildLog: [UInt8] = []
        // On a terminal the build's progress; elsewhere its output only when it fails.
        var progress = terminal.stderrIsTerminal ? LiveProgress(terminal: terminal, live: true) : nil
        let built = try run.build { chunk in
            buildLog.append(contentsOf: chunk)
            progress?.consume(chunk)
        }
        progress?.finish()
        guard built == 0 else {
            for line in String(decoding: buildLog, as: UTF8.self).split(separator: "\n").suffix(200) {
                terminal.error(String(line).terminalSafe + "\n")
            }
            throw Diagnostic("`swift build --build-tests` exited with status \(built)")
        }
        var tests = try run.listTests()
        guard !tests.isEmpty else { throw Diagnostic("`swift test list` lists no tests to run") }
        if let shard = options.shard {
            let all = tests.count
            let plan: ShardPlan
            (tests, plan) = try run.selectShard(shard, of: tests, timings: timings)
            var note = "shard \(shard): \(tests.count) of \(all) tests"
            if timings != nil {
                note += ", about \(JUnitReport.seconds(plan.expectedSeconds[shard.index - 1])) s by the timings"
            }
            terminal.emit(.note(note + " (listed in \(options.output)/shard-tests.txt)"))
            // A shard with no share (more shards than tests) still writes its outputs, every
            // count zero, so that a CI matrix of a fixed size passes and merges.
        }
        let binary = try run.testBinary()
        terminal.error("swiftcov: running \(tests.count) tests one by one, \(run.jobs) at a time\n")
        let live = terminal.stderrIsTerminal
        let done = Locked(0)
        let total = tests.count
        let (results, coverage) = try run.run(
            tests, toolchain: toolchain, binary: binary,
            recording: PerTestRun.recording(root: root, date: clock.utcTimestamp), note: { terminal.emit(.note($0)) }
        ) { result in
            let count = done.withLock { count -> Int in
                count += 1
                return count
            }
            let mark = result.outcome == .passed || result.outcome == .skipped ? "✔" : "✘"
            var line =
                "\(mark) [\(count)/\(total)] \(result.test.id) \(result.outcome.name) (\(result.milliseconds) ms)"
            if let problem = result.problem { line += ": \(problem)" }
            if live && result.problem == nil && mark == "✔" {
                terminal.error("\r\u{1B}[K" + String(line.terminalSafe.prefix(120)))
            } else {
                terminal.error((live ? "\r\u{1B}[K" : "") + line.terminalSafe + "\n")
            }
        }
        if live { terminal.error("\r\u{1B}[K") }
        let lines = coverage.files.map(\.lines.count).reduce(0, +)
        terminal.error(
            "swiftcov: recorded the lines of \(coverage.tests.count) tests over \(coverage.files.count) files "
                + "(\(lines) executable lines) in \(run.storePath) (\(Terminal.fileSize(run.storePath)) bytes)\n")
        let passed = results.allSatisfy { $0.outcome == .passed || $0.outcome == .skipped }
        let testRun = try run.testRun(of: results, utcOffset: clock.utcOffset)
        return (run.exportPath, passed ? 0 : 1, testRun)
    }
}

/// `swiftcov impacted`: the tests that executed a line a change touches, by the per-test data
/// `swiftcov run --per-test` records.
enum ImpactedCommand {
    /// How the impacted tests are printed.
    enum Format: String, CaseIterable, Sendable {
        /// One test ID a line.
        case list
        /// One regular expression for `swift test --filter`.
        case filter
    }

    static let base = ValueOption<String>(
        ["--base"], value: "REF",
        help:
            "The changes since git ref REF (git diff from the merge base of REF and HEAD to the working tree). Default: HEAD, the uncommitted changes."
    )
    static let diff = ValueOption<String>(
        ["--diff"], value: "FILE",
        help: "Read a unified diff (git diff --relative, diff -u) from FILE, '-' for stdin, instead of running git.")
    static let recordedAt = ValueOption<ImpactedTests.Side>(
        ["--recorded-at"], value: "SIDE",
        help:
            "The side of the diff the per-test data was recorded at. Default: base when recorded on a clean tree at the diff's base commit (with --diff: on any clean tree), else changed."
    )
    static let format = ValueOption<Format>(
        ["--format", "-f"], value: "FORMAT",
        help: "list: one test ID a line; filter: one regular expression for `swift test --filter`. Default: list.")
    static let output = ValueOption<String>(
        ["--output", "-o"], value: "FILE", help: "Write the list to FILE (atomically) instead of stdout.")

    static let spec = CommandSpec(
        name: "impacted",
        abstract: "List the tests that executed a line a change touches (per-test data of `swiftcov run --per-test`).",
        positional: "PATH…",
        positionalHelp:
            "The per-test store, or the folder holding it (several: shards' folders, merged). Default: the package's .build/swiftcov.",
        options: [base.spec, diff.spec, recordedAt.spec, format.spec, output.spec],
        examples: [
            "swiftcov impacted --base origin/main",
            "swift test --filter \"$(swiftcov impacted --base origin/main --format filter)\"",
            "git diff --relative main > change.diff; swiftcov impacted artifacts/swiftcov --diff change.diff",
            "swiftcov impacted shard-1 shard-2 shard-3 --base origin/main",
        ])

    struct Options {
        var stores: [String]
        var change: DiffCommand.ChangeSource
        var recordedAt: ImpactedTests.Side?
        var format: Format
        var output: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            stores = arguments.positionals
            change = try DiffCommand.ChangeSource(arguments, base: ImpactedCommand.base, diff: ImpactedCommand.diff)
            recordedAt = try arguments.value(ImpactedCommand.recordedAt)
            format = try arguments.value(ImpactedCommand.format) ?? .list
            output = try arguments.value(ImpactedCommand.output)
        }
    }

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        let destination = try terminal.output(options.output)
        // The package around the working directory, from any folder inside it.
        let cwd = terminal.workingDirectory
        let root = PackageManifest.root(around: cwd) ?? cwd
        let stores =
            options.stores.isEmpty ? [root == cwd ? ".build/swiftcov" : root + "/.build/swiftcov"] : options.stores
        let diff = try DiffCommand.readChange(options.change, root: root, terminal: terminal).diff
        let changed = Set(diff.files.flatMap { [$0.oldPath, $0.newPath].compactMap { $0 } })
        let coverage = try loadStores(
            stores, command: "impacted", terminal: terminal,
            ownFiles: OwnFiles("this package (\(root == cwd ? "the current folder" : root)) or the diff") {
                changed.contains($0) || Terminal.isFile($0.hasPrefix("/") ? $0 : root + "/" + $0)
            })

        var baseCommit: String?
        if case .git(let base) = options.change, let result = try? Git.run(["merge-base", base, "HEAD"], in: root),
            result.status == 0
        {
            baseCommit = result.trimmedOutput
        }
        let side: ImpactedTests.Side
        if let chosen = options.recordedAt {
            side = chosen
        } else if case .file = options.change {
            // A diff file's base is unknown: data recorded on a clean tree is taken as the base's.
            side = coverage.recording.dirty ? .changed : .base
        } else {
            side = ImpactedTests.side(of: coverage, baseCommit: baseCommit)
        }
        let tests = ImpactedTests.tests(in: coverage, executing: ImpactedTests.changedLines(of: diff, side: side))
        let commit =
            coverage.recording.commit.isEmpty ? "no commit" : String(coverage.recording.commit.prefix(12)).terminalSafe
        terminal.error(
            "swiftcov: \(tests.count) of \(coverage.tests.count) tests executed a changed line (per-test data of "
                + "\(commit)\(coverage.recording.dirty ? " with changes" : ""), read as the diff's \(side.rawValue) side)\n"
        )
        switch options.format {
        case .filter:
            let pattern = TestList.filterPattern(forIDs: tests)
            try destination.finish(writing: pattern + "\n")
        case .list:
            try destination.finish(writing: tests.map { $0 + "\n" }.joined())
        }
        return .success
    }

    /// The files of the package per-test data is used for: data that shares none of them is of
    /// another package, and would make every line look run by no test.
    struct OwnFiles {
        /// What the files are, for the error ("this coverage").
        var description: String
        /// Whether a package-relative path is one of them.
        var contains: (String) -> Bool

        init(_ description: String, _ contains: @escaping (String) -> Bool) {
            self.description = description
            self.contains = contains
        }
    }

    /// The stores at `paths` (each the file, or a folder holding `per-test.swiftcov`), merged
    /// (shards: every test once; a test recorded twice is a warning). Exit 2 with how to make one
    /// when one is missing, and when one shares no file with `ownFiles`.
    static func loadStores(_ paths: [String], command: String, terminal: Terminal, ownFiles: OwnFiles) throws
        -> PerTestCoverage
    {
        var stores: [PerTestCoverage] = []
        for path in paths {
            let file = Terminal.fileSize(path) > 0 ? path : path + "/" + PerTestStore.fileName
            guard Terminal.fileSize(file) > 0 else {
                throw Diagnostic(
                    file: file, "no per-test data; record it with `swiftcov run --per-test` in the package root")
            }
            let store = try PerTestStore.read(path: file)
            guard store.files.contains(where: { ownFiles.contains($0.path) }) else {
                throw Diagnostic(
                    file: file,
                    "per-test data of \(store.files.count) files"
                        + (store.files.first.map { " (such as \($0.path.terminalSafe))" } ?? "")
                        + ", none of them in \(ownFiles.description): recorded in another package?")
            }
            stores.append(store)
        }
        let (merged, duplicates) = PerTestCoverage.merged(stores)
        for duplicate in duplicates.prefix(10) { terminal.emit(.warning(duplicate.description), command: command) }
        if duplicates.count > 10 {
            terminal.emit(.warning("… and \(duplicates.count - 10) more tests recorded twice"), command: command)
        }
        return merged
    }

    /// The per-test data beside coverage inputs (`run --per-test`'s output folders, or their
    /// exports), merged: a store in each input's folder that has one; `.build/swiftcov`'s when none has.
    static func loadStores(beside inputs: [String], command: String, terminal: Terminal, ownFiles: OwnFiles) throws
        -> PerTestCoverage
    {
        let found = stores(beside: inputs)
        return try loadStores(
            found.isEmpty ? [inputs.first ?? ".build/swiftcov"] : found, command: command, terminal: terminal,
            ownFiles: ownFiles)
    }

    /// The stores in the folders of coverage inputs (`run --per-test`'s output folders, or their
    /// exports' folders; for a package, the folder of the export found in it, as `run`'s), each once.
    static func stores(beside inputs: [String]) -> [String] {
        var found: [String] = []
        func folder(of file: String) -> String {
            let folder = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
            return folder.isEmpty ? "." : folder
        }
        for input in inputs where input != "-" {
            var folders = [Terminal.fileSize(input) > 0 ? folder(of: input) : input]
            if let located = try? CoverageInput.locateExport(input) { folders.append(folder(of: located)) }
            for folder in folders {
                let store = folder + "/" + PerTestStore.fileName
                if Terminal.fileSize(store) > 0 && !found.contains(store) {
                    found.append(store)
                    break
                }
            }
        }
        return found
    }
}

extension CoverageReport {
    /// The report's files, for per-test data read beside it (any data, when it has none).
    var ownFiles: ImpactedCommand.OwnFiles {
        let paths = Set(files.map(\.displayPath))
        return ImpactedCommand.OwnFiles("this coverage") { paths.isEmpty || paths.contains($0) }
    }
}
