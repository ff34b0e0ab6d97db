#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of an input file, memory-mapped so that a multi-gigabyte export is never copied,
/// or read whole when it cannot be mapped (standard input, pipes).
package final class MappedFile: @unchecked Sendable {
    // Immutable after init; the memory is only ever read.
    private let address: UnsafeMutableRawPointer?
    /// Number of bytes.
    package let count: Int
    private let isMapped: Bool

    /// Why a file could not be read: the system's message.
    package struct ReadError: Error, Equatable {
        package var message: String
    }

    /// Maps the file at `path`, or reads standard input when `path` is "-". With a `limit`, only
    /// a regular file of at most `limit` bytes is read, and opening never waits (a FIFO). With
    /// `inPlaces`, the pages are not all read ahead: for a look at a few places (the start and the
    /// end, to tell what kind of file it is), which then costs no more for a file of gigabytes.
    package init(path: String, regularFileOfAtMost limit: Int? = nil, inPlaces: Bool = false) throws(ReadError) {
        if path == "-" && limit == nil {
            let (bytes, count) = try MappedFile.readAll(descriptor: 0)
            address = bytes
            self.count = count
            isMapped = false
            return
        }
        let descriptor = open(path, limit == nil ? O_RDONLY : O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw ReadError(message: MappedFile.systemError()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(message: MappedFile.systemError()) }
        if let limit {
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw ReadError(message: "not a regular file") }
            guard Int(info.st_size) <= limit else { throw ReadError(message: "larger than \(limit) bytes") }
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw ReadError(message: "is a directory") }
        if (info.st_mode & S_IFMT) == S_IFREG {
            let size = Int(info.st_size)
            count = size
            if size == 0 {
                address = nil
                isMapped = false
                return
            }
            // Every byte is read: mapping all pages at once costs less than a fault per few pages.
            // Not for a sparse file (fewer blocks on disk than half its size: a hostile store
            // grown to 10 GB by `truncate`), whose holes would all become zeroed pages in memory
            // while a reader stops at its first wrong byte.
            #if os(Linux)
                let sparse = Int(info.st_blocks) < size / 1024
                let flags = sparse || inPlaces ? MAP_PRIVATE : MAP_PRIVATE | MAP_POPULATE
            #else
                let flags = MAP_PRIVATE
            #endif
            guard let mapped = mmap(nil, size, PROT_READ, flags, descriptor, 0), mapped != MAP_FAILED else {
                throw ReadError(message: MappedFile.systemError())
            }
            if !inPlaces { _ = madvise(mapped, size, MADV_SEQUENTIAL) }
            address = mapped
            isMapped = true
        } else {
            let (bytes, count) = try MappedFile.readAll(descriptor: descriptor)
            address = bytes
            self.count = count
            isMapped = false
        }
    }

    /// Wraps a copy of `bytes` (for tests and in-memory inputs).
    package init(bytes: [UInt8]) {
        count = bytes.count
        isMapped = false
        if bytes.isEmpty {
            address = nil
        } else {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
            bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            address = memory
        }
    }

    deinit {
        guard let address else { return }
        if isMapped {
            munmap(address, count)
        } else {
            address.deallocate()
        }
    }

    /// Calls `body` with the bytes.
    package func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: address, count: count))
    }

    /// The most bytes read from a pipe, a device or standard input, which are copied into memory
    /// (a regular file is mapped, whatever its size): `/dev/zero` or an endless producer is an
    /// error at this size, not all of the machine's memory.
    package static let streamLimit = 1 << 30

    static func readAll(descriptor: Int32, limit: Int = streamLimit) throws(ReadError)
        -> (UnsafeMutableRawPointer?, Int)
    {
        var capacity = min(1 << 20, limit)
        var memory = UnsafeMutableRawPointer.allocate(byteCount: capacity + 1, alignment: 16)
        var used = 0
        while true {
            if used == capacity {
                // One byte past the limit tells an input of exactly `limit` bytes from a longer one.
                guard capacity < limit else {
                    var probe: UInt8 = 0
                    var got = read(descriptor, &probe, 1)
                    while got < 0 && errno == EINTR { got = read(descriptor, &probe, 1) }
                    if got == 0 { break }
                    memory.deallocate()
                    throw ReadError(
                        message: "more than \(limit >> 20) MiB from a pipe or device; give it as a file, which is "
                            + "mapped rather than copied")
                }
                let grownCapacity = min(capacity * 2, limit)
                let grown = UnsafeMutableRawPointer.allocate(byteCount: grownCapacity + 1, alignment: 16)
                grown.copyMemory(from: memory, byteCount: used)
                memory.deallocate()
                memory = grown
                capacity = grownCapacity
            }
            let got = read(descriptor, memory + used, capacity - used)
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                memory.deallocate()
                throw ReadError(message: systemError())
            }
            used += got
        }
        return (memory, used)
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
