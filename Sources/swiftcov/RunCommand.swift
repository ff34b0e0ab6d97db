import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `swiftcov run`: the whole workflow in one command, from a package root. Runs the tests with
/// coverage, keeps their log, makes the coverage even when tests failed (SwiftPM writes none
/// then), prints the coverage table and the test summary, writes HTML, JUnit and JSON, and
/// evaluates the gate when one is configured.
enum RunCommand {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Run `swift test` with coverage, then report, write HTML/JUnit/JSON and check the gate.",
        positional: "-- SWIFT-TEST-ARGUMENTS…",
        positionalHelp: "Passed to `swift test` (after `--`), e.g. -- --filter GameTests --parallel.",
        options: [
            .init(
                ["--output", "-o"], value: "DIR",
                help: "Where to write html/, junit.xml, coverage.json and the test log. Default: .build/swiftcov."),
            .init(["--config"], value: "FILE", help: "The gate configuration. Default: .swiftcov.json, if any."),
            .init(["--baseline"], value: "FILE", help: "An earlier `swiftcov report --format json`, for the ratchet."),
            .init(
                ["--shard"], value: "K/N",
                help:
                    "Run only shard K of N of the tests (`swift test list`), for N CI machines; merge their outputs with report -c, junit --tests."
            ),
            .init(
                ["--scratch-path"], value: "DIR",
                help:
                    "SwiftPM's build folder for the tests (passed to every `swift` command run makes). The plugin uses its own."
            ),
            .init(
                ["--timings"], value: "FILE",
                help:
                    "With --shard: balance the shards by the tests' times in FILE (an earlier junit.xml, or coverage.json of run)."
            ),
            Terminal.colorOption,
        ] + perTestOptions + CoverageOptions.scopeSpecs,
        examples: [
            "swiftcov run",
            "swiftcov run --output coverage -- --filter TriviaGameTests",
            "swiftcov run --shard 2/4 --timings previous/junit.xml",
            "swiftcov run --per-test --test-timeout 60",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let root = terminal.workingDirectory
        guard Terminal.fileSize(root + "/Package.swift") > 0 else {
            throw UsageError("run it in a package root (no Package.swift in \(root))")
        }
        let output = arguments.value("--output") ?? ".build/swiftcov"
        let configuration = try CheckCommand.loadConfiguration(arguments.value("--config"), root: root)
        let baseline = try arguments.value("--baseline").map(CheckCommand.loadBaseline)
        let shard = try arguments.value("--shard").map { (text: String) throws -> Shard in
            do throws(Shard.InvalidShard) { return try Shard(parsing: text) } catch {
                throw UsageError(error.description)
            }
        }
        guard shard != nil || arguments.value("--timings") == nil else { throw UsageError("--timings needs --shard") }
        let timings = try arguments.value("--timings").map(readTimings)
        let toolchain = try Toolchain.locate()
        try AtomicFile.makeDirectory(output)

        // 1. The tests, with live progress on a terminal and the output as it comes otherwise; Swift
        // Testing's event stream beside the log (it names each test's suite and module). With
        // --per-test each test runs alone, and its lines are recorded.
        if arguments.has("--per-test") {
            let (exportPath, status) = try runPerTest(
                arguments, root: root, output: output, toolchain: toolchain, terminal: terminal)
            let logPath = output + "/swift-test.log"
            let testRun = try TestLogInput.read([logPath, output + "/swift-testing-events.jsonl"], passThrough: false)
            return try finish(
                arguments, root: root, output: output, exportPath: exportPath, testRun: testRun, status: status,
                configuration: configuration, baseline: baseline, terminal: &terminal)
        }
        if arguments.value("--test-timeout") != nil { throw UsageError("--test-timeout goes with --per-test") }
        let (eventStreamPath, eventStreamArguments) = eventStream(arguments.positionals, output: output)
        if !eventStreamArguments.isEmpty { unlink(eventStreamPath) }  // never read a stale one
        let swiftOptions = arguments.value("--scratch-path").map { ["--scratch-path", $0] } ?? []
        var testArguments =
            ["test", "--enable-code-coverage"] + swiftOptions + eventStreamArguments + arguments.positionals
        var shown = "swift " + testArguments.joined(separator: " ")
        if let shard {
            let filters = try shardFilters(
                shard, timings: timings, swiftOptions: swiftOptions, output: output, terminal: terminal)
            testArguments += filters
            shown += " (and a --filter for the tests in \(output)/shard-tests.txt)"
        }
        terminal.error("swiftcov: running \(shown)\n")
        var log: [UInt8] = []
        var progress = LiveProgress(terminal: terminal, live: terminal.stderrIsTerminal)
        let status = try Subprocess.stream("swift", testArguments) { chunk in
            log.append(contentsOf: chunk)
            progress.consume(chunk)
        }
        progress.finish()
        let logPath = output + "/swift-test.log"
        try log.withUnsafeBufferPointer { try AtomicFile.write(bytes: $0, to: logPath) }

        let streamWritten = Terminal.fileSize(eventStreamPath) > 0
        let testRun = try TestLogInput.read(streamWritten ? [logPath, eventStreamPath] : [logPath], passThrough: false)
        guard testRun.hasTestOutput else {
            terminal.error(
                "swiftcov: error: `swift test` exited with status \(status) before running tests (see \(logPath))\n")
            return .gateFailed
        }

        // 2. Coverage: SwiftPM's export when the tests passed, otherwise made from the raw profiles.
        var exportPath = try coverageExport(
            root: root, output: output, toolchain: toolchain, swiftOptions: swiftOptions, terminal: terminal)
        // Kept beside the report: what merging this run with others (shards) needs.
        let keptExport = output + "/" + CoverageInput.runExportName
        if exportPath != keptExport {
            try MappedFile(path: exportPath).withUnsafeBytes { bytes in
                try AtomicFile.write(bytes: bytes.assumingMemoryBound(to: UInt8.self), to: keptExport)
            }
            exportPath = keptExport
        }
        return try finish(
            arguments, root: root, output: output, exportPath: exportPath, testRun: testRun, status: status,
            configuration: configuration, baseline: baseline, terminal: &terminal)
    }

