import SwiftCovInputs
import SwiftCovModel

extension RunWorkflow {
    /// What a run reports, made once from its `Outcome`: the coverage in the package's scope, and
    /// the tests with the files they are in.
    package struct Results: Sendable {
        /// The run's coverage, in the scope asked for and the gate's.
        package var coverage: CoverageReport
        /// The run's tests, their files and modules found in the coverage and the package's sources.
        package var tests: TestRun
        /// What the coverage was made with: the run's export, in the package root, in its scope.
        package var request: CoverageRequest
        /// The export the coverage was made from: the files failures point at are made from it
        /// without reading it again.
        package var export: LLVMCovExport
    }

    /// The coverage and the tests of `outcome`. The coverage is the run's export (read once; not
    /// at all when the run read it) in `scope`'s includes, excludes and module names, with the
    /// scope rules of the gate's `configuration` added, so that the gate judges the code the
    /// report shows; `scope`'s inputs and root are replaced by the run's. The tests are resolved
    /// against the report's files and the package's sources (the test files it leaves out).
    package func results(of outcome: Outcome, scope: CoverageRequest, configuration: GateConfiguration) throws
        -> Results
    {
        var request = scope
        request.inputs = [outcome.exportPath]
        request.root = root
        request.adopt(configuration)
        let export =
            try outcome.export
            ?? CoverageInput.readExport(
                CoverageInput.locateExport(outcome.exportPath), keepMappings: false, names: request.includeFunctions)
        let coverage = try request.makeReport(workingDirectory: root, read: export)
        let tests = outcome.results.resolving(with: TestSourceIndex(report: coverage, workingDirectory: root))
        return Results(coverage: coverage, tests: tests, request: request, export: export)
    }
}
