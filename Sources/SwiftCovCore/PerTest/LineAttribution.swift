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
            let path = scope.displayPath(file.filename)
            guard !path.hasPrefix("/"), !path.hasPrefix(".build/"), !path.hasPrefix("../"),
                seen.insert(path).inserted
            else { continue }
            result.append((path, file))
        }
        return result.sorted { $0.path < $1.path }
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
