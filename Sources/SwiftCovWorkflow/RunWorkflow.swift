import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform
import SwiftCovProducts

/// `swiftcov run`, from a package root: one workflow for a plain run, a shard and `--per-test`.
///
/// 1. **Build** the tests with coverage, as `swift test --enable-code-coverage` builds them (when
///    they must be listed first: a shard, or each test alone; otherwise `swift test` builds).
/// 2. **Select**: list them (`swift test list`), chosen by the user's `--filter` and `--skip`,
///    and take the shard's share.
/// 3. **Execute**, by the strategy: the whole suite in one `swift test`, or each test alone.
/// 4. **Collect**: the log, Swift Testing's event stream, the profiles and their export, kept in
///    the output folder for CI; the results stay in memory.
///
/// Every `swift` command carries the user's `swift test` arguments (`SwiftTestArguments`); every
/// process and file goes through `system`; what happens is told to a `DiagnosticSink`.
package struct RunWorkflow: Sendable {
    /// How the selected tests are executed.
    package enum Strategy: Sendable, Equatable {
        /// `swift test` runs them together, as it would.
        case wholeSuite
        /// Each test runs alone, on every core, and its lines are recorded (`run --per-test`);
        /// a test still running after `timeout` seconds is killed.
        case eachTestAlone(timeout: Double)

        /// Long enough for any unit test, short enough that a hung one does not stall CI for long.
        package static let defaultTimeout: Double = 300
    }

    /// The package root (absolute).
    package var root: String
    /// Where the outputs go (`.build/swiftcov`).
    package var output: String
    /// The package's tests with the user's `swift test` arguments.
    package var tests: SwiftPMPackage
    package var strategy: Strategy
    /// Only this shard's share of the tests.
    package var shard: Shard?
    /// The tests' times from an earlier run, to balance the shards.
    package var timings: TestTimings?
    /// How many tests run at once when each runs alone.
    package var jobs = CurrentProcess.cores
    /// How many tests' profiles are merged into one while the tests run alone.
    package var mergeBatch = 128
    /// How many times a failed test runs again, alone, until it passes (`--retry-failed`).
    package var retries = 0
    /// swiftcov's own files in the package besides the output folder (the history file): never a
    /// change to the code the per-test data is recorded at.
    package var ownFiles: [String] = []
    /// Whether `swift test` takes `--attachments-path`: the run then keeps the files tests attach
    /// in its `attachments` folder (see `takesAttachmentsPath(swiftVersion:)`).
    package var takesAttachmentsPath = false

    package init(
        root: String, output: String, testArguments: [String], scratchPath: String? = nil,
        strategy: Strategy = .wholeSuite, shard: Shard? = nil, timings: TestTimings? = nil,
        system: any System = LiveSystem()
    ) {
        self.root = root
        self.output = output
        self.strategy = strategy
        self.shard = shard
        self.timings = timings
        tests = SwiftPMPackage(
            root: root, arguments: SwiftTestArguments(testArguments, scratchPath: scratchPath), scratch: output,
            system: system)
    }

    /// What starts the processes and writes the files.
    package var system: any System { tests.system }

    /// What the run found, in memory: nothing is written to be read back.
    package struct Outcome: Sendable {
        /// The coverage export, kept in the output folder (`CoverageInput.runExportName`).
        package var exportPath: String
        /// Whether every test passed or was skipped in its last attempt, as the test processes'
        /// exit statuses say (`swift test`'s 0).
        package var testsPassed: Bool
        /// Whether every failure the test processes exited with is a failed case of `results`
        /// (a complete log), so that the gate, which judges those cases (a quarantined test, a
        /// pass on retry), decides. False when a process failed in a way no case records.
        package var failuresRecorded = false
        /// The tests' results, from the log and the event stream.
        package var results: TestRun
        /// Each test's lines, when each test ran alone.
        package var perTest: PerTestCoverage?
        /// The export, when the run read it (each test alone): the report is made from it
        /// without reading it again.
        package var export: LLVMCovExport?
        /// The tests that ended one way alone and another in the suite (`run --per-test`).
        package var orderDependent: [OrderDependence] = []
        /// What part of the tests the export is of (also written to the output folder).
        package var record = RunRecord(scope: .whole)
        /// SwiftPM's own export: its path, and its modification time and size (-1: none) when the
        /// run's export was made (a retry's `swift test` may write it again).
        var swiftPMExport: (path: String, modified: Int, size: Int)?
    }

    // MARK: What a run leaves in its output folder

    /// The names of what a run keeps in its output folder.
    package static let logName = "swift-test.log"
    package static let eventStreamName = "swift-testing-events.jsonl"

    package var logPath: String { output + "/" + Self.logName }
    package var exportPath: String { output + "/" + CoverageInput.runExportName }
    package var storePath: String { output + "/" + PerTestStore.fileName }

    /// Where Swift Testing's event stream goes, and the `swift test` arguments that write it there:
    /// none when the user's arguments already ask for one (then it is read from their path).
    package var eventStream: (path: String, arguments: [String]) {
        for option in ["--experimental-event-stream-output", "--event-stream-output-path"] {
            if let path = tests.arguments.runValue(of: option) { return (path, []) }
        }
        let path = output + "/" + Self.eventStreamName
        return (path, ["--experimental-event-stream-output", path, "--experimental-event-stream-version", "0"])
    }

    /// Where Swift Testing writes the files tests attach (`Attachment.record`), and the `swift test`
    /// arguments that say so: the run's `attachments` folder, or the user's `--attachments-path`
    /// (then no arguments); nil when `swift test` has no such option (`takesAttachmentsPath`).
    package var attachments: (path: String, arguments: [String])? {
        for option in ["--attachments-path", "--experimental-attachments-path"] {
            if let path = tests.arguments.runValue(of: option) { return (path, []) }
        }
        guard takesAttachmentsPath else { return nil }
        let path = output + "/" + Self.attachmentsName
        return (path, ["--attachments-path", path])
    }

    package static let attachmentsName = "attachments"

    /// The `swift test` arguments the run adds to the user's: its event stream and attachments.
    var ownArguments: [String] { eventStream.arguments + (attachments?.arguments ?? []) }

    /// Whether `swift test` takes `--attachments-path` (Swift 6.2 and later), from what
    /// `swift --version` prints.
    package static func takesAttachmentsPath(swiftVersion text: String?) -> Bool {
        guard let version = text.flatMap(HistoryKeys.swiftVersion) else { return false }
        let numbers = version.dropFirst("swift-".count).split(separator: ".").map { Int($0) ?? 0 }
        return (numbers.first ?? 0, numbers.dropFirst().first ?? 0) >= (6, 2)
    }

    // MARK: The workflow

    /// Runs the workflow: build, select, execute, collect.
    package func run(toolchain: Toolchain, clock: Clock, sink: some DiagnosticSink) throws -> Outcome {
        try system.makeDirectory(output)
        // What the export will be of: a stale record never describes this run's export.
        system.remove(output + "/" + RunRecord.fileName)
        if let attachments, !attachments.arguments.isEmpty {
            // This run's files only (Swift Testing writes the folder flat).
            for name in system.entries(of: attachments.path) ?? [] { system.remove(attachments.path + "/" + name) }
            try system.makeDirectory(attachments.path)
        }
        var outcome = try execute(toolchain: toolchain, clock: clock, sink: sink)
        let alone = if case .eachTestAlone = strategy { true } else { false }
        outcome.record = RunRecord(
            scope: recordScope, retried: retries > 0 ? outcome.results.cases.filter { !$0.attempts.isEmpty }.count : 0,
            alone: alone, orderDependent: outcome.orderDependent)
        try system.write(outcome.record.json, to: output + "/" + RunRecord.fileName)
        if let swiftPM = outcome.swiftPMExport, system.fileSize(swiftPM.path) != nil {
            // The export SwiftPM left is this run's (or an older one this run's replaces), or —
            // written again by a retry, or of a shard or a filter — a part of the tests that the
            // commands after this one must not take for the run.
            let unchanged =
                FileSystem.modificationTime(of: swiftPM.path) == swiftPM.modified
                && system.fileSize(swiftPM.path) == swiftPM.size
            RunRecord.mark(
                swiftPM.path,
                unchanged && !outcome.record.isPartial
                    ? .superseded(by: exportPath.hasPrefix("/") ? exportPath : root + "/" + exportPath)
                    : .partial(
                        unchanged
                            ? "written by `swiftcov run` for \(outcome.record.scope.description)"
                            : "written by the retries of `swiftcov run --retry-failed`"),
                system: system)
        }
        return outcome
    }

    /// What part of the tests this run's coverage comes from.
    private var recordScope: RunRecord.Scope {
        if let shard { return .shard(shard) }
        let arguments =
            tests.arguments.filters.flatMap { ["--filter", $0] } + tests.arguments.skips.flatMap { ["--skip", $0] }
        return arguments.isEmpty ? .whole : .filtered(arguments)
    }

    /// Steps 1 to 4, by the strategy.
    private func execute(toolchain: Toolchain, clock: Clock, sink: some DiagnosticSink) throws -> Outcome {
        switch strategy {
        case .wholeSuite:
            let kept = keptPerTest(sink)
            var selection: Selection?
            if let shard {
                sink.stage("building and listing the tests for shard \(shard)")
                selection = try select(build: try build(sink), sink: sink)
            }
            var outcome = try runWholeSuite(selection, toolchain: toolchain, clock: clock, sink: sink)
            // A shard's or a filtered run's coverage is a share: the whole suite's per-test data is
            // not shown with it.
            if recordScope == .whole { outcome.perTest = kept }
            return outcome
        case .eachTestAlone(let timeout):
            sink.stage("building the tests with coverage")
            let selection = try select(build: try build(sink), sink: sink)
            return try runEachTestAlone(
                selection.tests, selection: shard == nil ? nil : selection.filter, timeout: timeout,
                toolchain: toolchain, clock: clock, sink: sink)
        }
    }

    /// The per-test data an earlier `run --per-test` left in the output folder, which a run of the
    /// whole suite keeps (`impacted` and `html` read it): returned when it was recorded at the code
    /// this run tests (the same commit, with no change then or now), so that the run's site shows
    /// it; else nil, and the sink is told it is of an earlier run.
    private func keptPerTest(_ sink: some DiagnosticSink) -> PerTestCoverage? {
        guard (system.fileSize(storePath) ?? 0) > 0 else { return nil }
        let stored: PerTestCoverage
        do {
            stored = try PerTestStore.read(path: storePath)
        } catch {
            sink.note("left \(storePath) as it is: \(error.diagnostic.message)")
            return nil
        }
        let recorded = stored.recording
        let now = recording(date: "")
        if !recorded.commit.isEmpty, recorded.commit == now.commit, !recorded.dirty, !now.dirty {
            sink.note("kept the per-test data in \(storePath): recorded at this commit, with no change since")
            return stored
        }
        let commit = recorded.commit.isEmpty ? "outside git" : "at commit " + recorded.commit.prefix(12)
        sink.note(
            "kept \(storePath) of an earlier `run --per-test` (\(commit)\(recorded.dirty ? " with changes" : ""), "
                + "\(recorded.date)): `impacted` reads it as of that commit, `html` shows it for the files whose "
                + "lines have not moved; `run --per-test` records this code's")
        return nil
    }

    /// The run ended before any test ran: the build failed (a history records it so).
    package struct BuildFailed: DiagnosticConvertible {
        package var diagnostic: Diagnostic
    }

    /// The tests chosen to run, and the `--filter` arguments that make `swift test` run them.
    struct Selection {
        var tests: [TestID]
        var filter: [String]
        var buildFailed = false
    }

    /// Step 1: builds the tests as `swift test --enable-code-coverage` builds them, the output
    /// to the sink; returns the exit status.
    private func build(_ sink: some DiagnosticSink) throws -> Int32 {
        var kept = BoundedBytes(limit: 1 << 20)
        let status = try tests.build { chunk in
            sink.output(chunk)
            kept.append(chunk)
        }
        // A whole-suite shard runs `swift test` anyway, which builds again and shows why.
        let shown = status != 0 && strategy != .wholeSuite
        sink.outputEnded(errors: shown ? Self.errors(in: String(decoding: kept.lines, as: UTF8.self)) : nil)
        return status
    }

    /// Step 2: lists the tests the build has, those the user's `--filter` and `--skip` choose,
    /// and the shard's share of them (written to `OUTPUT/shard-tests.txt`).
    private func select(build status: Int32, sink: some DiagnosticSink) throws -> Selection {
        guard status == 0 else {
            guard strategy == .wholeSuite else {
                throw BuildFailed(diagnostic: Diagnostic("`swift build --build-tests` exited with status \(status)"))
            }
            // `swift test` runs no test then, but shows the build's errors in the log.
            return Selection(tests: [], filter: ShardPlan.filterArguments(selecting: [], of: []), buildFailed: true)
        }
        let (all, chosen) = try tests.list()
        if strategy != .wholeSuite && chosen.isEmpty {
            throw Diagnostic("`swift test list` lists no tests to run")
        }
        guard let shard else {
            return Selection(tests: chosen, filter: [])
        }
        let (selected, plan) = try tests.selectShard(shard, of: chosen, timings: timings, output: output)
        var note = "shard \(shard): \(selected.count) of \(chosen.count) tests"
        if timings != nil, !chosen.isEmpty {
            note += ", about \(JUnitReport.seconds(plan.expectedSeconds[shard.index - 1])) s by the timings"
        }
        // A shard with no share (more shards than tests) still writes its outputs, every count
        // zero, so that a CI matrix of a fixed size passes and merges.
        sink.note(note + " (listed in \(output)/shard-tests.txt)")
        return Selection(
            tests: selected, filter: ShardPlan.filterArguments(selecting: selected.map(\.id), of: all.map(\.id)))
    }

    /// The full `swift` command line of a whole-suite run of `selection` (all tests when nil).
    package func swiftTestArguments(selection: [String]? = nil, built: Bool = false) -> [String] {
        tests.arguments.testCommand(selection: selection, skipBuild: built, extra: ownArguments)
    }

    /// Steps 3 and 4 for the whole suite: one `swift test`, its log parsed and written to its file
    /// as it comes (a long run's log is never held in memory, nor read back), then the results
    /// and the export.
    private func runWholeSuite(
        _ selection: Selection?, toolchain: Toolchain, clock: Clock, sink: some DiagnosticSink
    ) throws -> Outcome {
        let command = swiftTestArguments(
            selection: selection?.filter, built: selection.map { !$0.buildFailed } ?? false)
        let shown = command.prefix(command.count - (selection?.filter.count ?? 0))
        sink.stage(
            "running swift \(shown.joined(separator: " "))"
                + (selection == nil ? "" : " (and a --filter for the shard's tests)"))
        if !eventStream.arguments.isEmpty { system.remove(eventStream.path) }  // never read a stale one
        let log = try AtomicFile.Destination(logPath, durable: false)
        var failure: Int32 = 0
        var parsed = TestResultsStream(path: logPath, utcOffset: clock.utcOffset)
        var unreadable: TestResultsError?
        let status = try system.stream(Command("swift", command, in: root)) { chunk in
            if failure == 0 { failure = FileDescriptor.write(chunk, to: log.descriptor) }
            if unreadable == nil {
                do throws(TestResultsError) { try parsed.consume(UnsafeRawBufferPointer(chunk)) } catch {
                    unreadable = error
                }
            }
            sink.output(chunk)
        }
        guard failure == 0 else { throw SystemCallError(.write, path: logPath, errno: failure) }
        try log.finish(writing: "")
        if let unreadable { throw unreadable }

        var results = try readResults(log: parsed.finish(), utcOffset: clock.utcOffset)
        guard results.hasTestOutput else {
            // The build failed (usually): its errors may have been hidden behind a progress line.
            sink.outputEnded(errors: buildErrors())
            throw BuildFailed(
                diagnostic: Diagnostic(
                    file: logPath, "`swift test` exited with status \(status) before running any test"))
        }
        sink.outputEnded(errors: nil)
        // The coverage is made first: the retries' runs replace SwiftPM's profiles.
        let (exportPath, swiftPM) = try coverageExport(toolchain: toolchain, sink: sink)
        let failuresRecorded = results.isComplete && results.totals.hasFailures
        if retries > 0 && results.totals.hasFailures {
            let listed = try selection?.tests ?? tests.list().chosen
            try retryFailures(in: &results, ids: listed, sink: sink) { test in
                let (run, output, _) = try captureSwiftTest(
                    selection: ["--filter", test.filterPattern], utcOffset: clock.utcOffset)
                return (run, output)
            }
        }
        var outcome = Outcome(
            exportPath: exportPath, testsPassed: status == 0 || (failuresRecorded && !results.totals.hasFailures),
            results: results, perTest: nil, export: nil)
        outcome.failuresRecorded = status == 0 || failuresRecorded
        outcome.swiftPMExport = swiftPM
        return outcome
    }

    /// The results of a whole-suite run: its log, read as it came, and the event stream when
    /// `swift test` wrote one.
    private func readResults(log: TestResultsReader.Input, utcOffset: Int) throws -> TestRun {
        var inputs = [log]
        if let size = system.fileSize(eventStream.path), size > 0 {
            inputs.append(try TestResultsReader.read(path: eventStream.path, utcOffset: utcOffset))
        }
        return TestResultsReader.combine(inputs)
    }

    /// The compiler's errors in the log of a run that ended before any test ran.
    private func buildErrors() -> String {
        guard let file = try? MappedFile(path: logPath) else { return "" }
        return Self.errors(in: file.withUnsafeBytes { String(decoding: $0, as: UTF8.self) })
    }

    /// From the first line of `text` that reports an error, at most `limit` lines.
    static func errors(in text: String, limit: Int = 200) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { $0.contains("error:") }) else { return "" }
        return lines[first...].prefix(limit).joined(separator: "\n")
    }

    /// Step 4 for the whole suite: the export, kept in the output folder (what merging this run
    /// with others, shards, needs): SwiftPM's own when it wrote one during the run, else one made
    /// here from the `.profraw` files (SwiftPM writes none when a test failed).
    private func coverageExport(
        toolchain: Toolchain, sink: some DiagnosticSink
    ) throws -> (path: String, swiftPM: (path: String, modified: Int, size: Int)) {
        let codecovJSON = try tests.codecovPath()
        let codecov = String(codecovJSON[..<(codecovJSON.lastIndex(of: "/") ?? codecovJSON.startIndex)])
        let profraws = system.files(in: codecov, withSuffix: ".profraw")
        guard !profraws.isEmpty else {
            guard let size = system.fileSize(codecovJSON), size > 0 else {
                throw CoverageInputError.noExport(directory: codecov, profrawCount: 0)
            }
            let modified = FileSystem.modificationTime(of: codecovJSON)
            let export = try MappedFile(path: codecovJSON)
            try export.withUnsafeBytes { try system.write($0.assumingMemoryBound(to: UInt8.self), to: exportPath) }
            return (exportPath, (codecovJSON, modified, size))
        }
        let profdata = output + "/coverage.profdata"
        let merged = try toolchain.merge(profraws, into: profdata)
        guard merged.status == 0 else {
            throw CoverageInputError.unreadable(
                path: codecov, reason: "llvm-profdata: " + merged.errorText.terminalSafe)
        }
        // The build's folder holds the codecov folder (`.build/debug/codecov`, or `release` with
        // `-c release`).
        let binPath =
            codecov.hasSuffix("/codecov") ? String(codecov.dropLast("/codecov".count)) : try tests.binPath()
        let binary = try tests.testBinary(in: binPath)
        try export(profdata: profdata, binary: binary, toolchain: toolchain)
        sink.note("made the coverage from \(profraws.count) raw profile(s) with llvm-profdata and llvm-cov")
        // SwiftPM writes no export when a test failed; one there is older than this run (or none,
        // size -1), and one written later (a retry's) is not this run's.
        return (
            exportPath,
            (codecovJSON, FileSystem.modificationTime(of: codecovJSON), system.fileSize(codecovJSON) ?? -1)
        )
    }

    /// Writes `llvm-cov export` of `binary` with `profdata`'s counts (none: every count zero) to
    /// `exportPath`.
    func export(profdata: String?, binary: String, toolchain: Toolchain) throws {
        let exported = try toolchain.export(profdata: profdata, binaries: [binary])
        guard exported.status == 0 else {
            throw CoverageInputError.unreadable(
                path: profdata ?? binary, reason: "llvm-cov: " + exported.errorText.terminalSafe)
        }
        try system.write(exported.output, to: exportPath)
    }
}

