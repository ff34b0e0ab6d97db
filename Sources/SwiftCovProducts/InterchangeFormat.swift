import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// The interchange formats of `swiftcov export`: what CI services and other coverage tools read.
///
/// All three carry one entry per source line, so they are written from the *line view* (the
/// executable lines and counts `llvm-cov show` prints, `FileCoverage.lineCounts()`), and their
/// totals are that view's: the number of executable lines and how many of them ran. The
/// *summary view* of `report` counts a line inside a closure twice and cannot be expressed
/// line by line without contradicting the lines themselves.
package enum InterchangeFormat: String, CaseIterable, Sendable {
    /// Cobertura XML (`coverage-04.dtd`): GitLab, Azure DevOps, Jenkins, diff-cover.
    case cobertura
    /// An lcov tracefile: genhtml, Codecov, Coveralls.
    case lcov
    /// SonarQube's generic test coverage XML.
    case sonarqube

    /// Renders `report` in this format. Per-line counts are read from the export here, which
    /// is why this can fail on an export whose segments are malformed.
    package func render(_ report: CoverageReport, options: InterchangeOptions) throws(CoverageInputError) -> String {
        var output = OutputBuffer(reservingCapacity: report.files.count * 1024)
        try write(report, options: options, to: &output)
        return output.text
    }

    /// Writes `report` in this format to `output` file by file: a streaming buffer keeps memory
    /// bounded however large the document.
    package func write(_ report: CoverageReport, options: InterchangeOptions, to output: inout OutputBuffer)
        throws(CoverageInputError)
    {
        switch self {
        case .cobertura: try CoberturaReport.write(report, options: options, to: &output)
        case .lcov: try LcovReport.write(report, to: &output)
        case .sonarqube: try SonarQubeReport.write(report, to: &output)
        }
    }
}

/// What an interchange report says about its making, injected so that output is reproducible.
package struct InterchangeOptions: Sendable {
    /// When the report was made, in milliseconds since 1970-01-01 UTC (Cobertura's `timestamp`).
    package var timestamp: Int64
    /// The version of swiftcov that wrote it (Cobertura's `version`).
    package var version: String

    package init(timestamp: Int64, version: String = SwiftCov.version) {
        self.timestamp = timestamp
        self.version = version
    }
}

/// A function as the interchange formats list it: llvm-cov's *function*, the instantiations
/// (function records) that start at the same place, so that lcov's `FNF`/`FNH` equal the
/// summary's function numbers and each function appears once in genhtml or a Cobertura reader.
package struct ExportedFunction: Equatable, Sendable {
    /// The demangled name of its first instantiation, made unique within its file.
    package var name: String
    /// Where it starts.
    package var line: UInt32
    /// The last line of its widest instantiation (closures inside it included).
    package var endLine: UInt32
    /// How many times its instantiations ran, added up: covered when above zero, as llvm-cov counts it.
    package var executionCount: UInt64
}

extension CoverageReport {
    /// Every file's functions, in the order of `files`, named by the report (`FileCoverage.functionNames`).
    package func exportedFunctions() -> [[ExportedFunction]] {
        var result: [[ExportedFunction]] = []
        result.reserveCapacity(files.count)
        for file in files {
            var functions: [ExportedFunction] = []
            var seen = Set<String>()
            let names = file.functionNames
            var index = 0
            while index < file.functions.count {
                let first = file.functions[index]
                var function = ExportedFunction(
                    name: names[names.startIndex + index].demangled, line: first.line,
                    endLine: max(first.endLine, first.line),
                    executionCount: 0)
                // Instantiations of one function are adjacent: `functions` is sorted by where they start.
                while index < file.functions.count && file.functions[index].line == first.line
                    && file.functions[index].column == first.column
                {
                    let member = file.functions[index]
                    function.endLine = max(function.endLine, member.endLine)
                    function.executionCount = function.executionCount.addingSaturating(member.executionCount)
                    index += 1
                }
                // Xcode leaves some names empty; readers need one.
                if function.name.isEmpty { function.name = "(unnamed)" }
                // Two functions of one file with the same name would be merged into one by
                // readers that key functions by name (genhtml does).
                if !seen.insert(function.name).inserted {
                    function.name += " [\(first.line):\(first.column)]"
                    seen.insert(function.name)
                }
                functions.append(function)
            }
            result.append(functions)
        }
        return result
    }
}

extension [LineCount] {
    /// The executable lines within `range`, found by binary search (`self` is sorted by line).
    package func lines(in range: ClosedRange<UInt32>) -> ArraySlice<LineCount> {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if self[middle].line < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < endIndex && self[end].line <= range.upperBound { end += 1 }
        return self[low..<end]
    }
}

extension Collection<LineCount> {
    /// How many lines there are and how many of them ran.
    package var metric: Metric {
        Metric(count: count, covered: lazy.filter { $0.count > 0 }.count)
    }
}
