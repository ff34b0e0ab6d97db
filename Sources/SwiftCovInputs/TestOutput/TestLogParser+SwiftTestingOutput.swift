import SwiftCovModel

/// Swift Testing's part of the console: tests run in parallel, so lines are matched to the
/// tests running by name; and crashes, for both libraries.
extension TestLogParser {
    mutating func swiftTesting(_ message: TestLogLine.SwiftTestingLine) {
        if case .details(let text) = message {
            switch continuation {
            case .swiftTestingIssue(let test, let issue), .swiftTestingDetails(let test, let issue):
                Self.extend(&swiftTests[test].issues[issue].issue.message, with: text.string)
                continuation = .swiftTestingDetails(test: test, issue: issue)
            case .swiftTestingNotes:
                break
            case .none, .xctestIssue:
                unknown()  // an arrow a test printed
            }
            return
        }
        if case .runStarted = message {
            guard startsAProcess(.swiftTesting(.runStarted)) else {
                // Printed while a test was running: what follows, up to its `Test run with …`
                // line, may be a whole run the test printed.
                if inSwiftTesting { printedRunStart = swiftTests.count }
                unknown()
                return
            }
            startProcess()
            inSwiftTesting = true
            swiftTestingRunStart = swiftTests.count
            printedRunStart = nil
            printedRunTests = []
            run.hasTestOutput = true
            swiftTestingTimestamp = swiftTestingTimestamp ?? lastTimestamp
            continuation = .swiftTestingNotes
            return
        }
        continuation = .none
        run.hasTestOutput = true
        if case .runEnded(let tests, let suites, _, let seconds, let counts) = message {
            // The run's own summary only if nothing of the run follows it: a test may print one.
            pendingRunEnd = .swiftTesting(
                tests: tests, suites: suites, issues: counts.failing, knownIssues: counts.knownIssues,
                warnings: counts.warnings, seconds: seconds)
            if let start = printedRunStart {
                printedRunTests += (start..<swiftTests.count).filter { swiftTests[$0].ended }
                printedRunStart = nil
            }
            inSwiftTesting = true
            return
        }
        pendingRunEnd = nil
        inSwiftTesting = true
        switch message {
        case .started(let isSuite, let name):
            guard !isSuite else { return }
            let name = swiftTestNames.intern(name)
            let test = addTest(ConsoleTest(name: name))
            inFlight.append(test, name: name)
        case .caseStarted(let text):
            // "x → 2 to name(x:)": the test is one of those running; the longest name that fits wins,
            // the one after the first " to " that leaves a running test's name.
            guard let (test, nameLength) = longestRunningNameEnding(text) else { return }
            // Every case counts, also one whose arguments repeat another's.
            let arguments = shared(text.dropLast(nameLength + 4))
            swiftTests[test].cases.append(arguments)
        case .skipped(let isSuite, let name, let reason):
            // A skipped suite's tests are each reported skipped too.
            guard !isSuite else { return }
            var test = ConsoleTest(name: swiftTestNames.intern(name), status: .skipped, skipReason: reason?.string)
            test.ended = true
            _ = addTest(test)
        case .ended(let isSuite, let name, _, let passed, let seconds, _):
            if !passed { continuation = .swiftTestingNotes }
            guard !isSuite else { return }
            let status: TestRun.Status = passed ? .passed : .failed
            let name = swiftTestNames.find(name)
            if let name, let test = inFlight.first(named: name) {
                inFlight.remove(test, name: name)
                swiftTests[test].end(status, seconds: seconds)
                if passed, let other = inFlight.first(named: name) {
                    moveFailingIssues(from: test, to: other)
                }
            } else if let name, name < swiftTestsByName.count,
                let test = swiftTestsByName[name].last(where: { swiftTests[$0].ended })
            {
                // Ended before: a test printed a line like this one (it can only make it worse).
                swiftTests[test].status = max(swiftTests[test].status ?? .passed, status)
            } else {
                unknown()  // a test that never started: printed
            }
        case .issue(let name, let arguments, let location, let kind, let text):
            let test = swiftTestIndex(named: swiftTestNames.intern(name))
            let arguments = arguments?.string
            let caseIndex = arguments.flatMap { arguments in swiftTests[test].cases.lastIndex(of: arguments) }
            if let arguments, caseIndex == nil { swiftTests[test].cases.append(arguments) }
            let index = caseIndex ?? (arguments == nil ? nil : swiftTests[test].cases.count - 1)
            swiftTests[test].issues.append(
                (
                    index,
                    TestRun.Issue(
                        kind: kind, message: text.string, location: location.flatMap(TestLogLine.sourceLocation))
                ))
            continuation = .swiftTestingIssue(test: test, issue: swiftTests[test].issues.count - 1)
        case .runStarted, .runEnded, .details:
            break
        }
    }