extension RunWorkflow {
    /// Writes what CI keeps: the HTML site, `junit.xml` and `coverage.json` (the coverage with
    /// every function, and the test summary) of `results`. Returns the paths written and what to
    /// warn about. With `perTest`, the site's pages show the tests that ran each line;
    /// `judgement` marks in `coverage.json` the failures that do not fail the gate. The files
    /// failures point at are made from the export the coverage was made from, not read again.
    /// The files tests attached (Swift Testing's `Attachment.record`) are copied into the site as
    /// `evidence` says, each failing test with a page of them.
    package func writeOutputs(
        _ results: Results, clock: Clock, hostname: String, perTest: PerTestCoverage? = nil,
        judgement: TestJudgement = TestJudgement(), evidence: EvidencePolicy = EvidencePolicy()
    ) throws -> (paths: [String], warnings: [Diagnostic]) {
        let (report, tests) = (results.coverage, results.tests)
        let attached = tests.evidence
        // Worked out once for the site and coverage.json, which both name every function.
        report.workOutFunctionNames()
        let site = try HTMLSite.write(
            report, tests: tests,
            extraFiles: results.request.failureFiles(of: tests, report: report, coverage: .llvmCov(results.export)),
            to: output + "/html",
            annotations: HTMLReport.SiteAnnotations(
                perTest: perTest,
                evidence: attached.isEmpty ? nil : HTMLReport.Evidence(runs: attached, policy: evidence)),
            options: HTMLReport.Options(generatedAt: clock.utcTimestamp))
        var junitOptions = JUnitReport.Options(hostname: hostname, timestamp: clock.localTimestamp)
        // Absolute, as the event stream names the attached files.
        junitOptions.folder = output.hasPrefix("/") ? output : root + "/" + output
        let junit = JUnitReport.render(tests, options: junitOptions)
        try system.write(junit, to: output + "/junit.xml")
        var json = JSONWriter()
        try CoverageJSONReport.write(
            report, options: CoverageReportOptions(showFunctions: true), tests: tests, judgement: judgement, to: &json)
        try system.write(json.output, to: output + "/coverage.json")
        return ([output + "/html/index.html", output + "/junit.xml", output + "/coverage.json"], site.warnings)
    }

    /// The test results a run left in its output `folder`: its log and, when there is one, its
    /// event stream (read together, as the run read them); none when there is no log.
    package static func testResults(in folder: String) -> [String] {
        let log = folder + "/" + logName
        guard FileSystem.kind(of: log) == .file else { return [] }
        let stream = folder + "/" + eventStreamName
        return FileSystem.kind(of: stream) == .file ? [log, stream] : [log]
    }

    /// The output folder of the run that wrote the export at `exportPath`: the folder of a
    /// `CoverageInput.runExportName` that has a run's log beside it; nil for any other export.
    package static func outputFolder(ofExport exportPath: String) -> String? {
        guard exportPath == CoverageInput.runExportName || exportPath.hasSuffix("/" + CoverageInput.runExportName)
        else { return nil }
        var folder = String(exportPath.dropLast(CoverageInput.runExportName.count + 1))
        if folder.isEmpty { folder = exportPath.hasPrefix("/") ? "/" : "." }
        return testResults(in: folder).isEmpty ? nil : folder
    }
}
