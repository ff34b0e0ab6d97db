import SwiftCovCore

/// "Reading coverage.json (512 MB)…" on a terminal while a large export is read.
struct Progress {
    private let terminal: Terminal
    private let shown: Bool

    init(terminal: Terminal, inputs: [String]) {
        self.terminal = terminal
        let bytes = inputs.map { FileSystem.size(of: $0) ?? 0 }.reduce(0, +)
        shown = terminal.stderrIsTerminal && bytes >= 32 << 20
        if shown {
            let names = inputs.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", ")
            terminal.error("Reading \(names) (\(bytes >> 20) MB)…")
        }
    }

    func finish() {
        if shown { terminal.error("\r\u{1B}[K") }
    }
}
