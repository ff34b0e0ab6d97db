import SwiftCovModel

/// Whether per-test data fits a coverage report: data recorded at other code (an earlier commit,
/// or changes since) has other line numbers, and would put its tests on the wrong lines.
extension PerTestCoverage {
    /// The recorded files whose executable lines differ from those of the same file in `report`
    /// (by package-relative path; files the report lacks, or has no lines of, are not compared).
    package func filesDiffering(from report: CoverageReport) -> [String] {
        var differing: [String] = []
        for file in report.files where file.hasLineData {
            guard let index = fileIndex(of: file.displayPath),
                let lines = try? file.lineCounts().map(\.line),
                lines != files[index].lines
            else { continue }
            differing.append(file.displayPath)
        }
        return differing
    }

    /// This data without the files at `paths`: no test executed a line of them.
    package func removingFiles(_ paths: Set<String>) -> PerTestCoverage {
        var newIndex: [Int?] = []
        var kept: [File] = []
        for file in files {
            newIndex.append(paths.contains(file.path) ? nil : kept.count)
            if !paths.contains(file.path) { kept.append(file) }
        }
        var result = PerTestCoverage(recording: recording, files: kept, tests: tests)
        for index in result.tests.indices {
            result.tests[index].executed = result.tests[index].executed.compactMap { entry in
                newIndex[entry.file].map { ExecutedLines(file: $0, runs: entry.runs) }
            }
        }
        return result
    }
}
