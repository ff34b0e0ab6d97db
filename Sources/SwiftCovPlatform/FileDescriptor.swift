#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading and writing an open file descriptor: standard input, a pipe, a file read as it comes.
/// (A file read whole is `MappedFile`'s; a report written whole is `AtomicFile`'s.)
package enum FileDescriptor {
    /// Standard input.
    package static let standardInput: Int32 = STDIN_FILENO

    /// Opens the file at `path` for reading; its descriptor, to be given to `close`.
    package static func openForReading(_ path: String) throws(SystemCallError) -> Int32 {
        let descriptor = SystemCalls.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallError(.read, path: path, errno: errno) }
        return descriptor
    }

    /// Closes a descriptor `openForReading` gave.
    package static func close(_ descriptor: Int32) {
        _ = systemClose(descriptor)
    }

    /// What `descriptor` is open on, and its size (0 for all but a regular file); nil when the
    /// system cannot tell.
    package static func status(of descriptor: Int32) -> (kind: FileKind, size: Int)? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let kind = FileSystem.kind(info)
        return (kind, kind == .file ? Int(info.st_size) : 0)
    }

    /// Reads at most `count` bytes into `buffer`: how many (0 at the end), or nil when a signal
    /// interrupted the read (for a reader that may stop then; call again to go on). `path` is
    /// for the error.
    package static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, path: String
    ) throws(SystemCallError) -> Int? {
        let result = SystemCalls.read(descriptor, buffer, count, returningInterruptions: true)
        guard result < 0 else { return result }
        if errno == EINTR { return nil }
        throw SystemCallError(.read, path: path, errno: errno)
    }

    /// Writes all of `bytes`, going on after partial writes: 0, or the `errno` of the write that
    /// failed (ENOSPC, EPIPE, EIO…).
    package static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var written = 0
        while written < bytes.count {
            let result = SystemCalls.write(descriptor, base + written, bytes.count - written)
            if result < 0 { return errno }
            written += result
        }
        return 0
    }
}

@inline(__always)
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
