import SwiftCovCore

/// Progress of a running `swift test` (or `swift build`): on a terminal one status line — the
/// build's step and module while it builds, then the tests passed and failed so far and the test
/// running now — with failures printed as they happen; elsewhere the output itself.
struct LiveProgress {
    let terminal: Terminal
    let live: Bool
    private var pending: [UInt8] = []
    private var passed = 0
    private var failed = 0
    private var skipped = 0
    private var current = ""
    /// The build's last progress line, until the first test starts.
    private var building: BuildProgress?
    private var testsStarted = false
    private var buildComplete = false

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
        if !testsStarted, let progress = BuildProgress.parse(line[...]) {
            building = progress
            status()
            return
        }
        if line.hasPrefix("Build complete!") { buildComplete = true }
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
        if !current.isEmpty || passed + failed + skipped > 0 { testsStarted = true }
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
        if !testsStarted {
            // Until the first test starts: the build's progress, not "0 passed" for minutes.
            let text = buildComplete ? "Build complete; starting the tests" : building?.description ?? "Starting…"
            terminal.error("\r\u{1B}[K" + String(text.terminalSafe.prefix(120)))
            return
        }
        var text = "\(passed) passed, \(failed) failed, \(skipped) skipped"
        if !current.isEmpty { text += " — \(current)" }
        terminal.error("\r\u{1B}[K" + String(text.terminalSafe.prefix(120)))
    }

    func finish() {
        if live { terminal.error("\r\u{1B}[K") }
    }
}
