import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov history`: adds a run's test results (and coverage) to the history of runs that
/// `swiftcov flaky` judges, or compacts it.
enum HistoryCommand {
    static let spec = CommandSpec(
        name: "history",
        abstract: "Add test results to the history of runs (a file or git notes), or compact it.",
        positional: "add INPUT… | compact",
        positionalHelp:
            "add: test output (logs, event streams, JUnit, an .xcresult) or a `swiftcov run` output folder, recorded as one run. compact: keep the newest runs.",
        options: [
            HistoryService.option.spec, coverage.spec, commit.spec, branch.spec, runID.spec,
            HistoryService.environment.spec,
            configuration.spec, keepRuns.spec, keepDays.spec,
        ],
        examples: [
            "swiftcov history add .build/swiftcov --history .swiftcov-history/history.jsonl",
            "swift test 2>&1 | tee test.log; swiftcov history add test.log --history git-notes",
            "swiftcov history compact --history history.jsonl --keep-runs 500",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        let cwd = terminal.workingDirectory
        let root = PackageManifest.root(around: cwd) ?? cwd
        let now = Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH")).secondsSince1970
        switch options.action {
        case .add(let inputs):
            var given = options.given
            given.toolchain = Toolchain.swiftVersion()
            // A `swiftcov run` output folder in the package is swiftcov's, never a change to the code.
            given.ownFiles += inputs.filter { !RunWorkflow.testResults(in: $0).isEmpty }.map(terminal.absolutePath)
            var coverage: CoverageReport?
            // A folder given (a run's, a bundle) brings its coverage, unless it holds none.
            if let path = options.coverage
                ?? inputs.first(where: {
                    FileSystem.kind(of: $0) == .directory && !XCResultBundle.holdsOnlyDatabase($0)
                })
            {
                // In a package, its root; elsewhere (a CI job's artifacts) inferred from the export's paths.
                var request = CoverageRequest(inputs: [path], root: PackageManifest.root(around: cwd))
                request.describer = .swiftPM
                coverage = try request.makeReport(workingDirectory: cwd)
            }
            // XCTest classes get their module from the package's test folders, as `run` names them.
            let tests = try TestResultsInput.read(
                inputs.flatMap(Self.testInputs),
                resolvingWith: coverage.map { .report($0) } ?? .package(coverage: nil, root: root),
                command: "history", terminal: terminal)
            // A `swiftcov run --per-test` folder's tests ran alone, and some ended differently alone.
            let record = inputs.lazy.compactMap { RunRecord.read(inFolder: $0) }.first
            try HistoryService.record(
                tests, coverage: coverage, orderDependent: record?.orderDependent ?? [], alone: record?.alone ?? false,
                home: options.home, root: root, given: given, now: now,
                terminal: terminal, command: "history")
        case .compact:
            let history = try HistoryService.read(
                options.home, root: root, terminal: terminal, command: "history", now: now)
            let dropped = try HistoryStore.compact(
                history, at: options.home, root: root, keepingRuns: options.keepRuns, days: options.keepDays, now: now)
            terminal.error(
                "swiftcov: kept \(history.runs.count - dropped) of \(history.runs.count) runs in "
                    + "\(options.home.description.terminalSafe)\n")
        }
        return .success
    }

    /// The test results of an input: a `swiftcov run` output folder gives the ones it keeps.
    private static func testInputs(_ input: String) -> [String] {
        guard input != "-", FileSystem.kind(of: input) == .directory, !XCResultBundle.isBundle(input) else {
            return [input]
        }
        let found = RunWorkflow.testResults(in: input)
        return found.isEmpty ? [input] : found
    }
}
