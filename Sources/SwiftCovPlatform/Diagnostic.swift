/// Something swiftcov has to tell a person about its inputs or its work: an error that stops a
/// command, a warning, or a note. Every error the engine throws becomes one (see
/// `DiagnosticConvertible`), and the command-line tool prints them all the same way, as compilers
/// do: `FILE:LINE:COLUMN: error: MESSAGE`, or with the byte offset and key path of a JSON input.
package struct Diagnostic: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Severity: String, Sendable {
        case error, warning, note
    }

    /// What an error means for the exit code; warnings and notes change nothing.
    package enum Kind: Sendable {
        /// The command line is wrong: unknown option, missing or invalid value. Exit 2.
        case usage
        /// An input cannot be read or used, or an output cannot be written. Exit 2.
        case input
        /// What was checked failed: coverage below a threshold, tests failed. Exit 1.
        case failure
    }

    /// Where in `file` the problem is.
    package enum Location: Equatable, Sendable {
        /// A line (1-based) and column (1-based) of a text file.
        case line(Int, column: Int? = nil)
        /// A byte offset (0-based) and the key path leading there, in a JSON document.
        case byteOffset(Int, keyPath: String? = nil)
        /// A key path in a JSON document ("thresholds.lines").
        case keyPath(String)
    }

    package var severity: Severity
    package var kind: Kind
    /// The file the diagnostic is about, as the user named it; nil for the tool itself.
    package var file: String?
    package var location: Location?
    package var message: String
    /// Further lines that help: what to do about it, what else was found.
    package var notes: [String]

    package init(
        severity: Severity = .error, kind: Kind = .input, file: String? = nil, at location: Location? = nil,
        _ message: String, notes: [String] = []
    ) {
        self.severity = severity
        self.kind = kind
        self.file = file
        self.location = location
        self.message = message
        self.notes = notes
    }

    /// An error in how the command was called.
    package static func usage(_ message: String) -> Diagnostic {
        Diagnostic(kind: .usage, message)
    }

    /// A warning about `file`.
    package static func warning(file: String? = nil, at location: Location? = nil, _ message: String) -> Diagnostic {
        Diagnostic(severity: .warning, file: file, at: location, message)
    }

    /// A note.
    package static func note(file: String? = nil, _ message: String) -> Diagnostic {
        Diagnostic(severity: .note, file: file, message)
    }

    /// The diagnostic as printed: `FILE:LINE:COL: error: MESSAGE`, `FILE: error: MESSAGE (byte
    /// offset N, at KEY.PATH)`, `FILE: error: KEY.PATH: MESSAGE`, or without a file `PROGRAM:
    /// error: MESSAGE` (`program` nil leaves the prefix out). Notes follow, one per line.
    package func formatted(program: String? = nil) -> String {
        let origin: String?
        switch (file, location) {
        case (let file?, .line(let line, let column)?): origin = "\(file):\(line)" + (column.map { ":\($0)" } ?? "")
        case (let file?, _): origin = file
        case (nil, _): origin = program
        }
        var text = origin.map { $0 + ": " } ?? ""
        text += severity.rawValue + ": "
        if case .keyPath(let keyPath) = location { text += keyPath + ": " }
        text += message
        if case .byteOffset(let offset, let keyPath) = location {
            text += " (byte offset \(offset)" + (keyPath.map { ", at \($0)" } ?? "") + ")"
        }
        for note in notes { text += "\n" + (origin.map { $0 + ": " } ?? "") + "note: " + note }
        return text
    }

    package var description: String { formatted() }

    /// The exit code a command ends with when this is the error that stopped it.
    package var exitCode: Int32 {
        kind == .failure ? 1 : 2
    }
}

/// An error that knows the diagnostic it is for: every error the engine throws. Its
/// `description` is the diagnostic's, so it reads the same wherever it is shown.
package protocol DiagnosticConvertible: Error, CustomStringConvertible {
    var diagnostic: Diagnostic { get }
}

extension DiagnosticConvertible {
    package var description: String { diagnostic.description }
}

extension Error {
    /// This error as a diagnostic: its own, or one made from its description (an input error).
    package var asDiagnostic: Diagnostic {
        switch self {
        case let diagnostic as Diagnostic: diagnostic
        case let convertible as any DiagnosticConvertible: convertible.diagnostic
        default: Diagnostic(String(describing: self))
        }
    }
}
