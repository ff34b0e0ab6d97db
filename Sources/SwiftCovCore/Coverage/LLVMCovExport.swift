/// What one llvm-cov JSON export holds (docs/COVERAGE-ALGORITHMS.md §1), read in one pass by `LLVMCovExportReader`.
///
/// Function records are summarized while they are read and their regions dropped (unless
/// asked to keep them for merging), and file segments are only located, not parsed: the
/// export stays mapped and `segments(of:)` reads them when a report needs per-line counts.
package struct LLVMCovExport: Sendable {
    /// The export's `version`, e.g. "3.0.1".
    package var version: String
    /// Every file of every `data` entry, in export order.
    package var files: [File]
    /// Every function record of every `data` entry.
    package var functions: [FunctionRecord]
    /// The file names function records refer to by `fileID`.
    package var filenames: [String]
    /// False when the export was made with `-skip-functions` or `-summary-only`.
    package var hasFunctions: Bool
    /// The document, kept for reading segments later.
    package var document: MappedFile
    /// Where the document was read from ("-" for standard input), for error messages.
    package var path = "-"

    /// A file entry of the export.
    package struct File: Sendable {
        package var filename: String
        /// The export's own `summary` of the file, when present.
        package var exportedSummary: CoverageSummary?
        /// Where the file's `segments` array is in the document, when present.
        package var segmentsRange: Range<Int>?
    }

    /// The segments of `file`, read from the document; nil when the export has none for it.
    package func segments(of file: File) throws(CoverageInputError) -> [CoverageSegment]? {
        guard let range = file.segmentsRange else { return nil }
        return try document.withUnsafeBytes { buffer throws(CoverageInputError) -> [CoverageSegment] in
            let slice = UnsafeRawBufferPointer(rebasing: buffer[range])
            do throws(JSONError) {
                return try LLVMCovExportReader.readSegments(slice)
            } catch {
                let offset = error.offset + range.lowerBound
                throw .malformed(
                    path: path, offset: offset, keyPath: JSONKeyPath.path(at: offset, in: buffer),
                    message: error.message)
            }
        }
    }
}
