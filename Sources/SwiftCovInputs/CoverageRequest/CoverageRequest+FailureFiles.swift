import SwiftCovFormats
import SwiftCovModel

extension CoverageRequest {
    /// The files the tests' failures point at that `report` leaves out (test sources, usually),
    /// so that the HTML report can link failures to their lines: built from `coverage`, what the
    /// report was built from (`makeReportKeepingCoverage`), without reading the inputs again.
    package func failureFiles(of tests: TestRun, report: CoverageReport, coverage: ReadCoverage) -> [FileCoverage] {
        let shown = Set(report.files.map(\.displayPath))
        var wanted = Set<String>()
        for test in tests.failingCases {
            for issue in test.failingIssues { if let file = issue.location?.file { wanted.insert(file) } }
            if let file = test.location?.file { wanted.insert(file) }
        }
        wanted.subtract(shown)
        guard !wanted.isEmpty else { return [] }
        var scope = CoverageScope(
            root: report.scope.root, includes: wanted.sorted().map(Glob.init), excludes: [], allFiles: true)
        scope.targets = report.scope.targets
        let extra: CoverageReport?
        switch coverage {
        case .llvmCov(let export):
            extra = try? CoverageReport.build(export: export, scope: scope, includeFunctions: includeFunctions)
        case .xcode(let xcode, let input):
            extra = try? CoverageReport.build(
                xcode: xcode, scope: scope, includeFunctions: includeFunctions, input: input)
        }
        return extra?.files ?? []
    }
}
