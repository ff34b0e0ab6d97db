#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file lines are added to and never rewritten in place (the history of runs): each append
/// goes to its end, on a line of its own, under a lock that the file's other writers share.
package enum AppendOnlyFile {
    /// Adds `lines` (ending with a newline) at the end of the file at `path` (created when
    /// missing), starting on a line of their own after a last line cut short. Another process
    /// appending at once never interleaves within a write (`O_APPEND`). An append that fails (a
    /// full disk) is taken back: the file is cut to its size before, so no half-written line
    /// stays (writers that hold `withLock` never see it).
    package static func append(_ lines: String, to path: String) throws(SystemCallError) {
        let descriptor = SystemCalls.open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemCallError(.write, path: path, errno: errno) }
        defer { close(descriptor) }
        var text = lines
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemCallError(.write, path: path, errno: errno) }
        let size = Int(info.st_size)
        if size > 0 {
            var last: UInt8 = 0
            if SystemCalls.read(descriptor, &last, 1, at: size - 1) == 1, last != UInt8(ascii: "\n") {
                text = "\n" + text
            }
        }
        let failure = text.withUTF8 { FileDescriptor.write($0, to: descriptor) }
        guard failure == 0 else {
            _ = ftruncate(descriptor, off_t(size))
            throw SystemCallError(.write, path: path, errno: failure)
        }
    }

    /// Runs `body` holding the lock of the file at `path`: `flock` on `PATH.lock` beside it (the
    /// file itself may be replaced while locked, by a compaction), so that its writers take turns.
    package static func withLock<R>(of path: String, _ body: () throws -> R) throws -> R {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let descriptor = try OutputLock.acquire(
            folder: folder.isEmpty ? "." : folder,
            fileName: String(path.split(separator: "/").last ?? "history") + ".lock", waiting: {})
        defer { OutputLock.release(descriptor) }
        return try body()
    }
}