    /// Steps 2 to 5 of a run, from its export and test results: the report, the table and
    /// summary, the files CI keeps, the gate.
    private static func finish(
        _ arguments: ParsedArguments, root: String, output: String, exportPath: String, testRun: TestRun,
        status: Int32, configuration: GateConfiguration, baseline: CoverageBaseline?, terminal: inout Terminal
    ) throws -> ExitCode {
        var testRun = testRun
        var request = CoverageOptions.scopedRequest(inputs: [exportPath], root: root, from: arguments)
        request.adopt(configuration)
        let report = try request.makeReport(workingDirectory: root)
        testRun = testRun.resolving(with: TestLogInput.sourceIndex(report: report, workingDirectory: root))

        // 3. What a person reads: the coverage table and the test summary.
        var options = CoverageReportOptions()
        options.colors = terminal.usesColor(arguments)
        try terminal.out(CoverageTableReport.render(report, options: options))
        try terminal.out("\n" + TestSummaryTableReport.render(testRun, colors: options.colors))

        // 4. The files CI keeps.
        let timestamp = Terminal.currentTimestamp()
        let written = try HTMLSite.write(
            report, tests: testRun,
            extraFiles: CoverageOptions.failureFiles(of: testRun, report: report, request: request),
            to: output + "/html", options: HTMLReport.Options(generatedAt: timestamp))
        for warning in written.warnings { terminal.error("swiftcov: warning: \(warning.terminalSafe)\n") }
        let junit = JUnitReport.render(
            testRun,
            options: JUnitReport.Options(hostname: Terminal.hostname(), timestamp: String(timestamp.dropLast())))
        try AtomicFile.write(junit, to: output + "/junit.xml")
        let json = try CoverageJSONReport.render(report, options: CoverageReportOptions(showFunctions: true))
        try AtomicFile.write(TestSummaryJSONReport.render(testRun, addingTo: json), to: output + "/coverage.json")
        terminal.error("swiftcov: wrote \(output)/html/index.html, \(output)/junit.xml, \(output)/coverage.json\n")

        // 5. The gate: failed tests always count; thresholds when configured.
        let failed = testRun.suites.flatMap(\.cases).filter { $0.status == .failed || $0.status == .error }
            .map { test in
                FailedTest(
                    name: test.className == TestLogParser.swiftTestingSuiteName
                        ? test.name : "\(test.className).\(test.name)",
                    file: test.primaryLocation?.file, line: test.primaryLocation?.line,
                    message: test.failingIssues.first?.message ?? test.status.rawValue)
            }
        let result = Gate.evaluate(report, configuration: configuration, baseline: baseline, failedTests: failed)
        try terminal.out("\n" + GateReport.text(result))
        try CheckCommand.publishOnGitHub(report: report, result: result, terminal: terminal)
        return result.passed && status == 0 ? .success : .gateFailed
    }

