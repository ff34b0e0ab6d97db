#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the operating system refused a file, folder or lock: what swiftcov was doing, on which
/// path, and the system's error number. The one error of `Platform/`'s calls; printed as one
/// line, `PATH: error: cannot write: No space left on device`.
package struct SystemCallError: DiagnosticConvertible, Equatable, Sendable {
    /// What swiftcov was doing, as the message says it.
    package enum Operation: String, Sendable {
        case read
        case write
        case createFolder = "create folder"
        case lock
        case list
        case remove
    }

    package var operation: Operation
    /// The path as the user gave it (or as swiftcov made it), for the message.
    package var path: String
    /// The system's error number (`ENOSPC`, `ENOENT`…).
    package var errno: Int32

    package init(_ operation: Operation, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The system's message for `errno`: "No space left on device".
    package var reason: String { Self.message(errno) }

    package var diagnostic: Diagnostic { Diagnostic(file: path, "cannot \(operation.rawValue): \(reason)") }

    /// The system's message for the error number `code`.
    package static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
