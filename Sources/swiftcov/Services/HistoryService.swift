import SwiftCovCommandLine
import SwiftCovCore

/// The history of runs as commands use it (`run --history`, `history`, `flaky`): `--history
/// FILE|git-notes` read with its warnings shown and checked to be this repository's, and a run
/// recorded into it.
enum HistoryService {
    static let option = ValueOption<String>(
        ["--history"], value: "FILE|git-notes",
        help:
            "The history of runs: a file (kept by CI as a cache or artifact; made on first use), or git-notes (refs/notes/swiftcov; git-notes:REF for another)."
    )

    static let environment = ValueOption<String>(
        ["--environment"], value: "NAME",
        help:
            "Names the run's environment (a CI matrix entry, a time zone) beyond system, machine, toolchain and configuration, which are always part of it; outcomes are compared within one. Default: $SWIFTCOV_ENVIRONMENT."
    )

    /// `--history`'s home, which the command needs.
    static func home(_ arguments: ParsedArguments) throws(UsageError) -> HistoryStore.Home {
        guard let history = try arguments.value(option) else {
            throw UsageError("give the history with --history FILE or --history git-notes")
        }
        return HistoryStore.Home(parsing: history)
    }

    /// The history at `home` of the package around the working folder (git runs in its root),
    /// as a command reading it sees it; the root and the time now with it.
    static func load(
        _ home: HistoryStore.Home, terminal: Terminal, command: String
    ) throws -> (history: TestHistory, root: String, now: Int64) {
        let cwd = terminal.workingDirectory
        let root = PackageManifest.root(around: cwd) ?? cwd
        let now = Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH")).secondsSince1970
        return (try read(home, root: root, terminal: terminal, command: command, now: now), root, now)
    }

    /// The history at `home` for the package at `root`, its warnings shown. A history of another
    /// repository is an error.
    static func read(
        _ home: HistoryStore.Home, root: String, terminal: Terminal, command: String, now: Int64
    ) throws -> TestHistory {
        // A clock a day fast is a clock; more is a record from the future.
        let reading = try HistoryStore.read(home, root: root, latestTime: now + 86_400)
        for warning in reading.warnings { terminal.emit(warning, command: command) }
        let repository = HistoryKeys.repository(root: root)
        if !repository.isEmpty,
            let foreign = reading.history.runs.first(where: { !$0.repository.isEmpty && $0.repository != repository })
        {
            throw Diagnostic(
                file: home.description,
                "run \(foreign.id.terminalSafe) is of another repository (first commit \(foreign.repository.prefix(12)), "
                    + "this one's is \(repository.prefix(12))): give this repository's history")
        }
        return reading.history
    }

    /// Records `tests` (and `coverage`) as a new run in the history at `home`; says so on stderr.
    /// `alone`: each test ran alone (`run --per-test`); `buildFailed`: no test ran, the build failed.
    static func record(
        _ tests: TestRun, coverage: CoverageReport?,
        orderDependent: [OrderDependence] = [], buildFailed: Bool = false, alone: Bool = false,
        home: HistoryStore.Home, root: String, given: HistoryKeys.Given, now: Int64, terminal: Terminal, command: String
    ) throws {
        var history = try read(home, root: root, terminal: terminal, command: command, now: now)
        // The history file in the package is swiftcov's, never a change to the code the run tested.
        var given = given
        if case .file(let path) = home { given.ownFiles.append(terminal.absolutePath(path)) }
        // Outcomes of tests run alone are compared with outcomes alone: their environment says so
        // (for readers before the `alone` mark).
        if alone { given.configuration += TestHistory.Run.aloneMark }
        var variables: [String: String] = [:]
        for name in HistoryKeys.variableNames { variables[name] = terminal.environment(name) }
        var keys = HistoryKeys.keys(root: root, time: now, given: given, variables: variables)
        keys.isAlone = alone
        keys.buildFailed = buildFailed
        keys.isComplete = !buildFailed
        if history.runs.contains(where: { $0.id == keys.id }) {
            throw Diagnostic(
                file: home.description,
                "run \(keys.id.terminalSafe) is already recorded; give another with --run-id (a CI job run again "
                    + "has a new attempt number)")
        }
        let known = Set(history.names)
        let run = TestHistory.Run.recording(
            tests, keys: keys, coverage: coverage.map(TestHistory.Coverage.init), orderDependent: orderDependent,
            into: &history)
        try HistoryStore.append([run], of: history, to: home, known: known, root: root)
        terminal.error(
            "swiftcov: recorded run \(run.id.terminalSafe) ("
                + (buildFailed ? "build failed" : "\(run.totals.tests) tests")
                + (run.commit.isEmpty ? "" : ", \(run.commit.prefix(12))\(run.isDirty ? " with changes" : "")")
                + ") in \(home.description.terminalSafe)\n")
    }
}
