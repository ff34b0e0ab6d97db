import SwiftCovPlatform

/// Why a coverage input could not be used. Each names the file and, for JSON, where in it.
package enum CoverageInputError: DiagnosticConvertible, Equatable {
    case notFound(path: String)
    case noExport(directory: String, profrawCount: Int)
    /// swiftcov's own JSON report, given where an export is needed: `run`'s `coverage.json`
    /// without the export `run` keeps beside it (`export`), or another report (`export` nil).
    case reportWithoutExport(path: String, export: String?)
    case unreadable(path: String, reason: String)
    case malformed(path: String, offset: Int, keyPath: String, message: String)
    /// Numbers that contradict each other (more covered than counted), at `keyPath` of the
    /// report built from the input at `path`.
    case contradictory(path: String, keyPath: String, message: String)
    case cannotMerge(CoverageMergeError)
    /// Two exports to be merged share no source file: they are not of the same package.
    case differentPackages(path: String, otherPath: String)
    /// Coverage data that would give `filename` more executable lines than any source file has.
    case implausibleLines(filename: String, count: Int)
    /// Xcode's report (in `path`) has totals, and the line-level product asked for needs the
    /// per-line counts of `filename`.
    case noLineData(path: String, filename: String)
    /// Xcode's coverage could not be read.
    case xcode(XcodeInputError)

    package var diagnostic: Diagnostic {
        switch self {
        case .notFound(let path):
            return Diagnostic(file: path, "no such file or directory")
        case .noExport(let directory, let profrawCount):
            var text = "no llvm-cov export found (looked for .build/*/codecov/*.json)"
            if profrawCount > 0 {
                text += "; \(profrawCount) .profraw file(s) are there: SwiftPM writes no export when a test fails"
            } else {
                text += "; run `swiftcov run` (or `swift test --enable-code-coverage`) first"
            }
            return Diagnostic(file: directory, text)
        case .reportWithoutExport(let path, let export?):
            return Diagnostic(
                file: path,
                "swiftcov's own JSON report, and the llvm-cov export it was made from is missing: expected "
                    + "\(export) beside it (`swiftcov run` writes both; keep them together), or give the export itself")
        case .reportWithoutExport(let path, nil):
            return Diagnostic(
                file: path, "swiftcov's own JSON report, not an llvm-cov export: give the export it was made from")
        case .unreadable(let path, let reason):
            return Diagnostic(file: path, "cannot read: \(reason)")
        case .malformed(let path, let offset, let keyPath, let message):
            return Diagnostic(file: path, at: .byteOffset(offset, keyPath: keyPath), message)
        case .contradictory(let path, let keyPath, let message):
            return Diagnostic(file: path, at: .keyPath(keyPath), message)
        case .cannotMerge(let error):
            return error.diagnostic
        case .differentPackages(let path, let otherPath):
            return Diagnostic(
                file: path,
                "not an export of the package \(otherPath) covers (they share no source file), so they cannot be merged"
            )
        case .noLineData(let path, let filename):
            return Diagnostic(
                file: path,
                "Xcode's report has each file's totals, not its per-line counts (needed for \(filename)): "
                    + "give the output of `xcrun xccov view --archive --json BUNDLE` as well")
        case .xcode(let error):
            return error.diagnostic
        case .implausibleLines(let filename, let count):
            return Diagnostic(
                file: filename,
                "the coverage data gives this file \(count) executable lines, more than "
                    + "\(LineCoverage.maximumExecutableLines); its line numbers cannot be right")
        }
    }
}
