import SwiftCovFormats

/// A test whose outcome depends on the tests around it: it ended one way when run alone
/// (`run --per-test`) and another in the suite (`swift test`, the same selection). The usual
/// cause is state one test leaves for another (a shared resource set up by an earlier test).
///
/// `run --per-test` confirms it: the test runs again alone a few times (`aloneRuns` in all, the
/// first included); when every run alone agrees, the test it depends on is searched for among
/// the tests that run before it in the suite (`cause`), or why none was found is said
/// (`notFound`). When the runs alone disagree, the test is flaky, not order-dependent.
package struct OrderDependence: Sendable, Equatable, CustomStringConvertible {
    /// The test, as `swift test list` names it.
    package var id: String
    /// Its outcome alone (after any retries).
    package var alone: TestRun.Status
    /// Its outcome in the suite.
    package var inSuite: TestRun.Status
    /// Its runs alone (the first and the re-runs that confirm it), and how many of them ended as
    /// the first did (`alone`).
    package var aloneRuns = 1
    package var aloneAgreeing = 1
    /// The test it depends on, when the search found one.
    package var cause: Cause?
    /// Why the search named no test, when it ran and found none (or ran out of runs or time).
    package var notFound: String?

    /// The test an order-dependent test depends on: run before it, it ends as in the suite — a
    /// polluter (the test fails after it, passes alone) or a state-setter (the test passes after
    /// it, fails alone).
    package struct Cause: Sendable, Equatable {
        /// The test, as `swift test list` names it.
        package var id: String
        /// The runs of this test followed by the dependent one, and how many of them ended as the
        /// suite did.
        package var runs: Int
        package var agreeing: Int

        package init(id: String, runs: Int, agreeing: Int) {
            self.id = id
            self.runs = runs
            self.agreeing = agreeing
        }
    }

    /// A dependence from its parts.
    package init(
        id: String, alone: TestRun.Status, inSuite: TestRun.Status, aloneRuns: Int = 1, aloneAgreeing: Int = 1,
        cause: Cause? = nil, notFound: String? = nil
    ) {
        self.id = id
        self.alone = alone
        self.inSuite = inSuite
        self.aloneRuns = aloneRuns
        self.aloneAgreeing = aloneAgreeing
        self.cause = cause
        self.notFound = notFound
    }

    /// Whether it fails alone and passes in the suite (else it passes alone and fails in it).
    package var failsAlone: Bool { alone >= .failed }

    /// Whether every run alone ended the same way: when not, the test is flaky.
    package var isConsistent: Bool { aloneAgreeing == aloneRuns }

    /// The runs alone that failed.
    package var failuresAlone: Int { failsAlone ? aloneAgreeing : aloneRuns - aloneAgreeing }

    /// "fails alone, passes in the suite", with the outcomes' own words, the runs alone when it
    /// ran more than once, and the test it depends on: "fails alone (4 of 4 runs), passes after
    /// M.C/testA (2 of 2)"; "flaky, also seen failing alone (failed 2 of 4 runs alone, passes in
    /// the suite)" when the runs alone disagree.
    package var summary: String {
        guard isConsistent else {
            return "flaky, also seen failing alone (failed \(failuresAlone) of \(aloneRuns) runs alone, "
                + "\(Self.verb(inSuite)) in the suite)"
        }
        let runs = aloneRuns > 1 ? " (\(aloneAgreeing) of \(aloneRuns) runs)" : ""
        let after = cause.map { "after \($0.id) (\($0.agreeing) of \($0.runs))" } ?? "in the suite"
        return "\(Self.verb(alone)) alone\(runs), \(Self.verb(inSuite)) \(after)"
    }

    /// What the reports add to its failure: "order-dependent: fails alone, passes in the suite";
    /// the summary alone ("flaky, also seen failing alone (…)") when its runs alone disagreed.
    package var label: String { isConsistent ? "order-dependent: " + summary : summary }

    /// What the cause does: "testA sets up state testB needs", "testA leaves state that breaks
    /// testB" (the tests by their last name).
    package var role: String? {
        guard let cause, isConsistent else { return nil }
        let (culprit, test) = (Self.shortName(cause.id), Self.shortName(id))
        return failsAlone ? "\(culprit) sets up state \(test) needs" : "\(culprit) leaves state that breaks \(test)"
    }

    /// Whether the cause is a polluter (else a state-setter), when there is one.
    package var causeKind: String? {
        guard cause != nil, isConsistent else { return nil }
        return failsAlone ? "state-setter" : "polluter"
    }

    /// "TinyTests.OrderTests/testB: fails alone (4 of 4 runs), passes after
    /// TinyTests.OrderTests/testA (2 of 2): testA sets up state testB needs".
    package var description: String {
        var text = "\(id): \(summary)"
        if let role {
            text += ": " + role
        } else if let notFound, isConsistent {
            text += "; the test it depends on was not found: " + notFound
        }
        return text
    }

    /// A test's name without its module and class: `testA` of `M.C/testA`, `f()` of `M.f()`.
    static func shortName(_ id: String) -> String {
        if let slash = id.lastIndex(of: "/") { return String(id[id.index(after: slash)...]) }
        let head = id.prefix { $0 != "(" }
        if let dot = head.lastIndex(of: ".") { return String(id[id.index(after: dot)...]) }
        return id
    }

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
    /// summary, `run.json`), with `aloneRuns` and `aloneAgreeing` when it ran alone more than
    /// once, `cause` (`{"id", "kind": "polluter"|"state-setter", "runs", "agreeing"}`) when the
    /// test it depends on was found, `notFound` (why not) when the search found none; under
    /// `key`; nothing when there are none.
    package static func write(_ findings: [OrderDependence], key: String, to json: inout JSONWriter) {
        guard !findings.isEmpty else { return }
        json.key(key)
        json.beginArray(.block)
        for finding in findings {
            json.beginObject()
            json.member("id", finding.id)
            json.member("alone", finding.alone.rawValue)
            json.member("inSuite", finding.inSuite.rawValue)
            if finding.aloneRuns > 1 {
                json.member("aloneRuns", finding.aloneRuns)
                json.member("aloneAgreeing", finding.aloneAgreeing)
            }
            if let cause = finding.cause {
                json.key("cause")
                json.beginObject()
                json.member("id", cause.id)
                if let kind = finding.causeKind { json.member("kind", kind) }
                json.member("runs", cause.runs)
                json.member("agreeing", cause.agreeing)
                json.endObject()
            }
            if let notFound = finding.notFound { json.member("notFound", notFound) }
            json.endObject()
        }
        json.endArray()
    }

    /// A finding `write` wrote, from its JSON object's members; nil when it is not one.
    package static func read(_ members: [(key: String, value: JSONValue)]) -> OrderDependence? {
        func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        func string(_ key: String, in value: JSONValue?) -> String? {
            if case .object(let members)? = value,
                case .string(let text)? = members.first(where: { $0.key == key })?.value
            {
                return text
            }
            return nil
        }
        func count(_ key: String, in value: JSONValue?) -> Int? {
            guard case .object(let members)? = value,
                case .number(let number)? = members.first(where: { $0.key == key })?.value,
                number >= 0, number < 1e6, number == number.rounded()
            else { return nil }
            return Int(number)
        }
        let object = JSONValue.object(members)
        guard let id = string("id", in: object),
            let alone = string("alone", in: object).flatMap(TestRun.Status.init(rawValue:)),
            let inSuite = string("inSuite", in: object).flatMap(TestRun.Status.init(rawValue:))
        else { return nil }
        var finding = OrderDependence(id: id, alone: alone, inSuite: inSuite)
        if let runs = count("aloneRuns", in: object), let agreeing = count("aloneAgreeing", in: object), runs >= 1,
            agreeing >= 1, agreeing <= runs
        {
            finding.aloneRuns = runs
            finding.aloneAgreeing = agreeing
        }
        let cause = value("cause")
        if let causeID = string("id", in: cause), let runs = count("runs", in: cause),
            let agreeing = count("agreeing", in: cause), agreeing <= runs
        {
            finding.cause = Cause(id: causeID, runs: runs, agreeing: agreeing)
        }
        if case .string(let text)? = value("notFound") { finding.notFound = text }
        return finding
    }
}
