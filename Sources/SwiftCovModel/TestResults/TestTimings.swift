/// How long each test took in an earlier run, for balancing shards: from JUnit XML (per test)
/// or from swiftcov's test summary JSON (per suite, shared evenly by its tests).
package struct TestTimings: Sendable, Equatable {
    /// Seconds by test key (`Module.Class.method`: the identifier with `/` read as `.`).
    private var byKey: [String: Double] = [:]
    /// Seconds by `Class.method` (the last part of the class only), when only one test has it:
    /// the console names XCTest classes without their module.
    private var byShortKey: [String: Double?] = [:]
    /// Seconds per test by suite (`Module.Suite`), from summaries that give suites only.
    private var bySuite: [String: Double] = [:]

    package init() {}

    /// The timings of `run`'s test cases (a parameterized test's cases added up).
    package init(_ run: TestRun) {
        var seconds: [String: Double] = [:]
        for testCase in run.cases {
            guard let duration = testCase.duration, duration.isFinite, duration >= 0 else { continue }
            seconds[testCase.className + "." + testCase.testName, default: 0] += duration
        }
        for (key, value) in seconds { add(key: key, seconds: value) }
    }

    /// Per-suite timings: each of a suite's `tests` took `seconds / tests`.
    package init(suites: [(name: String, tests: Int, seconds: Double)]) {
        for suite in suites where suite.tests > 0 && suite.seconds.isFinite && suite.seconds >= 0 {
            bySuite[suite.name] = suite.seconds / Double(suite.tests)
        }
    }

    /// Timings for a test key (`Module.Class.method`).
    package mutating func add(key: String, seconds: Double) {
        byKey[key] = seconds
        let short = TestTimings.shortKey(key)
        byShortKey[short] = byShortKey[short] == nil ? seconds : .some(nil)
    }

    package var isEmpty: Bool { byKey.isEmpty && bySuite.isEmpty }

    /// The seconds of a `swift test list` identifier, when known.
    package func seconds(of test: String) -> Double? {
        let key = test.replacing("/", with: ".")
        if let seconds = byKey[key] { return seconds }
        if let seconds = byShortKey[TestTimings.shortKey(key)] ?? nil { return seconds }
        if let slash = test.lastIndex(of: "/") {
            let suite = String(test[..<slash]).replacing("/", with: ".")
            return bySuite[suite]
        }
        return nil
    }

    /// `Class.method` of `Module.Class.method` (a name's last two dot-separated parts, a method's
    /// own dots, as in `f(a.b:)`, aside).
    private static func shortKey(_ key: String) -> String {
        let name = key.firstIndex(of: "(").map { key[..<$0] } ?? key[...]
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count > 2 else { return key }
        let dropped = parts.dropLast(2).map(\.count).reduce(0, +) + parts.count - 2
        return String(key.dropFirst(dropped))
    }
}
