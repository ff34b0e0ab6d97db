/// Which test cases of a `TestRun` a test ID names: the ID `swift test list` prints, the case as
/// the log and the event stream report it.
///
/// - XCTest `Module.Class/method`: a case named `method` of the class `Module.Class`, or of
///   `Class` (Linux's XCTest prints no module in its log).
/// - Swift Testing `Module.Suite/Inner/function(label:)`: a case of the suite `Module.Suite.Inner`
///   whose function is `function(label:)` (its name, or the function behind its display name);
///   `Module.function()`, a test outside any suite, is a case of the module's suite. Every case
///   (argument set) of a parameterized test has the test's ID: the ID names them all.
extension TestID {
    /// The class or suite a case of this test is reported under, and the test's name there.
    var caseName: (suite: String, name: String) {
        let module = String(self.module)
        let rest = id.dropFirst(module.count + 1)
        guard let slash = rest.lastIndex(of: "/") else { return (module, String(rest)) }
        let suites = rest[..<slash].split(separator: "/").joined(separator: ".")
        return (module + "." + suites, String(rest[rest.index(after: slash)...]))
    }

    /// Whether `testCase` is a case of this test.
    package func matches(_ testCase: TestRun.Case) -> Bool {
        let (suite, name) = caseName
        guard testCase.testName == name || testCase.function == name else { return false }
        if testCase.className == suite { return true }
        switch library {
        case .xctest:
            // `Class` for `Module.Class`.
            return testCase.className.utf8.count + module.utf8.count + 1 == suite.utf8.count
                && suite.hasSuffix("." + testCase.className)
        case .swiftTesting:
            // Read from the console alone, Swift Testing's tests are in one suite of that name.
            return testCase.className == TestRun.swiftTestingSuiteName
        }
    }
}

extension TestRun {
    /// The IDs among `ids` that name a case of this run whose last attempt failed or ended in an
    /// error, in the order of `ids`.
    package func failingIDs(among ids: [TestID]) -> [TestID] {
        let failing = failingCases
        return ids.filter { id in failing.contains(where: id.matches) }
    }

    /// Records `retry`'s outcome of the test `id` as the next attempt of each of this run's cases
    /// of it that failed or ended in an error (a case the retry does not report is an error
    /// attempt: its process ended before it ran). Cases that passed are left as they are.
    /// Returns whether every case of the test passes now.
    @discardableResult
    package mutating func recordRetry(_ retry: TestRun, of id: TestID) -> Bool {
        let retried = retry.cases.filter(id.matches)
        var allPass = true
        for suiteIndex in suites.indices {
            for caseIndex in suites[suiteIndex].cases.indices {
                let testCase = suites[suiteIndex].cases[caseIndex]
                guard id.matches(testCase), testCase.status >= .failed else { continue }
                let next =
                    retried.first { $0.testName == testCase.testName && $0.arguments == testCase.arguments }
                    ?? Self.notReported(like: testCase)
                suites[suiteIndex].cases[caseIndex].rerun(as: next)
                if next.status >= .failed { allPass = false }
            }
        }
        return allPass
    }

    /// An error attempt of `testCase`: the retry did not report it.
    private static func notReported(like testCase: Case) -> Case {
        var missing = Case(
            className: testCase.className, testName: testCase.testName, arguments: testCase.arguments, status: .error)
        missing.issues = [
            Issue(kind: .crash, message: "Not reported by the retry: its test process ended before it ran.")
        ]
        return missing
    }

    /// Whether a case of the test `id` failed or ended in an error in any attempt.
    package func hasFailed(_ id: TestID) -> Bool {
        cases.contains { id.matches($0) && ($0.status >= .failed || $0.attempts.contains { $0.status >= .failed }) }
    }

    /// The last outcome of the test `id`: its worst case's; nil when no case of it was reported.
    package func status(of id: TestID) -> Status? {
        cases.filter(id.matches).map(\.status).max()
    }
}
