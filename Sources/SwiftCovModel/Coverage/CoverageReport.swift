import SwiftCovPlatform

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
    package var inputs: [LocatedExport] = []
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

    package init(
        files: [FileCoverage], modules: [ModuleCoverage], totals: CoverageSummary, scope: CoverageScope,
        measured: Set<CoverageSummary.Kind> = Set(CoverageSummary.Kind.allCases), origin: Origin = .llvmCov,
        warnings: [Diagnostic] = [], inputs: [LocatedExport] = [], leftOut: [CoverageScope.Exclusion: Int] = [:],
        otherRoot: String? = nil
    ) {
        self.files = files
        self.modules = modules
        self.totals = totals
        self.scope = scope
        self.measured = measured
        self.origin = origin
        self.warnings = warnings
        self.inputs = inputs
        self.leftOut = leftOut
        self.otherRoot = otherRoot
    }

    /// Works out every function's name now, on all cores, and keeps them for every writer of the
    /// report (`swiftcov run` writes the site and coverage.json from one report).
    package func workOutFunctionNames() {
        for file in files where !file.functions.isEmpty { _ = file.nameTable.names }
    }
}

/// A module (SwiftPM target) and the sum of its files' numbers.
package struct ModuleCoverage: Sendable {
    package var name: String
    package var summary: CoverageSummary
    package var fileCount: Int

    package init(name: String, summary: CoverageSummary, fileCount: Int) {
        self.name = name
        self.summary = summary
        self.fileCount = fileCount
    }
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
    package var segmentSource: SegmentSource
    /// The table holding its functions' names (the report's), and where they start in it.
    package private(set) var nameTable = FunctionNameTable.empty
    fileprivate var firstName = 0

    /// Its functions' names, in the order of `functions`: worked out for the whole report the
    /// first time any file's are asked for, and kept (writers never demangle on their own).
    package var functionNames: ArraySlice<FunctionName> {
        nameTable.names[firstName..<firstName + functions.count]
    }

    /// Its functions' names for a writer that reads them once (`FunctionNameTable.names(in:)`):
    /// the report's when they are worked out, else worked out now for this file alone, not kept.
    package var functionNamesReadOnce: ArraySlice<FunctionName> {
        nameTable.names(in: firstName..<firstName + functions.count)
    }

    /// Gives `files` one table of their functions' names, in the order of `files`.
    package static func shareFunctionNames(_ files: inout [FileCoverage]) {
        let table = FunctionNameTable(files.flatMap { $0.functions.map(\.mangledName) })
        var first = 0
        for index in files.indices {
            files[index].nameTable = table
            files[index].firstName = first
            first += files[index].functions.count
        }
    }

    /// Where the file's segments come from when asked for.
    package enum SegmentSource: Sendable {
        /// Read from this range of an export's document when asked for.
        case document(any SegmentDocument, Range<Int>)
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
        case .document(let document, let range): segments = try document.segments(in: range)
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
    /// A file whose segments come from `segmentSource`. Its functions' names are the report's to
    /// share (`shareFunctionNames`).
    package init(
        path: String, displayPath: String, module: String, summary: CoverageSummary, functions: [FunctionCoverage],
        segmentSource: SegmentSource
    ) {
        self.init(
            path: path, displayPath: displayPath, module: module, summary: summary, functions: functions,
            segmentSource: segmentSource, nameTable: .empty)
    }

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

    package init(
        mangledName: String, line: UInt32, column: UInt32, executionCount: UInt64, summary: CoverageSummary,
        endLine: UInt32 = 0
    ) {
        self.mangledName = mangledName
        self.line = line
        self.column = column
        self.executionCount = executionCount
        self.summary = summary
        self.endLine = endLine
    }
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

    package init(filename: String) {
        self.filename = filename
    }
}

/// A document whose files' segments are read when a file's are asked for (an llvm-cov export,
/// mapped): a report of thousands of files holds the segments of none.
package protocol SegmentDocument: Sendable {
    /// The segments array at `range` of the document.
    func segments(in range: Range<Int>) throws(CoverageInputError) -> [CoverageSegment]
}
