#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs another program (git, `swift test`, llvm-profdata, llvm-cov): the one place swiftcov
/// starts processes. Output is read through pipes; nothing is printed here.
package enum Subprocess {
    /// Why a program could not be started.
    package struct LaunchError: DiagnosticConvertible, Equatable {
        package var program: String
        package var reason: String

        package var diagnostic: Diagnostic { Diagnostic("cannot run \(program): \(reason)") }
    }

    /// What a finished program printed and how it ended.
    package struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        package var status: Int32
        package var output: [UInt8]
        package var error: [UInt8]
        /// Whether it was killed for running past its time limit.
        package var timedOut = false

        /// Standard output as text.
        package var outputText: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as text.
        package var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    /// Runs `program` (looked up in PATH when it has no `/`) with no input, capturing its output.
    /// `environment` is added to swiftcov's own; `mergingErrors` puts standard error into `output`
    /// (as a terminal shows both). After `timeout` seconds the program and everything it started
    /// (its process group) are killed, and the result says so. Several may run at once on
    /// different threads, unless they name a `directory`.
    package static func capture(
        _ program: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        mergingErrors: Bool = false, timeout: Double? = nil
    ) throws(LaunchError) -> Result {
        var results: [[UInt8]] = [[], []]
        var options = Options(mergeErrors: mergingErrors, timeout: timeout)
        if !environment.isEmpty {
            options.environment =
                currentEnvironment().filter { entry in
                    !environment.keys.contains { entry.hasPrefix($0 + "=") }
                } + environment.map { "\($0.key)=\($0.value)" }.sorted()
        }
        let (status, timedOut) = try run(program, arguments, in: directory, options) { stream, bytes in
            results[stream].append(contentsOf: bytes)
        }
        return Result(status: status, output: results[0], error: results[1], timedOut: timedOut)
    }

    /// Runs `program` with its standard error merged into its standard output (as a terminal
    /// shows them), calling `body` with each chunk as it arrives; returns the exit status.
    package static func stream(
        _ program: String, _ arguments: [String], in directory: String? = nil,
        _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(LaunchError) -> Int32 {
        try run(program, arguments, in: directory, Options(mergeErrors: true)) { _, bytes in body(bytes) }.status
    }

    private struct Options {
        var mergeErrors: Bool
        var timeout: Double?
        /// The whole environment ("NAME=value"); nil for swiftcov's own.
        var environment: [String]?
    }

    private static func run(
        _ program: String, _ arguments: [String], in directory: String?, _ options: Options,
        _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) throws(LaunchError) -> (status: Int32, timedOut: Bool) {
        let mergeErrors = options.mergeErrors
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0 else { throw LaunchError(program: program, reason: systemError()) }
        if !mergeErrors {
            guard pipe(&errorPipe) == 0 else {
                outputPipe.forEach { close($0) }
                throw LaunchError(program: program, reason: systemError())
            }
        }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, mergeErrors ? outputPipe[1] : errorPipe[1], 2)
        for descriptor in (outputPipe + errorPipe) where descriptor >= 0 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        // A working directory for the child: `cd DIR && exec PROGRAM …` through the shell would
        // need quoting; posix_spawn has no chdir before glibc 2.29's extension, so change ours
        // around the spawn (swiftcov runs one child at a time).
        var previousDirectory: String?
        if let directory {
            previousDirectory = currentDirectory()
            guard chdir(directory) == 0 else {
                (outputPipe + errorPipe).filter { $0 >= 0 }.forEach { close($0) }
                throw LaunchError(program: program, reason: "\(directory): \(systemError())")
            }
        }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environmentStrings = options.environment.map { $0.map { strdup($0) } + [nil] }
        defer { environmentStrings?.forEach { free($0) } }
        var pid = pid_t()
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t?
        #else
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if options.timeout != nil {
            // Its own process group, so that a timeout ends whatever it started too.
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        let spawned = environmentStrings.withUnsafeBufferPointerOrEnviron { environment in
            posix_spawnp(&pid, program, &actions, &attributes, argv, environment)
        }
        if let previousDirectory { _ = chdir(previousDirectory) }
        close(outputPipe[1])
        if errorPipe[1] >= 0 { close(errorPipe[1]) }
        guard spawned == 0 else {
            close(outputPipe[0])
            if errorPipe[0] >= 0 { close(errorPipe[0]) }
            throw LaunchError(program: program, reason: String(cString: strerror(spawned)))
        }
        let deadline = options.timeout.map { monotonicSeconds() + $0 }
        let timedOut = readAll([outputPipe[0], errorPipe[0]].filter { $0 >= 0 }, until: deadline, body) {
            kill(-pid, SIGKILL)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are C macros that Swift does not import.
        return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), timedOut)
    }

    /// Reads pipes to their ends at once, so that none can fill up and stall the child. At
    /// `deadline` (monotonic seconds) calls `expire` once (which ends the writers) and reads on to
    /// the ends; returns whether it expired.
    private static func readAll(
        _ pipes: [Int32], until deadline: Double? = nil, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void,
        expire: () -> Void = {}
    ) -> Bool {
        var descriptors = pipes.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var open = descriptors.count
        var expired = false
        while open > 0 {
            var wait: Int32 = -1
            if let deadline, !expired {
                let left = deadline - monotonicSeconds()
                if left <= 0 {
                    expired = true
                    expire()
                } else {
                    wait = Int32(min(left * 1000 + 1, 60_000))
                }
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptors[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer.withUnsafeBufferPointer { body(index, UnsafeBufferPointer(rebasing: $0[0..<count])) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(descriptors[index].fd)
                    descriptors[index].fd = -1
                    open -= 1
                }
            }
        }
        for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
        return expired
    }

    /// Seconds on a clock that never goes back.
    package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func currentEnvironment() -> [String] {
        #if canImport(Darwin)
            let entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = _NSGetEnviron().pointee
        #else
            let entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        #endif
        var result: [String] = []
        guard var entry = entries else { return result }
        while let pointer = entry.pointee {
            result.append(String(cString: pointer))
            entry += 1
        }
        return result
    }

    private static func currentDirectory() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}

extension Optional where Wrapped == [UnsafeMutablePointer<CChar>?] {
    /// The environment for a child: these strings, or swiftcov's own environment when nil.
    fileprivate func withUnsafeBufferPointerOrEnviron<R>(
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> R
    ) -> R {
        if let strings = self { return strings.withUnsafeBufferPointer { body($0.baseAddress) } }
        #if canImport(Darwin)
            return body(_NSGetEnviron().pointee)
        #else
            return body(environ)
        #endif
    }
}
