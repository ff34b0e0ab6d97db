#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `swiftcov run --per-test`'s pipeline up to the coverage: build the tests with coverage, list
/// them (`swift test list`), run each alone (`PerTestRunner`), then write what a plain run leaves
/// — the log (every test's output, in list order), Swift Testing's event stream, the merged
/// profile and its export — and the per-test store beside them.
package struct PerTestRun {
    /// The package root (absolute).
    package var root: String
    /// Where the outputs go (`.build/swiftcov`).
    package var output: String
    /// The package's tests with the user's `swift test` arguments: every `swift` command.
    package var tests: PackageTests
    package var jobs = PerTestRunner.cores
    /// How many tests' profiles are merged into one while the tests run.
    package var mergeBatch = 128
    /// Seconds a test may run before it is killed and reported as timed out.
    package var timeout: Double = PerTestRun.defaultTimeout

    /// Long enough for any unit test, short enough that a hung one does not stall CI for long.
    package static let defaultTimeout: Double = 300

    package init(root: String, output: String, testArguments: [String], scratchPath: String? = nil) {
        self.root = root
        self.output = output
        tests = PackageTests(
            root: root, arguments: SwiftTestArguments(testArguments, scratchPath: scratchPath), scratch: output)
    }

    package var logPath: String { output + "/" + CoverageRun.logName }
    package var eventStreamPath: String { output + "/" + CoverageRun.eventStreamName }
    package var exportPath: String { output + "/" + CoverageInput.runExportName }
    package var storePath: String { output + "/" + PerTestStore.fileName }

    /// Builds the tests with coverage (`PackageTests.build`), the output handed to `body`.
    package func build(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Int32 {
        try tests.build(body)
    }

    /// The tests (`swift test list`), chosen by `--filter` and `--skip` as `swift test` would.
    package func listTests() throws -> [TestID] {
        try tests.list().chosen
    }

    /// `shard`'s share of `tests` (split as `run --shard` splits, balanced by `timings` when given),
    /// written to `OUTPUT/shard-tests.txt` as `run --shard` writes it; with the plan.
    package func selectShard(_ shard: Shard, of tests: [TestID], timings: TestTimings?) throws -> (
        tests: [TestID], plan: ShardPlan
    ) {
        try PackageTests.selectShard(shard, of: tests, timings: timings, output: output)
    }

    /// The results as one plain run's: each process's output (and event stream) read on its
    /// own and the runs joined, so that suites are by class or suite, each test once.
    package func testRun(of results: [PerTestRunner.Result], utcOffset: Int) throws -> TestRun {
        var inputs: [TestResultsReader.Input] = []
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

    /// The test executable SwiftPM built with coverage.
    package func testBinary() throws -> String {
        try PackageTests.testBinary(in: try tests.binPath())
    }

    /// Runs `tests` one by one on `jobs` cores and writes the log, the event stream, the merged
    /// profile, its export (`exportPath`) and the store (`storePath`). `finished` hears of each test.
    package func run(
        _ tests: [TestID], toolchain: Toolchain, binary: String, recording: PerTestCoverage.Recording,
        note: (String) -> Void = { _ in }, finished: @Sendable (PerTestRunner.Result) -> Void = { _ in }
    ) throws -> (results: [PerTestRunner.Result], coverage: PerTestCoverage) {
        try AtomicFile.makeDirectory(output)
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
            note("\(error); each test's lines come from llvm-profdata and llvm-cov instead (slower)")
            attribution = .llvmCov(sources: try ownSources(toolchain: toolchain, binary: binary, scratch: scratch))
        }
        let runner = PerTestRunner(
            toolchain: toolchain, binary: binary, root: root, attribution: attribution, scratch: scratch, jobs: jobs,
            timeout: timeout)
        // Profiles are merged in batches as tests end, so that thousands of tests never keep
        // thousands of raw profiles on disk; the batches are merged once at the end.
        let batch = mergeBatch
        let profiles = Locked((pending: [String](), merged: [String]()))
        let results = try runner.run(tests) { result in
            finished(result)
            guard let profile = result.profile else { return }
            let full = profiles.withLock { state -> [String]? in
                state.pending.append(profile)
                return state.pending.count >= batch ? state.pending : nil
            }
            guard let full else { return }
            let partial = scratch + "/batch-\(profiles.withLock { $0.merged.count }).profdata"
            guard (try? toolchain.merge(full, into: partial))?.status == 0 else { return }  // merged at the end
            for path in full { unlink(path) }
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
        try log.withUnsafeBufferPointer { try AtomicFile.write(bytes: $0, to: logPath) }
        try events.withUnsafeBufferPointer { try AtomicFile.write(bytes: $0, to: eventStreamPath) }

        let remaining = profiles.withLock { $0.merged + $0.pending }
        // No profile (no test to run, a shard with no share of the tests, or every test crashed
        // or timed out): the coverage of running nothing, every count zero, so that the results
        // are still written and merging the shards still sees every file.
        var profdata: String?
        if !remaining.isEmpty {
            profdata = output + "/coverage.profdata"
            let merged = try toolchain.merge(remaining, into: output + "/coverage.profdata")
            guard merged.status == 0 else {
                throw CoverageInputError.unreadable(
                    path: scratch, reason: "llvm-profdata: " + merged.errorText.terminalSafe)
            }
        } else {
            unlink(output + "/coverage.profdata")  // an earlier run's: not this run's counts
        }
        let exported = try toolchain.export(profdata: profdata, binaries: [binary])
        guard exported.status == 0 else {
            throw CoverageInputError.unreadable(
                path: profdata ?? binary, reason: "llvm-cov: " + exported.errorText.terminalSafe)
        }
        try exported.output.withUnsafeBufferPointer { try AtomicFile.write(bytes: $0, to: exportPath) }
        for profile in remaining { unlink(profile) }

        let export = try CoverageInput.readExport(exportPath, keepMappings: false, names: false)
        var coverage = PerTestCoverage(
            recording: recording, files: try LineAttribution.executableFiles(of: export, root: root))
        for result in results {
            coverage.add(
                id: result.test.id, outcome: result.outcome, milliseconds: result.milliseconds, lines: result.executed,
                recorded: result.profile != nil)
        }
        try PerTestStore.write(coverage, to: storePath)
        return (results, coverage)
    }

    /// A new folder `per-test-profiles.XXXXXX` in `output`, removed if a signal ends swiftcov.
    static func makeScratchFolder(in output: String) throws(AtomicFile.WriteError) -> String {
        try TemporaryPaths.withCleanupHeld { () throws(AtomicFile.WriteError) -> String in
            var template = Array((output + "/per-test-profiles.XXXXXX").utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw AtomicFile.WriteError(path: output + "/per-test-profiles.XXXXXX", errno: errno)
            }
            let path = String(cString: made)
            TemporaryPaths.register(path)
            return path
        }
    }

    /// The absolute paths of the package's own files the test executable has coverage mapping for
    /// (the files of an export of an empty profile).
    package func ownSources(toolchain: Toolchain, binary: String, scratch: String) throws -> [String] {
        try AtomicFile.makeDirectory(scratch)
        let empty = scratch + "/empty.proftext"
        let profdata = scratch + "/empty.profdata"
        try AtomicFile.write("", to: empty)  // an empty (text) profile: every count 0
        defer {
            unlink(empty)
            unlink(profdata)
        }
        let merged = try Subprocess.capture(toolchain.llvmProfdata, ["merge", "-sparse", empty, "-o", profdata])
        guard merged.status == 0 else {
            throw CoverageInputError.unreadable(path: empty, reason: "llvm-profdata: " + merged.errorText.terminalSafe)
        }
        let exported = try Subprocess.capture(
            toolchain.llvmCov, ["export", "-summary-only", "-instr-profile", profdata, binary])
        guard exported.status == 0 else {
            throw CoverageInputError.unreadable(path: binary, reason: "llvm-cov: " + exported.errorText.terminalSafe)
        }
        let export = try LLVMCovExportReader.read(MappedFile(bytes: exported.output), names: false)
        return LineAttribution.ownFiles(of: export, root: root).map { root + "/" + $0.path }
    }

    /// Where the package is in git: its commit and whether the package's files differ from it
    /// (its build folder aside, ignored or not).
    package static func recording(root: String, date: String) -> PerTestCoverage.Recording {
        let head = try? Subprocess.capture("git", ["-C", root, "rev-parse", "HEAD"])
        let commit = head.flatMap { $0.status == 0 ? $0.outputText.split(separator: "\n").first.map(String.init) : nil }
        let status = try? Subprocess.capture(
            "git", ["-C", root, "status", "--porcelain", "--", ".", ":(exclude).build"])
        let dirty = status.map { $0.status != 0 || !$0.output.isEmpty } ?? false
        return PerTestCoverage.Recording(commit: commit ?? "", dirty: commit != nil && dirty, date: date)
    }
}
