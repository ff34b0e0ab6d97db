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
    /// when given.
    package static func write(
        _ report: CoverageReport, options: CoverageReportOptions, tests: TestRun? = nil, to json: inout JSONWriter
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
            json.raw("}")
        }
        json.raw(files.isEmpty ? "]" : "\n  ]")
        if let tests { TestSummaryJSONReport.writeMember(tests, to: &json) }
        json.raw("\n}\n")
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
