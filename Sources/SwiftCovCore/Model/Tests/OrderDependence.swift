/// A test whose outcome depends on the tests around it: it ended one way when run alone
/// (`run --per-test`) and another in the suite (`swift test`, the same selection). The usual
/// cause is state one test leaves for another (a shared resource set up by an earlier test).
package struct OrderDependence: Sendable, Equatable, CustomStringConvertible {
    /// The test, as `swift test list` names it.
    package var id: String
    /// Its outcome alone (after any retries).
    package var alone: TestRun.Status
    /// Its outcome in the suite.
    package var inSuite: TestRun.Status

    /// A dependence from its parts.
    package init(id: String, alone: TestRun.Status, inSuite: TestRun.Status) {
        self.id = id
        self.alone = alone
        self.inSuite = inSuite
    }

    /// Whether it fails alone and passes in the suite (else it passes alone and fails in it).
    package var failsAlone: Bool { alone >= .failed }

    /// "fails alone, passes in the suite", with the outcomes' own words.
    package var summary: String { "\(Self.verb(alone)) alone, \(Self.verb(inSuite)) in the suite" }

    /// "TinyTests.OrderTests/testB: fails alone, passes in the suite".
    package var description: String { "\(id): \(summary)" }

    private static func verb(_ status: TestRun.Status) -> String {
        switch status {
        case .passed: "passes"
        case .skipped: "is skipped"
        case .failed: "fails"
        case .error: "ends in an error"
        }
    }
}

extension OrderDependence {
    /// The findings as a JSON array of `{"id", "alone", "inSuite"}` (`coverage.json`'s tests
    /// summary, `run.json`), under `key`; nothing when there are none.
    package static func write(_ findings: [OrderDependence], key: String, to json: inout JSONWriter) {
        guard !findings.isEmpty else { return }
        json.key(key)
        json.beginArray(.block)
        for finding in findings {
            json.beginObject()
            json.member("id", finding.id)
            json.member("alone", finding.alone.rawValue)
            json.member("inSuite", finding.inSuite.rawValue)
            json.endObject()
        }
        json.endArray()
    }
}
