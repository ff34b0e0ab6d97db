#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An output folder written whole or not at all: built in a temporary folder beside it
/// (`.NAME.XXXXXX`) and swapped in when complete (the old folder renamed aside, the new one
/// renamed in, the old one deleted). A crash, a signal or a bad input never leaves half a folder,
/// and nothing of an earlier run stays behind. A folder that exists is replaced only when
/// `mayReplace` allows it (`-o ~` must not delete anyone's files).
package final class StagedFolder {
    /// Why the folder could not be written.
    package enum Failure: Error, Equatable {
        case cannotWrite(SystemCallError)
        /// The output folder exists and `mayReplace` refused it.
        case refused(String)
    }

    /// The output folder as given (for messages).
    package let directory: String
    /// The folder to build in.
    package let path: String
    /// The output folder with its links resolved.
    private let target: String
    /// Whether `target` exists (and is to be swapped out).
    private let replacesFolder: Bool
    private var isOpen = true

    /// Checks that `directory` may be replaced (it does not exist, or `mayReplace` says so of
    /// the folder it is) and makes the folder to build in, beside it.
    package init(directory: String, mayReplace: (String) -> Bool) throws(Failure) {
        self.directory = directory
        var info = stat()
        if stat(directory, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR, let real = FileSystem.realPath(directory) else {
                throw .cannotWrite(SystemCallError(.write, path: directory, errno: ENOTDIR))
            }
            guard mayReplace(real) else { throw .refused(directory) }
            target = real
            replacesFolder = true
        } else if errno == ENOENT {
            var path = directory
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            target = path
            replacesFolder = false
            if let parent = Self.parent(of: target) {
                do {
                    try AtomicFile.makeDirectory(parent)
                } catch {
                    throw .cannotWrite(error)
                }
            }
        } else {
            throw .cannotWrite(SystemCallError(.write, path: directory, errno: errno))
        }
        path = try Self.makeTemporaryFolder(beside: target, reportingAs: directory)
        chmod(path, replacesFolder ? info.st_mode & 0o7777 : 0o777 & ~AtomicFile.creationMask)
    }

    deinit {
        guard isOpen else { return }
        TemporaryPaths.removeTree(path)
        TemporaryPaths.unregister(path)
    }

    /// `error` naming the output folder where it names the folder built in, which is gone by
    /// the time the message is read (".site.Ab3dE/files/a.html" → "site/files/a.html").
    package func naming(_ error: SystemCallError) -> SystemCallError {
        guard error.path == path || error.path.hasPrefix(path + "/") else { return error }
        var named = error
        named.path = directory + error.path.dropFirst(path.count)
        return named
    }

    /// Renames the built folder into place, and the folder it replaces aside and away.
    package func swapIn() throws(Failure) {
        isOpen = false
        let aside: String? = try TemporaryPaths.withCleanupHeld { () throws(Failure) -> String? in
            guard replacesFolder else {
                if SystemCalls.rename(path, target) != 0 { throw failure(errno) }
                TemporaryPaths.unregister(path)
                return nil
            }
            // Renamed over an empty folder of a unique name: a rename cannot make one.
            let aside = try Self.makeTemporaryFolder(beside: target, reportingAs: directory)
            if SystemCalls.rename(target, aside) != 0 {
                let code = errno
                rmdir(aside)
                TemporaryPaths.unregister(aside)
                throw failure(code)
            }
            if SystemCalls.rename(path, target) != 0 {
                let code = errno
                _ = SystemCalls.rename(aside, target)
                TemporaryPaths.unregister(aside)
                throw failure(code)
            }
            TemporaryPaths.unregister(path)
            return aside
        }
        if let aside {
            TemporaryPaths.removeTree(aside)
            TemporaryPaths.unregister(aside)
        }
    }

    private func failure(_ code: Int32) -> Failure {
        isOpen = true  // the deinit removes the folder built
        return .cannotWrite(SystemCallError(.write, path: directory, errno: code))
    }

    /// The folder `path` is in, if it names one ("a/b" → "a", "/b" → "/", "b" → nil).
    static func parent(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func makeTemporaryFolder(beside path: String, reportingAs name: String) throws(Failure) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? "site"
        do {
            return try FileSystem.makeTemporaryFolder((parent(of: path) ?? ".") + "/." + base + ".")
        } catch {
            throw .cannotWrite(SystemCallError(.write, path: name, errno: error.errno))
        }
    }
}
