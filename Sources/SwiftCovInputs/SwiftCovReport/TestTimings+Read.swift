import SwiftCovModel

extension TestTimings {
    /// The tests' times from an earlier run: its JUnit XML (or any test output swiftcov reads), or
    /// the `coverage.json` that `run` and `report --format json` write (times per suite).
    package static func read(path: String) throws -> TestTimings {
        let document = try CoverageInput.map(path)
        guard document.withUnsafeBytes(SwiftCovReportDocument.recognizes) else {
            return TestTimings(try TestResultsReader.read(paths: [path], utcOffset: 0))
        }
        let report = try SwiftCovReportDocument.read(document, path: path, parts: .testSuites)
        return TestTimings(suites: report.testSuites.map { ($0.name, $0.tests, $0.seconds) })
    }
}
