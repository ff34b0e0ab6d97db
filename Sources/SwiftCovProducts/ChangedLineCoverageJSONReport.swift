import SwiftCovAnalyses
import SwiftCovFormats

/// Changed-line coverage for scripts (`swiftcov diff --format json`). Its schema is documented
/// in the README and versioned by `schemaVersion`; fields are only ever added within a version.
package enum ChangedLineCoverageJSONReport {
    /// Bumped when a field changes meaning or disappears.
    package static let schemaVersion = 1

    /// `coverage` as JSON text.
    package static func render(_ coverage: ChangedLineCoverage, options: ChangedLineCoverageReportOptions) -> String {
        var json = JSONWriter(reservingCapacity: 1024 + coverage.files.count * 256)
        write(coverage, options: options, to: &json)
        return json.output
    }

    /// Writes `coverage` as JSON to `json`.
    package static func write(
        _ coverage: ChangedLineCoverage, options: ChangedLineCoverageReportOptions, to json: inout JSONWriter
    ) {
        json.beginObject(.block)
        json.member("schemaVersion", schemaVersion)
        json.member("base", options.base)
        json.member("diffFile", options.diffFile, .sameLine)
        json.key("totals")
        json.beginObject()
        json.member("changedLines", coverage.changedLines)
        json.key("lines")
        json.metric(coverage.totals)
        json.endObject()
        if let minimum = options.failUnder {
            json.key("gate")
            json.beginObject()
            json.member("failUnder", minimum)
            json.member("passed", coverage.meets(minimum))
            json.endObject()
        }
        json.key("files")
        json.beginArray(.block)
        for file in coverage.files {
            json.beginObject()
            json.member("path", file.path)
            json.member("module", file.module)
            json.member("status", file.status.rawValue)
            if let oldPath = file.oldPath { json.member("oldPath", oldPath) }
            json.member("changedLines", file.changedLines, .newLine)
            json.key("lines")
            json.metric(file.lines)
            json.key("uncovered")
            json.beginArray()
            for range in file.uncovered {
                json.beginArray()
                json.number(range.lowerBound)
                json.number(range.upperBound)
                json.endArray()
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        ChangedLineCoverageJSONReport.writeIgnored(coverage.ignored, to: &json)
        json.endObject()
    }

    /// Writes the `"ignored"` member: the changed files no report line counts (tests, generated
    /// files, files outside the package), with why. Shared by the changed-line and differential reports.
    static func writeIgnored(_ ignored: [ChangedLineCoverage.IgnoredFile], to json: inout JSONWriter) {
        json.key("ignored")
        json.beginArray(.block)
        for file in ignored {
            json.beginObject()
            json.member("path", file.path)
            json.member("status", file.status.rawValue)
            json.member("reason", file.reason.rawValue)
            json.endObject()
        }
        json.endArray()
    }
}
