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
        guard let resolved = realpath(path, nil) else { return nil }
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
}
