/// Why test results could not be read. Each names the file and, for the event stream, the line.
package enum TestResultsError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformedEventStream(path: String, line: Int, message: String)

    /// One line: the file, and what is wrong with it.
    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): error: cannot read: \(reason)"
        case .malformedEventStream(let path, let line, let message):
            return "\(path):\(line): error: not a Swift Testing event stream record: \(message)"
        }
    }
}