    /// The `--filter` arguments that run `shard`'s tests, from `swift test list`; the shard's tests
    /// are written to `OUTPUT/shard-tests.txt`. The tests are built first as `swift test
    /// --enable-code-coverage` builds them, and listed from that build (`swift test list` alone
    /// builds without coverage, and `swift test` would then build everything again).
    static func shardFilters(
        _ shard: Shard, timings: TestTimings?, swiftOptions: [String], output: String, terminal: Terminal
    ) throws -> [String] {
        terminal.error("swiftcov: building the tests (swift build --build-tests --enable-code-coverage)\n")
        let built = try Subprocess.stream("swift", ["build", "--build-tests", "--enable-code-coverage"] + swiftOptions)
        {
            try? terminal.out(String(decoding: $0, as: UTF8.self))
        }
        // A failed build runs no test; `swift test` then shows why, in the log.
        guard built == 0 else { return ShardPlan.filterArguments(selecting: [], of: []) }
        terminal.error("swiftcov: listing the tests (swift test list)\n")
        let listed = try Subprocess.capture("swift", ["test", "list", "--skip-build"] + swiftOptions)
        let all = TestList.parse(listed.outputText).tests.map(\.id)
        guard listed.status == 0 else {
            throw UsageError(
                "`swift test list` exited with status \(listed.status): \(String(listed.errorText.suffix(2000)).terminalSafe)"
            )
        }
        let plan = ShardPlan(tests: all, count: shard.count, timings: timings)
        let selected = plan.tests(of: shard)
        var note = "swiftcov: shard \(shard): \(selected.count) of \(all.count) tests"
        if timings != nil {
            note += ", about \(JUnitReport.seconds(plan.expectedSeconds[shard.index - 1])) s by the timings"
        }
        terminal.error(note + "\n")
        try AtomicFile.write(selected.map { $0 + "\n" }.joined(), to: output + "/shard-tests.txt")
        return ShardPlan.filterArguments(selecting: selected, of: all)
    }

    /// The tests' times from an earlier run: its JUnit XML (or any test output swiftcov reads), or
    /// the `coverage.json` that `run` and `report --format json` write (times per suite).
    static func readTimings(_ path: String) throws -> TestTimings {
        let bytes = try MappedFile(path: path).withUnsafeBytes { Array($0) }
        if bytes.first == UInt8(ascii: "{") {
            let document: JSONValue
            do {
                document = try JSONValue.parse(bytes)
            } catch {
                let keyPath = bytes.withUnsafeBytes { JSONKeyPath.path(at: error.offset, in: $0) }
                throw CoverageInputError.malformed(
                    path: path, offset: error.offset, keyPath: keyPath, message: error.message)
            }
            guard case .array(let suites)? = document["tests"]?["suites"] else {
                throw UsageError("\(path): no \"tests\" with \"suites\" (give a junit.xml or the coverage.json of run)")
            }
            return TestTimings(
                suites: suites.compactMap { suite in
                    guard case .string(let name)? = suite["name"], case .number(let tests)? = suite["tests"],
                        case .number(let seconds)? = suite["time"]
                    else { return nil }
                    return (name, Int(tests), seconds)
                })
        }
        return TestTimings(try TestResultsReader.read(paths: [path], utcOffset: 0))
    }

    /// Where Swift Testing's event stream goes, and the `swift test` arguments that write it there:
    /// none when the user's arguments already ask for one (then it is read from their path).
    static func eventStream(_ userArguments: [String], output: String) -> (path: String, arguments: [String]) {
        let options = ["--experimental-event-stream-output", "--event-stream-output-path"]
        for (index, argument) in userArguments.enumerated() {
            for option in options {
                if argument == option, index + 1 < userArguments.count { return (userArguments[index + 1], []) }
                if argument.hasPrefix(option + "=") { return (String(argument.dropFirst(option.count + 1)), []) }
            }
        }
        let path = output + "/swift-testing-events.jsonl"
        return (path, ["--experimental-event-stream-output", path, "--experimental-event-stream-version", "0"])
    }

