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
    /// The mapping's slot in `ShrinkGuard`, which keeps the file shrinking meanwhile from
    /// killing the process.
    private let guardSlot: Int?
    /// A file read in order, kept open to tell whether it shrank within its last page (which
    /// reads as zeros without a fault); -1 otherwise (a report may map thousands of sources at
    /// once, more than a process may hold open).
    private let descriptor: Int32

    /// Why a file could not be read: the system's message.
    package struct ReadError: Error, Equatable {
        package var message: String
    }

    /// How a mapped file's pages are read.
    package enum Reading: Sendable {
        /// All at once, as the file is mapped: for a reader of every byte.
        case whole
        /// As they are touched: for a look at a few places (the start and the end, to tell what
        /// kind of file it is), which then costs no more for a file of gigabytes.
        case inPlaces
        /// A window at a time, each dropped once read (`forEachWindow`): memory holds a few
        /// MiB of the file, whatever its size.
        case inOrder
        /// In the windows its reader reads ahead and drops as it goes (`readAhead`, `drop`), in
        /// one pass over a buffer of the whole file: nothing is read up front, and memory
        /// holds the windows, whatever the file's size.
        case inWindows
    }

    /// Maps the file at `path`, or reads standard input when `path` is "-". With a `limit`, only
    /// a regular file of at most `limit` bytes is read, and opening never waits (a FIFO).
    package convenience init(
        path: String, regularFileOfAtMost limit: Int? = nil, reading: Reading = .whole
    ) throws(ReadError) {
        if path == "-" && limit == nil {
            // Copied, from where standard input stands (a file given with `<` may have been read
            // in part before).
            let (bytes, count) = try MappedFile.readAll(descriptor: 0)
            self.init(copied: bytes, count: count)
            return
        }
        let descriptor = SystemCalls.open(path, limit == nil ? O_RDONLY | O_CLOEXEC : O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(message: MappedFile.systemError()) }
        defer { close(descriptor) }
        try self.init(descriptor: descriptor, regularFileOfAtMost: limit, reading: reading)
    }

    /// Maps the regular file open at `descriptor`, or reads the pipe or device there to its end
    /// (see `streamLimit`); the descriptor stays open.
    package init(descriptor: Int32, regularFileOfAtMost limit: Int? = nil, reading: Reading = .whole)
        throws(ReadError)
    {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw ReadError(message: MappedFile.systemError()) }
        if let limit {
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw ReadError(message: "not a regular file") }
            guard Int(info.st_size) <= limit else { throw ReadError(message: "larger than \(limit) bytes") }
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw ReadError(message: "is a directory") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            (address, count) = try MappedFile.readAll(descriptor: descriptor)
            isMapped = false
            guardSlot = nil
            self.descriptor = -1
            return
        }
        let size = Int(info.st_size)
        count = size
        guard size > 0 else {
            address = nil
            isMapped = false
            guardSlot = nil
            self.descriptor = -1
            return
        }
        // Every byte is read: mapping all pages at once costs less than a fault per few pages.
        // Not for a sparse file (fewer blocks on disk than half its size: a hostile store
        // grown to 10 GB by `truncate`), whose holes would all become zeroed pages in memory
        // while a reader stops at its first wrong byte.
        #if os(Linux)
            let sparse = Int(info.st_blocks) < size / 1024
            let flags = sparse || reading != .whole ? MAP_PRIVATE : MAP_PRIVATE | MAP_POPULATE
        #else
            let flags = MAP_PRIVATE
        #endif
        guard let mapped = mmap(nil, size, PROT_READ, flags, descriptor, 0), mapped != MAP_FAILED else {
            throw ReadError(message: MappedFile.systemError())
        }
        if reading != .inPlaces { _ = madvise(mapped, size, MADV_SEQUENTIAL) }
        address = mapped
        isMapped = true
        guardSlot = ShrinkGuard.watch(mapped, count: size)
        self.descriptor = reading == .inOrder ? fcntl(descriptor, F_DUPFD_CLOEXEC, 0) : -1
    }

    /// Wraps a copy of `bytes` (for tests and in-memory inputs).
    package convenience init(bytes: [UInt8]) {
        guard !bytes.isEmpty else {
            self.init(copied: nil, count: 0)
            return
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
        bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        self.init(copied: memory, count: bytes.count)
    }

    /// Owns `count` bytes allocated at `address`.
    private init(copied address: UnsafeMutableRawPointer?, count: Int) {
        self.address = address
        self.count = count
        isMapped = false
        guardSlot = nil
        descriptor = -1
    }

    deinit {
        guard let address else { return }
        if isMapped {
            if let guardSlot { ShrinkGuard.release(guardSlot) }
            if descriptor >= 0 { close(descriptor) }
            munmap(address, count)
        } else {
            address.deallocate()
        }
    }

    /// Calls `body` with the bytes.
    package func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: address, count: count))
    }

    /// Calls `body` with the bytes in order, a window of `size` bytes at a time, each read ahead
    /// before and dropped from memory after (`Reading.inOrder`): a file of gigabytes is
    /// read through a few MiB of memory, without the copy a `read` makes.
    package func forEachWindow<E: Error>(
        of size: Int = 4 << 20, _ body: (UnsafeRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        guard let address, isMapped else { return try body(UnsafeRawBufferPointer(start: address, count: count)) }
        var offset = 0
        while offset < count {
            let length = min(size, count - offset)
            readAhead(offset..<offset + length)
            try body(UnsafeRawBufferPointer(start: address + offset, count: length))
            _ = madvise(address + offset, length, MADV_DONTNEED)
            offset += length
        }
    }

    /// Maps the pages of `range` now, in one call rather than a fault per few pages, for a
    /// reader about to go through them; nothing for a file that was copied.
    package func readAhead(_ range: Range<Int>) {
        guard let address, isMapped else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = max(range.lowerBound, 0) / page * page
        let end = min(range.upperBound, count)
        guard start < end else { return }
        #if os(Linux)
            _ = madvise(address + start, end - start, MappedFile.populateRead)
        #else
            _ = madvise(address + start, end - start, MADV_WILLNEED)
        #endif
    }

    /// Drops the pages wholly within `range` from memory, for a reader done with them (they are
    /// read again from the file if touched again); nothing for a file that was copied.
    package func drop(_ range: Range<Int>) {
        guard let address, isMapped else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (max(range.lowerBound, 0) + page - 1) / page * page
        let end = range.upperBound >= count ? count : min(range.upperBound, count) / page * page
        guard start < end else { return }
        _ = madvise(address + start, end - start, MADV_DONTNEED)
    }

    /// Whether the file shrank while it was read: the bytes past its new end read as zeros
    /// (see `ShrinkGuard`), and whatever was made of them must not be trusted. Seen when a page
    /// past the new end was read; for a file read in order (`Reading.inOrder`), also when it
    /// shrank within its last page.
    package var shrankWhileRead: Bool {
        guard isMapped else { return false }
        if let guardSlot, ShrinkGuard.isCut(guardSlot) { return true }
        var info = stat()
        return descriptor >= 0 && fstat(descriptor, &info) == 0 && Int(info.st_size) < count
    }

    /// Why what was read from a file that shrank meanwhile is refused.
    package static let shrankMessage = "it shrank while being read (another process truncated or rewrote it)"

    #if os(Linux)
        /// `MADV_POPULATE_READ` (Linux 5.14): maps a window's pages in one call instead of a fault
        /// per few pages; an older kernel refuses it, and the pages fault in as they are read.
        private static let populateRead: Int32 = 22
    #endif

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
                    if SystemCalls.read(descriptor, &probe, 1) == 0 { break }
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
            let got = SystemCalls.read(descriptor, memory + used, capacity - used)
            if got == 0 { break }
            if got < 0 {
                memory.deallocate()
                throw ReadError(message: systemError())
            }
            used += got
        }
        return (memory, used)
    }

    private static func systemError() -> String {
        SystemCallError.message(errno)
    }
}
