/// Differential coverage for scripts (`swiftcov diff --baseline FILE --format json`). Its schema
/// is documented in the README and versioned by `schemaVersion`; fields are only ever added
/// within a version.
package enum DifferentialCoverageJSONReport {
    /// Bumped when a field changes meaning or disappears.
    package static let schemaVersion = 1

    /// Renders `coverage` as JSON: every file of either side with its lines by category.
    package static func render(_ coverage: DifferentialCoverage, options: DifferentialCoverageReportOptions) -> String {
        var json = JSONWriter(reservingCapacity: 1024 + coverage.files.count * 256)
        json.raw("{\n  \"schemaVersion\": ")
        json.number(schemaVersion)
        json.raw(",\n  \"baseline\": ")
        json.string(options.baseline)
        json.raw(", \"base\": ")
        if let base = options.changes.base { json.string(base) } else { json.raw("null") }
        json.raw(", \"diffFile\": ")
        if let diffFile = options.changes.diffFile { json.string(diffFile) } else { json.raw("null") }
        json.raw(",\n  \"totals\": ")
        write(coverage.totals, counts: coverage.counts, to: &json)
        if !options.failOn.isEmpty {
            json.raw(",\n  \"gate\": {\"failOn\": [")
            for (index, category) in options.failOn.sorted().enumerated() {
                if index > 0 { json.raw(", ") }
                json.string(category.rawValue)
            }
            let failing = coverage.failingLines(options.failOn)
            json.raw("], \"failingLines\": ")
            json.number(failing)
            json.raw(", \"passed\": ")
            json.raw(failing == 0 ? "true}" : "false}")
        }
        json.raw(",\n  \"modules\": [")
        for (index, module) in coverage.modules.enumerated() {
            json.raw(index == 0 ? "\n    {\"name\": " : ",\n    {\"name\": ")
            json.string(module.name)
            json.raw(", ")
            writeChange(module.coverage, to: &json)
            json.raw("}")
        }
        json.raw(coverage.modules.isEmpty ? "],\n  \"files\": [" : "\n  ],\n  \"files\": [")
        for (index, file) in coverage.files.enumerated() {
            json.raw(index == 0 ? "\n    {\"path\": " : ",\n    {\"path\": ")
            json.string(file.path)
            if let basePath = file.basePath {
                json.raw(", \"basePath\": ")
                json.string(basePath)
            }
            json.raw(", \"module\": ")
            json.string(file.module)
            json.raw(", \"status\": ")
            json.string(file.status?.rawValue ?? "unchanged")
            json.raw(",\n      ")
            writeChange(file.coverage, to: &json)
            json.raw(",\n      \"categories\": {")
            for (position, category) in file.lines.counts.present.enumerated() {
                json.raw(position == 0 ? "\"" : ", \"")
                json.rawText(category.rawValue)
                json.raw("\": [")
                for (item, line) in file.lines[category].enumerated() {
                    if item > 0 { json.raw(", ") }
                    json.number(line)
                }
                json.raw("]")
            }
            json.raw("}}")
        }
        json.raw(coverage.files.isEmpty ? "]" : "\n  ]")
        DiffCoverageJSONReport.writeIgnored(coverage.ignored, to: &json)
        json.raw("\n}\n")
        return json.output
    }

    private static func write(_ change: CoverageChange, counts: CategoryCounts, to json: inout JSONWriter) {
        json.raw("{\"categories\": {")
        for (index, category) in DifferentialCategory.allCases.enumerated() {
            json.raw(index == 0 ? "\"" : ", \"")
            json.rawText(category.rawValue)
            json.raw("\": ")
            json.number(counts[category])
        }
        json.raw("}, ")
        writeChange(change, to: &json)
        json.raw("}")
    }

    /// `"before": metric, "after": metric, "delta": points|null`.
    private static func writeChange(_ change: CoverageChange, to json: inout JSONWriter) {
        json.raw("\"before\": ")
        json.metric(change.before)
        json.raw(", \"after\": ")
        json.metric(change.after)
        json.raw(", \"delta\": ")
        if let delta = change.delta { json.number(delta) } else { json.raw("null") }
    }
}
