import SwiftCovCore

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
        var change: ChangeInput.Source
        var recordedAt: ImpactedTests.Side?
        var format: Format
        var output: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            stores = arguments.positionals
            change = try ChangeInput.Source(arguments, base: ImpactedCommand.base, diff: ImpactedCommand.diff)
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
        let diff = try ChangeInput.read(options.change, root: root, terminal: terminal).diff
        let changed = Set(diff.files.flatMap { [$0.oldPath, $0.newPath].compactMap { $0 } })
        let coverage = try PerTestData.load(
            stores, command: "impacted", terminal: terminal,
            ownFiles: PerTestData.OwnFiles("this package (\(root == cwd ? "the current folder" : root)) or the diff") {
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
}
