import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

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
    /// Whether the export names a file twice and must be merged with itself (`ExportMerger`)
    /// before its records are counted.
    package var needsMerging = false
    /// Whether the function records were only checked, not kept (`LLVMCovExportReader.read`'s
    /// `summariesOnly`): `functions` is empty and no file `hasFunctions`.
    package var recordsSkipped = false

    /// A file entry of the export.
    package struct File: Sendable {
        package var filename: String
        /// The export's own `summary` of the file, when present.
        package var exportedSummary: CoverageSummary?
        /// Where the file's `segments` array is in the document, when present.
        package var segmentsRange: Range<Int>?
        /// The document `segmentsRange` is in when it is not the export's own (in a merged export).
        package var source: Source?
        /// How many entries of the exports merged into this one name the file: above one, its
        /// counts are the sum of theirs and its segments are rebuilt from the function records.
        package var occurrences = 1
        /// Whether every export that names the file has function records, kept (not made with
        /// `-skip-functions` or `-summary-only`, nor read with `summariesOnly`): without them,
        /// its numbers are its summary, and it cannot be merged with another export's.
        package var hasFunctions = true

        package init(filename: String, exportedSummary: CoverageSummary?, segmentsRange: Range<Int>?) {
            self.filename = filename
            self.exportedSummary = exportedSummary
            self.segmentsRange = segmentsRange
        }
    }

    /// An export's document and where it was read from, for the segments of its files.
    package struct Source: Sendable {
        package var document: MappedFile
        package var path: String

        /// The segments array at `range` of the document; its pages are dropped from memory
        /// again after (a site of every file holds the pages of the files being written only).
        package func segments(in range: Range<Int>) throws(CoverageInputError) -> [CoverageSegment] {
            defer { document.drop(range) }
            let segments = try document.withUnsafeBytes { buffer throws(CoverageInputError) -> [CoverageSegment] in
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
            // Zeros past a new end read as segments: they are not the file's.
            guard !document.shrankWhileRead else { throw .unreadable(path: path, reason: MappedFile.shrankMessage) }
            return segments
        }
    }

    /// Where the segments of `file` are: the document and the range of its `segments` array;
    /// nil when the export has none for it.
    package func segmentsLocation(of file: File) -> (source: Source, range: Range<Int>)? {
        guard let range = file.segmentsRange else { return nil }
        return (file.source ?? Source(document: document, path: path), range)
    }

    /// Renames every file under the folder `oldRoot` to the same place under `newRoot` (in the
    /// file list, the function records' file table and their mappings).
    package mutating func moveFiles(from oldRoot: String, to newRoot: String) {
        guard oldRoot != newRoot else { return }
        let prefix = oldRoot == "/" ? "/" : oldRoot + "/"
        let newPrefix = newRoot == "/" ? "/" : newRoot + "/"
        var renamed: [String: String] = [:]
        func moved(_ name: String) -> String {
            if let known = renamed[name] { return known }
            let result = name.hasPrefix(prefix) ? newPrefix + name.dropFirst(prefix.count) : name
            renamed[name] = result
            return result
        }
        for index in files.indices { files[index].filename = moved(files[index].filename) }
        filenames = filenames.map(moved)
        for index in functions.indices where functions[index].mapping != nil {
            functions[index].mapping!.filenames = functions[index].mapping!.filenames.map(moved)
        }
    }

    /// The segments of `file`, read from the document; nil when the export has none for it.
    package func segments(of file: File) throws(CoverageInputError) -> [CoverageSegment]? {
        guard let (source, range) = segmentsLocation(of: file) else { return nil }
        return try source.segments(in: range)
    }
}
