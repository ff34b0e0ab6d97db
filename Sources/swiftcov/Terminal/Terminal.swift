import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and error, and what they are connected to.
struct Terminal {
    /// Whether standard output is a terminal that may be coloured: a TTY, `NO_COLOR` unset, `TERM` not "dumb".
    var stdoutSupportsColor: Bool {
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return true
    }

    /// Whether standard error is a terminal (progress is only shown there).
    var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `text` to standard output; a failed write (a full disk, a closed pipe when
    /// SIGPIPE is ignored) is an error, so that truncated output never passes for complete.
    func out(_ text: String) throws(SystemCallError) {
        try AtomicFile.Destination.standardOutput().finish(writing: text)
    }

    /// Writes `text` to standard error. A failure cannot be reported there; it is remembered
    /// (`stderrFailed`) and turns a successful exit into exit 2.
    func error(_ text: String) {
        var text = text
        let failure = text.withUTF8 { FileDescriptor.write($0, to: STDERR_FILENO) }
        if failure != 0 { stderrFailed = true }
    }

    /// Whether a write to standard error failed.
    var stderrWriteFailed: Bool { stderrFailed }

    /// Where a command's output goes: `-o FILE` (see `AtomicFile.Destination`), or standard
    /// output. Commands open it before they read their inputs, as a shell opens `> FILE`
    /// before the command runs: an unwritable destination fails at once.
    func output(_ path: String?) throws(SystemCallError) -> AtomicFile.Destination {
        guard let path else { return .standardOutput() }
        return try AtomicFile.Destination(path)
    }

    /// The value of an environment variable.
    func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The current working directory.
    var workingDirectory: String { Terminal.currentDirectory }

    /// The current working directory (absolute).
    static var currentDirectory: String {
        guard let path = getcwd(nil, 0) else { return "." }
        defer { free(path) }
        return String(cString: path)
    }

    /// `path` (relative to the working directory, or absolute) as an absolute path.
    func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : workingDirectory + "/" + path
    }

    /// `path` as a person should read it: relative to the working directory when inside it.
    func displayPath(_ path: String) -> String {
        let cwd = workingDirectory
        if path == cwd { return "." }
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }

    /// The width of the terminal standard output is, nil when it is not one (or `COLUMNS` when set).
    var columns: Int? {
        if let text = environment("COLUMNS"), let value = Int(text), value > 0 { return value }
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The bytes of a small input file (a configuration, a baseline); `name` is how errors name it.
    static func readFile(_ path: String, name: String) throws(CoverageInputError) -> [UInt8] {
        let document: MappedFile
        do { document = try MappedFile(path: path) } catch { throw .unreadable(path: name, reason: error.message) }
        let bytes = document.withUnsafeBytes { Array($0) }
        guard !document.shrankWhileRead else { throw .unreadable(path: name, reason: MappedFile.shrankMessage) }
        return bytes
    }

    /// GitHub Actions, when running there: annotations and the job summary.
    var github: GitHubActions { GitHubActions(terminal: self) }

    /// The one status line of what a command wrote, on stderr: `swiftcov: wrote PATH, PATH — DETAIL`;
    /// with no path (a report on stdout), `swiftcov: DETAIL`.
    func status(wrote paths: [String], _ detail: String? = nil) {
        var text = SwiftCovCommand.tool + ":"
        if !paths.isEmpty { text += " wrote " + paths.joined(separator: ", ") }
        if let detail { text += (paths.isEmpty ? " " : " — ") + detail }
        error(text.terminalSafe + "\n")
    }

    /// Prints `diagnostic` on stderr the one way swiftcov prints them (see `Diagnostic`), its
    /// text made safe for a terminal; `command` names the command in usage errors. On GitHub
    /// Actions a warning also becomes an annotation.
    func emit(_ diagnostic: Diagnostic, command: String? = nil) {
        let program = command.map { "\(SwiftCovCommand.tool) \($0)" } ?? SwiftCovCommand.tool
        // Messages quote inputs (names, values): never let them drive the terminal.
        var text = diagnostic.formatted(program: program).terminalSafeKeepingLines + "\n"
        if diagnostic.kind == .usage, let command {
            text += "Usage: see '\(SwiftCovCommand.tool) \(command) --help'\n"
        }
        error(text)
        if diagnostic.severity == .warning {
            var message = diagnostic.message
            var line: Int?
            switch diagnostic.location {
            case .keyPath(let keyPath)?: message = keyPath + ": " + message
            case .line(let number, _)?: line = number
            default: break
            }
            github.annotate([
                GitHubAnnotation(.warning, file: diagnostic.file, line: line, title: "swiftcov", message: message)
            ])
        }
    }
}

/// Whether a write to standard error failed (the tool is single-threaded where it writes there).
nonisolated(unsafe) private var stderrFailed = false

extension AtomicFile.Destination {
    /// Writes `report` in `format`, streamed (see `Report`), and puts the output in place.
    func finish<R: Report>(writing report: R, as format: R.Format) throws {
        var output = streamingBuffer()
        try report.write(format, to: &output)
        try finish(output)
    }
}
