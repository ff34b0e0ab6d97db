import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// The per-line coverage of the base revision a change is measured against: read from an
/// llvm-cov export, or from a `swiftcov report --format json --show lines` document (small
/// enough to keep as a CI artifact of the main branch). Which one a file is, is detected.
package struct DifferentialBaseline: Sendable {
    /// What the baseline was read from.
    package enum Format: String, Sendable {
        case llvmCovExport = "llvm-cov export"
        case swiftcovJSON = "swiftcov JSON report"
    }

    /// One file of the baseline.
    package struct File: Sendable {
        /// The path as the baseline writes it (absolute, on the machine that made it).
        package var path: String
        fileprivate var source: Source

        fileprivate enum Source: Sendable {
            case export(FileCoverage)
            case lines([LineCount])
        }

        /// A file with these line counts (for tests).
        package init(path: String, lineCounts: [LineCount]) {
            self.init(path: path, source: .lines(lineCounts))
        }

        fileprivate init(path: String, source: Source) {
            self.path = path
            self.source = source
        }

        /// Its executable lines and their counts: the line view, as in the current report.
        package func lineCounts() throws(CoverageInputError) -> [LineCount] {
            switch source {
            case .export(let file): try file.lineCounts()
            case .lines(let counts): counts
            }
        }
    }

    /// The baseline's name in messages (its path as given).
    package var name: String
    package var format: Format
    package var files: [File]

    package init(name: String, format: Format, files: [File]) {
        self.name = name
        self.format = format
        self.files = files
    }
}

extension DifferentialBaseline {
    /// Reads the baseline at `path` (a file, "-" for standard input).
    package static func read(path: String) throws(CoverageInputError) -> DifferentialBaseline {
        try read(CoverageInput.map(path), name: path)
    }

    /// Reads a baseline held in `document`; `name` names it in errors. swiftcov's report is
    /// told from an export by its content (`SwiftCovReportDocument.recognizes`).
    package static func read(_ document: MappedFile, name: String) throws(CoverageInputError) -> DifferentialBaseline {
        if document.withUnsafeBytes(SwiftCovReportDocument.recognizes) {
            let report = try SwiftCovReportDocument.read(document, path: name, parts: .lineCounts)
            let files = report.files.map { File(path: $0.path, lineCounts: $0.lineCounts) }
            return DifferentialBaseline(name: name, format: .swiftcovJSON, files: files)
        }
        let export: LLVMCovExport
        do {
            // Its files' line counts are what is compared: the records are only checked.
            export = try LLVMCovExportReader.read(document, names: false, summariesOnly: true)
        } catch {
            throw CoverageInput.malformed(error, in: document, path: name)
        }
        let report = try? CoverageReport.build(
            exports: [export], scope: CoverageScope(root: nil, allFiles: true), includeFunctions: false)
        let files = (report?.files ?? []).map { File(path: $0.path, source: .export($0)) }
        return DifferentialBaseline(name: name, format: .llvmCovExport, files: files)
    }
}