    /// Two tests of one name run at once (in two suites) and an issue line names them both: it
    /// went to the one that started first, but that one passed, so it is the other's.
    private mutating func moveFailingIssues(from test: Int, to other: Int) {
        let failing = swiftTests[test].issues.filter(\.issue.isFailing)
        guard !failing.isEmpty else { return }
        swiftTests[test].issues.removeAll { $0.issue.isFailing }
        for (caseIndex, issue) in failing {
            // The case by its arguments: the other test's cases are its own.
            var index: Int?
            if let caseIndex {
                let arguments = swiftTests[test].cases[caseIndex]
                index = swiftTests[other].cases.lastIndex(of: arguments)
                if index == nil {
                    swiftTests[other].cases.append(arguments)
                    index = swiftTests[other].cases.count - 1
                }
            }
            swiftTests[other].issues.append((index, issue))
        }
    }

    private mutating func addTest(_ test: ConsoleTest) -> Int {
        swiftTests.append(test)
        while swiftTestsByName.count <= test.name { swiftTestsByName.append([]) }
        swiftTestsByName[test.name].append(swiftTests.count - 1)
        return swiftTests.count - 1
    }

    /// The test an issue line names: the running one with that name, else the last one (an
    /// issue for a test never seen still fails the run: a suite's set-up failed, say).
    private mutating func swiftTestIndex(named name: Int) -> Int {
        if let running = inFlight.first(named: name) { return running }
        if name < swiftTestsByName.count, let last = swiftTestsByName[name].last { return last }
        return addTest(ConsoleTest(name: name))
    }

    /// The running test whose name is the longest that `text` ends with after " to " (a test
    /// case's line: "x → 2 to name(x:)"); of several of that name, the first to start. With the
    /// length of its name in bytes.
    private func longestRunningNameEnding(_ text: LineText) -> (test: Int, nameLength: Int)? {
        var start = 0
        while let space = text.suffix(from: start).firstIndex(of: UInt8(ascii: " ")) {
            start += space + 1
            guard text.suffix(from: start).hasPrefix("to ") else { continue }
            let name = text.suffix(from: start + 3)
            if let number = swiftTestNames.find(name), let test = inFlight.first(named: number) {
                return (test, name.count)
            }
        }
        return nil
    }

    /// The printed name of the test at `index` in `swiftTests`.
    func swiftTestName(_ index: Int) -> String { swiftTestNames[swiftTests[index].name] }

    /// The Swift Testing run ends (the log ends, or another process starts). With its own
    /// summary and no test left running it is complete; tests still running did not finish.
    mutating func endSwiftTestingRun() {
        let endedCount = inFlight.isEmpty ? 0 : swiftTests.lazy.filter(\.ended).count
        if let summary = pendingRunEnd, case .swiftTesting(let tests, _, _, _, _, let seconds) = summary,
            inFlight.isEmpty || endedCount >= tests
        {
            // Tests "started" that never ended were lines a test printed.
            for test in inFlight { swiftTests[test].isPhantom = true }
            // So were the tests of a run a test printed, when the run's own count leaves them out.
            let counted = swiftTests[swiftTestingRunStart...].lazy.filter { !$0.isPhantom }.count
            if !printedRunTests.isEmpty, counted - printedRunTests.count == tests {
                for test in printedRunTests { swiftTests[test].isPhantom = true }
            }
            run.summaries.append(summary)
            swiftTestingSeconds = (swiftTestingSeconds ?? 0) + seconds
        } else {
            let running = inFlight.map { swiftTestName($0) }
            for test in inFlight {
                swiftTests[test].status = .error
                swiftTests[test].issues.append((nil, crashIssue(running: running, this: swiftTestName(test))))
            }
            run.isComplete = false
        }
        pendingRunEnd = nil
        inFlight.removeAll()
        inSwiftTesting = false
        printedRunStart = nil
        printedRunTests = []
    }

