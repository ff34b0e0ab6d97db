import SwiftCovModel

/// Which of a test run's failures fail the gate, and why the others do not: a quarantined test
/// (`"quarantine"`), an order-dependent one (`"tests": {"orderDependent": "pass"}`, the default);
/// and whether a test that passed only on retry fails it (`"tests": {"flaky": "fail"}`). Every
/// report still shows each failure; this only says which ones decide the exit code.
package struct TestJudgement: Sendable {
    /// The configuration's rules for flaky and order-dependent tests.
    package var rules = GateConfiguration.TestRules()
    /// The quarantined tests.
    package var quarantine: [GateConfiguration.QuarantinedTest] = []
    /// The tests that ended one way alone and another in the suite (`run --per-test`).
    package var orderDependent: [OrderDependence] = []

    /// No rules: every failure fails the gate, a flaky test does not.
    package init() {}

    /// The judgement of `configuration`, with the order dependence a run found.
    package init(configuration: GateConfiguration, orderDependent: [OrderDependence] = []) {
        rules = configuration.tests
        quarantine = configuration.quarantine
        self.orderDependent = orderDependent
    }

    /// Why a failure does not fail the gate.
    package enum Excuse: Equatable, Sendable {
        case quarantined
        case orderDependent(OrderDependence)

        /// What the reports add to the failure: "quarantined", "order-dependent: fails alone, passes in the suite".
        package var label: String {
            switch self {
            case .quarantined: "quarantined"
            case .orderDependent(let dependence): dependence.label
            }
        }
    }

    /// Whether `testCase` is a case of a quarantined test.
    package func isQuarantined(_ testCase: TestRun.Case) -> Bool {
        quarantine.contains { $0.id.matches(testCase) }
    }

    /// The order dependence found for `testCase`'s test, if any.
    package func orderDependence(of testCase: TestRun.Case) -> OrderDependence? {
        orderDependent.first { TestID($0.id)?.matches(testCase) ?? false }
    }

    /// Why `testCase` does not fail the gate, if it does not (whatever its status).
    package func excuse(for testCase: TestRun.Case) -> Excuse? {
        if isQuarantined(testCase) { return .quarantined }
        // One whose runs alone disagreed is flaky: excused as a flaky test is.
        if let dependence = orderDependence(of: testCase),
            (dependence.isConsistent ? rules.orderDependent : rules.flaky) == .pass
        {
            return .orderDependent(dependence)
        }
        return nil
    }

    /// The tests that fail the gate: failed and errored cases without an excuse, flaky cases
    /// when the rules say so, and (when the rules say so) order-dependent tests that failed only
    /// in the suite.
    package func failedTests(of run: TestRun) -> [FailedTest] {
        var failed: [FailedTest] = []
        let flakyTestsFail = rules.flaky == .fail
        for suite in run.suites.indices {
            // Each case read in place: a run of a million passing tests copies none. (Its status
            // told by a switch: `>=` on another module's enum is a call through its conformance.)
            run.suites[suite].cases.withUnsafeBufferPointer { cases in
                for index in cases.indices {
                    let failing: Bool
                    switch cases[index].status {
                    case .failed, .error: failing = true
                    case .passed, .skipped: failing = false
                    }
                    let flakyFails = flakyTestsFail && cases[index].isFlaky
                    guard failing || flakyFails else { continue }
                    let testCase = cases[index]
                    guard excuse(for: testCase) == nil else { continue }
                    var test = FailedTest(testCase)
                    if !failing {
                        let failures = testCase.attempts.filter { $0.status >= .failed }.count
                        test.message = "flaky: failed \(failures) of \(testCase.attempts.count + 1) runs"
                        let issue = testCase.attempts.lazy.flatMap(\.issues).first {
                            $0.isFailing && $0.location != nil
                        }
                        test.file = issue?.location?.file
                        test.line = issue?.location?.line
                    }
                    failed.append(test)
                }
            }
        }
        if rules.orderDependent == .fail {
            for dependence in orderDependent
            where dependence.isConsistent && !dependence.failsAlone && dependence.inSuite >= .failed {
                guard let id = TestID(dependence.id), !quarantine.contains(where: { $0.id == id }) else { continue }
                failed.append(FailedTest(name: dependence.id, message: dependence.label))
            }
        }
        return failed
    }

    /// The failing cases the gate excuses, with why, in order: what the reports mark.
    package func excused(in run: TestRun) -> [(testCase: TestRun.Case, excuse: Excuse)] {
        run.failingCases.compactMap { testCase in excuse(for: testCase).map { (testCase, $0) } }
    }
}

extension FailedTest {
    /// A failed case as the gate lists it.
    init(_ testCase: TestRun.Case) {
        self.init(
            name: testCase.className == TestRun.swiftTestingSuiteName
                ? testCase.name : "\(testCase.className).\(testCase.name)",
            file: testCase.primaryLocation?.file, line: testCase.primaryLocation?.line,
            message: testCase.failingIssues.first?.message ?? testCase.status.rawValue)
    }
}
