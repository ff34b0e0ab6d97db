#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the benchmark tool could not do what it was asked: one line for the user.
package struct BenchmarkError: Error, Equatable, CustomStringConvertible {
    /// The message, without a "error:" prefix.
    package var message: String

    /// An error with `message`.
    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }

    /// The system's message for the last failed call.
    static func system(_ what: String) -> BenchmarkError {
        BenchmarkError("\(what): \(String(cString: strerror(errno)))")
    }
}

/// Writes a file through a large buffer, so that a multi-gigabyte output costs a few thousand
/// `write` calls and never more memory than the buffer.
package final class BufferedOutput {
    private let descriptor: Int32
    private let path: String
    private let buffer: UnsafeMutableRawPointer
    private let capacity: Int
    private var used = 0
    /// Bytes written so far, buffered ones included.
    package private(set) var count = 0

    /// Creates (or truncates) the file at `path`.
    package init(path: String, bufferSize: Int = 4 << 20) throws(BenchmarkError) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw .system(path) }
        self.path = path
        capacity = bufferSize
        buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    /// Appends `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(BenchmarkError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        count += bytes.count
        if used + bytes.count > capacity {
            try flush()
            if bytes.count > capacity {
                try writeFully(base, bytes.count)
                return
            }
        }
        (buffer + used).copyMemory(from: base, byteCount: bytes.count)
        used += bytes.count
    }

    /// Appends `bytes`.
    package func write(_ bytes: [UInt8]) throws(BenchmarkError) {
        var failure: BenchmarkError?
        bytes.withUnsafeBytes { raw in
            do throws(BenchmarkError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Appends one byte.
    package func write(byte: UInt8) throws(BenchmarkError) {
        if used == capacity { try flush() }
        buffer.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
        used += 1
        count += 1
    }

    /// Appends the decimal digits of `value`.
    package func write(decimal value: Int) throws(BenchmarkError) {
        if used + 20 > capacity { try flush() }
        if value < 0 { try write(byte: UInt8(ascii: "-")) }
        var remaining = value.magnitude
        var length = 1
        while remaining >= 10 {
            remaining /= 10
            length += 1
        }
        remaining = value.magnitude
        for position in stride(from: used + length - 1, through: used, by: -1) {
            buffer.storeBytes(of: UInt8(ascii: "0") + UInt8(remaining % 10), toByteOffset: position, as: UInt8.self)
            remaining /= 10
        }
        used += length
        count += length
    }

    /// Writes out the buffered bytes.
    package func flush() throws(BenchmarkError) {
        try writeFully(buffer, used)
        used = 0
    }

    private func writeFully(_ start: UnsafeRawPointer, _ length: Int) throws(BenchmarkError) {
        var done = 0
        while done < length {
            #if canImport(Glibc)
                let written = Glibc.write(descriptor, start + done, length - done)
            #elseif canImport(Musl)
                let written = Musl.write(descriptor, start + done, length - done)
            #else
                let written = Darwin.write(descriptor, start + done, length - done)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                throw .system(path)
            }
            done += written
        }
    }
}
