#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls through which files are opened, read, written, synced and renamed: each in
/// one place, with the C convention (-1 and `errno`) kept, an interrupted call (EINTR) retried
/// here and nowhere else, and, in debug builds, the fault a test plans (`FaultPlan`) injected
/// before the call. The rest of `Platform/` calls these; the engine calls `Platform/`.
package enum SystemCalls {
    /// `open(2)`: the descriptor, or -1 with `errno` set.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        #if DEBUG
            if let code = FaultPlan.current?.failure(of: .open, path: path) { return fail(code) }
        #endif
        while true {
            let descriptor = systemOpen(path, flags, mode)
            if descriptor >= 0 || errno != EINTR { return descriptor }
        }
    }

    /// `read(2)` of at most `count` bytes: the bytes read, 0 at the end, or -1 with `errno` set.
    /// An interruption is retried unless `returningInterruptions`, which gives it back (-1,
    /// EINTR) to a reader that may stop on a signal.
    @inline(__always)
    package static func read(
        _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, returningInterruptions: Bool = false
    ) -> Int {
        while true {
            #if DEBUG
                if let code = FaultPlan.current?.failure(of: .read) {
                    if code == EINTR && !returningInterruptions { continue }
                    return fail(code)
                }
            #endif
            let result = systemRead(descriptor, buffer, count)
            if result >= 0 || errno != EINTR || returningInterruptions { return result }
        }
    }

    /// `pread(2)` at `offset`, as `read`.
    package static func read(
        _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, at offset: Int
    ) -> Int {
        while true {
            #if DEBUG
                if let code = FaultPlan.current?.failure(of: .read) {
                    if code == EINTR { continue }
                    return fail(code)
                }
            #endif
            let result = pread(descriptor, buffer, count, off_t(offset))
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// `write(2)` of at most `count` bytes: the bytes written (maybe fewer), or -1 with `errno`
    /// set; an interruption is retried.
    @inline(__always)
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        var count = count
        while true {
            #if DEBUG
                if let plan = FaultPlan.current {
                    switch plan.write(count) {
                    case .failure(let fault):
                        if fault.code == EINTR { continue }
                        return fail(fault.code)
                    case .success(let allowed): count = allowed
                    }
                }
            #endif
            let result = systemWrite(descriptor, bytes, count)
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// `fsync(2)`: 0, or -1 with `errno` set.
    package static func sync(_ descriptor: Int32) -> Int32 {
        #if DEBUG
            if let code = FaultPlan.current?.failure(of: .sync) { return fail(code) }
        #endif
        while true {
            let result = fsync(descriptor)
            if result == 0 || errno != EINTR { return result }
        }
    }

    /// `rename(2)`: 0, or -1 with `errno` set.
    package static func rename(_ source: String, _ target: String) -> Int32 {
        #if DEBUG
            if let code = FaultPlan.current?.failure(of: .rename, path: target) { return fail(code) }
        #endif
        return systemRename(source, target)
    }

    /// `mkdir(2)`: 0, or -1 with `errno` set.
    package static func makeDirectory(_ path: String, _ mode: mode_t) -> Int32 {
        #if DEBUG
            if let code = FaultPlan.current?.failure(of: .makeDirectory, path: path) { return fail(code) }
        #endif
        return mkdir(path, mode)
    }

    /// Sets `errno` to `code` and gives the C convention's failure, -1.
    private static func fail<Result: BinaryInteger>(_ code: Int32) -> Result {
        errno = code
        return -1
    }
}

@inline(__always)
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

@inline(__always)
private func systemRename(_ source: String, _ target: String) -> Int32 {
    rename(source, target)
}
