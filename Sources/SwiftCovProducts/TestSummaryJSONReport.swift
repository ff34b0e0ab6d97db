import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovModel

/// The test-run summary for scripts: the `tests` object of `swiftcov report --format json`, next
/// to the coverage keys, or alone in a document with `schemaVersion`.
package enum TestSummaryJSONReport {
    /// A complete document: `{"schemaVersion": 1, "tests": {…}}`.
    package static func render(_ run: TestRun) -> String {
        var json = JSONWriter()
        write(run, to: &json)
        return json.output
    }

    /// Writes the complete document to `json` (a streaming writer keeps memory bounded however
    /// many tests the run has).
    package static func write(_ run: TestRun, judgement: TestJudgement = TestJudgement(), to json: inout JSONWriter) {
        json.beginObject(.block)
        json.member("schemaVersion", CoverageJSONReport.schemaVersion)
        writeMember(run, judgement: judgement, to: &json)
        json.endObject()
    }

    /// Writes the `"tests"` member (or `name`) of a JSON report's top-level object.
    /// `judgement`: failures that do not fail the gate get `"excused"` (why), and the tests found
    /// order-dependent are listed in `"orderDependent"` (both only when there are any).
    package static func writeMember(
        _ run: TestRun, named name: String = "tests", judgement: TestJudgement = TestJudgement(),
        to json: inout JSONWriter
    ) {
        json.key(name)
        json.beginObject(.block)
        json.key("totals")
        json.beginObject()
        writeCounts(run.totals, time: run.duration, to: &json)
        json.endObject()
        json.member("complete", run.isComplete)
        json.key("suites")
        json.beginArray(.block)
        for suite in run.suites {
            json.beginObject()
            json.member("name", suite.name)
            json.member("framework", suite.framework.rawValue)
            writeCounts(suite.totals, time: suite.duration, to: &json)
            json.endObject()
        }
        json.endArray()
        json.key("failures")
        json.beginArray(.block)
        for testCase in run.failingCases {
            for issue in testCase.failingIssues {
                json.beginObject()
                json.member("suite", testCase.className)
                json.member("test", testCase.name)
                json.member("status", testCase.status.rawValue)
                json.member("kind", issue.kind.rawValue)
                json.member("file", issue.location?.file)
                json.key("line")
                if let location = issue.location { json.number(location.line) } else { json.null() }
                json.member("message", issue.message)
                if !testCase.attempts.isEmpty { json.member("runs", testCase.attempts.count + 1) }
                if let excuse = judgement.excuse(for: testCase) { json.member("excused", excuse.label) }
                json.endObject()
            }
        }
        json.endArray()
        OrderDependence.write(judgement.orderDependent, key: "orderDependent", to: &json)
        json.endObject()
    }

    private static func writeCounts(_ totals: TestRun.Totals, time: Double, to json: inout JSONWriter) {
        json.member("tests", totals.tests)
        json.member("passed", totals.passed)
        json.member("failed", totals.failed)
        json.member("errors", totals.errors)
        json.member("skipped", totals.skipped)
        // Only when some test passed after failing: the documents of runs without retries stay as they were.
        if totals.flaky > 0 { json.member("flaky", totals.flaky) }
        json.key("time")
        json.number(formatted: JUnitReport.seconds(time))
    }
}