    func swiftTestingSuite() -> TestRun.Suite? {
        // Tests run in parallel, so the log's order changes from run to run; names do not. By name,
        // then in the order they started: the distinct names are sorted (far fewer than the tests
        // of a long log), and the tests are not copied.
        let names = swiftTestNames.strings
        let ordered = swiftTestsByName.indices.sorted { names[$0] < names[$1] }.flatMap { name in
            swiftTestsByName[name].filter { !swiftTests[$0].isPhantom }
        }
        guard !ordered.isEmpty else { return nil }
        let className = TestRun.swiftTestingSuiteName
        var suite = TestRun.Suite(name: className, framework: .swiftTesting, timestamp: swiftTestingTimestamp)
        suite.reportedDuration = swiftTestingSeconds
        suite.output = swiftTestingOutput.text
        // Room for every case at once (a parameterized test's cases, and the test itself when it
        // failed outside them): growing by doubling would hold the cases twice.
        suite.cases.reserveCapacity(
            ordered.reduce(0) { $0 + (swiftTests[$1].cases.isEmpty ? 1 : swiftTests[$1].cases.count + 1) })
        // Each name without its quotes once, shared by its tests.
        var unquotedNames: [String?] = Array(repeating: nil, count: names.count)
        for index in ordered {
            let name = swiftTests[index].name
            if unquotedNames[name] == nil { unquotedNames[name] = Self.unquoted(names[name]) }
            Self.appendCases(
                of: swiftTests[index], testName: unquotedNames[name]!, className: className, to: &suite.cases)
        }
        return suite
    }

    /// One case per argument set of a parameterized test, else one.
    private static func appendCases(
        of test: ConsoleTest, testName: String, className: String, to cases: inout [TestRun.Case]
    ) {
        let status = test.status ?? .passed
        guard test.hasDetails else {
            // Most tests: no skip reason, cases, issues or output.
            var single = TestRun.Case(className: className, testName: testName, status: status, duration: test.duration)
            if case .failed = status {
                single.issues = [
                    TestRun.Issue(kind: .failure, message: "The test failed; the log shows no issue for it.")
                ]
            }
            cases.append(consume single)
            return
        }
        guard !test.cases.isEmpty else {
            var single = TestRun.Case(className: className, testName: testName, status: status)
            single.duration = test.duration
            single.issues = test.issues.map(\.issue)
            single.skipReason = test.skipReason
            single.output = test.output.text
            single.status = settledStatus(single.issues, default: status)
            if single.status == .failed && single.failingIssues.isEmpty {
                single.issues.append(
                    TestRun.Issue(kind: .failure, message: "The test failed; the log shows no issue for it."))
            }
            cases.append(consume single)
            return
        }
        // Most cases record no issue: nothing is assigned to them (each assignment to a case with
        // arguments makes its details unique).
        let issues = test.issues
        var result: [TestRun.Case] = test.cases.indices.map { index in
            var testCase = TestRun.Case(
                className: className, testName: testName, arguments: test.cases[index],
                status: status == .skipped ? .skipped : .passed)
            if issues.contains(where: { $0.caseIndex == index }) {
                testCase.issues = issues.filter { $0.caseIndex == index }.map(\.issue)
                testCase.status = settledStatus(testCase.issues, default: testCase.status)
            }
            return testCase
        }
        let testLevel = test.issues.filter { $0.caseIndex == nil }.map(\.issue)
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
        let notFailing = testLevel.filter { !$0.isFailing }
        if !notFailing.isEmpty { result[0].issues += notFailing }
        if !test.output.isEmpty { result[0].output = test.output.text }
        cases += result
    }

    /// `.error` when an issue is an error or crash, `.failed` for other failing issues, else `fallback`.
    static func settledStatus(_ issues: [TestRun.Issue], default fallback: TestRun.Status) -> TestRun.Status {
        if issues.contains(where: { $0.kind == .error || $0.kind == .crash }) { return .error }
        if issues.contains(where: { $0.kind == .failure }) { return max(fallback, .failed) }
        return fallback
    }

    /// A display name without its quotes: `"Name"` → `Name`.
    static func unquoted(_ name: String) -> String {
        // Most names have no quotes: told by their bytes, without counting characters.
        guard name.utf8.first == UInt8(ascii: "\""), name.utf8.last == UInt8(ascii: "\"") else { return name }
        guard name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") else { return name }
        return String(name.dropFirst().dropLast())
    }

    // MARK: Crashes

    /// `Fatal error: …` and the like, or SwiftPM's report that a test process died.
    mutating func crashReported(location: TestRun.SourceLocation?, message: String) {
        continuation = .none
        let fromSwiftPM = message.hasPrefix("Process '") || message.hasPrefix("Exited with")
        if crash == nil || !fromSwiftPM {
            crash = CrashReport(issue: TestRun.Issue(kind: .crash, message: message, location: location))
        }
        unknown()
    }

