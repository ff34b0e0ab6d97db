import SwiftCovFormats
import SwiftCovModel

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
    /// Reads the package's targets from its manifest, when the root is a package, to name the
    /// modules after them; nil keeps the folder rule (`CoverageScope.module(of:)`).
    package var describer: PackageDescriber?

    package init(
        inputs: [String], root: String? = nil, includes: [Glob] = [], excludes: [Glob] = [], allFiles: Bool = false
    ) {
        self.inputs = inputs
        self.root = root
        self.includes = includes
        self.excludes = excludes
        self.allFiles = allFiles
    }

    /// Locates and reads the exports, settles the package root and builds the report. Several
    /// exports are merged as they are read, so that one of them at a time is held beside the sum.
    /// An export already read (`read`, with its names when functions are listed) is not read again.
    package func makeReport(
        workingDirectory: String, read: LLVMCovExport? = nil
    ) throws(CoverageInputError) -> CoverageReport {
        try makeReportKeepingCoverage(workingDirectory: workingDirectory, read: read).report
    }

    /// The coverage a report was built from, kept so that another report of it (the files the
    /// tests' failures point at, `failureFiles`) is built without reading the inputs again.
    package enum ReadCoverage: Sendable {
        /// llvm-cov's export (the exports merged, when there were several).
        case llvmCov(LLVMCovExport)
        /// Xcode's coverage, with the input its messages name.
        case xcode(XcodeCoverage, input: String)
    }

    /// `makeReport`, with the coverage the report was built from.
    package func makeReportKeepingCoverage(
        workingDirectory: String, read: LLVMCovExport? = nil
    ) throws(CoverageInputError) -> (report: CoverageReport, coverage: ReadCoverage) {
        var exports: [LocatedExport] = []
        for input in inputs { exports.append(try CoverageInput.locate(input)) }
        let located = exports.map(\.path)
        let xcodeInputs = located.map(XcodeCoverageInput.recognize)
        if let xcode = xcodeInputs.firstIndex(where: { $0 != nil }) {
            guard let llvm = xcodeInputs.firstIndex(where: { $0 == nil }) else {
                return try makeXcodeReport(xcodeInputs.map { $0! }, workingDirectory: workingDirectory)
            }
            throw .xcode(
                XcodeInputError(
                    path: located[llvm],
                    "not Xcode's coverage, given with Xcode's (\(located[xcode])): llvm-cov's and Xcode's numbers "
                        + "count lines differently and cannot be merged"))
        }
        let merges = located.count > 1
        var merger = ExportMerger()
        var single: LLVMCovExport?
        var sharedRoot: SharedPackageRoot?
        var resolvedRoot = ""
        var guessed = false
        for (index, path) in located.enumerated() {
            var export: LLVMCovExport
            if let read, read.path == path, !merges {
                export = read
            } else {
                // A report without a function list of one export takes each file's numbers
                // from its summary: the records are only checked, not read.
                export = try CoverageInput.readExport(
                    path, keepMappings: merges, names: includeFunctions, summariesOnly: !includeFunctions && !merges)
            }
            if index == 0 {
                if let root {
                    resolvedRoot = CoverageScope.normalized(root.hasPrefix("/") ? root : workingDirectory + "/" + root)
                } else {
                    (resolvedRoot, guessed) = CoverageInput.inferRoot(
                        // Shards' exports may come from several folders: the first one's settles it.
                        for: inputs, exportPaths: export.files.map(\.filename), workingDirectory: workingDirectory)
                }
                // One export from another checkout is put on the root given as several are.
                if merges || root != nil {
                    sharedRoot = SharedPackageRoot(first: export, root: resolvedRoot, rootIsGiven: root != nil)
                }
            }
            guard var shared = sharedRoot else {
                single = export
                continue
            }
            try shared.align(&export)
            sharedRoot = shared
            resolvedRoot = shared.root
            if merges { merger.add(export) } else { single = export }
        }
        var scope = CoverageScope(root: resolvedRoot, includes: includes, excludes: excludes, allFiles: allFiles)
        scope.rootWasGuessed = guessed && resolvedRoot != CoverageScope.normalized(workingDirectory)
        if let describer, resolvedRoot.hasPrefix("/") { scope.targets = describer.targets(ofPackageAt: resolvedRoot) }
        let built = single ?? merger.merged()
        var report = try CoverageReport.build(export: built, scope: scope, includeFunctions: includeFunctions)
        report.inputs = exports
        return (report, .llvmCov(built))
    }

    /// The report of Xcode's coverage inputs: a bundle or xccov's report, with any archives.
    private func makeXcodeReport(
        _ inputs: [XcodeCoverageInput.Input], workingDirectory: String
    ) throws(CoverageInputError) -> (report: CoverageReport, coverage: ReadCoverage) {
        let (coverage, workspace, warnings) = try XcodeCoverageInput.read(inputs)
        let resolvedRoot =
            root.map { CoverageScope.normalized($0.hasPrefix("/") ? $0 : workingDirectory + "/" + $0) }
            ?? XcodeCoverageInput.inferRoot(coverage, workspace: workspace)
            ?? CoverageScope.normalized(workingDirectory)
        var scope = CoverageScope(root: resolvedRoot, includes: includes, excludes: excludes, allFiles: allFiles)
        scope.rootWasGuessed = root == nil && workspace == nil && coverage.targets.contains { !$0.files.isEmpty }
        let input = inputs.first(where: \.isReport)?.path ?? inputs[0].path
        var report: CoverageReport
        do throws(XcodeInputError) {
            report = try CoverageReport.build(
                xcode: coverage, scope: scope, includeFunctions: includeFunctions, input: input)
        } catch {
            throw .xcode(error)
        }
        report.warnings = warnings
        return (report, .xcode(coverage, input: input))
    }
}
