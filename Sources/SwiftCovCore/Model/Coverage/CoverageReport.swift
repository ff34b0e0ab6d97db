/// The coverage of a package: its files in scope grouped under modules, with every number
/// llvm-cov would report for them. Built from one or more exports by `CoverageReport.build`.
package struct CoverageReport: Sendable {
    /// Files in scope, sorted by display path.
    package var files: [FileCoverage]
    /// Modules in scope, sorted by name.
    package var modules: [ModuleCoverage]
    /// The sum over `files`: `llvm-cov report`'s TOTAL row for the same files.
    package var totals: CoverageSummary
    /// The scope the report was built with.
    package var scope: CoverageScope
    /// The metrics the inputs measure: all of them for llvm-cov; Xcode's reports have lines and
    /// functions only, and a report made from them shows the others as absent (not as zero).
    package var measured: Set<CoverageSummary.Kind> = Set(CoverageSummary.Kind.allCases)
    /// Where the numbers come from, which decides how lines are counted.
    package var origin: Origin = .llvmCov
    /// What reading the inputs found worth a warning (a result bundle of a newer format).
    package var warnings: [Diagnostic] = []
    /// The exports read, as they were found (which run each is of, why it was chosen).
    package var inputs: [CoverageInput.LocatedExport] = []
    /// How many of the inputs' files the scope left out, by why (see `emptyScope`).
    package var leftOut: [CoverageScope.Exclusion: Int] = [:]
    /// The package root of the files the scope left out as outside the root, when they have one.
    package var otherRoot: String?

    /// The tool whose numbers a report holds.
    package enum Origin: String, Sendable {
        /// llvm-cov's export: every number equal to llvm-cov's.
        case llvmCov = "llvm-cov"
        /// Xcode's report (a result bundle, or xccov's JSON): Xcode's executable lines.
        case xcode = "xccov"
    }
}

/// A module (SwiftPM target) and the sum of its files' numbers.
package struct ModuleCoverage: Sendable {
    package var name: String
    package var summary: CoverageSummary
    package var fileCount: Int
}

/// One source file's coverage.
package struct FileCoverage: Sendable {
    /// The path as written in the export.
    package var path: String
    /// The path relative to the package root (or as in the export when outside it).
    package var displayPath: String
    package var module: String
    /// The file's summary, equal to the export's `summary` for the file.
    package var summary: CoverageSummary
    /// The file's function records (instantiations), as `llvm-cov report -show-functions` lists them.
    package private(set) var functions: [FunctionCoverage]
    fileprivate var segmentSource: SegmentSource
    /// The table holding its functions' names (the report's), and where they start in it.
    package private(set) var nameTable = FunctionNameTable.empty
    fileprivate var firstName = 0

    /// Its functions' names, in the order of `functions`: worked out for the whole report the
    /// first time any file's are asked for, and kept (writers never demangle on their own).
    package var functionNames: ArraySlice<FunctionName> {
        nameTable.names[firstName..<firstName + functions.count]
    }

    /// Gives `files` one table of their functions' names, in the order of `files`.
    static func shareFunctionNames(_ files: inout [FileCoverage]) {
        let table = FunctionNameTable(files.flatMap { $0.functions.map(\.mangledName) })
        var first = 0
        for index in files.indices {
            files[index].nameTable = table
            files[index].firstName = first
            first += files[index].functions.count
        }
    }

    fileprivate enum SegmentSource: Sendable {
        /// Read from this range of an export's document when asked for.
        case export(LLVMCovExport.Source, Range<Int>)
        /// Rebuilt from these regions (of a file merged from several exports) when asked for.
        case regions([CountedRegion])
        case rebuilt([CoverageSegment])
        /// None: the input (named) has totals, not per-line counts.
        case unavailable(input: String)
    }

    /// The file's segments, as in the export (or rebuilt from merged function records). Their
    /// line view has at most `LineCoverage.maximumExecutableLines` lines.
    package func segments() throws(CoverageInputError) -> [CoverageSegment] {
        let segments: [CoverageSegment]
        switch segmentSource {
        case .export(let source, let range): segments = try source.segments(in: range)
        case .regions(let regions):
            var builder = SegmentBuilder()
            var rebuilt: [CoverageSegment] = []
            builder.build(regions, into: &rebuilt)
            segments = rebuilt
        case .rebuilt(let rebuilt): segments = rebuilt
        case .unavailable(let input): throw .noLineData(path: input, filename: displayPath)
        }
        let lines = LineCoverage.metric(of: segments).count
        guard lines <= LineCoverage.maximumExecutableLines else {
            throw .implausibleLines(filename: path, count: lines)
        }
        return segments
    }

    /// Whether the file's per-line counts are known.
    package var hasLineData: Bool {
        if case .unavailable = segmentSource { return false }
        return true
    }

    /// A file with the given segments and nothing else (for tests of renderers).
    package static func forTesting(path: String, segments: [CoverageSegment]) -> FileCoverage {
        FileCoverage(
            path: path, displayPath: path, module: "Test", summary: CoverageSummary(), functions: [],
            segmentSource: .rebuilt(segments))
    }

    /// Executable lines and their counts: the *line view*, as `llvm-cov show` prints them.
    package func lineCounts() throws(CoverageInputError) -> [LineCount] {
        LineCoverage.lineCounts(of: try segments())
    }
}