    /// Collects the functions on the crashed thread of a backtrace (`Thread 4 "…" crashed:`).
    mutating func noteBacktraceLine(_ line: String) {
        guard crash != nil else { return }
        if line.hasPrefix("Thread ") {
            crash!.inCrashedThread = line.hasSuffix(" crashed:")
            return
        }
        guard crash!.inCrashedThread else { return }
        if line.hasPrefix("Registers:") || line.hasPrefix("Images") {
            crash!.inCrashedThread = false
            return
        }
        // "  1 [ra]  0x0000564981ce0557 PlainSuite.crashes() + 550 in Tests.xctest at /path:68:13"
        guard crash!.crashedThreadFrames.count < 64, let address = LineText.with(line, { $0.find(" 0x") }) else {
            return
        }
        let start = line.utf8.index(line.utf8.startIndex, offsetBy: address + 3)
        var symbol = String(line[start...].drop { $0.isHexDigit }.drop { $0 == " " })
        if let end = LineText.with(symbol, { $0.find(" + ") ?? $0.find(" in ") }) {
            symbol = LineText.with(symbol) { $0.prefix(end).string }
        }
        crash!.crashedThreadFrames.append(symbol)
    }

    /// Why a test did not finish. With a crash message, the test whose function is on the
    /// crashed thread is the one that crashed; the others were only running beside it.
    func crashIssue(running: [String], this name: String? = nil) -> TestRun.Issue {
        guard let crash else {
            return TestRun.Issue(
                kind: .crash,
                message:
                    "The test did not finish: the output ends while it runs (the test process crashed or was killed).")
        }
        let hint = crash.issue
        if running.count == 1 {
            return TestRun.Issue(
                kind: .crash, message: "The test process crashed while this test was running: \(hint.message)",
                location: hint.location)
        }
        let culprit = running.first { test in
            crash.crashedThreadFrames.contains { $0 == test || $0.hasSuffix("." + test) || $0.hasSuffix(" " + test) }
        }
        if let culprit, let name {
            if culprit == name {
                return TestRun.Issue(
                    kind: .crash, message: "The test crashed: \(hint.message)", location: hint.location)
            }
            return TestRun.Issue(
                kind: .crash,
                message: "The test did not finish: the test process crashed in \(culprit) while this test was running.")
        }
        let place = hint.location.map { " (at \($0))" } ?? ""
        return TestRun.Issue(
            kind: .crash,
            message:
                "The test process crashed while this and \(running.count - 1) other tests were running: \(hint.message)\(place)"
        )
    }

}

/// The Swift Testing tests running now (indices into the parser's tests), in the order they
/// started, and found by the number of their name: Swift Testing runs a package's tests at once,
/// so thousands can be running, and each line about one names it.
struct InFlightTests: Sequence {
    /// The tests in the order they started, which is the order of their indices; one that ended
    /// is left as its complement (negative) until there are many such.
    private var order: [Int] = []
    /// The running tests of each name, the first to start first.
    private var byName: [[Int]] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    /// The first to start of the running tests.
    var first: Int? { order.first { $0 >= 0 } }
    func makeIterator() -> LazyFilterSequence<[Int]>.Iterator { order.lazy.filter { $0 >= 0 }.makeIterator() }

    /// Adds `test`, which comes after every test added before.
    mutating func append(_ test: Int, name: Int) {
        order.append(test)
        count += 1
        while byName.count <= name { byName.append([]) }
        byName[name].append(test)
    }

    mutating func remove(_ test: Int, name: Int) {
        // Most often the test that started last (a log's tests one after the other): taken off
        // the end, with the ended tests before it.
        if order.last == test {
            order.removeLast()
            count -= 1
            while let last = order.last, last < 0 { order.removeLast() }
            removeFromName(test, name: name)
            return
        }
        // Found by bisection: the tests are in the order of their indices.
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            let value = order[middle] >= 0 ? order[middle] : ~order[middle]
            if value < test { low = middle + 1 } else { high = middle }
        }
        if low < order.count, order[low] == test {
            order[low] = ~test
            count -= 1
            if order.count > 2 * count + 32 { order.removeAll { $0 < 0 } }
        }
        removeFromName(test, name: name)
    }

    /// Takes `test` off the running tests named `name` (where it is once at most).
    private mutating func removeFromName(_ test: Int, name: Int) {
        guard name < byName.count else { return }
        if byName[name].last == test {
            byName[name].removeLast()
        } else if let position = byName[name].firstIndex(of: test) {
            byName[name].remove(at: position)
        }
    }

    /// The first to start of the running tests named `name`.
    func first(named name: Int) -> Int? { name < byName.count ? byName[name].first : nil }

    /// Forgets every test. The lists by name, empty when no test is running, are kept with their
    /// room for the next run (a run of the same tests again, most often), which so adds its tests
    /// without allocating.
    mutating func removeAll() {
        guard count == 0 else {
            self = InFlightTests()  // tests cut off: their names' lists are not empty
            return
        }
        order.removeAll(keepingCapacity: true)
    }
}
