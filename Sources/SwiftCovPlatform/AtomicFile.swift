#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes output files all at once: a temporary file in the same folder, renamed over the
/// target when complete, so that CI never reads a half-written report. Only regular files are
/// replaced so; devices, FIFOs and sockets are written straight through (see `Destination`).
package enum AtomicFile {
    /// The process's umask, which new files and folders get their permissions through, as a
    /// shell's `>` and `mkdir` give them (`mkstemp` and `mkdtemp` make them private). Read once:
    /// the umask can only be read by setting it, which other threads must not see.
    package static let creationMask: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()

    /// Creates the folder at `path` and the folders above it, as `mkdir -p` does.
    package static func makeDirectory(_ path: String) throws(SystemCallError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if SystemCalls.makeDirectory(built, 0o755) != 0 && errno != EEXIST {
                throw SystemCallError(.createFolder, path: path, errno: errno)
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw SystemCallError(.createFolder, path: path, errno: ENOTDIR)
        }
    }

    /// Replaces the file at `path` with `contents`.
    package static func write(_ contents: String, to path: String) throws(SystemCallError) {
        try Destination(path).finish(writing: contents)
    }

    /// Replaces the file at `path` with `bytes`. `durable` also flushes it to the disk before
    /// the rename (for files CI reads; a report of hundreds of pages can skip it).
    package static func write(bytes: UnsafeBufferPointer<UInt8>, to path: String, durable: Bool = true)
        throws(SystemCallError)
    {
        try Destination(path, durable: durable).finish(writing: bytes)
    }

    /// An open output: where a report is written, and how it is put in place when complete.
    ///
    /// - A regular file, or a path that does not exist yet, is written to a temporary file in
    ///   the same folder (`.NAME.XXXXXX`) that is renamed over it by `finish`; an existing
    ///   file keeps its permissions. A symbolic link is followed to the file it names, which
    ///   is replaced so; the link stays a link.
    /// - A character or block device (`/dev/null`), a FIFO or a socket is opened and written
    ///   straight through: replacing it would break it for everyone else.
    /// - Standard output, `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are the descriptors
    ///   swiftcov already has, written at their position (a `>>` log stays appended to).
    ///
    /// A destination given up without `finish` (an error, a bad input) removes its temporary
    /// file, and so does a signal (`TemporaryPaths`): the target is left as it was.
    package final class Destination {
        /// The path as given, or "standard output": what messages name.
        package let path: String
        /// Where the bytes go.
        package let descriptor: Int32
        /// The temporary file and the file it is renamed over, for an atomic write.
        private let replacement: (temporary: String, target: String)?
        private let closesDescriptor: Bool
        private let durable: Bool
        private var isOpen = true

        /// Standard output.
        package static func standardOutput() -> Destination {
            Destination(path: "standard output", descriptor: STDOUT_FILENO)
        }

        private init(path: String, descriptor: Int32) {
            self.path = path
            self.descriptor = descriptor
            replacement = nil
            closesDescriptor = false
            durable = false
        }

        /// Opens `path` for writing as described above. Opening a FIFO waits for a reader, as
        /// a shell's `>` does.
        package init(_ path: String, durable: Bool = true) throws(SystemCallError) {
            self.path = path
            self.durable = durable
            switch try Self.resolve(path) {
            case .inherited(let descriptor):
                guard fcntl(descriptor, F_GETFD) >= 0 else { throw SystemCallError(.write, path: path, errno: EBADF) }
                self.descriptor = descriptor
                replacement = nil
                closesDescriptor = false
            case .straightThrough:
                let descriptor = SystemCalls.open(path, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC)
                guard descriptor >= 0 else { throw SystemCallError(.write, path: path, errno: errno) }
                self.descriptor = descriptor
                replacement = nil
                closesDescriptor = true
            case .replace(let target, let existing):
                let slash = target.lastIndex(of: "/")
                let folder = slash.map { target[..<$0].isEmpty ? "/" : String(target[..<$0]) } ?? "."
                let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
                let (descriptor, temporary) = try TemporaryPaths.withCleanupHeld { () throws(SystemCallError) in
                    var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
                    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                    guard descriptor >= 0 else { throw SystemCallError(.write, path: path, errno: errno) }
                    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                    TemporaryPaths.register(temporary)
                    return (descriptor, temporary)
                }
                if let existing {
                    // Keep the file's owner (when running as root) and permissions.
                    _ = fchown(descriptor, existing.st_uid, existing.st_gid)
                    fchmod(descriptor, existing.st_mode & 0o7777)
                } else {
                    fchmod(descriptor, 0o666 & ~AtomicFile.creationMask)
                }
                self.descriptor = descriptor
                replacement = (temporary, target)
                closesDescriptor = true
            }
        }

        deinit {
            guard isOpen else { return }
            if closesDescriptor { close(descriptor) }
            if let replacement {
                unlink(replacement.temporary)
                TemporaryPaths.unregister(replacement.temporary)
            }
        }

        /// Writes `text` and puts the output in place.
        package func finish(writing text: String) throws(SystemCallError) {
            var text = text
            let result: Result<Void, SystemCallError> = text.withUTF8 { bytes in
                Result { () throws(SystemCallError) in try finish(writing: bytes) }
            }
            try result.get()
        }

        /// Writes `bytes` and puts the output in place.
        package func finish(writing bytes: UnsafeBufferPointer<UInt8>) throws(SystemCallError) {
            let failure = FileDescriptor.write(bytes, to: descriptor)
            guard failure == 0 else { throw SystemCallError(.write, path: path, errno: failure) }
            try finish()
        }

        /// Puts the output in place: the rename of an atomic write, the close of another.
        package func finish() throws(SystemCallError) {
            guard isOpen else { return }
            isOpen = false
            guard let replacement else {
                if closesDescriptor && close(descriptor) != 0 && errno != EINTR {
                    throw SystemCallError(.write, path: path, errno: errno)
                }
                return
            }
            var failure: Int32 = 0
            if durable && SystemCalls.sync(descriptor) != 0 { failure = errno }
            if close(descriptor) != 0 && failure == 0 && errno != EINTR { failure = errno }
            if failure == 0 {
                failure = TemporaryPaths.withCleanupHeld {
                    guard SystemCalls.rename(replacement.temporary, replacement.target) == 0 else { return errno }
                    TemporaryPaths.unregister(replacement.temporary)
                    return 0
                }
            }
            if failure != 0 {
                unlink(replacement.temporary)
                TemporaryPaths.unregister(replacement.temporary)
                throw SystemCallError(.write, path: path, errno: failure)
            }
        }

        /// How an output path is written.
        private enum Resolution {
            /// A descriptor swiftcov already has.
            case inherited(Int32)
            /// Opened and written in place: a device, FIFO or socket.
            case straightThrough
            /// A regular file (`existing`) or a new one, replaced by a rename.
            case replace(target: String, existing: stat?)
        }

        private static func resolve(_ path: String) throws(SystemCallError) -> Resolution {
            if let descriptor = inheritedDescriptor(path) { return .inherited(descriptor) }
            var current = path
            for _ in 0..<40 {
                var info = stat()
                guard lstat(current, &info) == 0 else {
                    guard errno == ENOENT else { throw SystemCallError(.write, path: path, errno: errno) }
                    return .replace(target: current, existing: nil)
                }
                switch info.st_mode & S_IFMT {
                case S_IFREG:
                    return .replace(target: current, existing: info)
                case S_IFDIR:
                    throw SystemCallError(.write, path: path, errno: EISDIR)
                case S_IFLNK:
                    guard let link = readLink(current) else { throw SystemCallError(.write, path: path, errno: errno) }
                    // `/dev/stdout` and the like lead into /proc, whose links name no real path.
                    if link.hasPrefix("/proc/") { return .straightThrough }
                    if link.hasPrefix("/") {
                        current = link
                    } else if let slash = current.lastIndex(of: "/") {
                        current = String(current[...slash]) + link
                    } else {
                        current = link
                    }
                default:
                    return .straightThrough
                }
            }
            throw SystemCallError(.write, path: path, errno: ELOOP)
        }

        /// The descriptor a path names (`/dev/stdout`, `/dev/fd/3`), if it names one.
        private static func inheritedDescriptor(_ path: String) -> Int32? {
            switch path {
            case "/dev/stdout": return STDOUT_FILENO
            case "/dev/stderr": return STDERR_FILENO
            default:
                for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                    return Int32(path.dropFirst(prefix.count))
                }
                return nil
            }
        }

        private static func readLink(_ path: String) -> String? {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(path, &buffer, buffer.count - 1)
            guard length >= 0 else { return nil }
            return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