extension FileCoverage {
    /// A file and its numbers, with `segments` (nil when `input` has no per-line counts). Its
    /// functions' names have a table of their own until a report shares one among its files.
    package init(
        path: String, displayPath: String, module: String, summary: CoverageSummary, functions: [FunctionCoverage],
        segments: [CoverageSegment]?, input: String
    ) {
        self.init(
            path: path, displayPath: displayPath, module: module, summary: summary, functions: functions,
            segmentSource: segments.map { .rebuilt($0) } ?? .unavailable(input: input),
            nameTable: FunctionNameTable(functions.map(\.mangledName)))
    }
}

/// One function record (an instantiation) and its own numbers.
package struct FunctionCoverage: Sendable {
    package var mangledName: String
    package var line: UInt32
    package var column: UInt32
    /// How many times it ran.
    package var executionCount: UInt64
    /// Its own lines, regions and branches; `functions` and `instantiations` are 1 (covered when it ran).
    package var summary: CoverageSummary
    /// The line its last region ends on: the function spans `line...endLine` (closures inside included).
    package var endLine: UInt32 = 0

}

/// Why several exports could not be combined into one report.
package struct CoverageMergeError: DiagnosticConvertible, Equatable {
    package var filename: String

    package var diagnostic: Diagnostic {
        Diagnostic(
            file: filename,
            "appears in several exports, and one of them has no function records "
                + "(made with -skip-functions or -summary-only), so their counts cannot be added up")
    }
}

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
                (summary, functions) = summarize(
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
                        ? .regions([]) : export.segmentsLocation(of: file).map { .export($0, $1) } ?? .rebuilt([])))
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

    /// A file's summary from its records: instantiations grouped by where they start (one
    /// group = one function), each group counting its largest line and region numbers.
    private static func summarize(_ indices: [Int], of records: [FunctionRecord], includeFunctions: Bool) -> (
        CoverageSummary, [FunctionCoverage]
    ) {
        var sorted = indices
        sorted.sort { records[$0].start < records[$1].start }
        var summary = CoverageSummary()
        var functions: [FunctionCoverage] = []
        if includeFunctions { functions.reserveCapacity(sorted.count) }
        var groupStart = 0
        while groupStart < sorted.count {
            let location = records[sorted[groupStart]].start
            var groupEnd = groupStart
            var executions: UInt64 = 0
            var lines = Metric()
            var regions = Metric()
            var branches = Metric()
            while groupEnd < sorted.count && records[sorted[groupEnd]].start == location {
                let index = sorted[groupEnd]
                // The numbers are read in place: copying a whole record would retain its name and mapping.
                let executionCount = records[index].executionCount
                executions = executions.addingSaturating(executionCount)
                lines = lines.merged(with: records[index].lines)
                regions = regions.merged(with: records[index].regions)
                branches = branches.merged(with: records[index].branches)
                summary.instantiations.count += 1
                if executionCount > 0 { summary.instantiations.covered += 1 }
                if includeFunctions {
                    let record = records[index]
                    let ran = record.executionCount > 0 ? 1 : 0
                    functions.append(
                        FunctionCoverage(
                            mangledName: record.name, line: record.start.line, column: record.start.column,
                            executionCount: record.executionCount,
                            summary: CoverageSummary(
                                lines: record.lines, functions: Metric(count: 1, covered: ran),
                                instantiations: Metric(count: 1, covered: ran), regions: record.regions,
                                branches: record.branches), endLine: record.end.line))
                }
                groupEnd += 1
            }
            summary.functions.count += 1
            if executions > 0 { summary.functions.covered += 1 }
            summary.lines += lines
            summary.regions += regions
            summary.branches += branches
            groupStart = groupEnd
        }
        return (summary, functions)
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
