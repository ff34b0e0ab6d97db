import SwiftCovModel

extension CoverageReport {
    /// Builds the report for `exports` (one, or several to be merged as `llvm-profdata merge`
    /// would: the same function's counts add up; see `ExportMerger`). Several exports must have
    /// been read with `keepMappings`, or a file they share cannot be merged. Every file's numbers
    /// are checked against what no input may say (`CoverageSummary.contradiction`).
    package static func build(
        exports: [LLVMCovExport], scope: CoverageScope, includeFunctions: Bool = true
    ) throws(CoverageInputError) -> CoverageReport {
        if exports.count == 1 {
            return try build(export: exports[0], scope: scope, includeFunctions: includeFunctions)
        }
        var merger = ExportMerger()
        for export in exports { merger.add(export) }
        return try build(export: merger.merged(), scope: scope, includeFunctions: includeFunctions)
    }

    /// Builds the report for one export, merged with itself first when it names a file twice.
    package static func build(
        export: LLVMCovExport, scope: CoverageScope, includeFunctions: Bool = true
    ) throws(CoverageInputError) -> CoverageReport {
        if export.needsMerging {
            var merger = ExportMerger()
            merger.add(export)
            return try build(export: merger.merged(), scope: scope, includeFunctions: includeFunctions)
        }
        let recordsByFile = RecordsByFile(export)

        var files: [FileCoverage] = []
        var merged: [String: Int] = [:]
        var moduleNames = ModuleNames(scope: scope)
        var leftOut: [CoverageScope.Exclusion: Int] = [:]
        for file in export.files {
            let displayPath = scope.displayPath(file.filename)
            if let exclusion = scope.exclusion(of: file.filename, displayPath: displayPath) {
                leftOut[exclusion, default: 0] += 1
                continue
            }
            var summary: CoverageSummary
            var functions: [FunctionCoverage] = []
            if file.hasFunctions {
                (summary, functions) = FunctionRecord.fileSummary(
                    recordsByFile.records(of: file.filename), of: export.functions, includeFunctions: includeFunctions)
            } else if file.occurrences == 1 {
                summary = file.exportedSummary ?? CoverageSummary()
            } else {
                throw .cannotMerge(CoverageMergeError(filename: file.filename))
            }
            if let contradiction = summary.contradiction {
                throw .contradictory(
                    path: export.path, keyPath: "data[0].files (\(file.filename)).summary", message: contradiction)
            }
            if file.occurrences > 1 { merged[file.filename] = files.count }
            files.append(
                FileCoverage(
                    path: file.filename, displayPath: displayPath,
                    module: moduleNames.module(of: file.filename), summary: summary, functions: functions,
                    segmentSource: file.occurrences > 1
                        ? .regions([]) : export.segmentsLocation(of: file).map { .document($0, $1) } ?? .rebuilt([])))
        }
        if !merged.isEmpty { addMergedRegions(of: export.functions, to: &files, at: merged) }
        files.sort { $0.displayPath < $1.displayPath }
        FileCoverage.shareFunctionNames(&files)

        var moduleSummaries: [String: ModuleCoverage] = [:]
        var totals = CoverageSummary()
        for file in files {
            totals += file.summary
            moduleSummaries[file.module, default: ModuleCoverage(name: file.module, summary: .init(), fileCount: 0)]
                .summary += file.summary
            moduleSummaries[file.module]!.fileCount += 1
        }
        let modules = moduleSummaries.values.sorted { $0.name < $1.name }
        var report = CoverageReport(files: files, modules: modules, totals: totals, scope: scope)
        report.leftOut = leftOut
        if files.isEmpty, leftOut[.byDefault(.outsideRoot)] != nil {
            report.otherRoot = CoverageScope.inferredRoot(
                from: export.files.map(\.filename).filter { $0.hasPrefix("/") && scope.relativePath($0) == nil })
        }
        return report
    }

    /// Gives each file in several exports (`indices`: file name to index in `files`) the regions
    /// that every record maps in it, to rebuild its segments from, as llvm-cov builds them for `show`.
    private static func addMergedRegions(
        of records: [FunctionRecord], to files: inout [FileCoverage], at indices: [String: Int]
    ) {
        var regions = [[CountedRegion]](repeating: [], count: files.count)
        var targets: [Int] = []
        var lastFilenames: [String] = []
        for record in records {
            guard let mapping = record.mapping else { continue }
            if mapping.filenames != lastFilenames {
                lastFilenames = mapping.filenames
                targets = mapping.filenames.map { indices[$0] ?? -1 }
            }
            for region in mapping.regions {
                let target = targets[Int(region.fileID)]
                if target >= 0 { regions[target].append(region) }
            }
        }
        for (index, fileRegions) in regions.enumerated() where !fileRegions.isEmpty {
            files[index].segmentSource = .regions(fileRegions)
        }
    }
}

/// The indices of an export's function records by their main file's name, found without an
/// array per file: the indices sorted by file number in two passes (counting sort), and each
/// name's file numbers (more than one only when the export spells a name two ways).
private struct RecordsByFile {
    /// Record indices grouped by file number; those of file `k` are at `starts[k]..<starts[k + 1]`.
    private var order: [Int]
    private var starts: [Int]
    private var firstFileID: [String: Int] = [:]
    /// For each file number, the next one with the same name, or -1.
    private var nextFileID: [Int]

    init(_ export: LLVMCovExport) {
        let fileCount = export.filenames.count
        starts = [Int](repeating: 0, count: fileCount + 1)
        let records = export.functions
        for index in records.indices where records[index].fileID >= 0 { starts[Int(records[index].fileID) + 1] += 1 }
        for fileID in 0..<fileCount { starts[fileID + 1] += starts[fileID] }
        var next = starts
        order = [Int](repeating: 0, count: starts[fileCount])
        for index in records.indices where records[index].fileID >= 0 {
            let fileID = Int(records[index].fileID)
            order[next[fileID]] = index
            next[fileID] += 1
        }
        nextFileID = [Int](repeating: -1, count: fileCount)
        for fileID in (0..<fileCount).reversed() where starts[fileID] < starts[fileID + 1] {
            let name = export.filenames[fileID]
            nextFileID[fileID] = firstFileID[name] ?? -1
            firstFileID[name] = fileID
        }
    }

    /// The indices of the records whose main file is `filename`.
    func records(of filename: String) -> [Int] {
        guard var fileID = firstFileID[filename] else { return [] }
        var indices = Array(order[starts[fileID]..<starts[fileID + 1]])
        while nextFileID[fileID] >= 0 {
            fileID = nextFileID[fileID]
            indices += order[starts[fileID]..<starts[fileID + 1]]
        }
        return indices
    }
}

/// `CoverageScope.module(of:)` worked out once per folder: the files of a folder share it.
private struct ModuleNames {
    let scope: CoverageScope
    private var byFolder: [Substring: String] = [:]

    init(scope: CoverageScope) {
        self.scope = scope
    }

    mutating func module(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), path != scope.root else {
            return scope.module(of: path)
        }
        let name = path.utf8[path.utf8.index(after: slash)...]
        guard !name.elementsEqual(".".utf8) && !name.elementsEqual("..".utf8) else { return scope.module(of: path) }
        let folder = path[..<slash]
        if let known = byFolder[folder] { return known }
        let module = scope.module(of: path)
        byFolder[folder] = module
        return module
    }
}

extension LLVMCovExport.Source: SegmentDocument {}
