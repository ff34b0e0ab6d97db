#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program to start, as every process of the run workflow is described.
package struct Command: Sendable, Equatable, CustomStringConvertible {
    /// Looked up in PATH when it has no `/`.
    package var program: String
    package var arguments: [String]
    /// Where it runs; nil: swiftcov's working directory.
    package var directory: String?
    /// Added to swiftcov's own environment.
    package var environment: [String: String]
    /// Standard error into standard output, as a terminal shows them.
    package var mergingErrors: Bool
    /// Seconds after which it and everything it started are killed.
    package var timeout: Double?
    /// At most this many bytes of each output are kept (its start and its end).
    package var outputLimit: Int?

    package init(
        _ program: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        mergingErrors: Bool = false, timeout: Double? = nil, outputLimit: Int? = nil
    ) {
        self.program = program
        self.arguments = arguments
        self.directory = directory
        self.environment = environment
        self.mergingErrors = mergingErrors
        self.timeout = timeout
        self.outputLimit = outputLimit
    }

    /// The command line as a person would type it.
    package var description: String { ([program] + arguments).joined(separator: " ") }
}

/// The one seam between the run workflow and the operating system: the processes it starts and
/// the files it makes, lists, writes and removes. `LiveSystem` is the operating system; a test
/// gives a fake that records every call, answers as a recorded `swift` would, and injects faults
/// (a full disk, a file that vanished), so that the workflow is tested without spawning `swift`.
package protocol System: Sendable {
    /// Runs `command` to its end, capturing its output.
    func capture(_ command: Command) throws -> Subprocess.Result
    /// Runs `command` with its standard error merged into its standard output (whatever its
    /// `mergingErrors`; its `outputLimit` does not apply), handing each chunk to `body` as it
    /// comes; returns its exit status.
    func stream(_ command: Command, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Int32
    /// Replaces the file at `path` with `bytes`, all at once (never half-written).
    func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) throws
    /// Creates the folder and those above it, as `mkdir -p` does.
    func makeDirectory(_ path: String) throws
    /// Removes the file; whether there was one.
    @discardableResult func remove(_ path: String) -> Bool
    /// The names of the entries of `folder` (not `.` and `..`); nil when it cannot be read.
    func entries(of folder: String) -> [String]?
    /// The size of the regular file at `path`; nil when there is none.
    func fileSize(_ path: String) -> Int?
    /// Whether `path` can be executed.
    func isExecutable(_ path: String) -> Bool
}

extension System {
    /// Replaces the file at `path` with `text`.
    package func write(_ text: String, to path: String) throws {
        var text = text
        try text.withUTF8 { try write($0, to: path) }
    }

    /// Replaces the file at `path` with `bytes`.
    package func write(_ bytes: [UInt8], to path: String) throws {
        try bytes.withUnsafeBufferPointer { try write($0, to: path) }
    }

    /// The paths of the entries of `folder` whose names end with `suffix`, sorted; none when the
    /// folder cannot be read.
    package func files(in folder: String, withSuffix suffix: String) -> [String] {
        (entries(of: folder) ?? []).filter { $0.hasSuffix(suffix) }.sorted().map { folder + "/" + $0 }
    }
}

/// The operating system.
package struct LiveSystem: System {
    package init() {}

    package func capture(_ command: Command) throws -> Subprocess.Result {
        try Subprocess.capture(
            command.program, command.arguments, in: command.directory, environment: command.environment,
            mergingErrors: command.mergingErrors, timeout: command.timeout, outputLimit: command.outputLimit)
    }

    package func stream(_ command: Command, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Int32 {
        try Subprocess.stream(
            command.program, command.arguments, in: command.directory, environment: command.environment,
            timeout: command.timeout, body)
    }

    package func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) throws {
        try AtomicFile.write(bytes: bytes, to: path)
    }

    package func makeDirectory(_ path: String) throws {
        try AtomicFile.makeDirectory(path)
    }

    @discardableResult
    package func remove(_ path: String) -> Bool {
        FileSystem.remove(path)
    }

    package func entries(of folder: String) -> [String]? {
        FileSystem.entries(of: folder)
    }

    package func fileSize(_ path: String) -> Int? {
        FileSystem.size(of: path)
    }

    package func isExecutable(_ path: String) -> Bool {
        FileSystem.isExecutable(path)
    }
}
