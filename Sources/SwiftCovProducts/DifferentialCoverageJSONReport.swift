import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovModel

/// Differential coverage for scripts (`swiftcov diff --base-coverage FILE --format json`). Its schema
/// is documented in the README and versioned by `schemaVersion`; fields are only ever added
/// within a version.
package enum DifferentialCoverageJSONReport {
    /// Bumped when a field changes meaning or disappears.
    package static let schemaVersion = 1

    /// `coverage` as JSON text.
    package static func render(_ coverage: DifferentialCoverage, options: DifferentialCoverageReportOptions) -> String {
        var json = JSONWriter(reservingCapacity: 1024 + coverage.files.count * 256)
        write(coverage, options: options, to: &json)
        return json.output
    }

    /// Writes `coverage` as JSON to `json`: every file of either side with its lines by category.
    package static func write(
        _ coverage: DifferentialCoverage, options: DifferentialCoverageReportOptions, to json: inout JSONWriter
    ) {
        json.beginObject(.block)
        json.member("schemaVersion", schemaVersion)
        json.member("baseline", options.baseline)
        json.member("base", options.changes.base, .sameLine)
        json.member("diffFile", options.changes.diffFile, .sameLine)
        json.key("totals")
        json.beginObject()
        json.key("categories")
        json.beginObject()
        for category in DifferentialCategory.allCases {
            json.key(category.rawValue)
            json.number(coverage.counts[category])
        }
        json.endObject()
        writeChange(coverage.totals, to: &json)
        json.endObject()
        if !options.failOn.isEmpty {
            json.key("gate")
            json.beginObject()
            json.key("failOn")
            json.beginArray()
            for category in options.failOn.sorted() { json.string(category.rawValue) }
            json.endArray()
            let failing = coverage.failingLines(options.failOn)
            json.member("failingLines", failing)
            json.member("passed", failing == 0)
            json.endObject()
        }
        json.key("modules")
        json.beginArray(.block)
        for module in coverage.modules {
            json.beginObject()
            json.member("name", module.name)
            writeChange(module.coverage, to: &json)
            json.endObject()
        }
        json.endArray()
        json.key("files")
        json.beginArray(.block)
        for file in coverage.files {
            json.beginObject()
            json.member("path", file.path)
            if let basePath = file.basePath { json.member("basePath", basePath) }
            json.member("module", file.module)
            json.member("status", file.status?.rawValue ?? "unchanged")
            writeChange(file.coverage, startingLine: true, to: &json)
            json.key("categories", .newLine)
            json.beginObject()
            for category in file.lines.counts.present {
                json.key(category.rawValue)
                json.beginArray()
                for line in file.lines[category] { json.number(line) }
                json.endArray()
            }
            json.endObject()
            json.endObject()
        }
        json.endArray()
        ChangedLineCoverageJSONReport.writeIgnored(coverage.ignored, to: &json)
        json.endObject()
    }

    /// `"before": metric, "after": metric, "delta": points|null`, on a line of their own when
    /// `startingLine`.
    private static func writeChange(_ change: CoverageChange, startingLine: Bool = false, to json: inout JSONWriter) {
        json.key("before", startingLine ? .newLine : .byLayout)
        json.metric(change.before)
        json.key("after")
        json.metric(change.after)
        json.key("delta")
        json.number(change.delta)
    }
}