    /// The export for this run: SwiftPM's own when it wrote one during the run, else one made
    /// here from the `.profraw` files (SwiftPM writes none when a test failed).
    static func coverageExport(
        root: String, output: String, toolchain: Toolchain, swiftOptions: [String] = [], terminal: Terminal
    ) throws -> String {
        let codecovJSON =
            try Subprocess.capture("swift", ["test", "--show-codecov-path", "--enable-code-coverage"] + swiftOptions)
            .outputText.split(separator: "\n").last.map(String.init) ?? ""
        let codecov = String(codecovJSON[..<(codecovJSON.lastIndex(of: "/") ?? codecovJSON.startIndex)])
        let profraws = Terminal.files(in: codecov, withSuffix: ".profraw")
        guard !profraws.isEmpty else {
            if Terminal.fileSize(codecovJSON) > 0 { return codecovJSON }
            throw CoverageInputError.noExport(directory: codecov, profrawCount: 0)
        }
        let profdata = output + "/coverage.profdata"
        let merged = try toolchain.merge(profraws, into: profdata)
        guard merged.status == 0 else {
            throw CoverageInputError.unreadable(
                path: codecov, reason: "llvm-profdata: " + merged.errorText.terminalSafe)
        }
        let binPath =
            try Subprocess.capture("swift", ["build", "--show-bin-path", "--enable-code-coverage"] + swiftOptions)
            .outputText.split(separator: "\n").last.map(String.init) ?? ""
        var binaries = Terminal.files(in: binPath, withSuffix: "PackageTests.xctest").map { bundle in
            // On macOS the .xctest is a bundle; the binary is inside.
            let name = String(bundle.split(separator: "/").last!.dropLast(".xctest".count))
            let inner = bundle + "/Contents/MacOS/" + name
            return Terminal.fileSize(inner) > 0 ? inner : bundle
        }
        guard !binaries.isEmpty else { throw CoverageInputError.notFound(path: binPath + "/*PackageTests.xctest") }
        binaries = Array(binaries.prefix(1))
        let exported = try toolchain.export(profdata: profdata, binaries: binaries)
        guard exported.status == 0 else {
            throw CoverageInputError.unreadable(path: profdata, reason: "llvm-cov: " + exported.errorText.terminalSafe)
        }
        let exportPath = output + "/llvm-cov-export.json"
        try exported.output.withUnsafeBufferPointer { try AtomicFile.write(bytes: $0, to: exportPath) }
        terminal.error(
            "swiftcov: made the coverage from \(profraws.count) raw profile(s) with llvm-profdata and llvm-cov\n")
        return exportPath
    }
}

/// Progress of a running `swift test`: on a terminal one status line (tests passed and failed so
/// far, the test running now) with failures printed as they happen; elsewhere the output itself.
struct LiveProgress {
    let terminal: Terminal
    let live: Bool
    private var pending: [UInt8] = []
    private var passed = 0
    private var failed = 0
    private var skipped = 0
    private var current = ""

    init(terminal: Terminal, live: Bool) {
        self.terminal = terminal
        self.live = live
    }

    mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard live else {
            try? terminal.out(String(decoding: chunk, as: UTF8.self))  // the run goes on; the report is checked
            return
        }
        pending.append(contentsOf: chunk)
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            handle(line)
        }
    }

    private mutating func handle(_ line: String) {
        switch TestLogLine.parse(line) {
        case .testCaseStarted(let name)?: current = "\(name.className).\(name.method)"
        case .testCaseFinished(_, let status, _)?: count(status)
        case .testCaseIssue(let name, let location, let message)?:
            report("✘ \(name.className).\(name.method): \(message)" + (location.map { " (\($0))" } ?? ""))
        case .swiftTesting(.started(false, let name))?: current = name
        case .swiftTesting(.ended(false, _, _, let passed, _, _))?: count(passed ? .passed : .failed)
        case .swiftTesting(.skipped(false, _, _))?: skipped += 1
        case .swiftTesting(.issue(let name, _, let location, let kind, let message))?
        where kind == .failure || kind == .error:
            report("✘ \(name): \(message)" + (location.map { " (\($0))" } ?? ""))
        default: break
        }
        status()
    }

    private mutating func count(_ status: TestRun.Status) {
        switch status {
        case .passed: passed += 1
        case .skipped: skipped += 1
        default: failed += 1
        }
    }

    private func report(_ text: String) {
        terminal.error("\r\u{1B}[K" + text.terminalSafe + "\n")
    }

    private func status() {
        var text = "\(passed) passed, \(failed) failed, \(skipped) skipped"
        if !current.isEmpty { text += " — \(current)" }
        terminal.error("\r\u{1B}[K" + String(text.terminalSafe.prefix(120)))
    }

    func finish() {
        if live { terminal.error("\r\u{1B}[K") }
    }
}
