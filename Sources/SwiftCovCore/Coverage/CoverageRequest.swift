/// Everything `report` (and later commands) need to build a coverage report from the command
/// line's point of view: inputs, package root, scope rules.
package struct CoverageRequest: Sendable {
    /// Export files or folders to find one in; "-" for standard input.
    package var inputs: [String]
    /// The package root; inferred from the inputs when nil.
    package var root: String?
    package var includes: [Glob] = []
    package var excludes: [Glob] = []
    package var allFiles = false
    /// Whether the report lists each file's functions (reading their names costs time).
    package var includeFunctions = true

    package init(
        inputs: [String], root: String? = nil, includes: [Glob] = [], excludes: [Glob] = [], allFiles: Bool = false
    ) {
        self.inputs = inputs
        self.root = root
        self.includes = includes
        self.excludes = excludes
        self.allFiles = allFiles
    }

    /// Locates and reads the exports, settles the package root and builds the report.
    package func makeReport(workingDirectory: String) throws(CoverageInputError) -> CoverageReport {
        var located: [String] = []
        for input in inputs { located.append(try CoverageInput.locateExport(input)) }
        var exports: [LLVMCovExport] = []
        for path in located {
            exports.append(
                try CoverageInput.readExport(path, keepMappings: located.count > 1, names: includeFunctions))
        }
        var resolvedRoot: String
        var guessed = false
        if let root {
            resolvedRoot = CoverageScope.normalized(root.hasPrefix("/") ? root : workingDirectory + "/" + root)
        } else {
            (resolvedRoot, guessed) = CoverageInput.inferRoot(
                // Shards' exports may come from several folders: the first one's settles it.
                for: inputs, exportPaths: exports.first?.files.map(\.filename) ?? [],
                workingDirectory: workingDirectory)
        }
        if exports.count > 1 {
            (exports, resolvedRoot) = try CoverageInput.onOneRoot(exports, root: resolvedRoot, rootIsGiven: root != nil)
        }
        var scope = CoverageScope(root: resolvedRoot, includes: includes, excludes: excludes, allFiles: allFiles)
        scope.rootWasGuessed = guessed && resolvedRoot != CoverageScope.normalized(workingDirectory)
        do {
            return try CoverageReport.build(exports: exports, scope: scope, includeFunctions: includeFunctions)
        } catch {
            throw .cannotMerge(error)
        }
    }
}
