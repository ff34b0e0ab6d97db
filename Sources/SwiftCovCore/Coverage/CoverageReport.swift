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
    package var functions: [FunctionCoverage]
    fileprivate var segmentSource: SegmentSource

    fileprivate enum SegmentSource: Sendable {
        case export(LLVMCovExport, LLVMCovExport.File)
        case rebuilt([CoverageSegment])
    }

    /// The file's segments, as in the export (or rebuilt from merged function records). Their
    /// line view has at most `LineCoverage.maximumExecutableLines` lines.
    package func segments() throws(CoverageInputError) -> [CoverageSegment] {
        let segments: [CoverageSegment]
        switch segmentSource {
        case .export(let export, let file): segments = try export.segments(of: file) ?? []
        case .rebuilt(let rebuilt): segments = rebuilt
        }
        let lines = LineCoverage.metric(of: segments).count
        guard lines <= LineCoverage.maximumExecutableLines else {
            throw .implausibleLines(filename: path, count: lines)
        }
        return segments
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

    /// The demangled name (computed on each call: renderers call it once per function).
    package var name: String { SwiftDemangler.demangle(mangledName) }
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
    /// would: the same function's counts add up). Several exports must have been read with
    /// `keepMappings`, or a file they share cannot be merged.
    package static func build(
        exports: [LLVMCovExport], scope: CoverageScope, includeFunctions: Bool = true
    ) throws(CoverageMergeError) -> CoverageReport {
        var occurrences: [String: [(export: Int, file: Int)]] = [:]
        var order: [String] = []
        for (exportIndex, export) in exports.enumerated() {
            for (fileIndex, file) in export.files.enumerated() {
                if occurrences[file.filename] == nil { order.append(file.filename) }
                occurrences[file.filename, default: []].append((exportIndex, fileIndex))
            }
        }
        let needsMerge = occurrences.values.contains { $0.count > 1 }
        let recordSets: [(records: [FunctionRecord], filenames: [String])] =
            needsMerge ? [mergedRecords(exports)] : exports.map { ($0.functions, $0.filenames) }

        // Records are bucketed by their file number first: one dictionary entry per file, not per record.
        var recordsByFile: [String: (set: Int, indices: [Int])] = [:]
        for (setIndex, set) in recordSets.enumerated() {
            var buckets = [[Int]](repeating: [], count: set.filenames.count)
            for (index, record) in set.records.enumerated() where record.fileID >= 0 {
                buckets[Int(record.fileID)].append(index)
            }
            for (fileID, indices) in buckets.enumerated() where !indices.isEmpty {
                recordsByFile[set.filenames[fileID], default: (setIndex, [])].indices += indices
            }
        }

        var files: [FileCoverage] = []
        for filename in order where scope.includes(filename) {
            let places = occurrences[filename]!
            let allHaveFunctions = places.allSatisfy { exports[$0.export].hasFunctions }
            var summary: CoverageSummary
            var functions: [FunctionCoverage] = []
            if allHaveFunctions {
                let group = recordsByFile[filename]
                (summary, functions) = summarize(
                    group?.indices ?? [], of: group.map { recordSets[$0.set].records } ?? [],
                    includeFunctions: includeFunctions)
            } else if places.count == 1 {
                let place = places[0]
                summary = exports[place.export].files[place.file].exportedSummary ?? CoverageSummary()
            } else {
                throw CoverageMergeError(filename: filename)
            }
            let source: FileCoverage.SegmentSource
            if places.count == 1 {
                let place = places[0]
                source = .export(exports[place.export], exports[place.export].files[place.file])
            } else {
                source = .rebuilt(rebuiltSegments(of: filename, from: recordSets[0].records))
            }
            files.append(
                FileCoverage(
                    path: filename, displayPath: scope.displayPath(filename), module: scope.module(of: filename),
                    summary: summary, functions: functions, segmentSource: source))
        }
        files.sort { $0.displayPath < $1.displayPath }

        var moduleSummaries: [String: ModuleCoverage] = [:]
        var totals = CoverageSummary()
        for file in files {
            totals += file.summary
            moduleSummaries[file.module, default: ModuleCoverage(name: file.module, summary: .init(), fileCount: 0)]
                .summary += file.summary
            moduleSummaries[file.module]!.fileCount += 1
        }
        let modules = moduleSummaries.values.sorted { $0.name < $1.name }
        return CoverageReport(files: files, modules: modules, totals: totals, scope: scope)
    }

    /// A file's summary from its records: instantiations grouped by where they start (one
    /// group = one function), each group counting its largest line and region numbers.
    private static func summarize(_ indices: [Int], of records: [FunctionRecord], includeFunctions: Bool) -> (
        CoverageSummary, [FunctionCoverage]
    ) {
        let sorted = indices.sorted { records[$0].start < records[$1].start }
        var summary = CoverageSummary()
        var functions: [FunctionCoverage] = []
        functions.reserveCapacity(sorted.count)
        var groupStart = 0
        while groupStart < sorted.count {
            let location = records[sorted[groupStart]].start
            var groupEnd = groupStart
            var executions: UInt64 = 0
            var lines = Metric()
            var regions = Metric()
            var branches = Metric()
            while groupEnd < sorted.count && records[sorted[groupEnd]].start == location {
                let record = records[sorted[groupEnd]]
                executions = executions.addingSaturating(record.executionCount)
                lines = lines.merged(with: record.lines)
                regions = regions.merged(with: record.regions)
                branches = branches.merged(with: record.branches)
                summary.instantiations.count += 1
                if record.executionCount > 0 { summary.instantiations.covered += 1 }
                let ran = record.executionCount > 0 ? 1 : 0
                if includeFunctions {
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

    /// Function records of all exports with the same function's counts added up. A record is
    /// the same function when its name, file names and region layout are the same.
    private static func mergedRecords(_ exports: [LLVMCovExport]) -> (records: [FunctionRecord], filenames: [String]) {
        var merged: [FunctionRecord] = []
        var byKey: [String: [Int]] = [:]
        // One table of file names for all exports; each record's fileID is renumbered into it.
        var filenames: [String] = []
        var fileIDs: [String: Int32] = [:]
        func fileID(of name: String) -> Int32 {
            if let id = fileIDs[name] { return id }
            let id = Int32(filenames.count)
            filenames.append(name)
            fileIDs[name] = id
            return id
        }
        for export in exports {
            for var record in export.functions {
                if record.fileID >= 0 { record.fileID = fileID(of: export.filenames[Int(record.fileID)]) }
                guard let mapping = record.mapping else {
                    merged.append(record)
                    continue
                }
                let key = record.name + "\u{0}" + mapping.filenames.joined(separator: "\u{0}")
                if let index = byKey[key]?.first(where: { sameLayout(merged[$0].mapping, mapping) }) {
                    merged[index].add(record)
                } else {
                    byKey[key, default: []].append(merged.count)
                    merged.append(record)
                }
            }
        }
        var summarizer = FunctionSummarizer()
        for index in merged.indices {
            guard let mapping = merged[index].mapping,
                let main = summarizer.mainFileID(regions: mapping.regions, fileCount: mapping.filenames.count)
            else { continue }
            let numbers = summarizer.summarize(regions: mapping.regions, branches: mapping.branches, mainFileID: main)
            merged[index].lines = numbers.lines
            merged[index].regions = numbers.regions
            merged[index].branches = numbers.branches
        }
        return (merged, filenames)
    }

    private static func sameLayout(_ lhs: FunctionRecord.Mapping?, _ rhs: FunctionRecord.Mapping) -> Bool {
        guard let lhs, lhs.regions.count == rhs.regions.count, lhs.branches.count == rhs.branches.count else {
            return false
        }
        for (a, b) in zip(lhs.regions, rhs.regions)
        where a.start != b.start || a.end != b.end || a.kind != b.kind || a.fileID != b.fileID {
            return false
        }
        return zip(lhs.branches, rhs.branches).allSatisfy { $0.start == $1.start && $0.fileID == $1.fileID }
    }

    /// A file's segments rebuilt from the regions of every record that maps code in it, as
    /// llvm-cov builds them for `show`.
    private static func rebuiltSegments(of filename: String, from records: [FunctionRecord]) -> [CoverageSegment] {
        var regions: [CountedRegion] = []
        for record in records {
            guard let mapping = record.mapping, mapping.filenames.contains(filename) else { continue }
            for region in mapping.regions where mapping.filenames[Int(region.fileID)] == filename {
                regions.append(region)
            }
        }
        var builder = SegmentBuilder()
        var segments: [CoverageSegment] = []
        builder.build(regions, into: &segments)
        return segments
    }
}

extension FunctionRecord {
    /// Adds the counts of the same function from another export.
    fileprivate mutating func add(_ other: FunctionRecord) {
        executionCount = executionCount.addingSaturating(other.executionCount)
        guard var mapping, let otherMapping = other.mapping else { return }
        for index in mapping.regions.indices {
            mapping.regions[index].executionCount = mapping.regions[index].executionCount.addingSaturating(
                otherMapping.regions[index].executionCount)
        }
        for index in mapping.branches.indices {
            mapping.branches[index].trueCount = mapping.branches[index].trueCount.addingSaturating(
                otherMapping.branches[index].trueCount)
            mapping.branches[index].falseCount = mapping.branches[index].falseCount.addingSaturating(
                otherMapping.branches[index].falseCount)
        }
        self.mapping = mapping
    }
}
