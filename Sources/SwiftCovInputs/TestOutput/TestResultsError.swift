import SwiftCovPlatform

/// Why test results could not be read. Each names the file and, for the event stream, the line.
package enum TestResultsError: DiagnosticConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case malformedEventStream(path: String, line: Int, message: String)
    /// XML that is not well formed, or not JUnit.
    case malformedJUnit(path: String, line: Int, column: Int, message: String)
    /// An Xcode result (an object of a result bundle, or `xcresulttool`'s JSON) that cannot be
    /// read: where (the byte offset, the key path of the object graph) and why.
    case malformedXcodeResult(path: String, offset: Int?, keyPath: String?, message: String)
    /// The inputs hold no test result at all: the build failed, the run was interrupted before
    /// a test ran, or they are not `swift test` output.
    case noResults(paths: [String], interrupted: Bool)

    /// Why inputs read from a run stopped by a signal hold no result.
    static let interruptedReason = "the run was interrupted before any test ran"

    /// One line: the file, and what is wrong with it.
    package var diagnostic: Diagnostic {
        switch self {
        case .unreadable(let path, let reason):
            return Diagnostic(file: path, "cannot read: \(reason)")
        case .malformedEventStream(let path, let line, let message):
            return Diagnostic(file: path, at: .line(line), "not a Swift Testing event stream record: \(message)")
        case .malformedJUnit(let path, let line, let column, let message):
            return Diagnostic(file: path, at: .line(line, column: column), message)
        case .malformedXcodeResult(let path, let offset, let keyPath, let message):
            let location: Diagnostic.Location? =
                if let offset { .byteOffset(offset, keyPath: keyPath) } else { keyPath.map { .keyPath($0) } }
            return Diagnostic(file: path, at: location, message)
        case .noResults(let paths, let interrupted):
            let reason =
                interrupted ? Self.interruptedReason : "did the build fail? or it is not the output of `swift test`"
            return Diagnostic(file: paths.joined(separator: ", "), "no test results (\(reason))")
        }
    }
}
