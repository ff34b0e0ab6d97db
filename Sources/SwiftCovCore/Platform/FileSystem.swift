#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What is at a path.
package enum FileKind: Sendable { case file, directory, other }

/// The file system's facts, asked one way: what is at a path, its size and age, a folder's
/// entries. Reading and writing files are `MappedFile`'s and `AtomicFile`'s; the run workflow
/// reaches all of them through `System`, so that a test can replace them.
package enum FileSystem {
    /// What is at `path` (following links, unless `followingLinks` is false); nil when nothing is.
    package static func kind(of path: String, followingLinks: Bool = true) -> FileKind? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        default: return .other
        }
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
