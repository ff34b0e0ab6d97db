#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `swiftcov run`'s pipeline, from a package root: run `swift test` with coverage and keep its
/// log and Swift Testing's event stream; read the results; make the coverage export (SwiftPM
/// writes none when a test failed: then from the raw profiles); write what CI keeps. The
/// command line shows progress and prints; this does the work.
package struct CoverageRun {
    /// The package root (absolute).
    package var root: String
    /// Where the outputs go (`.build/swiftcov`).
    package var output: String
    /// The package's tests with the user's `swift test` arguments: every `swift` command.
    package var tests: PackageTests
    /// `--filter` arguments that select a shard's tests (see `selectShard`), instead of the
    /// user's `--filter` and `--skip`, which chose among the tests it shares out.
    package var selection: [String]?
    /// Whether the tests were built already (`selectShard`): `swift test` then runs them.
    package var built = false

    package init(root: String, output: String, testArguments: [String], scratchPath: String? = nil) {
        self.root = root
        self.output = output
        tests = PackageTests(
            root: root, arguments: SwiftTestArguments(testArguments, scratchPath: scratchPath), scratch: output)
    }

    /// The names of what a run keeps in its output folder, `run --per-test` too.
    package static let logName = "swift-test.log"
    package static let eventStreamName = "swift-testing-events.jsonl"

    package var logPath: String { output + "/" + CoverageRun.logName }

    /// Where Swift Testing's event stream goes, and the `swift test` arguments that write it there:
    /// none when the user's arguments already ask for one (then it is read from their path).
    package var eventStream: (path: String, arguments: [String]) {
        for option in ["--experimental-event-stream-output", "--event-stream-output-path"] {
            if let path = tests.arguments.runValue(of: option) { return (path, []) }
        }
        let path = output + "/" + CoverageRun.eventStreamName
        return (path, ["--experimental-event-stream-output", path, "--experimental-event-stream-version", "0"])
    }

    /// The full `swift` command line of the test run.
    package var swiftTestArguments: [String] {
        tests.arguments.testCommand(selection: selection, skipBuild: built, extra: eventStream.arguments)
    }

    /// Selects `shard`'s share of the tests `swift test list` lists (those the user's `--filter`
    /// and `--skip` choose), balanced by `timings` when given, for `runTests`; writes them to
    /// `OUTPUT/shard-tests.txt`. The tests are built first as `swift test --enable-code-coverage`
    /// builds them (the output goes to `body`), listed from that build, and run from it. Returns
    /// the shard's tests, those it was chosen from, and the plan.
    package mutating func selectShard(
        _ shard: Shard, timings: TestTimings?, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws -> (selected: [String], all: [String], plan: ShardPlan) {
        try AtomicFile.makeDirectory(output)
        // A failed build runs no test; `swift test` then builds again and shows why, in the log.
        guard try tests.build(body) == 0 else {
            selection = ShardPlan.filterArguments(selecting: [], of: [])
            return ([], [], ShardPlan(tests: [], count: shard.count))
        }
        let (all, chosen) = try tests.list()
        let (selected, plan) = try PackageTests.selectShard(shard, of: chosen, timings: timings, output: output)
        selection = ShardPlan.filterArguments(selecting: selected.map(\.id), of: all.map(\.id))
        built = true
        return (selected.map(\.id), chosen.map(\.id), plan)
    }

    /// Removes the per-test data an earlier `run --per-test` left in the output folder, which
    /// would describe another run's coverage than the one this run writes beside it; reports
    /// whether there was any.
    package func removeEarlierPerTestData() -> Bool {
        unlink(output + "/" + PerTestStore.fileName) == 0
    }

    /// Runs the tests, handing their output to `body` as it comes, and keeps the log: written as
    /// it comes (a long run's log is never held in memory), put in place when the run ends.
    /// Returns `swift test`'s exit status.
    package func runTests(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Int32 {
        try AtomicFile.makeDirectory(output)
        if !eventStream.arguments.isEmpty { unlink(eventStream.path) }  // never read a stale one
        let log = try AtomicFile.Destination(logPath, durable: false)
        var failure: Int32 = 0
        let status = try Subprocess.stream("swift", swiftTestArguments, in: root) { chunk in
            if failure == 0 { failure = FileDescriptor.write(chunk, to: log.descriptor) }
            body(chunk)
        }
        guard failure == 0 else { throw AtomicFile.WriteError(path: logPath, errno: failure) }
        try log.finish(writing: "")
        return status
    }

    /// The results of the run: the log, and the event stream when `swift test` wrote one.
    package func readResults(utcOffset: Int) throws -> TestRun {
        let stream = eventStream.path
        var inputs = [try TestResultsReader.read(path: logPath, utcOffset: utcOffset)]
        var info = stat()
        if stat(stream, &info) == 0, info.st_size > 0 {
            inputs.append(try TestResultsReader.read(path: stream, utcOffset: utcOffset))
        }
        return TestResultsReader.combine(inputs)
    }

    /// The compiler's errors in the log of a run that ended before any test ran: from the first
    /// line that reports an error, at most `limit` lines.
    package func buildErrors(limit: Int = 200) -> String {
        guard let file = try? MappedFile(path: logPath) else { return "" }
        let text = file.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { $0.contains("error:") }) else { return "" }
        return lines[first...].prefix(limit).joined(separator: "\n")
    }

    /// The export for this run, kept in the output folder as `CoverageInput.runExportName` (what
    /// merging this run with others, shards, needs): SwiftPM's own when it wrote one during the
    /// run, else one made here from the `.profraw` files (SwiftPM writes none when a test
    /// failed). `note` hears about the second case.
    package func coverageExport(toolchain: Toolchain, note: (String) -> Void) throws -> String {
        let made = try makeCoverageExport(toolchain: toolchain, note: note)
        let kept = output + "/" + CoverageInput.runExportName
        if made != kept {
            try MappedFile(path: made).withUnsafeBytes { bytes in
                try AtomicFile.write(bytes: bytes.assumingMemoryBound(to: UInt8.self), to: kept)
            }
        }
        return kept
    }

    private func makeCoverageExport(toolchain: Toolchain, note: (String) -> Void) throws -> String {
        let codecovJSON = try tests.codecovPath()
        let codecov = String(codecovJSON[..<(codecovJSON.lastIndex(of: "/") ?? codecovJSON.startIndex)])
        let profraws = CoverageRun.files(in: codecov, withSuffix: ".profraw")
        guard !profraws.isEmpty else {
            if CoverageRun.isFile(codecovJSON) { return codecovJSON }
            throw CoverageInputError.noExport(directory: codecov, profrawCount: 0)
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
        let binary = try PackageTests.testBinary(in: binPath)
        let exported = try toolchain.export(profdata: profdata, binaries: [binary])
        guard exported.status == 0 else {
            throw CoverageInputError.unreadable(path: profdata, reason: "llvm-cov: " + exported.errorText.terminalSafe)
        }
        let exportPath = output + "/" + CoverageInput.runExportName
        try exported.output.withUnsafeBufferPointer { try AtomicFile.write(bytes: $0, to: exportPath) }
        note("made the coverage from \(profraws.count) raw profile(s) with llvm-profdata and llvm-cov")
        return exportPath
    }

    /// Writes what CI keeps: the HTML site, `junit.xml` and `coverage.json` (the coverage with
    /// every function, and the test summary). Returns the paths written and what to warn about.
    /// With `perTest`, the site's pages show the tests that ran each line.
    package func writeOutputs(
        report: CoverageReport, tests: TestRun, request: CoverageRequest, clock: Clock, hostname: String,
        perTest: PerTestCoverage? = nil
    ) throws -> (paths: [String], warnings: [Diagnostic]) {
        let site = try HTMLSite.write(
            report, tests: tests, extraFiles: request.failureFiles(of: tests, report: report),
            to: output + "/html", annotations: HTMLReport.SiteAnnotations(perTest: perTest),
            options: HTMLReport.Options(generatedAt: clock.utcTimestamp))
        let junit = JUnitReport.render(
            tests, options: JUnitReport.Options(hostname: hostname, timestamp: clock.localTimestamp))
        try AtomicFile.write(junit, to: output + "/junit.xml")
        var json = JSONWriter()
        try CoverageJSONReport.write(
            report, options: CoverageReportOptions(showFunctions: true), tests: tests, to: &json)
        try AtomicFile.write(json.output, to: output + "/coverage.json")
        return ([output + "/html/index.html", output + "/junit.xml", output + "/coverage.json"], site.warnings)
    }

    /// The failed tests, for the gate.
    package static func failedTests(of run: TestRun) -> [FailedTest] {
        run.failingCases.map { test in
            FailedTest(
                name: test.className == TestLogParser.swiftTestingSuiteName
                    ? test.name : "\(test.className).\(test.name)",
                file: test.primaryLocation?.file, line: test.primaryLocation?.line,
                message: test.failingIssues.first?.message ?? test.status.rawValue)
        }
    }

    /// The paths of the entries of `folder` whose names end with `suffix`, sorted.
    package static func files(in folder: String, withSuffix suffix: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name.hasSuffix(suffix) && name != "." && name != ".." { names.append(folder + "/" + name) }
        }
        return names.sorted()
    }

    private static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0
    }
}

extension TestTimings {
    /// The tests' times from an earlier run: its JUnit XML (or any test output swiftcov reads), or
    /// the `coverage.json` that `run` and `report --format json` write (times per suite).
    package static func read(path: String) throws -> TestTimings {
        let document = try CoverageInput.map(path)
        guard document.withUnsafeBytes(SwiftCovReportDocument.recognizes) else {
            return TestTimings(try TestResultsReader.read(paths: [path], utcOffset: 0))
        }
        let report = try SwiftCovReportDocument.read(document, path: path, parts: .testSuites)
        return TestTimings(suites: report.testSuites.map { ($0.name, $0.tests, $0.seconds) })
    }
}
