extension CoverageReport {
    /// The report of Xcode's coverage: each target a module (by its bare name), each file with
    /// Xcode's executable and covered lines, each function with its execution count. Lines and
    /// functions are measured; regions, instantiations and branches are absent. Files get
    /// per-line counts from `coverage.lines` when it has them. By default the report leaves out
    /// test code and files outside the root (dependencies), as for a package: a file is test
    /// code because of its own place (`CoverageScope.isLibrarySource`), so a library's file
    /// listed only under a test bundle stays in, under that target as Xcode reports it.
    /// `input` names the coverage input in messages, and in the error when the coverage breaks
    /// the invariants every input must hold (`XcodeCoverage.checkInvariants`).
    package static func build(
        xcode coverage: XcodeCoverage, scope: CoverageScope, includeFunctions: Bool = true, input: String
    ) throws(XcodeInputError) -> CoverageReport {
        try coverage.checkInvariants(input: input)
        var files: [FileCoverage] = []
        var modules: [String: ModuleCoverage] = [:]
        // A file a library target lists is its own: a test bundle listing it too adds nothing.
        let libraryFiles = Set(coverage.targets.filter { !$0.isTestBundle }.flatMap { $0.files.map(\.path) })
        for target in coverage.targets {
            let module = target.bareName
            let targetInScope = scope.allFiles || !scope.includes.isEmpty || !target.isTestBundle
            if target.files.isEmpty {
                guard targetInScope else { continue }
                // `--only-targets`: the target's numbers without its files.
                let summary = CoverageSummary(
                    lines: Metric(count: target.executableLines, covered: target.coveredLines))
                modules[module, default: ModuleCoverage(name: module, summary: .init(), fileCount: 0)].summary +=
                    summary
                continue
            }
            var moduleSummary = CoverageSummary()
            var included = 0
            for file in target.files {
                let displayPath = scope.displayPath(file.path)
                guard scope.includes(file.path, displayPath: displayPath) || (scope.allFiles && target.isTestBundle),
                    targetInScope || (scope.isLibrarySource(file.path) && !libraryFiles.contains(file.path))
                else { continue }
                included += 1
                var summary = CoverageSummary(lines: Metric(count: file.executableLines, covered: file.coveredLines))
                var functions: [FunctionCoverage] = []
                for function in file.functions {
                    let ran = function.executionCount > 0 ? 1 : 0
                    summary.functions += Metric(count: 1, covered: ran)
                    guard includeFunctions else { continue }
                    functions.append(
                        FunctionCoverage(
                            mangledName: function.name, line: UInt32(function.lineNumber), column: 1,
                            executionCount: function.executionCount,
                            summary: CoverageSummary(
                                lines: Metric(count: function.executableLines, covered: function.coveredLines),
                                functions: Metric(count: 1, covered: ran))))
                }
                let lines = coverage.lines[file.path]
                if let lines { setEndLines(of: &functions, from: lines) }
                files.append(
                    FileCoverage(
                        path: file.path, displayPath: displayPath, module: module, summary: summary,
                        functions: functions, segments: lines.map(segments(of:)), input: input))
                moduleSummary += summary
            }
            guard included > 0 else { continue }
            // With all its files in scope, the target's lines are Xcode's for the target.
            if included == target.files.count {
                moduleSummary.lines = Metric(count: target.executableLines, covered: target.coveredLines)
            }
            modules[module, default: ModuleCoverage(name: module, summary: .init(), fileCount: 0)].summary +=
                moduleSummary
            modules[module]!.fileCount += included
        }
        files.sort { ($0.displayPath, $0.module) < ($1.displayPath, $1.module) }
        FileCoverage.shareFunctionNames(&files)
        let sortedModules = modules.values.sorted { $0.name < $1.name }
        var report = CoverageReport(
            files: files, modules: sortedModules, totals: sortedModules.reduce(CoverageSummary()) { $0 + $1.summary },
            scope: scope)
        // `--only-targets` has no functions.
        report.measured = coverage.targets.allSatisfy(\.files.isEmpty) ? [.lines] : [.lines, .functions]
        report.origin = .xcode
        return report
    }

    /// Where each function ends, which Xcode's report does not say: the last of its executable
    /// lines, counted in the archive from its first line (a function is its lines in a row; one
    /// holding a closure Xcode counts apart ends where its own count runs out).
    static func setEndLines(of functions: inout [FunctionCoverage], from lines: [XcodeCoverage.Line]) {
        let executable = lines.filter { $0.executionCount != nil }.map(\.line)
        for index in functions.indices {
            var first = 0
            var end = executable.count
            while first < end {
                let middle = (first + end) / 2
                if executable[middle] < functions[index].line { first = middle + 1 } else { end = middle }
            }
            let last = first + functions[index].summary.lines.count - 1
            guard functions[index].summary.lines.count > 0, last < executable.count else { continue }
            functions[index].endLine = executable[last]
        }
    }

    /// Segments whose line view is exactly Xcode's lines: each executable line opens a counted
    /// region at column 1 with its count, its subranges are parts with their own counts (not
    /// region starts, so the line keeps Xcode's count), and a skipped segment ends the line, so
    /// that the lines between are not executable.
    static func segments(of lines: [XcodeCoverage.Line]) -> [CoverageSegment] {
        var segments: [CoverageSegment] = []
        segments.reserveCapacity(lines.count * 2)
        for line in lines {
            guard let count = line.executionCount else { continue }
            segments.append(
                CoverageSegment(
                    line: line.line, column: 1, count: count, hasCount: true, isRegionEntry: true, isGapRegion: false))
            var column: UInt32 = 1
            for range in line.subranges where range.column > column && range.length > 0 {
                segments.append(
                    CoverageSegment(
                        line: line.line, column: range.column, count: range.executionCount, hasCount: true,
                        isRegionEntry: false, isGapRegion: false))
                let (end, overflow) = range.column.addingReportingOverflow(range.length)
                guard !overflow else { break }
                segments.append(
                    CoverageSegment(
                        line: line.line, column: end, count: count, hasCount: true, isRegionEntry: false,
                        isGapRegion: false))
                column = end
            }
            segments.append(
                CoverageSegment(
                    line: line.line, column: UInt32.max, count: 0, hasCount: false, isRegionEntry: false,
                    isGapRegion: false))
        }
        return segments
    }
}
