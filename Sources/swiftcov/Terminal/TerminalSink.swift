import SwiftCovCore

/// The run workflow's diagnostics sink on the terminal: notes and warnings as diagnostics, each
/// stage as a `swiftcov: …` status line, the programs' output through `LiveProgress` (one status
/// line on a terminal, the output itself elsewhere), and each test run alone as one line.
final class TerminalSink: DiagnosticSink, @unchecked Sendable {
    private let terminal: Terminal
    private let live: Bool
    /// The progress of the program running now; guarded by `lock`.
    private var progress: LiveProgress?
    private let lock = Locked(())

    init(terminal: Terminal) {
        self.terminal = terminal
        live = terminal.stderrIsTerminal
    }

    func emit(_ diagnostic: Diagnostic) {
        terminal.emit(diagnostic)
    }

    func stage(_ description: String) {
        terminal.error(SwiftCovCommand.tool + ": " + description + "\n")
    }

    func output(_ bytes: UnsafeBufferPointer<UInt8>) {
        lock.withLock { _ in
            if progress == nil { progress = LiveProgress(terminal: terminal, live: live) }
            progress!.consume(bytes)
        }
    }

    func outputEnded(errors: @autoclosure () -> String?) {
        lock.withLock { _ in
            progress?.finish()
            progress = nil
        }
        // Piped, the output was shown as it came; on a terminal the errors were behind the status line.
        if live, let errors = errors(), !errors.isEmpty { terminal.error(errors.terminalSafeKeepingLines + "\n") }
    }

    func testEnded(_ result: PerTestRunner.Result, count: Int, of total: Int) {
        let mark = result.outcome == .passed || result.outcome == .skipped ? "✔" : "✘"
        var line = "\(mark) [\(count)/\(total)] \(result.test.id) \(result.outcome.name) (\(result.milliseconds) ms)"
        if let problem = result.problem { line += ": \(problem)" }
        if live && result.problem == nil && mark == "✔" {
            terminal.error("\r\u{1B}[K" + String(line.terminalSafe.prefix(120)))
        } else {
            terminal.error((live ? "\r\u{1B}[K" : "") + line.terminalSafe + "\n")
        }
        if live && count == total { terminal.error("\r\u{1B}[K") }
    }
}
