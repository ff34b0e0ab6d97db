#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads `swift test` console output into a `TestRun`, line by line as it arrives, so a piped
/// run is parsed while it runs: XCTest (Linux and macOS forms, `--parallel`), then Swift
/// Testing, with build output and the tests' own output mixed in. Lines it does not know are
/// kept as output of the test, suite or run around them. A log cut off in the middle reports
/// the tests that were running as errors.
package struct TestLogParser {
    /// The class of Swift Testing tests when only the console is read: the console does not say
    /// which suite or module a test belongs to (the event stream does).
    package static let swiftTestingSuiteName = "Swift Testing"

    /// At most this many lines of output are kept per test, suite, or run.
    package static let outputLineLimit = 2_000

    private var run = TestRun()
    private var pending: [UInt8] = []

    // XCTest
    private var xctestSuites: [TestRun.Suite] = []
    private var suiteIndexByClass: [String: Int] = [:]
    private var moduleByClass: [String: String] = [:]
    private var suiteStack: [String] = []
    private var currentSuite: Int?
    private var openCase: (suite: Int, value: TestRun.Case)?
    private var lastClosedCase: (suite: Int, index: Int)?
    private var awaitingSummary: AwaitingSummary = .none
    private var parallelTests: [TestLogLine.XCTestName] = []
    private var parallelSeen: Set<TestLogLine.XCTestName> = []
    private var parallelProgress = (done: 0, total: 0)
    private var lastTimestamp: String?
    private var crashHint: TestRun.Issue?

    // Swift Testing
    private var inSwiftTesting = false
    private var swiftTests: [ConsoleTest] = []
    private var inFlight: [Int] = []
    private var swiftTestingOutput: [String] = []
    private var swiftTestingSeconds: Double?
    private var swiftTestingTimestamp: String?

    private var continuation: Continuation = .none

    private enum AwaitingSummary {
        case none, suite(Int), root
    }

    /// Where a line that is not a known shape belongs when it directly follows an issue.
    private enum Continuation {
        case none
        /// More lines of an XCTest failure message.
        case xctestIssue
        /// More lines of a Swift Testing issue message.
        case swiftTestingIssue(test: Int, issue: Int)
        /// Indented lines continuing a `↳` comment of a Swift Testing issue.
        case swiftTestingDetails(test: Int, issue: Int)
        /// `↳` lines that say nothing about results: the library version after "Test run
        /// started.", a failed test's doc comment.
        case swiftTestingNotes
    }

    /// A Swift Testing test as the console shows it, named as printed.
    private struct ConsoleTest {
        var name: String
        var status: TestRun.Status?
        var duration: Double?
        var skipReason: String?
        var cases: [String] = []
        var issues: [(arguments: String?, issue: TestRun.Issue)] = []
        var output: [String] = []
    }

    /// A parser that has read nothing yet.
    package init() {}

    /// Feeds the next bytes of the log; complete lines are parsed now, a partial line waits for
    /// the rest (or for `finish()`).
    package mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var start = 0
        while start < bytes.count {
            guard let found = memchr(base + start, 0x0A, bytes.count - start) else { break }
            let end = base.distance(to: UnsafeRawPointer(found))
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            if pending.isEmpty {
                consume(line: String(decoding: line, as: UTF8.self))
            } else {
                pending.append(contentsOf: line)
                consume(line: String(decoding: pending, as: UTF8.self))
                pending.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
        pending.append(contentsOf: bytes[start...])
    }

    /// Parses one line (without its line break).
    package mutating func consume(line: String) {
        guard let parsed = TestLogLine.parse(line) else {
            unknown(line.hasSuffix("\r") ? String(line.dropLast()) : line)
            return
        }
        switch parsed {
        case .suiteStarted(let name, let timestamp):
            suiteStarted(name, timestamp: timestamp)
        case .suiteFinished(let name, _, let timestamp):
            suiteFinished(name, timestamp: timestamp)
        case .executed(let tests, let skipped, let failures, let unexpected, _, let wallSeconds):
            executed(tests: tests, skipped: skipped, failures: failures, unexpected: unexpected, seconds: wallSeconds)
        case .testCaseStarted(let name):
            testCaseStarted(name)
        case .testCaseIssue(let name, let location, let message):
            testCaseIssue(name, location: location, message: message, line: line)
        case .testCaseSkipped(_, let location, let reason):
            continuation = .none
            if openCase != nil {
                openCase?.value.skipReason = reason
                openCase?.value.location = location
            }
        case .testCaseFinished(let name, let status, let seconds):
            testCaseFinished(name, status: status, seconds: seconds)
        case .parallelProgress(let name, let index, let total):
            run.hasTestOutput = true
            continuation = .none
            moduleByClass[name.className] = name.module
            if parallelSeen.insert(name).inserted { parallelTests.append(name) }
            parallelProgress = (max(parallelProgress.done, index), total)
        case .crash(let location, let message):
            if crashHint == nil { crashHint = TestRun.Issue(kind: .crash, message: message, location: location) }
            continuation = .none
            unknown(line)
        case .swiftTesting(let message):
            swiftTesting(message, line: line)
        }
    }

    /// Ends the log: tests still running become errors (the run was cut off), and the run is
    /// assembled.
    package mutating func finish() -> TestRun {
        if !pending.isEmpty {
            let line = String(decoding: pending, as: UTF8.self)
            pending.removeAll()
            consume(line: line)
        }
        closeOpenCaseAsCrash()
        if inSwiftTesting { endSwiftTestingRun(complete: false) }
        if parallelProgress.done < parallelProgress.total { run.isComplete = false }

        // `--parallel` prints only failed tests; the others passed (or were skipped: the log cannot tell).
        let parallel = !parallelTests.isEmpty
        for name in parallelTests {
            let suite = suiteIndex(forClass: name.className, timestamp: nil)
            if !xctestSuites[suite].cases.contains(where: { $0.testName == name.method }) {
                xctestSuites[suite].cases.append(
                    TestRun.Case(className: name.className, testName: name.method, status: .passed))
            }
        }
        var suites = xctestSuites
        for index in suites.indices {
            let className = suites[index].name
            if let module = moduleByClass[className] { suites[index].rename("\(module).\(className)") }
            if parallel {
                suites[index].reportedDuration = nil
                suites[index].cases.sort { $0.testName < $1.testName }
            }
        }
        if parallel { suites.sort { $0.name < $1.name } }
        if let swiftTesting = swiftTestingSuite() { suites.append(swiftTesting) }
        run.suites = suites
        return run
    }

    // MARK: XCTest

    private static func isRoot(_ name: String) -> Bool {
        name == "All tests" || name == "Selected tests" || name.hasSuffix(".xctest")
    }

    private mutating func suiteStarted(_ name: String, timestamp: String?) {
        run.hasTestOutput = true
        continuation = .none
        let timestamp = timestamp.flatMap(Self.isoTimestamp)
        lastTimestamp = timestamp ?? lastTimestamp
        if Self.isRoot(name) {
            if suiteStack.isEmpty {
                // A new test process: whatever was running in the one before did not finish.
                closeOpenCaseAsCrash()
                if inSwiftTesting { endSwiftTestingRun(complete: false) }
                crashHint = nil
            }
            suiteStack.append(name)
            return
        }
        suiteStack.append(name)
        currentSuite = suiteIndex(forClass: name, timestamp: timestamp)
    }

    private mutating func suiteFinished(_ name: String, timestamp: String?) {
        continuation = .none
        closeOpenCaseAsCrash()
        lastTimestamp = timestamp.flatMap(Self.isoTimestamp) ?? lastTimestamp
        if let index = suiteStack.lastIndex(of: name) { suiteStack.removeSubrange(index...) }
        if Self.isRoot(name) {
            awaitingSummary = suiteStack.isEmpty ? .root : .none
        } else {
            awaitingSummary = currentSuite.map { .suite($0) } ?? .none
            currentSuite = nil
        }
    }

    private mutating func executed(tests: Int, skipped: Int, failures: Int, unexpected: Int, seconds: Double) {
        continuation = .none
        switch awaitingSummary {
        case .suite(let index):
            xctestSuites[index].reportedDuration = (xctestSuites[index].reportedDuration ?? 0) + seconds
        case .root:
            run.summaries.append(
                .xctest(tests: tests, skipped: skipped, failures: failures, unexpected: unexpected, seconds: seconds))
        case .none:
            break
        }
        awaitingSummary = .none
    }

    private mutating func testCaseStarted(_ name: TestLogLine.XCTestName) {
        run.hasTestOutput = true
        continuation = .none
        closeOpenCaseAsCrash()
        crashHint = nil
        if let module = name.module { moduleByClass[name.className] = module }
        let suite = currentSuite ?? suiteIndex(forClass: name.className, timestamp: nil)
        openCase = (suite, TestRun.Case(className: name.className, testName: name.method, status: .passed))
    }

    private mutating func testCaseIssue(
        _ name: TestLogLine.XCTestName, location: TestRun.SourceLocation?, message: String, line: String
    ) {
        // XCTest counts thrown errors as "unexpected" failures.
        let kind: TestRun.Issue.Kind =
            message.hasPrefix("threw error") || message.contains("caught error") ? .error : .failure
        let issue = TestRun.Issue(kind: kind, message: message, location: location)
        if openCase != nil {
            openCase?.value.issues.append(issue)
        } else if let last = lastClosedCase, xctestSuites[last.suite].cases[last.index].testName == name.method {
            // Reported after the test ended (a tear-down): it still fails the test.
            xctestSuites[last.suite].cases[last.index].issues.append(issue)
            xctestSuites[last.suite].cases[last.index].status = max(
                xctestSuites[last.suite].cases[last.index].status, kind == .error ? .error : .failed)
        } else {
            unknown(line)
            return
        }
        continuation = .xctestIssue
    }

    private mutating func testCaseFinished(_ name: TestLogLine.XCTestName, status: TestRun.Status, seconds: Double) {
        continuation = .none
        if let module = name.module { moduleByClass[name.className] = module }
        var suite: Int
        var testCase: TestRun.Case
        if let open = openCase, open.value.testName == name.method {
            (suite, testCase) = open
            openCase = nil
        } else {
            closeOpenCaseAsCrash()
            suite = currentSuite ?? suiteIndex(forClass: name.className, timestamp: nil)
            testCase = TestRun.Case(className: name.className, testName: name.method, status: .passed)
        }
        testCase.duration = seconds
        switch status {
        case .failed, .error:
            if testCase.failingIssues.isEmpty {
                testCase.issues.append(
                    TestRun.Issue(kind: .failure, message: "The test failed; the log shows no failure message."))
            }
            testCase.status = testCase.issues.contains { $0.kind == .error || $0.kind == .crash } ? .error : .failed
        case .skipped, .passed:
            testCase.status = status
        }
        if suite >= xctestSuites.count { suite = suiteIndex(forClass: name.className, timestamp: nil) }
        xctestSuites[suite].cases.append(testCase)
        lastClosedCase = (suite, xctestSuites[suite].cases.count - 1)
    }

    /// The test that was running did not finish: the process crashed, or the log ends.
    private mutating func closeOpenCaseAsCrash() {
        guard let open = openCase else { return }
        let suite = open.suite
        var testCase = open.value
        openCase = nil
        testCase.status = .error
        testCase.issues.append(crashIssue())
        xctestSuites[suite].cases.append(testCase)
        lastClosedCase = (suite, xctestSuites[suite].cases.count - 1)
        run.isComplete = false
    }

    /// Why a test did not finish. The crash message names the place that crashed; it is the
    /// test's location only when no other test was running (Swift Testing runs tests in parallel).
    private func crashIssue(running: Int = 1) -> TestRun.Issue {
        guard let hint = crashHint else {
            return TestRun.Issue(
                kind: .crash,
                message:
                    "The test did not finish: the output ends while it runs (the test process crashed or was killed).")
        }
        if running == 1 {
            return TestRun.Issue(
                kind: .crash, message: "The test process crashed while this test was running: \(hint.message)",
                location: hint.location)
        }
        let place = hint.location.map { " (at \($0))" } ?? ""
        return TestRun.Issue(
            kind: .crash,
            message:
                "The test process crashed while this and \(running - 1) other tests were running: \(hint.message)\(place)"
        )
    }

    private mutating func suiteIndex(forClass className: String, timestamp: String?) -> Int {
        if let index = suiteIndexByClass[className] { return index }
        xctestSuites.append(TestRun.Suite(name: className, framework: .xctest, timestamp: timestamp ?? lastTimestamp))
        suiteIndexByClass[className] = xctestSuites.count - 1
        return xctestSuites.count - 1
    }

    /// "2026-11-22 14:03:53.085" → "2026-11-22T14:03:53"; nil for anything else.
    static func isoTimestamp(_ text: String) -> String? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 19, utf8[4] == 0x2D, utf8[7] == 0x2D, utf8[10] == 0x20, utf8[13] == 0x3A,
            utf8[16] == 0x3A
        else { return nil }
        var result = utf8[0..<19]
        result[10] = UInt8(ascii: "T")
        return String(decoding: result, as: UTF8.self)
    }

    // MARK: Swift Testing

    private mutating func swiftTesting(_ message: TestLogLine.SwiftTestingMessage, line: String) {
        if case .details(let text) = message {
            switch continuation {
            case .swiftTestingIssue(let test, let issue), .swiftTestingDetails(let test, let issue):
                swiftTests[test].issues[issue].issue.message += "\n" + text
                continuation = .swiftTestingDetails(test: test, issue: issue)
            case .swiftTestingNotes:
                break
            case .none, .xctestIssue:
                unknown(line)  // an arrow a test printed
            }
            return
        }
        continuation = .none
        run.hasTestOutput = true
        switch message {
        case .runStarted:
            closeOpenCaseAsCrash()
            if inSwiftTesting { endSwiftTestingRun(complete: false) }
            inSwiftTesting = true
            crashHint = nil
            swiftTestingTimestamp = swiftTestingTimestamp ?? lastTimestamp
            continuation = .swiftTestingNotes
        case .started(let isSuite, let name):
            inSwiftTesting = true
            guard !isSuite else { return }
            swiftTests.append(ConsoleTest(name: name))
            inFlight.append(swiftTests.count - 1)
        case .caseStarted(let text):
            // "x → 2 to name(x:)": the test is one of those running; the longest name that fits wins.
            let candidates = inFlight.filter { text.hasSuffix(" to " + swiftTests[$0].name) }
            guard let test = candidates.max(by: { swiftTests[$0].name.count < swiftTests[$1].name.count }) else {
                return
            }
            let arguments = String(text.dropLast(swiftTests[test].name.count + 4))
            if !swiftTests[test].cases.contains(arguments) { swiftTests[test].cases.append(arguments) }
        case .skipped(let isSuite, let name, let reason):
            // A skipped suite's tests are each reported skipped too.
            guard !isSuite else { return }
            swiftTests.append(ConsoleTest(name: name, status: .skipped, skipReason: reason))
        case .ended(let isSuite, let name, _, let passed, let seconds, _):
            if !passed { continuation = .swiftTestingNotes }
            guard !isSuite else { return }
            let test: Int
            if let position = inFlight.firstIndex(where: { swiftTests[$0].name == name }) {
                test = inFlight.remove(at: position)
            } else {
                swiftTests.append(ConsoleTest(name: name))
                test = swiftTests.count - 1
            }
            swiftTests[test].status = passed ? .passed : .failed
            swiftTests[test].duration = seconds
        case .issue(let name, let arguments, let location, let kind, let text):
            let test = swiftTestIndex(named: name)
            swiftTests[test].issues.append((arguments, TestRun.Issue(kind: kind, message: text, location: location)))
            if let arguments, !swiftTests[test].cases.contains(arguments) { swiftTests[test].cases.append(arguments) }
            continuation = .swiftTestingIssue(test: test, issue: swiftTests[test].issues.count - 1)
        case .runEnded(let tests, let suites, _, let seconds, let counts):
            run.summaries.append(
                .swiftTesting(
                    tests: tests, suites: suites, issues: counts.failing, knownIssues: counts.knownIssues,
                    warnings: counts.warnings, seconds: seconds))
            swiftTestingSeconds = (swiftTestingSeconds ?? 0) + seconds
            endSwiftTestingRun(complete: true)
        case .details:
            break
        }
    }

    /// The test an issue line names: the running one with that name, else the last one.
    private mutating func swiftTestIndex(named name: String) -> Int {
        if let running = inFlight.first(where: { swiftTests[$0].name == name }) { return running }
        if let last = swiftTests.lastIndex(where: { $0.name == name }) { return last }
        swiftTests.append(ConsoleTest(name: name))
        return swiftTests.count - 1
    }

    private mutating func endSwiftTestingRun(complete: Bool) {
        for test in inFlight {
            swiftTests[test].status = .error
            swiftTests[test].issues.append((nil, crashIssue(running: inFlight.count)))
        }
        if !complete { run.isComplete = false }
        inFlight = []
        inSwiftTesting = false
    }

    private func swiftTestingSuite() -> TestRun.Suite? {
        guard !swiftTests.isEmpty else { return nil }
        let className = Self.swiftTestingSuiteName
        var suite = TestRun.Suite(name: className, framework: .swiftTesting, timestamp: swiftTestingTimestamp)
        suite.reportedDuration = swiftTestingSeconds
        suite.output = swiftTestingOutput
        // Tests run in parallel, so the log's order changes from run to run; names do not.
        let ordered = swiftTests.enumerated().sorted {
            $0.element.name != $1.element.name ? $0.element.name < $1.element.name : $0.offset < $1.offset
        }
        for (_, test) in ordered {
            suite.cases += Self.cases(of: test, className: className)
        }
        return suite
    }

    /// One case per argument set of a parameterized test, else one.
    private static func cases(of test: ConsoleTest, className: String) -> [TestRun.Case] {
        let testName = unquoted(test.name)
        let status = test.status ?? .passed
        guard !test.cases.isEmpty else {
            var single = TestRun.Case(className: className, testName: testName, status: status)
            single.duration = test.duration
            single.issues = test.issues.map(\.issue)
            single.skipReason = test.skipReason
            single.output = test.output
            single.status = settledStatus(single.issues, default: status)
            if single.status == .failed && single.failingIssues.isEmpty {
                single.issues.append(
                    TestRun.Issue(kind: .failure, message: "The test failed; the log shows no issue for it."))
            }
            return [single]
        }
        var result: [TestRun.Case] = test.cases.map { arguments in
            var testCase = TestRun.Case(className: className, testName: testName, arguments: arguments, status: .passed)
            testCase.issues = test.issues.filter { $0.arguments == arguments }.map(\.issue)
            testCase.status = settledStatus(testCase.issues, default: status == .skipped ? .skipped : .passed)
            return testCase
        }
        let testLevel = test.issues.filter { $0.arguments.map { !test.cases.contains($0) } ?? true }.map(\.issue)
        let failing = testLevel.filter(\.isFailing)
        let caseFailed = result.contains { $0.status == .failed || $0.status == .error }
        if !failing.isEmpty || (status == .failed && !caseFailed) || status == .error {
            // Issues outside any case (or a failure the log does not explain) belong to the test itself.
            var whole = TestRun.Case(className: className, testName: testName, status: .failed)
            whole.issues = failing.isEmpty ? testLevel : failing
            if whole.failingIssues.isEmpty {
                whole.issues.append(
                    TestRun.Issue(kind: .failure, message: "The test failed; the log shows no issue for it."))
            }
            whole.status = settledStatus(whole.issues, default: .failed)
            whole.duration = test.duration
            result.append(whole)
        }
        result[0].issues += testLevel.filter { !$0.isFailing }
        result[0].output = test.output
        return result
    }

    /// `.error` when an issue is an error or crash, `.failed` for other failing issues, else `fallback`.
    static func settledStatus(_ issues: [TestRun.Issue], default fallback: TestRun.Status) -> TestRun.Status {
        if issues.contains(where: { $0.kind == .error || $0.kind == .crash }) { return .error }
        if issues.contains(where: { $0.kind == .failure }) { return max(fallback, .failed) }
        return fallback
    }

    /// A display name without its quotes: `"Name"` → `Name`.
    static func unquoted(_ name: String) -> String {
        guard name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") else { return name }
        return String(name.dropFirst().dropLast())
    }

    // MARK: Other lines

    private mutating func unknown(_ line: String) {
        switch continuation {
        case .xctestIssue:
            if openCase != nil, let last = openCase?.value.issues.indices.last {
                openCase?.value.issues[last].message += "\n" + line
                return
            }
        case .swiftTestingIssue(let test, let issue):
            swiftTests[test].issues[issue].issue.message += "\n" + line
            return
        case .swiftTestingDetails(let test, let issue):
            if line.hasPrefix("  ") {
                swiftTests[test].issues[issue].issue.message += "\n" + line.dropFirst(2)
                return
            }
        case .none, .swiftTestingNotes:
            break
        }
        continuation = .none
        if openCase != nil {
            Self.append(line, to: &openCase!.value.output)
        } else if inSwiftTesting {
            if inFlight.count == 1 {
                Self.append(line, to: &swiftTests[inFlight[0]].output)
            } else {
                Self.append(line, to: &swiftTestingOutput)
            }
        } else if let suite = currentSuite {
            Self.append(line, to: &xctestSuites[suite].output)
        } else {
            // Build output and the like: only the last lines matter (a build error, a crash).
            run.output.append(line)
            if run.output.count > 2 * Self.runOutputLineLimit { run.output.removeFirst(Self.runOutputLineLimit) }
        }
    }

    /// At most this many lines outside any test are kept (the last ones).
    private static let runOutputLineLimit = 200

    private static func append(_ line: String, to output: inout [String]) {
        if output.count < outputLineLimit {
            output.append(line)
        } else if output.count == outputLineLimit {
            output.append("… (more output left out)")
        }
    }
}

extension TestRun.Suite {
    /// Renames the suite and its cases' class name.
    mutating func rename(_ newName: String) {
        name = newName
        for index in cases.indices { cases[index].className = newName }
    }
}
