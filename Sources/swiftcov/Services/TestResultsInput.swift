import SwiftCovCommandLine
import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The test results a command reads (`junit`, `report --tests`, `html`, `check --tests`, `history
/// add`): logs, event streams, JUnit XML and result bundles read (standard input as it arrives,
/// passed through to standard output when asked, so a piped `swift test` still shows its
/// progress), the readers' warnings shown, and the names the logs leave out found in the package.
enum TestResultsInput {
    /// Where the names the logs leave out (a file's folder, an XCTest class's module) are found.
    enum Sources {
        /// The files of a coverage report already read, and its package folder's sources.
        case report(CoverageReport)
        /// The files of the export at `coverage` (when given), and the sources of the package at
        /// `root` (else the one around the working folder).
        case package(coverage: String?, root: String?)
    }

    /// The test results at `inputs` ("-": standard input, once) as `command` uses them: read, the
    /// readers' warnings and the tests reported twice shown, names resolved against `sources`.
    /// Inputs without any test result are an input error, unless `allowingNoResults` (`junit`
    /// still writes a file, saying why: see `missingResults`).
    static func read(
        _ inputs: [String], resolvingWith sources: Sources, command: String, terminal: Terminal,
        passThrough: Bool = false, allowingNoResults: Bool = false
    ) throws -> TestRun {
        var run = try read(inputs, passThrough: passThrough)
        if !allowingNoResults, let missing = missingResults(run, inputs: inputs) { throw missing }
        warnAboutDuplicates(in: run, command: command, terminal: terminal)
        let workingDirectory = terminal.workingDirectory
        // In place: a copy would hold the whole run twice.
        switch sources {
        case .report(let report):
            run.resolve(with: TestSourceIndex(report: report, workingDirectory: workingDirectory))
        case .package(let coverage, let root):
            run.resolve(with: try sourceIndex(coverage: coverage, root: root, workingDirectory: workingDirectory))
        }
        return run
    }

    /// Reads and combines `inputs`; "-" is standard input, which may be given once.
    private static func read(_ inputs: [String], passThrough: Bool) throws -> TestRun {
        guard inputs.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("standard input ('-') can be read only once")
        }
        let offset = Clock.system().utcOffset
        var results: [TestResultsReader.Input] = []
        for input in inputs {
            if input == "-" {
                results.append(try readStandardInput(passThrough: passThrough, utcOffset: offset))
            } else {
                results.append(try TestResultsReader.read(path: input, utcOffset: offset))
            }
        }
        return try addingRetries(to: TestResultsReader.combine(results), of: inputs, utcOffset: offset)
    }

    /// `run` with the retries `swiftcov run --retry-failed` left beside each input that is a
    /// run's log (`swift-test-retries.log` beside `swift-test.log`): a run's folder reads as the
    /// run reported it (its `junit.xml`), a test that passed on retry flaky, not failed.
    private static func addingRetries(to run: TestRun, of inputs: [String], utcOffset: Int) throws -> TestRun {
        var run = run
        for input in inputs where input == RunWorkflow.logName || input.hasSuffix("/" + RunWorkflow.logName) {
            let folder = input == RunWorkflow.logName ? "." : String(input.dropLast(RunWorkflow.logName.count + 1))
            run = try RunWorkflow.addingRetries(in: folder.isEmpty ? "/" : folder, to: run, utcOffset: utcOffset)
        }
        return run
    }

    /// The readers' warnings (an Xcode object skipped), then one warning a test that several
    /// inputs report (shards that overlap, a file given twice), the first ten of them.
    private static func warnAboutDuplicates(in run: TestRun, command: String, terminal: Terminal) {
        for warning in run.warnings.prefix(20) { terminal.emit(warning, command: command) }
        if run.warnings.count > 20 {
            terminal.emit(.warning("… and \(run.warnings.count - 20) more warnings about the inputs"), command: command)
        }
        for duplicate in run.duplicates.prefix(10) { terminal.emit(.warning(duplicate.description), command: command) }
        if run.duplicates.count > 10 {
            terminal.emit(.warning("… and \(run.duplicates.count - 10) more tests reported twice"), command: command)
        }
    }

    /// The error for inputs with no test result at all, nil when they have some.
    static func missingResults(_ run: TestRun, inputs: [String]) -> TestResultsError? {
        guard !run.hasTestOutput else { return nil }
        return .noResults(paths: inputs.map(displayName), interrupted: run.wasInterrupted)
    }

    /// The steps and attachments the tests left: each result bundle's among `inputs` (its
    /// activity trees and attachments), then the files Swift Testing recorded that `run` names.
    static func evidence(of run: TestRun, inputs: [String], command: String, terminal: Terminal) throws
        -> [TestEvidence]
    {
        try bundleEvidence(inputs, command: command, terminal: terminal) + run.evidence
    }

    /// The steps and attachments of each result bundle among `inputs`.
    static func bundleEvidence(_ inputs: [String], command: String, terminal: Terminal) throws -> [TestEvidence] {
        var runs: [TestEvidence] = []
        for input in inputs where input != "-" && XCResultBundle.isBundle(input) {
            let read = try XCResultBundle.evidence(path: input)
            for warning in read.warnings.prefix(5) { terminal.emit(warning, command: command) }
            runs += read.evidence
        }
        return runs
    }

    /// Files named only by their base name are resolved with the export's file list and the
    /// package's files; XCTest classes get their module from the package's test folders.
    private static func sourceIndex(coverage: String?, root: String?, workingDirectory: String) throws
        -> TestSourceIndex
    {
        var index = TestSourceIndex()
        if let coverage {
            let export = try CoverageInput.readExport(CoverageInput.locateExport(coverage), keepMappings: false)
            index = index.merging(TestSourceIndex(paths: export.files.map(\.filename)))
        }
        var packageRoot = root
        if packageRoot == nil { packageRoot = PackageManifest.root(around: workingDirectory) }
        if let packageRoot {
            let absolute = packageRoot.hasPrefix("/") ? packageRoot : workingDirectory + "/" + packageRoot
            index = index.merging(
                TestSourceIndex.scanning(
                    root: absolute, targets: PackageDescriber.swiftPM.targets(ofPackageAt: absolute)))
        }
        return index
    }

    static func displayName(_ input: String) -> String {
        input == "-" ? "standard input" : input
    }

    /// Reads standard input to its end, parsing lines as they come. Interrupted (Ctrl-C, a CI
    /// timeout), it stops and keeps what it has: the tests then running become errors. JUnit XML
    /// cut short cannot be read: interrupted, it is an error at once. Once the input has ended,
    /// SIGINT and SIGTERM do again what they did before (end the process), so that reading a
    /// large document can be stopped.
    private static func readStandardInput(passThrough: Bool, utcOffset: Int) throws -> TestResultsReader.Input {
        let previous = installSignalHandlers()
        defer { restoreSignalHandlers(previous) }
        var stream = TestResultsStream(path: "-", utcOffset: utcOffset)
        var passing = passThrough
        try TestResultsReader.read(
            descriptor: STDIN_FILENO, path: "-", into: &stream,
            piece: { bytes in
                if passing && !writeAll(bytes) { passing = false }  // stdout closed: keep reading
            },
            stop: { SwiftCovInterrupted != 0 })
        if SwiftCovInterrupted != 0, stream.isJUnit {
            throw TestResultsError.unreadable(
                path: "-", reason: "interrupted by a signal before the JUnit XML ended; nothing was written")
        }
        restoreSignalHandlers(previous)
        var input = try stream.finish()
        if SwiftCovInterrupted != 0, case .log(var run) = input {
            run.wasInterrupted = true
            run.isComplete = false
            input = .log(run)
        }
        return input
    }

    /// Writes `bytes` to standard output; false when it is closed.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = Glibc_write(STDOUT_FILENO, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                // Interrupted while the reader of stdout does not read: stop passing through.
                if errno == EINTR && SwiftCovInterrupted == 0 { continue }
                return false
            }
            written += result
        }
        return true
    }

    /// The actions of SIGINT and SIGTERM before `installSignalHandlers`, once.
    private typealias SavedActions = [(Int32, sigaction)]

    /// Makes SIGINT and SIGTERM stop the reading (and SIGPIPE harmless); returns what they did.
    private static func installSignalHandlers() -> SavedActions {
        // A closed stdout (`| head`) must not kill the run before the file is written.
        signal(SIGPIPE, SIG_IGN)
        var saved: SavedActions = []
        for number in [SIGINT, SIGTERM] {
            var old = sigaction()
            if sigaction(number, nil, &old) == 0 { saved.append((number, old)) }
        }
        var action = sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = { _ in SwiftCovInterrupted = 1 }
        #else
            action.__sigaction_handler.sa_handler = { _ in SwiftCovInterrupted = 1 }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: a blocked read returns, and the file is written
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may have left them blocked (some process launchers do); they must get through.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        return saved
    }

    /// Gives SIGINT and SIGTERM their actions back (a second call does nothing more).
    private static func restoreSignalHandlers(_ saved: SavedActions) {
        for (number, action) in saved {
            var action = action
            sigaction(number, &action, nil)
        }
    }
}

/// Set by SIGINT/SIGTERM while standard input is read.
nonisolated(unsafe) private var SwiftCovInterrupted: sig_atomic_t = 0

@inline(__always)
private func Glibc_write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
