import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `swiftcov run --per-test`: each test alone, its lines recorded (the work is `PerTestRun`'s;
/// this shows it).
extension RunCommand {
    static let perTest = FlagOption(
        ["--per-test"],
        help:
            "Run each test alone, on every core, and record which lines it executed (per-test.swiftcov in the output folder)."
    )
    static let testTimeout = ValueOption<Double>(
        ["--test-timeout"], value: "SECONDS",
        help: "With --per-test: kill a test still running after SECONDS and report it as timed out. Default: 300.",
        expected: "a number of seconds above 0"
    ) { text in
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else { return nil }
        return seconds
    }

    /// Builds, lists and runs the tests one by one; leaves the log, the event stream and the export
    /// where a plain run leaves them. Returns the export's path, an exit status for the tests (0
    /// when every test passed or was skipped) and their results.
    static func runPerTest(
        _ options: Options, root: String, toolchain: Toolchain, clock: Clock, timings: TestTimings?,
        terminal: Terminal
    ) throws -> (exportPath: String, status: Int32, results: TestRun) {
        var run = PerTestRun(
            root: root, output: options.output, testArguments: options.testArguments,
            scratchPath: options.scratchPath)
        if let seconds = options.testTimeout { run.timeout = seconds }
        terminal.error("swiftcov: building the tests with coverage\n")
        var buildLog: [UInt8] = []
        // On a terminal the build's progress; elsewhere its output only when it fails.
        var progress = terminal.stderrIsTerminal ? LiveProgress(terminal: terminal, live: true) : nil
        let built = try run.build { chunk in
            buildLog.append(contentsOf: chunk)
            progress?.consume(chunk)
        }
        progress?.finish()
        guard built == 0 else {
            for line in String(decoding: buildLog, as: UTF8.self).split(separator: "\n").suffix(200) {
                terminal.error(String(line).terminalSafe + "\n")
            }
            throw Diagnostic("`swift build --build-tests` exited with status \(built)")
        }
        var tests = try run.listTests()
        guard !tests.isEmpty else { throw Diagnostic("`swift test list` lists no tests to run") }
        if let shard = options.shard {
            let all = tests.count
            let plan: ShardPlan
            (tests, plan) = try run.selectShard(shard, of: tests, timings: timings)
            var note = "shard \(shard): \(tests.count) of \(all) tests"
            if timings != nil {
                note += ", about \(JUnitReport.seconds(plan.expectedSeconds[shard.index - 1])) s by the timings"
            }
            terminal.emit(.note(note + " (listed in \(options.output)/shard-tests.txt)"))
            // A shard with no share (more shards than tests) still writes its outputs, every
            // count zero, so that a CI matrix of a fixed size passes and merges.
        }
        let binary = try run.testBinary()
        terminal.error("swiftcov: running \(tests.count) tests one by one, \(run.jobs) at a time\n")
        let live = terminal.stderrIsTerminal
        let done = Locked(0)
        let total = tests.count
        let (results, coverage) = try run.run(
            tests, toolchain: toolchain, binary: binary,
            recording: PerTestRun.recording(root: root, date: clock.utcTimestamp), note: { terminal.emit(.note($0)) }
        ) { result in
            let count = done.withLock { count -> Int in
                count += 1
                return count
            }
            let mark = result.outcome == .passed || result.outcome == .skipped ? "✔" : "✘"
            var line =
                "\(mark) [\(count)/\(total)] \(result.test.id) \(result.outcome.name) (\(result.milliseconds) ms)"
            if let problem = result.problem { line += ": \(problem)" }
            if live && result.problem == nil && mark == "✔" {
                terminal.error("\r\u{1B}[K" + String(line.terminalSafe.prefix(120)))
            } else {
                terminal.error((live ? "\r\u{1B}[K" : "") + line.terminalSafe + "\n")
            }
        }
        if live { terminal.error("\r\u{1B}[K") }
        let lines = coverage.files.map(\.lines.count).reduce(0, +)
        terminal.error(
            "swiftcov: recorded the lines of \(coverage.tests.count) tests over \(coverage.files.count) files "
                + "(\(lines) executable lines) in \(run.storePath) (\(Terminal.fileSize(run.storePath)) bytes)\n")
        let passed = results.allSatisfy { $0.outcome == .passed || $0.outcome == .skipped }
        let testRun = try run.testRun(of: results, utcOffset: clock.utcOffset)
        return (run.exportPath, passed ? 0 : 1, testRun)
    }
}
