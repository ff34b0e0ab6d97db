import SwiftCovFormats
import SwiftCovInputs
import SwiftCovPlatform

/// A diff whose new side is not the current sources: its line numbers would put changes on the
/// wrong lines (a wrong `--base`, a stale diff file, sources edited after the coverage run).
package struct DiffSourceMismatch: Error, Equatable, DiagnosticConvertible {
    /// The file, relative to the package root.
    package var path: String
    /// The line of the current file the diff shows otherwise.
    package var line: UInt32
    /// The line as the diff shows it.
    package var diffText: Substring
    /// The line as the file holds it; nil when the file has fewer lines.
    package var fileText: String?
    package var lineCount: Int

    package var diagnostic: Diagnostic {
        let found =
            fileText.map { "the file has \(UnifiedDiff.quoted(Substring($0)))" }
            ?? "the file has only \(lineCount) lines"
        return Diagnostic(
            file: path, at: .line(Int(line)),
            "the diff shows \(UnifiedDiff.quoted(diffText)) here, but \(found): "
                + "the diff is not of the current sources (another base revision, or files changed since)")
    }
}

extension FileDiff {
    /// The first line the diff shows (context or added) that `source` does not hold, or nil when
    /// every one matches. Lines are compared without trailing white space (editors and mailers
    /// trim it from context lines) and the diff's line endings; lines holding an escape
    /// character are skipped (a coloured diff's escapes were removed when it was read).
    package func firstMismatch(in source: SourceText) -> DiffSourceMismatch? {
        for shown in shownLines where shown.line > 0 {
            guard Int(shown.line) <= source.lineCount else {
                return DiffSourceMismatch(
                    path: path, line: shown.line, diffText: shown.text, fileText: nil, lineCount: source.lineCount)
            }
            let matches = source.withLine(Int(shown.line)) { bytes in
                bytes.contains(0x1B) || Self.trimmed(bytes).elementsEqual(Self.trimmed(shown.text.utf8))
            }
            if !matches {
                let text = source.withLine(Int(shown.line)) { String(decoding: $0, as: UTF8.self) }
                return DiffSourceMismatch(
                    path: path, line: shown.line, diffText: shown.text, fileText: text, lineCount: source.lineCount)
            }
        }
        return nil
    }

    private static func trimmed<C: BidirectionalCollection<UInt8>>(_ bytes: C) -> C.SubSequence {
        var end = bytes.endIndex
        while end > bytes.startIndex {
            let before = bytes.index(before: end)
            guard [0x20, 0x09, 0x0D].contains(bytes[before]) else { break }
            end = before
        }
        return bytes[..<end]
    }
}

extension UnifiedDiff {
    /// Checks that the diff's new side is the current sources, file by file, and throws at the
    /// first line that is not. `source` reads a file by its package-relative path; files it
    /// cannot read (deleted, outside the package, binary) are not checked.
    package func checkApplies(pathPrefix: String, source: (String) -> SourceText?) throws(DiffSourceMismatch) {
        for change in packageChanges(pathPrefix: pathPrefix).changes
        where change.status != .deleted && !change.isBinary && !change.shownLines.isEmpty {
            guard let text = source(change.path) else { continue }
            if let mismatch = change.firstMismatch(in: text) { throw mismatch }
        }
    }
}

/// A changed source file modified after the coverage it is compared with was written: the tests
/// that made the coverage may have run an older version of it, so its changed lines (new code
/// above all, which the coverage has no line of) cannot be judged by it.
package struct ChangedAfterCoverage: Error, Equatable, DiagnosticConvertible {
    /// The file, relative to the package root.
    package var path: String
    /// The export it was compared with, as the user named it.
    package var export: String
    /// How much later the file was modified than the export was written, in seconds.
    package var seconds: Int

    /// As an error (a gate would judge it), or a warning.
    package func diagnostic(severity: Diagnostic.Severity) -> Diagnostic {
        Diagnostic(
            severity: severity, file: path,
            "changed \(Self.phrase(seconds)) after its coverage was measured (\(export)): its changed lines may not "
                + "be in what the tests ran (new code would count as not executable); run the tests again "
                + "(swiftcov run) for the coverage of this version")
    }

    package var diagnostic: Diagnostic { diagnostic(severity: .error) }

    private static func phrase(_ seconds: Int) -> String {
        switch seconds {
        case ..<120: "\(seconds) s"
        case ..<7200: "\(seconds / 60) min"
        case ..<172_800: "\(seconds / 3600) h"
        default: "\(seconds / 86400) days"
        }
    }
}

extension UnifiedDiff {
    /// How much later than its coverage a file may be modified and still be taken as the version
    /// the tests ran, in nanoseconds: a checkout writes a committed export and the sources a
    /// moment apart, in either order; an edit after a run comes later than that.
    package static let coverageClockSlack = 2_000_000_000

    /// The files the diff adds or modifies lines in, among those `isCovered` accepts, that were
    /// modified after the coverage was written at `written` (nanoseconds since 1970, as `modified`
    /// gives a file's time; 0 when unknown, and nothing is checked), in the diff's order.
    package func changedAfterCoverage(
        pathPrefix: String, coverage export: String, written: Int, isCovered: (String) -> Bool,
        modified: (String) -> Int
    ) -> [ChangedAfterCoverage] {
        guard written > 0 else { return [] }
        return packageChanges(pathPrefix: pathPrefix).changes.compactMap { change in
            guard change.status != .deleted, !change.isBinary, !change.addedLines.isEmpty, isCovered(change.path)
            else { return nil }
            let time = modified(change.path)
            guard time > written, time - written > Self.coverageClockSlack else { return nil }
            return ChangedAfterCoverage(path: change.path, export: export, seconds: (time - written) / 1_000_000_000)
        }
    }
}
