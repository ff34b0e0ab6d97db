import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovInputs
import SwiftCovModel

/// The machine-readable report (`--format json`). Its schema is documented in the README and
/// versioned by `schemaVersion`; fields are only ever added within a version.
package enum CoverageJSONReport {
    /// The schema version written, the one `SwiftCovReportDocument` reads.
    package static var schemaVersion: Int { SwiftCovReportDocument.schemaVersion }

    /// Renders `report` as JSON. Per-line counts (`lineCounts`) are read from the export here,
    /// which is why this can fail on an export whose segments are malformed.
    package static func render(_ report: CoverageReport, options: CoverageReportOptions) throws(CoverageInputError)
        -> String
    {
        var json = JSONWriter(reservingCapacity: report.files.count * 512)
        try write(report, options: options, to: &json)
        return json.output
    }

    /// Writes `report` as JSON to `json` file by file (a streaming writer keeps memory bounded
    /// however large the document), with the test summary (`tests`, see `TestSummaryJSONReport`)
    /// when given. With per-test data, each file has `lineTests` (every executable line with the
    /// IDs of the tests that executed it) and `tests` lists the tests (the summary, if any, is
    /// then `testSummary`). `judgement` marks the tests' failures that do not fail the gate.
    package static func write(
        _ report: CoverageReport, options: CoverageReportOptions, tests: TestRun? = nil,
        perTest: PerTestCoverage? = nil, judgement: TestJudgement = TestJudgement(), to json: inout JSONWriter
    ) throws(CoverageInputError) {
        json.beginObject(.block)
        json.member("schemaVersion", schemaVersion)
        if report.origin != .llvmCov {
            // Xcode's numbers: the metrics it does not measure are null in every summary.
            json.member("source", report.origin.rawValue)
            json.key("measured")
            json.beginArray()
            for kind in CoverageSummary.Kind.allCases where report.measured.contains(kind) {
                json.string(kind.rawValue)
            }
            json.endArray()
        }
        let kinds = SummaryKinds(report)
        json.key("totals")
        write(report.totals, kinds, to: &json)
        json.key("modules")
        json.beginArray(.block)
        for module in report.modules(sortedBy: options.sort) {
            json.beginObject()
            json.member("name", module.name)
            json.member("fileCount", module.fileCount)
            json.key("summary")
            write(module.summary, kinds, to: &json)
            json.endObject()
        }
        json.endArray()
        json.key("files")
        json.beginArray(.block)
        let files = report.files(sortedBy: options.sort)
        for file in files {
            json.beginObject()
            json.member("path", file.path)
            json.member("module", file.module)
            json.key("summary", .newLine)
            write(file.summary, kinds, to: &json)
            if options.showFunctions {
                json.key("functions", .newLine)
                json.beginArray(.block)
                for (function, name) in zip(file.functions, file.functionNames) {
                    json.beginObject()
                    json.member("name", name.demangled)
                    json.member("displayName", name.display)
                    json.member("mangledName", function.mangledName)
                    json.member("line", function.line)
                    json.member("column", function.column)
                    json.member("count", function.executionCount)
                    json.key("summary")
                    write(function.summary, kinds, to: &json)
                    json.endObject()
                }
                json.endArray()
            }
            // A file of Xcode's report without its archive has no per-line counts to list.
            if options.showLines && file.hasLineData {
                let lineCounts = try file.lineCounts()
                json.key("lineCounts", .newLine)
                json.beginArray()
                for line in lineCounts {
                    json.beginArray()
                    json.number(line.line)
                    json.number(line.count)
                    json.endArray()
                }
                json.endArray()
                // The lines whose count is a counter below zero (`LineCount.isCounterUnderflow`),
                // only when there are some: their count above is the export's Int64.max.
                let underflows = lineCounts.filter(\.isCounterUnderflow)
                if !underflows.isEmpty {
                    json.key("counterUnderflowLines", .newLine)
                    json.beginArray()
                    for line in underflows { json.number(line.line) }
                    json.endArray()
                }
            }
            if let perTest { try writeLineTests(of: file, perTest, to: &json) }
            json.endObject()
        }
        json.endArray()
        if let perTest {
            writeTests(perTest, to: &json)
            if let tests {
                TestSummaryJSONReport.writeMember(tests, named: "testSummary", judgement: judgement, to: &json)
            }
        } else if let tests {
            TestSummaryJSONReport.writeMember(tests, judgement: judgement, to: &json)
        }
        json.endObject()
    }

    /// `"lineTests": [[line, ["TestID", …]], …]`: every executable line of `file`'s line view,
    /// with the tests that executed it (none when the file was not recorded).
    private static func writeLineTests(of file: FileCoverage, _ perTest: PerTestCoverage, to json: inout JSONWriter)
        throws(CoverageInputError)
    {
        let lines = try file.lineCounts()
        var next = 0
        json.key("lineTests", .newLine)
        json.beginArray()
        func write(_ line: UInt32, _ tests: [Int]) {
            json.beginArray()
            json.number(line)
            json.beginArray()
            for test in tests { json.string(perTest.tests[test].id) }
            json.endArray()
            json.endArray()
        }
        perTest.forEachLineTests(ofFile: file.displayPath) { line, tests in
            while next < lines.count && lines[next].line < line {
                write(lines[next].line, [])
                next += 1
            }
            if next < lines.count && lines[next].line == line {
                write(line, tests)
                next += 1
            }
        }
        while next < lines.count {
            write(lines[next].line, [])
            next += 1
        }
        json.endArray()
    }

    /// `"recording"` (the commit, dirty flag and date) and `"tests"`: each test's ID, outcome,
    /// time, the number of lines it executed and whether they are known.
    private static func writeTests(_ perTest: PerTestCoverage, to json: inout JSONWriter) {
        json.key("recording")
        json.beginObject()
        json.member("commit", perTest.recording.commit)
        json.member("dirty", perTest.recording.dirty)
        json.member("date", perTest.recording.date)
        json.endObject()
        json.key("tests")
        json.beginArray(.block)
        for test in perTest.tests {
            json.beginObject()
            json.member("id", test.id)
            json.member("outcome", test.outcome.name)
            json.member("milliseconds", test.milliseconds)
            json.member("executedLines", test.executed.reduce(0) { $0 + $1.runs.reduce(0) { $0 + $1.count } })
            // False when its process left no profile (a crash or a kill): its lines are unknown.
            json.member("recorded", test.recorded)
            json.endObject()
        }
        json.endArray()
    }

    /// Each metric of a summary, in order, and whether the report measures it: worked out once
    /// for the thousands of summaries of a report.
    private struct SummaryKinds {
        var kinds: [(kind: CoverageSummary.Kind, measured: Bool)]

        init(_ report: CoverageReport) {
            kinds = CoverageSummary.Kind.allCases.map { ($0, report.measured.contains($0)) }
        }
    }

    private static func write(_ summary: CoverageSummary, _ kinds: SummaryKinds, to json: inout JSONWriter) {
        json.beginObject()
        for (kind, measured) in kinds.kinds {
            json.key(kind.jsonKey)
            if measured { json.metric(summary[kind]) } else { json.null() }
        }
        json.endObject()
    }
}

extension JSONWriter {
    /// Writes `{"count": …, "covered": …, "percent": …}`: a metric in every JSON report.
    package mutating func metric(_ metric: Metric) {
        beginObject()
        member("count", metric.count)
        member("covered", metric.covered)
        member("percent", metric.percent)
        endObject()
    }
}

extension CoverageSummary.Kind {
    /// The kind's name (`rawValue`) as a key written without escaping.
    fileprivate var jsonKey: StaticString {
        switch self {
        case .lines: "lines"
        case .functions: "functions"
        case .instantiations: "instantiations"
        case .regions: "regions"
        case .branches: "branches"
        }
    }
}
