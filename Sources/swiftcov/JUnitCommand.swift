import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `swiftcov junit`: JUnit XML from `swift test` output, for CI.
enum JUnitCommand {
    static let spec = CommandSpec(
        name: "junit",
        abstract: "Write JUnit XML from `swift test` output (XCTest, Swift Testing, --parallel) for CI.",
        positional: "LOG…",
        positionalHelp: "Same as --tests LOG.",
        options: [
            .init(
                ["--tests", "-t"], value: "LOG", repeatable: true,
                help:
                    "Console output of `swift test`, a Swift Testing event stream (--experimental-event-stream-output), or JUnit XML (swiftcov's, SwiftPM's --xunit-output); '-' reads stdin. Several are combined: shards merge, each test once."
            ),
            .init(
                ["--output", "-o"], value: "FILE",
                help: "Write the XML to FILE (atomically). With --tests -, stdin is passed through to stdout meanwhile."
            ),
            .init(["--strict"], help: "Valid against Jenkins' xUnit schema (junit-10.xsd): no file/line on testcase."),
            .init(["--no-fail"], help: "Exit 0 even when tests failed or the run was cut off."),
            .init(
                ["--coverage", "-c"], value: "PATH",
                help:
                    "An llvm-cov export (or a folder with one) whose file list resolves locations given as a file name."
            ),
            .init(
                ["--root"], value: "DIR",
                help:
                    "The package root: resolves file names and XCTest modules. Default: the current folder, if a package."
            ),
            .init(["--quiet", "-q"], help: "Neither pass stdin through nor print the one-line summary on stderr."),
        ],
        examples: [
            "swift test 2>&1 | swiftcov junit --tests - --output junit.xml",
            "swiftcov junit SampleReports/swift-test-failing.log SampleReports/swift-testing-events.jsonl -o junit.xml",
            "swiftcov junit --tests swift-test.log --strict --no-fail > junit.xml",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let inputs = arguments.all("--tests") + arguments.positionals
        guard !inputs.isEmpty else {
            throw UsageError("no test output; give a `swift test` log with --tests LOG ('-' for standard input)")
        }
        let output = arguments.value("--output")
        let quiet = arguments.has("--quiet")
        var run = try TestLogInput.read(inputs, passThrough: output != nil && !quiet)
        TestLogInput.warnAboutDuplicates(in: run, command: "junit", terminal: terminal)
        run.resolve(
            with: try TestLogInput.sourceIndex(
                coverage: arguments.value("--coverage"), root: arguments.value("--root"),
                workingDirectory: terminal.workingDirectory))
        var status: ExitCode = run.totals.hasFailures || !run.isComplete ? .gateFailed : .success
        if let missing = TestLogInput.missingResults(run, inputs: inputs) {
            // CI still gets a file, with one error that says why.
            run = TestResultsReader.missingResults(
                sources: inputs.map(TestLogInput.displayName), output: run.output, interrupted: run.wasInterrupted)
            terminal.error("swiftcov junit: \(missing)\n")
            status = .usage
        }
        let destination = try terminal.output(output)
        var xml = destination.streamingBuffer()
        JUnitReport.write(
            run,
            options: JUnitReport.Options(
                strict: arguments.has("--strict"), hostname: TestLogInput.hostname(), timestamp: TestLogInput.now()),
            to: &xml)
        try destination.finish(xml)
        if !quiet, status != .usage {
            terminal.error(
                "swiftcov junit: \(run.totals.sentence(seconds: run.duration))\(output.map { " → \($0)" } ?? "")\n")
        }
        if status == .gateFailed && arguments.has("--no-fail") { return .success }
        return status
    }
}

/// Reads `--tests` inputs for `junit` and `report`: files whole, standard input as it arrives
/// (passed through to standard output when asked, so a piped `swift test` still shows its
/// progress), and the package files that complete what the logs leave out.
enum TestLogInput {
    /// Reads and combines `inputs`; "-" is standard input, which may be given once.
    static func read(_ inputs: [String], passThrough: Bool) throws -> TestRun {
        guard inputs.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("standard input ('-') can be read only once")
        }
        let offset = utcOffset()
        var results: [TestResultsReader.Input] = []
        for input in inputs {
            if input == "-" {
                results.append(try readStandardInput(passThrough: passThrough, utcOffset: offset))
            } else {
                results.append(try TestResultsReader.read(path: input, utcOffset: offset))
            }
        }
        return TestResultsReader.combine(results)
    }

