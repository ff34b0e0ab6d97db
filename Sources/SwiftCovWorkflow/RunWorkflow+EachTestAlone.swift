import SwiftCovAnalyses
import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// The strategy of `run --per-test`: each test alone (`PerTestRunner`), then what a whole-suite
/// run leaves — the log (every test's output, in list order), Swift Testing's event stream, the
/// merged profile and its export — and the per-test store beside them.
extension RunWorkflow {
    /// Steps 3 and 4 with each test alone.
    /// `selection`: the `--filter` arguments that choose `selected` (a shard's), nil when the
    /// user's `--filter` and `--skip` do.
    func runEachTestAlone(
        _ selected: [TestID], selection: [String]?, timeout: Double, toolchain: Toolchain, clock: Clock,
        sink: some DiagnosticSink
    ) throws -> Outcome {
        let binary = try tests.testBinary(in: try tests.binPath())
        sink.stage("running \(selected.count) tests one by one, \(jobs) at a time")
        // This run's own folder for the profiles (another run may be using the output folder's
        // too), removed when the run ends, however it ends (a signal too).
        let scratch = try Self.makeScratchFolder(in: output)
        defer {
            TemporaryPaths.removeTree(scratch)
            TemporaryPaths.unregister(scratch)
        }
        let attribution: PerTestRunner.Attribution
        do {
            attribution = .mapping(ProfileAttribution(mapping: try CoverageMapping.read(binary: binary), root: root))
        } catch {
            sink.note("\(error); each test's lines come from llvm-profdata and llvm-cov instead (slower)")
            attribution = .llvmCov(sources: try ownSources(toolchain: toolchain, binary: binary, scratch: scratch))
        }
        let runner = PerTestRunner(
            toolchain: toolchain, binary: binary, root: root, attribution: attribution, scratch: scratch, jobs: jobs,
            timeout: timeout)
        // Profiles are merged in batches as tests end, so that thousands of tests never keep
        // thousands of raw profiles on disk; the batches are merged once at the end.
        let batch = mergeBatch
        let system = system
        let total = selected.count
        let profiles = Locked((ended: 0, pending: [String](), merged: [String]()))
        let results = try runner.run(selected) { result in
            let (count, full) = profiles.withLock { state -> (Int, [String]?) in
                state.ended += 1
                if let profile = result.profile { state.pending.append(profile) }
                return (state.ended, state.pending.count >= batch ? state.pending : nil)
            }
            sink.testEnded(result, count: count, of: total)
            guard let full else { return }
            let partial = scratch + "/batch-\(profiles.withLock { $0.merged.count }).profdata"
            guard (try? toolchain.merge(full, into: partial))?.status == 0 else { return }  // merged at the end
            for path in full { system.remove(path) }
            profiles.withLock { state in
                state.pending.removeFirst(full.count)
                state.merged.append(partial)
            }
        }

        var log: [UInt8] = []
        var events: [UInt8] = []
        for result in results {
            log += result.output
            events += result.events
        }
        try system.write(log, to: logPath)
        try system.write(events, to: output + "/" + Self.eventStreamName)

        let remaining = profiles.withLock { $0.merged + $0.pending }
        // No profile (no test to run, a shard with no share of the tests, or every test crashed
        // or timed out): the coverage of running nothing, every count zero, so that the results
        // are still written and merging the shards still sees every file.
        let profdata = output + "/coverage.profdata"
        if !remaining.isEmpty {
            let merged = try toolchain.merge(remaining, into: profdata)
            guard merged.status == 0 else {
                throw CoverageInputError.unreadable(
                    path: scratch, reason: "llvm-profdata: " + merged.errorText.terminalSafe)
            }
        } else {
            system.remove(profdata)  // an earlier run's: not this run's counts
        }
        try export(profdata: remaining.isEmpty ? nil : profdata, binary: binary, toolchain: toolchain)
        for profile in remaining { system.remove(profile) }

        // Read once, with the names the report lists: the report is made from it too.
        let export = try CoverageInput.readExport(exportPath, keepMappings: false, names: true)
        var coverage = PerTestCoverage(
            recording: recording(date: clock.utcTimestamp),
            files: try LineAttribution.executableFiles(of: export, root: root))
        for result in results {
            coverage.add(
                id: result.test.id, outcome: result.outcome, milliseconds: result.milliseconds, lines: result.executed,
                recorded: result.profile != nil)
        }
        try PerTestStore.write(coverage, to: storePath)
        let lines = coverage.files.map(\.lines.count).reduce(0, +)
        sink.stage(
            "recorded the lines of \(coverage.tests.count) tests over \(coverage.files.count) files "
                + "(\(lines) executable lines) in \(storePath) (\(system.fileSize(storePath) ?? 0) bytes)")
        var run = try testRun(of: results, utcOffset: clock.utcOffset)
        // A failure alone is recorded when the test's cases show it (its output was read).
        let failed = results.filter { $0.outcome != .passed && $0.outcome != .skipped }
        let failuresRecorded = failed.allSatisfy { run.hasFailed($0.test) }
        // Each test ran in a process of its own: one that crashed is that test's error (recorded
        // as a case), not a run cut short.
        if failuresRecorded { run.isComplete = true }
        var retryRunner = runner
        retryRunner.scratch = scratch + "/retries"
        // A test alone once more (a retry, a confirmation of order-dependence). Its profile is not
        // merged: the coverage is the run's.
        func again(_ test: TestID) throws -> (run: TestRun, output: [UInt8]) {
            let result = try retryRunner.run([test])
            for profile in result.compactMap(\.profile) { system.remove(profile) }
            return (try testRun(of: result, utcOffset: clock.utcOffset), result.first?.output ?? [])
        }
        try retryFailures(in: &run, ids: failed.map(\.test), sink: sink, runAlone: again)
        var outcome = Outcome(
            exportPath: exportPath, testsPassed: failed.allSatisfy { (run.status(of: $0.test) ?? .error) < .failed },
            results: run, perTest: coverage, export: export)
        outcome.failuresRecorded = failuresRecorded
        // The suite gets the time its tests took alone, twice over, and one test's timeout.
        let seconds = Double(results.reduce(0) { $0 + $1.milliseconds }) / 1000
        outcome.orderDependent = try checkOrder(
            of: run, selected: selected, timedOut: results.filter { $0.outcome == .timedOut }.map(\.test),
            selection: selection, timeout: timeout + 2 * seconds, utcOffset: clock.utcOffset, sink: sink
        ) { test in try again(test).run.status(of: test) }
        return outcome
    }

