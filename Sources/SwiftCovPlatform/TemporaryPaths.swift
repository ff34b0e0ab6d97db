#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary files and folders swiftcov is writing (an output before its rename, a site
/// before its swap, the profiles of a per-test run), removed when a signal (SIGTERM, SIGINT,
/// SIGHUP, SIGQUIT) ends the process so that nothing half-written is left behind; the programs
/// swiftcov runs are ended first (`Subprocess.endAll`).
///
/// Removing a folder needs `opendir` and `malloc`, which a signal handler must not call. So
/// the handler only writes the signal's number to a pipe (async-signal-safe); a thread waiting
/// on that pipe removes the registered paths, restores the signal's default action and raises
/// it again, so that the process ends as the signal would have ended it (exit status included).
/// Signals that were ignored when swiftcov started (`nohup`) stay ignored; handled signals are
/// unblocked in the thread that registers (a launcher may have left them blocked).
package enum TemporaryPaths {
    /// Starts removing `path` (a file or a folder) if a signal ends the process.
    package static func register(_ path: String) {
        registry.withLock {
            installHandlers()
            registry.paths.insert(path)
        }
    }

    /// Handles the signals that end swiftcov from now on: the programs it runs are ended
    /// (`Subprocess.endAll`) and the registered paths removed before it ends.
    package static func handleSignals() {
        registry.withLock { installHandlers() }
    }

    /// Stops removing `path` on a signal (it was renamed into place, or already removed).
    package static func unregister(_ path: String) {
        registry.withLock { _ = registry.paths.remove(path) }
    }

    /// Runs `body` while no signal cleanup can start: a signal then takes effect after it, never
    /// half-way. Creating a temporary path and registering it, or renaming one into place and
    /// unregistering it, happen so.
    package static func withCleanupHeld<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try registry.withLock { () throws(E) -> R in
            installHandlers()
            return try body()
        }
    }

    /// Removes `path` and, if it is a folder, everything in it; symbolic links are removed,
    /// never followed.
    package static func removeTree(_ path: String) {
        if unlink(path) == 0 || errno == ENOENT { return }
        for name in FileSystem.entries(of: path) ?? [] { removeTree(path + "/" + name) }
        rmdir(path)
    }

    private static let signals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM]
    private static let registry = Registry()

    /// Installs the handlers and starts the cleanup thread, once (under the registry's lock).
    private static func installHandlers() {
        guard !registry.handlersInstalled else { return }
        registry.handlersInstalled = true
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        signalPipe = ends[1]
        guard startCleanupThread(reading: ends[0]) else { return }
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in signals where !isIgnored(signal) {
            setAction(of: signal, to: handleSignal)
            sigaddset(&handled, signal)
        }
        // A parent may have left them blocked (some process launchers do): they must get through.
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    private static func startCleanupThread(reading descriptor: Int32) -> Bool {
        var thread = pthread_t()
        let argument = UnsafeMutableRawPointer(bitPattern: Int(descriptor) + 1)
        let started = pthread_create(&thread, nil, cleanupThreadMain, argument)
        if started == 0 { pthread_detach(thread) }
        return started == 0
    }

    /// The cleanup thread: waits for a signal's number, removes what is registered and ends
    /// the process with that signal. Holds the lock to the end, so no rename starts meanwhile.
    fileprivate static func cleanUpAfterSignal(_ reader: Int32) -> UnsafeMutableRawPointer? {
        var number: UInt8 = 0
        while read(reader, &number, 1) != 1 {
            if errno != EINTR { return nil }
        }
        let signal = Int32(number)
        registry.lock()
        // The programs first: none may write into a folder being removed.
        Subprocess.endAll()
        for path in registry.paths { removeTree(path) }
        setAction(of: signal, to: nil)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signal)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(signal)
        _exit(128 + signal)
    }

    /// The registered paths, behind a recursive mutex (a commit may register while holding it).
    private final class Registry: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        var paths: Set<String> = []
        var handlersInstalled = false

        init() {
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            pthread_mutex_init(&mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        }

        func lock() { pthread_mutex_lock(&mutex) }

        func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            return try body()
        }
    }
}

/// The write end of the pipe the signal handler writes to (set once, before any handler).
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// The signal handler: async-signal-safe, it only hands the signal to the cleanup thread.
private func handleSignal(_ signal: Int32) {
    let saved = errno
    var number = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipe, &number, 1)
    errno = saved
}

/// The cleanup thread's entry point; its argument is the pipe's read end plus one.
private func cleanupThreadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    TemporaryPaths.cleanUpAfterSignal(Int32(Int(bitPattern: argument) - 1))
}

/// Whether `signal` is ignored (as `nohup` and shells leave some for background jobs).
private func isIgnored(_ signal: Int32) -> Bool {
    var action = sigaction()
    guard sigaction(signal, nil, &action) == 0 else { return false }
    #if canImport(Darwin)
        return unsafeBitCast(action.__sigaction_u.__sa_handler, to: Int.self) == 1
    #else
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1
    #endif
}

/// Sets what `signal` does: `handler`, or the default action for nil. Interrupted system calls
/// restart.
private func setAction(of signal: Int32, to handler: (@convention(c) (Int32) -> Void)?) {
    var action = sigaction()
    #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handler ?? SIG_DFL
    #else
        action.__sigaction_handler.sa_handler = handler ?? SIG_DFL
    #endif
    action.sa_flags = SA_RESTART
    sigemptyset(&action.sa_mask)
    sigaction(signal, &action, nil)
}
