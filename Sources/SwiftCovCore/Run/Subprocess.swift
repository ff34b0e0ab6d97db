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
    package struct LaunchError: Error, Equatable, CustomStringConvertible {
        package var program: String
        package var reason: String

        package var description: String { "swiftcov: error: cannot run \(program): \(reason)" }
    }

    /// What a finished program printed and how it ended.
    package struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        package var status: Int32
        package var output: [UInt8]
        package var error: [UInt8]

        /// Standard output as text.
        package var outputText: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as text.
        package var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    /// Runs `program` (looked up in PATH when it has no `/`) with no input, capturing its output.
    package static func capture(_ program: String, _ arguments: [String], in directory: String? = nil)
        throws(LaunchError)
        -> Result
    {
        var results: [[UInt8]] = [[], []]
        let status = try run(program, arguments, in: directory, mergeErrors: false) { stream, bytes in
            results[stream].append(contentsOf: bytes)
        }
        return Result(status: status, output: results[0], error: results[1])
    }

    /// Runs `program` with its standard error merged into its standard output (as a terminal
    /// shows them), calling `body` with each chunk as it arrives; returns the exit status.
    package static func stream(
        _ program: String, _ arguments: [String], in directory: String? = nil,
        _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(LaunchError) -> Int32 {
        try run(program, arguments, in: directory, mergeErrors: true) { _, bytes in body(bytes) }
    }

    private static func run(
        _ program: String, _ arguments: [String], in directory: String?, mergeErrors: Bool,
        _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) throws(LaunchError) -> Int32 {
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
        var pid = pid_t()
        #if canImport(Darwin)
            let environment = _NSGetEnviron().pointee
        #else
            let environment = environ
        #endif
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environment)
        if let previousDirectory { _ = chdir(previousDirectory) }
        close(outputPipe[1])
        if errorPipe[1] >= 0 { close(errorPipe[1]) }
        guard spawned == 0 else {
            close(outputPipe[0])
            if errorPipe[0] >= 0 { close(errorPipe[0]) }
            throw LaunchError(program: program, reason: String(cString: strerror(spawned)))
        }
        readAll([outputPipe[0], errorPipe[0]].filter { $0 >= 0 }, body)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are C macros that Swift does not import.
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Reads pipes to their ends at once, so that none can fill up and stall the child.
    private static func readAll(_ pipes: [Int32], _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        var descriptors = pipes.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var open = descriptors.count
        while open > 0 {
            if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
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
    }

    private static func currentDirectory() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}
