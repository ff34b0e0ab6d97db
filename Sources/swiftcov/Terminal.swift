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

    func out(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    func error(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    private func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let result = SwiftCovCore_write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return  // e.g. EPIPE when piped into `head`: nothing more to say.
                }
                written += result
            }
        }
    }

    /// The current working directory.
    var workingDirectory: String {
        guard let path = getcwd(nil, 0) else { return "." }
        defer { free(path) }
        return String(cString: path)
    }
}

@inline(__always)
private func SwiftCovCore_write(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
