#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Copies a regular file into a new one through a buffer of `chunk` bytes: memory stays bounded
/// whatever the size (a 20 GB screen recording), and a sparse file's holes stay holes (only its
/// data is read and written, where the system says where data is), so a file grown by `truncate`
/// costs neither time nor disk.
package enum FileCopy {
    /// Why the file could not be copied: reading `source`, or writing `destination`.
    package enum Failure: Error, Equatable {
        case cannotRead(String)
        case cannotWrite(SystemCallError)
    }

    /// The bytes moved at a time.
    static let chunk = 1 << 20

    #if os(Linux)
        /// `lseek`'s SEEK_DATA and SEEK_HOLE (Linux's values; the C library's module hides them).
        static let seekData: Int32 = 3
        static let seekHole: Int32 = 4
    #endif

    /// Copies the regular file `source` (a link is not followed) into `destination`, which must
    /// not exist; gives the bytes copied. What was written is removed when the copy fails.
    @discardableResult
    package static func copy(from source: String, to destination: String) throws(Failure) -> Int {
        let input = SystemCalls.open(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { throw .cannotRead(SystemCallError.message(errno)) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw .cannotRead(SystemCallError.message(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .cannotRead("not a regular file") }
        let size = Int(info.st_size)
        let output = SystemCalls.open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard output >= 0 else { throw .cannotWrite(SystemCallError(.write, path: destination, errno: errno)) }
        var closed = false
        defer { if !closed { close(output) } }
        func fail(_ failure: Failure) -> Failure {
            close(output)
            closed = true
            unlink(destination)
            return failure
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < size {
            // Where the next data is, and where it ends (the whole file where holes are unknown).
            var start = offset
            var end = size
            #if os(Linux)
                let data = lseek(input, off_t(offset), seekData)
                if data < 0 {
                    if errno == ENXIO { break }  // holes to the end
                } else {
                    start = Int(data)
                    let hole = lseek(input, off_t(start), seekHole)
                    if hole > start { end = min(size, Int(hole)) }
                }
            #endif
            var position = start
            while position < end {
                let count = SystemCalls.read(input, buffer.baseAddress!, min(chunk, end - position), at: position)
                if count < 0 { throw fail(.cannotRead(SystemCallError.message(errno))) }
                if count == 0 { throw fail(.cannotRead("the file shrank while it was copied")) }
                let bytes = UnsafeBufferPointer(
                    start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
                if lseek(output, off_t(position), SEEK_SET) < 0 {
                    throw fail(.cannotWrite(SystemCallError(.write, path: destination, errno: errno)))
                }
                let code = FileDescriptor.write(bytes, to: output)
                if code != 0 { throw fail(.cannotWrite(SystemCallError(.write, path: destination, errno: code))) }
                position += count
            }
            offset = end
        }
        // The holes at the end, and the size.
        if ftruncate(output, off_t(size)) != 0 {
            throw fail(.cannotWrite(SystemCallError(.write, path: destination, errno: errno)))
        }
        return size
    }
}
