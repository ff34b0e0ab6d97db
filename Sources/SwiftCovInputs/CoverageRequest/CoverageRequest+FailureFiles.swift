import SwiftCovFormats
import SwiftCovModel

extension CoverageRequest {
    /// The files the tests' failures point at that `report` leaves out (test sources, usually),
    /// so that the HTML report can link failures to their lines: from `export`, the export the
    /// report was built from (`makeReportKeepingExport`), when it is at hand; else read again
    /// from this request's exports.
    package func failureFiles(of tests: TestRun, report: CoverageReport, export: LLVMCovExport? = nil) -> [FileCoverage]
    {
        let shown = Set(report.files.map(\.displayPath))
        var wanted = Set<String>()
        for test in tests.failingCases {
            for issue in test.failingIssues { if let file = issue.location?.file { wanted.insert(file) } }
            if let file = test.location?.file { wanted.insert(file) }
        }
        wanted.subtract(shown)
        guard !wanted.isEmpty, !inputs.contains("-") else { return [] }
        let includes = wanted.sorted().map(Glob.init)
        if let export {
            var scope = CoverageScope(root: report.scope.root, includes: includes, excludes: [], allFiles: true)
            scope.targets = report.scope.targets
            return (try? CoverageReport.build(export: export, scope: scope, includeFunctions: includeFunctions))?.files
                ?? []
        }
        var extra = self
        extra.includes = includes
        extra.allFiles = true
        extra.root = report.scope.root
        return (try? extra.makeReport(workingDirectory: report.scope.root ?? "."))?.files ?? []
    }
}
