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

    /// The `--color` option every command that prints a table accepts.
    static let colorOption = CommandSpec.Option(
        ["--color"], value: "WHEN", choices: ["auto", "always", "never"],
        help: "Colour percentages. Default: auto (terminal, no NO_COLOR).")

    /// Whether to colour output, as `--color` asks: `auto` colours only what goes to a terminal
    /// that may be coloured, never what goes to a file (`writesToFile`).
    func usesColor(_ arguments: ParsedArguments, writesToFile: Bool = false) -> Bool {
        switch arguments.value("--color") ?? "auto" {
        case "always": true
        case "never": false
        default: !writesToFile && stdoutSupportsColor
        }
    }

    /// Whether standard error is a terminal (progress is only shown there).
    var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `text` to standard output; a failed write (a full disk, a closed pipe when
    /// SIGPIPE is ignored) is an error, so that truncated output never passes for complete.
    func out(_ text: String) throws(AtomicFile.WriteError) {
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
    func output(_ path: String?) throws(AtomicFile.WriteError) -> AtomicFile.Destination {
        guard let path else { return .standardOutput() }
        return try AtomicFile.Destination(path)
    }

    /// The value of an environment variable.
    func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Appends `text` to a file that others append to as well (GitHub's job summary).
    func append(_ text: String, toFile path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            error("swiftcov: warning: cannot write the job summary to \(path)\n")
            return
        }
        var text = text
        let failure = text.withUTF8 { FileDescriptor.write($0, to: descriptor) }
        close(descriptor)
        if failure != 0 { error("swiftcov: warning: cannot write the job summary to \(path)\n") }
    }

    /// The size of a regular file, 0 for anything else.
    static func fileSize(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return Int(info.st_size)
    }

    /// Now, as an ISO 8601 UTC timestamp ("2026-11-22T14:30:00Z").
    static func currentTimestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// This machine's name, for JUnit's `hostname`.
    static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The paths of the entries of `folder` whose names end with `suffix`, sorted.
    static func files(in folder: String, withSuffix suffix: String) -> [String] {
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

    /// The current working directory.
    var workingDirectory: String {
        guard let path = getcwd(nil, 0) else { return "." }
        defer { free(path) }
        return String(cString: path)
    }
}

/// Whether a write to standard error failed (the tool is single-threaded where it writes there).
nonisolated(unsafe) private var stderrFailed = false
