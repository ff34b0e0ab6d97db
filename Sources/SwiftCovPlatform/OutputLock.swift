#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `run` at a time writes an output folder: a lock (`flock`) on a file in it, held until the
/// process ends (the kernel releases it then, however it ends). A second run in the same folder
/// waits for the first instead of mixing its files with the first's.
package enum OutputLock {
    /// The lock file's name in the folder.
    package static let fileName = ".swiftcov.lock"

    /// Takes the lock of `folder` (created when missing), calling `waiting` first when another
    /// holds it; returns when this process holds it, with the descriptor that holds it (kept
    /// open until the process ends, or given to `release`).
    @discardableResult
    package static func acquire(_ folder: String, waiting: () -> Void) throws(SystemCallError) -> Int32 {
        try acquire(folder: folder, fileName: fileName, waiting: waiting)
    }

    /// Takes the lock on the file `fileName` of `folder` (both created when missing), as
    /// `acquire(_:waiting:)` does: the history's writers share one this way.
    package static func acquire(
        folder: String, fileName: String, waiting: () -> Void
    ) throws(SystemCallError) -> Int32 {
        try AtomicFile.makeDirectory(folder)
        let path = folder + "/" + fileName
        // Close-on-exec: a program swiftcov starts must not keep the lock after swiftcov ends.
        let descriptor = SystemCalls.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SystemCallError(.lock, path: path, errno: errno) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return descriptor }
        guard errno == EWOULDBLOCK else {
            let code = errno
            close(descriptor)
            throw SystemCallError(.lock, path: path, errno: code)
        }
        waiting()
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(descriptor)
                throw SystemCallError(.lock, path: path, errno: code)
            }
        }
        return descriptor
    }

    /// Lets the lock `acquire` returned go.
    package static func release(_ descriptor: Int32) {
        close(descriptor)
    }
}
