#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes output files all at once: a temporary file in the same folder, renamed over the
/// target when complete, so that CI never reads a half-written report.
package enum AtomicFile {
    /// Why a file could not be written.
    package struct WriteError: Error, Equatable, CustomStringConvertible {
        package var path: String
        package var reason: String

        package var description: String { "\(path): error: cannot write: \(reason)" }
    }

    /// Creates the folder at `path` and the folders above it, as `mkdir -p` does.
    package static func makeDirectory(_ path: String) throws(WriteError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw WriteError(path: path, reason: "cannot create folder: " + String(cString: strerror(errno)))
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw WriteError(path: path, reason: "cannot create folder: not a folder")
        }
    }

    /// Replaces the file at `path` with `contents`.
    package static func write(_ contents: String, to path: String) throws(WriteError) {
        var contents = contents
        let result: Result<Void, WriteError> = contents.withUTF8 { bytes in
            Result { () throws(WriteError) in try write(bytes: bytes, to: path) }
        }
        try result.get()
    }

    /// Replaces the file at `path` with `bytes`. `durable` also flushes it to the disk before
    /// the rename (for files CI reads; a report of hundreds of pages can skip it).
    package static func write(bytes: UnsafeBufferPointer<UInt8>, to path: String, durable: Bool = true)
        throws(WriteError)
    {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var failure: String?
        do {
            var written = 0
            while written < bytes.count {
                let result = Glibc_write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    break
                }
                written += result
            }
        }
        if failure == nil && durable && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        fchmod(descriptor, 0o644)
        close(descriptor)
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
    }
}

@inline(__always)
private func Glibc_write(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
