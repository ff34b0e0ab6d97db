#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What is at a path.
package enum FileKind: Sendable {
    case file, directory, fifo, device, socket
    /// A symbolic link (only when links are not followed).
    case symbolicLink
    /// Symbolic links that lead to one another without end (or too many in a row).
    case loop

    /// What it is, for a message: "a FIFO", "a device".
    package var noun: String {
        switch self {
        case .file: "a regular file"
        case .directory: "a folder"
        case .fifo: "a FIFO (named pipe)"
        case .device: "a device"
        case .socket: "a socket"
        case .symbolicLink: "a symbolic link"
        case .loop: "a loop of symbolic links"
        }
    }
}

/// The file system's facts, asked one way: what is at a path, its size and age, a folder's
/// entries. Reading and writing files are `MappedFile`'s and `AtomicFile`'s; the run workflow
/// reaches all of them through `System`, so that a test can replace them.
package enum FileSystem {
    /// What is at `path` (following links, unless `followingLinks` is false); nil when nothing is
    /// (a link to nothing included), `.loop` for links that never end. Never opens the file, so
    /// a FIFO is told without waiting for a writer.
    package static func kind(of path: String, followingLinks: Bool = true) -> FileKind? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
            return errno == ELOOP ? .loop : nil
        }
        return kind(info)
    }

    /// What is at `path` (links followed) and its size (0 for all but a regular file); never
    /// opens it.
    package static func status(of path: String) throws(SystemCallError) -> (kind: FileKind, size: Int) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SystemCallError(.read, path: path, errno: errno) }
        let kind = kind(info)
        return (kind, kind == .file ? Int(info.st_size) : 0)
    }

    /// What `stat` says is there.
    static func kind(_ info: stat) -> FileKind {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        case S_IFIFO: return .fifo
        case S_IFCHR, S_IFBLK: return .device
        case S_IFSOCK: return .socket
        default: return .symbolicLink
        }
    }

    /// `path` with every link followed and no `.` or `..` left; nil when it leads nowhere.
    package static func realPath(_ path: String) -> String? {
        try? resolvedPath(path)
    }

    /// `path` with every link followed and no `.` or `..` left, or why it leads nowhere.
    package static func resolvedPath(_ path: String) throws(SystemCallError) -> String {
        guard let resolved = realpath(path, nil) else { throw SystemCallError(.read, path: path, errno: errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The size of the regular file at `path`; nil when there is none.
    package static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// When `path` was last modified, in nanoseconds since 1970; 0 when nothing is there.
    package static func modificationTime(of path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        #if canImport(Darwin)
            return Int(info.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtimespec.tv_nsec)
        #else
            return Int(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtim.tv_nsec)
        #endif
    }

    /// Whether `path` can be executed.
    package static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// The names of the entries of `folder` (not `.` and `..`), in the order the system gives
    /// them; nil when it cannot be read.
    package static func entries(of folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the file (not a folder) at `path`; whether there was one.
    @discardableResult
    package static func remove(_ path: String) -> Bool {
        unlink(path) == 0
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter); opening never
    /// waits (a FIFO).
    package static func prefix(_ count: Int, of path: String) throws(SystemCallError) -> [UInt8] {
        let descriptor = SystemCalls.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallError(.read, path: path, errno: errno) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { SystemCalls.read(descriptor, $0.baseAddress!, count) }
        guard read >= 0 else { throw SystemCallError(.read, path: path, errno: errno) }
        return Array(bytes[..<read])
    }

    /// Makes a new folder named `prefix` followed by six unique characters, removed if a signal
    /// ends swiftcov before it is unregistered (`TemporaryPaths`); its path.
    package static func makeTemporaryFolder(_ prefix: String) throws(SystemCallError) -> String {
        try TemporaryPaths.withCleanupHeld { () throws(SystemCallError) -> String in
            var template = Array((prefix + "XXXXXX").utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
                throw SystemCallError(.createFolder, path: prefix + "XXXXXX", errno: errno)
            }
            let folder = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            TemporaryPaths.register(folder)
            return folder
        }
    }

    /// The paths `pattern` (a shell wildcard pattern: `*`, `?`, `[…]`) matches, sorted; none
    /// when it matches nothing or cannot be read.
    package static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        #if canImport(Darwin)
            let status = Darwin.glob(pattern, 0, nil, &result)
        #else
            let status = Glibc.glob(pattern, 0, nil, &result)
        #endif
        guard status == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }
    }

    /// Makes `path` a new name of the file at `existing` (a hard link); whether it could.
    package static func link(_ existing: String, as path: String) -> Bool {
        systemLink(existing, path) == 0
    }
}

private func systemLink(_ existing: String, _ path: String) -> Int32 {
    link(existing, path)
}
