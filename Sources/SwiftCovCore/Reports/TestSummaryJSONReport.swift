/// The test-run summary for scripts: the `tests` object of `swiftcov report --format json`, next
/// to the coverage keys, or alone in a document with `schemaVersion`.
package enum TestSummaryJSONReport {
    /// A complete document: `{"schemaVersion": 1, "tests": {…}}`.
    package static func render(_ run: TestRun) -> String {
        var json = JSONWriter()
        json.raw("{\n  \"schemaVersion\": ")
        json.number(CoverageJSONReport.schemaVersion)
        json.raw(",\n  \"tests\": ")
        write(run, to: &json)
        json.raw("\n}\n")
        return json.output
    }

    /// Writes the `"tests"` member (or `name`) that follows the members of a coverage JSON report.
    package static func writeMember(_ run: TestRun, named name: String = "tests", to json: inout JSONWriter) {
        json.raw(",\n  \"")
        json.rawText(name)
        json.raw("\": ")
        write(run, to: &json)
    }

    private static func write(_ run: TestRun, to json: inout JSONWriter) {
        json.raw("{\n    \"totals\": ")
        write(run.totals, time: run.duration, to: &json)
        json.raw(",\n    \"complete\": ")
        json.raw(run.isComplete ? "true" : "false")
        json.raw(",\n    \"suites\": [")
        for (index, suite) in run.suites.enumerated() {
            json.raw(index == 0 ? "\n      {\"name\": " : ",\n      {\"name\": ")
            json.string(suite.name)
            json.raw(", \"framework\": ")
            json.string(suite.framework.rawValue)
            json.raw(", ")
            writeCounts(suite.totals, time: suite.duration, to: &json)
            json.raw("}")
        }
        json.raw(run.suites.isEmpty ? "],\n    \"failures\": [" : "\n    ],\n    \"failures\": [")
        var first = true
        for testCase in run.cases where testCase.status == .failed || testCase.status == .error {
            for issue in testCase.failingIssues {
                json.raw(first ? "\n      {\"suite\": " : ",\n      {\"suite\": ")
                first = false
                json.string(testCase.className)
                json.raw(", \"test\": ")
                json.string(testCase.name)
                json.raw(", \"status\": ")
                json.string(testCase.status.rawValue)
                json.raw(", \"kind\": ")
                json.string(issue.kind.rawValue)
                json.raw(", \"file\": ")
                if let location = issue.location {
                    json.string(location.file)
                    json.raw(", \"line\": ")
                    json.number(location.line)
                } else {
                    json.raw("null, \"line\": null")
                }
                json.raw(", \"message\": ")
                json.string(issue.message)
                json.raw("}")
            }
        }
        json.raw(first ? "]\n  }" : "\n    ]\n  }")
    }

    private static func write(_ totals: TestRun.Totals, time: Double, to json: inout JSONWriter) {
        json.raw("{")
        writeCounts(totals, time: time, to: &json)
        json.raw("}")
    }

    private static func writeCounts(_ totals: TestRun.Totals, time: Double, to json: inout JSONWriter) {
        json.raw("\"tests\": ")
        json.number(totals.tests)
        json.raw(", \"passed\": ")
        json.number(totals.passed)
        json.raw(", \"failed\": ")
        json.number(totals.failed)
        json.raw(", \"errors\": ")
        json.number(totals.errors)
        json.raw(", \"skipped\": ")
        json.number(totals.skipped)
        json.raw(", \"time\": ")
        json.rawText(JUnitReport.seconds(time))
    }
}
