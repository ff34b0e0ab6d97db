import SwiftCovModel
import SwiftCovPlatform

/// Adds up llvm-cov exports of one package (test shards, or one export listing a file twice) as
/// `llvm-profdata merge` adds up their profiles: the same function's region counts add up, and a
/// file in several of them has its segments rebuilt from the summed regions.
///
/// Exports are added one at a time and only the sum is kept, so merging many exports holds one
/// of them in memory beyond the sum. Records are the same function when their names, file names
/// and region layouts are the same; exports to be added must have been read with `keepMappings`,
/// else their records are kept side by side, unmerged.
package struct ExportMerger {
    private var version: String?
    private var path = "-"
    private var hasFunctions = true
    private var files: [LLVMCovExport.File] = []
    private var fileIndices: [String: Int] = [:]
    private var functions: [FunctionRecord] = []
    private var filenames: [String] = []
    private var filenameIDs: [String: Int32] = [:]
    /// The last record with each name, and for each record the one before it with its name.
    private var lastRecordNamed: [String: Int32] = [:]
    private var previousRecordNamed: [Int32] = []
    /// Records whose counts were added to since they were summarized.
    private var changed: [Int] = []

    package init() {}

    /// Adds `export` to the sum.
    package mutating func add(_ export: LLVMCovExport) {
        if version == nil {
            version = export.version
            path = export.path
        }
        hasFunctions = hasFunctions && export.hasFunctions
        for var file in export.files {
            if let index = fileIndices[file.filename] {
                files[index].occurrences += file.occurrences
                files[index].hasFunctions = files[index].hasFunctions && file.hasFunctions
                // Its segments are rebuilt from the records: its export's document is not needed.
                files[index].segmentsRange = nil
                files[index].source = nil
            } else {
                if file.source == nil {
                    file.source = LLVMCovExport.Source(document: export.document, path: export.path)
                }
                fileIndices[file.filename] = files.count
                files.append(file)
            }
        }
        functions.reserveCapacity(functions.count + export.functions.count)
        for var record in export.functions {
            if record.fileID >= 0 { record.fileID = fileID(of: export.filenames[Int(record.fileID)]) }
            if let mapping = record.mapping {
                var candidate = lastRecordNamed[record.name] ?? -1
                while candidate >= 0 {
                    if functions[Int(candidate)].mapping.map({ Self.sameFunction($0, mapping) }) == true {
                        functions[Int(candidate)].addCounts(
                            executionCount: record.executionCount, regions: mapping.regions, branches: mapping.branches)
                        changed.append(Int(candidate))
                        break
                    }
                    candidate = previousRecordNamed[Int(candidate)]
                }
                if candidate >= 0 { continue }
                previousRecordNamed.append(lastRecordNamed[record.name] ?? -1)
                lastRecordNamed[record.name] = Int32(functions.count)
            } else {
                previousRecordNamed.append(-1)
            }
            functions.append(record)
        }
    }

    /// The sum of the exports added so far, as one export; every file knows the document its
    /// segments are in, or is in several exports and has its segments rebuilt from the records.
    package mutating func merged() -> LLVMCovExport {
        var summarizer = FunctionSummarizer()
        for index in Set(changed) { functions[index].summarizeAgain(with: &summarizer) }
        changed = []
        return LLVMCovExport(
            version: version ?? "", files: files, functions: functions, filenames: filenames,
            hasFunctions: hasFunctions, document: MappedFile(bytes: []), path: path)
    }

    private mutating func fileID(of name: String) -> Int32 {
        if let id = filenameIDs[name] { return id }
        let id = Int32(filenames.count)
        filenames.append(name)
        filenameIDs[name] = id
        return id
    }

    /// Whether two records with the same name are the same function: the same files and regions.
    private static func sameFunction(_ lhs: FunctionRecord.Mapping, _ rhs: FunctionRecord.Mapping) -> Bool {
        lhs.filenames == rhs.filenames && lhs.hasLayout(regions: rhs.regions, branches: rhs.branches)
    }
}