    /// One warning a test that several inputs report (shards that overlap, a file given twice),
    /// the first ten of them.
    static func warnAboutDuplicates(in run: TestRun, command: String, terminal: Terminal) {
        for duplicate in run.duplicates.prefix(10) {
            terminal.error("swiftcov \(command): warning: \(duplicate.description.terminalSafe)\n")
        }
        if run.duplicates.count > 10 {
            terminal.error(
                "swiftcov \(command): warning: … and \(run.duplicates.count - 10) more tests reported twice\n")
        }
    }

    /// The error for inputs with no test result at all, nil when they have some.
    static func missingResults(_ run: TestRun, inputs: [String]) -> TestResultsError? {
        guard !run.hasTestOutput else { return nil }
        return .noResults(paths: inputs.map(displayName), interrupted: run.wasInterrupted)
    }

    /// Reads `inputs` for a report: inputs without any test result are an input error.
    static func readResults(_ inputs: [String]) throws -> TestRun {
        let run = try read(inputs, passThrough: false)
        if let missing = missingResults(run, inputs: inputs) { throw missing }
        return run
    }

    /// Files named only by their base name are resolved with the export's file list and the
    /// package's files; XCTest classes get their module from the package's test folders.
    static func sourceIndex(coverage: String?, root: String?, workingDirectory: String) throws -> TestSourceIndex {
        var index = TestSourceIndex()
        if let coverage {
            let export = try CoverageInput.readExport(CoverageInput.locateExport(coverage), keepMappings: false)
            index = index.merging(TestSourceIndex(paths: export.files.map(\.filename)))
        }
        var packageRoot = root
        if packageRoot == nil, access(workingDirectory + "/Package.swift", F_OK) == 0 { packageRoot = workingDirectory }
        if let packageRoot {
            let absolute = packageRoot.hasPrefix("/") ? packageRoot : workingDirectory + "/" + packageRoot
            index = index.merging(TestSourceIndex.scanning(root: absolute))
        }
        return index
    }

    /// The index for a run next to a coverage report already read: its files, and the package
    /// folder's sources (the test files the report leaves out).
    static func sourceIndex(report: CoverageReport, workingDirectory: String) -> TestSourceIndex {
        TestSourceIndex(paths: report.files.map(\.path)).merging(
            TestSourceIndex.scanning(root: report.scope.root ?? workingDirectory))
    }

    static func displayName(_ input: String) -> String {
        input == "-" ? "standard input" : input
    }

    /// Reads standard input to its end, parsing lines as they come. Interrupted (Ctrl-C, a CI
    /// timeout), it stops and keeps what it has: the tests then running become errors.
    private static func readStandardInput(passThrough: Bool, utcOffset: Int) throws -> TestResultsReader.Input {
        installSignalHandlers()
        var stream = TestResultsStream(path: "-", utcOffset: utcOffset)
        var passing = passThrough
        let capacity = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = Glibc_read(0, buffer, capacity)
            if count < 0 {
                if errno == EINTR && SwiftCovInterrupted == 0 { continue }
                if errno == EINTR { break }
                throw TestResultsError.unreadable(path: "-", reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
            if passing && !writeAll(bytes) { passing = false }  // stdout closed: keep reading
            try stream.consume(bytes)
            if SwiftCovInterrupted != 0 { break }
        }
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
                if errno == EINTR { continue }
                return false
            }
            written += result
        }
        return true
    }

    private static func installSignalHandlers() {
        // A closed stdout (`| head`) must not kill the run before the file is written.
        signal(SIGPIPE, SIG_IGN)
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
    }

    /// This machine's name, for JUnit's `hostname`.
    static func hostname() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The local time zone's offset from UTC, in seconds.
    static func utcOffset() -> Int {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// Now, in local time, as JUnit timestamps are written.
    static func now() -> String {
        SwiftTestingEventStream.timestamp(Double(time(nil)), utcOffset: utcOffset()) ?? "1970-01-01T00:00:00"
    }
}

/// Set by SIGINT/SIGTERM while standard input is read.
nonisolated(unsafe) private var SwiftCovInterrupted: sig_atomic_t = 0

@inline(__always)
private func Glibc_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

@inline(__always)
private func Glibc_write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
