/// The machine-readable report (`--format json`). Its schema is documented in the README and
/// versioned by `schemaVersion`; fields are only ever added within a version.
package enum CoverageJSONReport {
    /// Bumped when a field changes meaning or disappears.
    package static let schemaVersion = 1

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
    /// then `testSummary`).
    package static func write(
        _ report: CoverageReport, options: CoverageReportOptions, tests: TestRun? = nil,
        perTest: PerTestCoverage? = nil, to json: inout JSONWriter
    ) throws(CoverageInputError) {
        json.raw("{\n  \"schemaVersion\": ")
        json.number(schemaVersion)
        json.raw(",\n  \"totals\": ")
        write(report.totals, to: &json)
        json.raw(",\n  \"modules\": [")
        for (index, module) in report.modules(sortedBy: options.sort).enumerated() {
            json.raw(index == 0 ? "\n    {\"name\": " : ",\n    {\"name\": ")
            json.string(module.name)
            json.raw(", \"fileCount\": ")
            json.number(module.fileCount)
            json.raw(", \"summary\": ")
            write(module.summary, to: &json)
            json.raw("}")
        }
        json.raw(report.modules.isEmpty ? "],\n  \"files\": [" : "\n  ],\n  \"files\": [")
        let files = report.files(sortedBy: options.sort)
        let names =
            options.showFunctions ? SwiftDemangler.demangleAll(files.flatMap { $0.functions.map(\.mangledName) }) : []
        var nameIndex = 0
        for (index, file) in files.enumerated() {
            json.raw(index == 0 ? "\n    {\"path\": " : ",\n    {\"path\": ")
            json.string(file.path)
            json.raw(", \"module\": ")
            json.string(file.module)
            json.raw(",\n      \"summary\": ")
            write(file.summary, to: &json)
            if options.showFunctions {
                json.raw(",\n      \"functions\": [")
                for (position, function) in file.functions.enumerated() {
                    json.raw(position == 0 ? "\n        {\"name\": " : ",\n        {\"name\": ")
                    json.string(names[nameIndex])
                    json.raw(", \"displayName\": ")
                    json.string(SwiftDemangler.displayName(names[nameIndex]))
                    nameIndex += 1
                    json.raw(", \"mangledName\": ")
                    json.string(function.mangledName)
                    json.raw(", \"line\": ")
                    json.number(function.line)
                    json.raw(", \"column\": ")
                    json.number(function.column)
                    json.raw(", \"count\": ")
                    json.number(function.executionCount)
                    json.raw(", \"summary\": ")
                    write(function.summary, to: &json)
                    json.raw("}")
                }
                json.raw(file.functions.isEmpty ? "]" : "\n      ]")
            }
            if options.showLines {
                json.raw(",\n      \"lineCounts\": [")
                for (position, line) in try file.lineCounts().enumerated() {
                    json.raw(position == 0 ? "[" : ", [")
                    json.number(line.line)
                    json.raw(", ")
                    json.number(line.count)
                    json.raw("]")
                }
                json.raw("]")
            }
            if let perTest { try writeLineTests(of: file, perTest, to: &json) }
            json.raw("}")
        }
        json.raw(files.isEmpty ? "]" : "\n  ]")
        if let perTest {
            writeTests(perTest, to: &json)
            if let tests { TestSummaryJSONReport.writeMember(tests, named: "testSummary", to: &json) }
        } else if let tests {
            TestSummaryJSONReport.writeMember(tests, to: &json)
        }
        json.raw("\n}\n")
    }

    /// `"lineTests": [[line, ["TestID", …]], …]`: every executable line of `file`'s line view,
    /// with the tests that executed it (none when the file was not recorded).
    private static func writeLineTests(of file: FileCoverage, _ perTest: PerTestCoverage, to json: inout JSONWriter)
        throws(CoverageInputError)
    {
        let recorded = perTest.lineTests(ofFile: file.displayPath) ?? []
        var next = 0
        json.raw(",\n      \"lineTests\": [")
        for (position, line) in try file.lineCounts().enumerated() {
            while next < recorded.count && recorded[next].line < line.line { next += 1 }
            json.raw(position == 0 ? "[" : ", [")
            json.number(line.line)
            json.raw(", [")
            if next < recorded.count && recorded[next].line == line.line {
                for (index, test) in recorded[next].tests.enumerated() {
                    if index > 0 { json.raw(", ") }
                    json.string(perTest.tests[test].id)
                }
            }
            json.raw("]]")
        }
        json.raw("]")
    }

    /// `"recording"` (the commit, dirty flag and date) and `"tests"`: each test's ID, outcome,
    /// time and the number of lines it executed.
    private static func writeTests(_ perTest: PerTestCoverage, to json: inout JSONWriter) {
        json.raw(",\n  \"recording\": {\"commit\": ")
        json.string(perTest.recording.commit)
        json.raw(", \"dirty\": ")
        json.raw(perTest.recording.dirty ? "true" : "false")
        json.raw(", \"date\": ")
        json.string(perTest.recording.date)
        json.raw("},\n  \"tests\": [")
        for (index, test) in perTest.tests.enumerated() {
            json.raw(index == 0 ? "\n    {\"id\": " : ",\n    {\"id\": ")
            json.string(test.id)
            json.raw(", \"outcome\": ")
            json.string(test.outcome.name)
            json.raw(", \"milliseconds\": ")
            json.number(test.milliseconds)
            json.raw(", \"executedLines\": ")
            json.number(test.executed.reduce(0) { $0 + $1.runs.reduce(0) { $0 + $1.count } })
            json.raw("}")
        }
        json.raw(perTest.tests.isEmpty ? "]" : "\n  ]")
    }

    private static func write(_ summary: CoverageSummary, to json: inout JSONWriter) {
        json.raw("{")
        for (index, kind) in CoverageSummary.Kind.allCases.enumerated() {
            json.raw(index == 0 ? "\"" : ", \"")
            json.rawText(kind.rawValue)
            json.raw("\": ")
            json.metric(summary[kind])
        }
        json.raw("}")
    }
}

extension JSONWriter {
    /// Appends `{"count": …, "covered": …, "percent": …}`: a metric in every JSON report.
    package mutating func metric(_ metric: Metric) {
        raw("{\"count\": ")
        number(metric.count)
        raw(", \"covered\": ")
        number(metric.covered)
        raw(", \"percent\": ")
        number(metric.percent)
        raw("}")
    }
}