    /// The results as one plain run's: each process's output (and event stream) read on its
    /// own and the runs joined, so that suites are by class or suite, each test once.
    func testRun(of results: [PerTestRunner.Result], utcOffset: Int) throws -> TestRun {
        var inputs: [TestResultsReader.Input] = []
        let eventStreamPath = output + "/" + Self.eventStreamName
        for result in results {
            for (bytes, path) in [(result.output, logPath), (result.events, eventStreamPath)] where !bytes.isEmpty {
                let input = bytes.withUnsafeBytes { raw in
                    Result { () throws(TestResultsError) in
                        try TestResultsReader.read(bytes: raw, path: path, utcOffset: utcOffset)
                    }
                }
                inputs.append(try input.get())
            }
        }
        return TestResultsReader.combine(inputs)
    }

    /// A new folder `per-test-profiles.XXXXXX` in `output`, removed if a signal ends swiftcov.
    static func makeScratchFolder(in output: String) throws(SystemCallError) -> String {
        try FileSystem.makeTemporaryFolder(output + "/per-test-profiles.")
    }

    /// The absolute paths of the package's own files the test executable has coverage mapping for
    /// (the files of an export of an empty profile).
    func ownSources(toolchain: Toolchain, binary: String, scratch: String) throws -> [String] {
        try system.makeDirectory(scratch)
        let empty = scratch + "/empty.proftext"
        let profdata = scratch + "/empty.profdata"
        try system.write("", to: empty)  // an empty (text) profile: every count 0
        defer {
            system.remove(empty)
            system.remove(profdata)
        }
        let merged = try toolchain.merge([empty], into: profdata)
        guard merged.status == 0 else {
            throw CoverageInputError.unreadable(path: empty, reason: "llvm-profdata: " + merged.errorText.terminalSafe)
        }
        let exported = try toolchain.cov(["export", "-summary-only", "-instr-profile", profdata, binary])
        guard exported.status == 0 else {
            throw CoverageInputError.unreadable(path: binary, reason: "llvm-cov: " + exported.errorText.terminalSafe)
        }
        let export = try LLVMCovExportReader.read(MappedFile(bytes: exported.output), names: false)
        return LineAttribution.ownFiles(of: export, root: root).map { root + "/" + $0.path }
    }

    /// Where the package is in git: its commit and whether the package's files differ from it
    /// (swiftcov's own files aside, ignored or not: the build folder, the output folder, the
    /// history file, the CI recipes' folders).
    package func recording(date: String) -> PerTestCoverage.Recording {
        let head = try? Git.run(["rev-parse", "HEAD"], in: root, system: system)
        let commit = head.flatMap { $0.status == 0 ? $0.output.split(separator: "\n").first.map(String.init) : nil }
        let status = try? Git.run(
            ["status", "--porcelain", "--", "."] + Git.excludingOwnFiles([output] + ownFiles, root: root), in: root,
            system: system)
        let dirty = status.map { $0.status != 0 || !$0.output.isEmpty } ?? false
        return PerTestCoverage.Recording(commit: commit ?? "", dirty: commit != nil && dirty, date: date)
    }
}
