/// Changed-line coverage for scripts (`swiftcov diff --format json`). Its schema is documented
/// in the README and versioned by `schemaVersion`; fields are only ever added within a version.
package enum DiffCoverageJSONReport {
    /// Bumped when a field changes meaning or disappears.
    package static let schemaVersion = 1

    /// Renders `coverage` as JSON.
    package static func render(_ coverage: ChangedLineCoverage, options: DiffCoverageReportOptions) -> String {
        var json = JSONWriter(reservingCapacity: 1024 + coverage.files.count * 256)
        json.raw("{\n  \"schemaVersion\": ")
        json.number(schemaVersion)
        json.raw(",\n  \"base\": ")
        if let base = options.base { json.string(base) } else { json.raw("null") }
        json.raw(", \"diffFile\": ")
        if let diffFile = options.diffFile { json.string(diffFile) } else { json.raw("null") }
        json.raw(",\n  \"totals\": {\"changedLines\": ")
        json.number(coverage.changedLines)
        json.raw(", \"lines\": ")
        json.metric(coverage.totals)
        json.raw("}")
        if let minimum = options.failUnder {
            json.raw(",\n  \"gate\": {\"failUnder\": ")
            json.number(minimum)
            json.raw(", \"passed\": ")
            json.raw(coverage.meets(minimum) ? "true" : "false")
            json.raw("}")
        }
        json.raw(",\n  \"files\": [")
        for (index, file) in coverage.files.enumerated() {
            json.raw(index == 0 ? "\n    {\"path\": " : ",\n    {\"path\": ")
            json.string(file.path)
            json.raw(", \"module\": ")
            json.string(file.module)
            json.raw(", \"status\": ")
            json.string(file.status.rawValue)
            if let oldPath = file.oldPath {
                json.raw(", \"oldPath\": ")
                json.string(oldPath)
            }
            json.raw(",\n      \"changedLines\": ")
            json.number(file.changedLines)
            json.raw(", \"lines\": ")
            json.metric(file.lines)
            json.raw(", \"uncovered\": [")
            for (position, range) in file.uncovered.enumerated() {
                json.raw(position == 0 ? "[" : ", [")
                json.number(range.lowerBound)
                json.raw(", ")
                json.number(range.upperBound)
                json.raw("]")
            }
            json.raw("]}")
        }
        json.raw(coverage.files.isEmpty ? "]" : "\n  ]")
        DiffCoverageJSONReport.writeIgnored(coverage.ignored, to: &json)
        json.raw("\n}\n")
        return json.output
    }

    /// Writes the `"ignored"` member: the changed files no report line counts (tests, generated
    /// files, files outside the package), with why. Shared by the changed-line and differential reports.
    static func writeIgnored(_ ignored: [ChangedLineCoverage.IgnoredFile], to json: inout JSONWriter) {
        json.raw(",\n  \"ignored\": [")
        for (index, file) in ignored.enumerated() {
            json.raw(index == 0 ? "\n    {\"path\": " : ",\n    {\"path\": ")
            json.string(file.path)
            json.raw(", \"status\": ")
            json.string(file.status.rawValue)
            json.raw(", \"reason\": ")
            json.string(file.reason.rawValue)
            json.raw("}")
        }
        json.raw(ignored.isEmpty ? "]" : "\n  ]")
    }
}
