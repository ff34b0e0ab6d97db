import SwiftCovInputs
import SwiftCovModel

/// The lines of an export, as per-test data keeps them: the *line view* (`LineCoverage`, what
/// `llvm-cov show` prints) of each of the package's own files, by path relative to the root.
package enum LineAttribution {
    /// The package's own files of `export` (under `root`, not in `.build`), by relative path:
    /// the files per-test data is kept for, test code included.
    package static func ownFiles(of export: LLVMCovExport, root: String) -> [(path: String, file: LLVMCovExport.File)] {
        let scope = CoverageScope(root: root)
        var result: [(path: String, file: LLVMCovExport.File)] = []
        var seen = Set<String>()
        for file in export.files {
            guard let path = ownPath(file.filename, scope: scope), seen.insert(path).inserted else { continue }
            result.append((path, file))
        }
        return result.sorted { $0.path < $1.path }
    }

    /// `filename` relative to the scope's root when it is one of the package's own files (under
    /// the root, not in `.build`), else nil.
    static func ownPath(_ filename: String, scope: CoverageScope) -> String? {
        let path = scope.displayPath(filename)
        guard !path.hasPrefix("/"), !path.hasPrefix(".build/"), !path.hasPrefix("../") else { return nil }
        return path
    }

    /// Each own file of `export` with its executable lines: the files of a `PerTestCoverage`.
    package static func executableFiles(of export: LLVMCovExport, root: String) throws(CoverageInputError)
        -> [PerTestCoverage.File]
    {
        var files: [PerTestCoverage.File] = []
        for (path, file) in ownFiles(of: export, root: root) {
            var lines: [UInt32] = []
            try forEachRun(of: file, in: export) { run, _ in lines.append(contentsOf: run) }
            files.append(PerTestCoverage.File(path: path, lines: lines))
        }
        return files
    }

    /// The lines of each own file of `export` whose count is not zero: what the test whose
    /// coverage `export` is executed.
    package static func executedLines(of export: LLVMCovExport, root: String) throws(CoverageInputError)
        -> [String: [UInt32]]
    {
        var result: [String: [UInt32]] = [:]
        for (path, file) in ownFiles(of: export, root: root) {
            var lines: [UInt32] = []
            try forEachRun(of: file, in: export) { run, count in
                if count > 0 { lines.append(contentsOf: run) }
            }
            if !lines.isEmpty { result[path] = lines }
        }
        return result
    }

    private static func forEachRun(
        of file: LLVMCovExport.File, in export: LLVMCovExport, _ body: (ClosedRange<UInt32>, UInt64) -> Void
    ) throws(CoverageInputError) {
        let segments = try export.segments(of: file) ?? []
        guard LineCoverage.metric(of: segments).count <= LineCoverage.maximumExecutableLines else {
            throw .implausibleLines(filename: file.filename, count: LineCoverage.metric(of: segments).count)
        }
        segments.withUnsafeBufferPointer { LineCoverage.forEachExecutableRun(in: $0, body) }
    }
}

/// Which lines a raw profile executed, read against the binary's coverage mapping: the lines of
/// the package's own files whose line-view count (llvm-cov's, from llvm's segments) is not
/// zero — what an export of that profile alone gives, without llvm-profdata or llvm-cov.
package struct ProfileAttribution: Sendable {
    package let mapping: CoverageMapping
    /// Each mapping file's path relative to the root, nil for files that are not the package's own.
    let paths: [String?]
    /// Function indices by name.
    let functionIndex: [UInt64: Int]

    package init(mapping: CoverageMapping, root: String) {
        self.mapping = mapping
        let scope = CoverageScope(root: root)
        paths = mapping.files.map { LineAttribution.ownPath($0, scope: scope) }
        var index: [UInt64: Int] = [:]
        for (position, function) in mapping.functions.enumerated() { index[function.nameRef] = position }
        functionIndex = index
    }

    /// The lines of the package's own files that `profile` executed, by relative path. A file
    /// whose regions span more lines than any source file has is an error, never a list of
    /// billions of lines.
    package func executedLines(of profile: RawProfile) throws(CoverageInputError) -> [String: [UInt32]] {
        // The functions that ran, with their counters (duplicate records of one function add up);
        // a function known to the profile only under another hash is left out, as llvm-cov does.
        var counters: [Int: [UInt64]] = [:]
        var mismatched = Set<Int>()
        for function in profile.functions {
            guard let index = functionIndex[function.nameRef] else { continue }
            guard mapping.functions[index].hash == function.hash else {
                mismatched.insert(index)
                continue
            }
            if let existing = counters[index], existing.count == function.counters.count {
                counters[index] = zip(existing, function.counters).map { $0 &+ $1 }
            } else {
                counters[index] = function.counters
            }
        }
        // Only files where a function ran can have a line that ran.
        var touched = Set<Int32>()
        for index in counters.keys {
            let function = mapping.functions[index]
            for region in function.regions { touched.insert(function.files[Int(region.fileID)]) }
        }
        var result: [String: [UInt32]] = [:]
        var builder = SegmentBuilder()
        var regions: [CountedRegion] = []
        var segments: [CoverageSegment] = []
        var counted: [UInt64] = []
        var memo: [UInt64?] = []
        for file in touched {
            guard let path = paths[Int(file)] else { continue }
            regions.removeAll(keepingCapacity: true)
            for index in mapping.functionsByFile[Int(file)] {
                let function = mapping.functions[Int(index)]
                guard let functionCounters = counters[Int(index)] else {
                    if mismatched.contains(Int(index)) { continue }
                    // Not in the profile: every count is zero.
                    for region in function.regions where function.files[Int(region.fileID)] == file {
                        regions.append(Self.counted(region, count: 0))
                    }
                    continue
                }
                if function.isLoneZeroRegion && functionCounters.first.map({ $0 > 0 }) == true { continue }
                // Every region is counted before any is used: one that cannot be leaves the function out.
                counted.removeAll(keepingCapacity: true)
                memo.removeAll(keepingCapacity: true)
                memo.append(contentsOf: repeatElement(nil, count: function.expressions.count))
                let complete = functionCounters.withUnsafeBufferPointer { buffer in
                    for region in function.regions {
                        guard let count = function.count(of: region.counter, counters: buffer, memo: &memo) else {
                            return false
                        }
                        counted.append(count)
                    }
                    return true
                }
                guard complete else { continue }
                for (position, region) in function.regions.enumerated()
                where function.files[Int(region.fileID)] == file {
                    regions.append(Self.counted(region, count: counted[position]))
                }
            }
            builder.build(regions, into: &segments)
            let executable = LineCoverage.metric(of: segments).count
            guard executable <= LineCoverage.maximumExecutableLines else {
                throw .implausibleLines(filename: mapping.files[Int(file)], count: executable)
            }
            var lines: [UInt32] = []
            segments.withUnsafeBufferPointer { buffer in
                LineCoverage.forEachExecutableRun(in: buffer) { run, count in
                    if count != 0 { lines.append(contentsOf: run) }
                }
            }
            if !lines.isEmpty { result[path, default: []].append(contentsOf: lines) }
        }
        return result
    }

    private static func counted(_ region: CoverageMapping.Region, count: UInt64) -> CountedRegion {
        CountedRegion(
            start: region.start, end: region.end, executionCount: count, fileID: region.fileID,
            kind: RegionKind(rawValue: region.kind) ?? .code)
    }
}
