import SwiftCovFormats
import SwiftCovModel

extension CoverageRequest {
    /// The files the tests' failures point at that `report` leaves out (test sources, usually),
    /// so that the HTML report can link failures to their lines: from `read`, the export the
    /// report was made from, when it is at hand; else read again from this request's exports.
    package func failureFiles(of tests: TestRun, report: CoverageReport, read: LLVMCovExport? = nil) -> [FileCoverage] {
        let shown = Set(report.files.map(\.displayPath))
        var wanted = Set<String>()
        for test in tests.failingCases {
            for issue in test.failingIssues { if let file = issue.location?.file { wanted.insert(file) } }
            if let file = test.location?.file { wanted.insert(file) }
        }
        wanted.subtract(shown)
        guard !wanted.isEmpty, !inputs.contains("-") else { return [] }
        var extra = self
        extra.includes = wanted.sorted().map(Glob.init)
        extra.allFiles = true
        extra.root = report.scope.root
        return (try? extra.makeReport(workingDirectory: report.scope.root ?? ".", read: read))?.files ?? []
    }
}
