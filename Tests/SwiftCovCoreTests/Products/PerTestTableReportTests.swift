import Testing

@testable import SwiftCovCore

@Suite("report --show tests, as a table")
struct PerTestTableReportTests {
    /// A report of the per-test fixture's two files and one file it did not record.
    func report() -> CoverageReport {
        let files = ["Sources/A/a.swift", "Sources/B/b.swift", "Sources/C/c.swift"].map {
            FileCoverage.forTesting(path: $0, segments: HTMLAnnotationsTests.perTestSegments)
        }
        return CoverageReport(files: files, modules: [], totals: CoverageSummary(), scope: CoverageScope(root: "/p"))
    }

    @Test("each file: its executable lines, those some test ran, and each test with its lines there")
    func rows() {
        // HTMLAnnotationsTests.perTest: a.swift's lines 1, 2, 3 and 5; T.A/one ran 1 and 2, T.A/two
        // ran 2 and 3; b.swift's line 4, run by T.B/three.
        let text = PerTestTableReport.render(report(), perTest: HTMLAnnotationsTests.perTest())
        let rows = text.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(rows.first == "Tests that ran each file (per-test data of 0123456789ab with changes)")
        #expect(rows.contains("File / Test Lines Ran Tests"))
        #expect(rows.contains("Sources/A/a.swift 4 3 2"))
        #expect(rows.contains("T.A/one 2"))
        #expect(rows.contains("T.A/two 2"))
        #expect(rows.contains("Sources/B/b.swift 1 1 1"))
        #expect(rows.contains("T.B/three 1"))
        #expect(rows.last == "1 file(s) of the report have no per-test data.")
        // In the report's order, each file's tests under it.
        let order = ["Sources/A/a.swift", "T.A/one", "T.A/two", "Sources/B/b.swift", "T.B/three"].map { name in
            rows.firstIndex { $0.hasPrefix(name + " ") } ?? -1
        }
        #expect(order == order.sorted() && !order.contains(-1))
    }
}
