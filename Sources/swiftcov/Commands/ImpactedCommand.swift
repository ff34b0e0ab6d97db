import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov impacted`: the tests that executed a line a change touches, by the per-test data
/// `swiftcov run --per-test` records.
enum ImpactedCommand {
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
                changed.contains($0) || FileSystem.kind(of: $0.hasPrefix("/") ? $0 : root + "/" + $0) == .file
            })

        var baseCommit: String?
        if case .git(let base) = options.change, let result = try? Git.run(["merge-base", base, "HEAD"], in: root),
            result.status == 0
        {
            baseCommit = result.trimmedOutput
        }
        let side: TestImpact.Side
        if let chosen = options.recordedAt {
            side = chosen
        } else if case .file = options.change {
            // A diff file's base is unknown: data recorded on a clean tree is taken as the base's.
            side = coverage.recording.dirty ? .changed : .base
        } else {
            side = TestImpact.side(of: coverage, baseCommit: baseCommit)
        }
        let tests = TestImpact.tests(in: coverage, executing: TestImpact.changedLines(of: diff, side: side))
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
