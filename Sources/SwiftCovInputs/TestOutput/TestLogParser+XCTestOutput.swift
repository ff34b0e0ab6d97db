import SwiftCovModel

/// XCTest's part of the console: suites and test cases, one at a time per process.
extension TestLogParser {
    static func isRoot(_ name: String) -> Bool {
        name == "All tests" || name == "Selected tests" || LineText.with(name) { $0.hasSuffix(".xctest") }
    }

    /// Handles a line while a test case is open; false when the line is for the general
    /// handling (a new test process started: the open test did not finish).
    mutating func consumeInOpenCase(_ text: LineText) -> Bool {
        guard case .some = openCase else { return false }
        // `Test Case 'NAME' passed (…)`: the end of this test, and only of this one. (The name is
        // taken only for lines that may hold it: most lines are the test's output.)
        if let rest = text.after("Test Case '"),
            let tail = openCaseName.withUnsafeBytes({ rest.after(LineText($0)) })?.after("' "),
            let (status, seconds) = TestLogLine.parseCaseEnd(tail)
        {
            testCaseFinished(status: status, seconds: seconds)
            return true
        }
        // The rest name the test after a `path:line:` place.
        if text.contains(UInt8(ascii: ":")), consumeIssueOrSkip(text) { return true }
        let parsed = TestLogLine.parse(plain: text)
        if let parsed, startsAProcess(parsed) {
            closeOpenCaseAsCrash()
            return false
        }
        if case .testCaseFinished(let name, let status, let seconds)? = parsed, openCase?.followsUnsettledEnd == true,
            let last = lastClosedName, name.printed == last.printed
        {
            // The test that "started" was a line the last test printed after a line like its own
            // end; this is XCTest's end of that last test.
            openCase = nil
            lateFinish(name, status: status, seconds: seconds)
            return true
        }
        if case .crash(let location, let message)? = parsed {
            crashReported(location: location, message: message)
            return true
        }
        unknown()
        return true
    }

    /// `path:line: error: NAME : message` or `path:line: NAME : Test skipped - reason` (`: reason`
    /// for XCTSkipIf and XCTSkipUnless) about the open test: false for any other line.
    private mutating func consumeIssueOrSkip(_ text: LineText) -> Bool {
        if let marker = text.find(": error: "),
            let message = openCaseName.withUnsafeBytes({ text.suffix(from: marker + 9).after(LineText($0)) })?
                .after(" : "),
            let location = TestLogLine.parseLocation(text.prefix(marker))
        {
            testCaseIssue(location: location, message: message.string)
            return true
        }
        let nameLength = openCaseName.count
        guard let marker = text.find(" : Test skipped"),
            openCaseName.withUnsafeBytes({ text.prefix(marker).hasSuffix(LineText($0)) }),
            text.prefix(marker).dropLast(nameLength).hasSuffix(": "),
            let location = TestLogLine.parseLocation(text.prefix(marker - nameLength - 2))
        else { return false }
        var reason = text.suffix(from: marker + 15)
        if let rest = reason.after(" - ") {
            reason = rest
        } else if let rest = reason.after(": ") {
            reason = rest
        }
        continuation = .none
        openCase?.value.skipReason = reason.isEmpty ? nil : reason.string
        openCase?.value.location = location.value
        return true
    }

    /// Whether `line` starts a new test process (or is SwiftPM's report that one ended): an
    /// XCTest root suite or a Swift Testing run starting when nothing runs, or after the run
    /// before ended or crashed. The same line while a test runs, with no crash, is its output.
    func startsAProcess(_ line: TestLogLine) -> Bool {
        let idle = openCase == nil && !inSwiftTesting && currentSuite == nil
        let ended = crash != nil || (inSwiftTesting && pendingRunEnd != nil)
        switch line {
        case .suiteStarted(let name, _):
            return Self.isTopRoot(name) && (idle && suiteStack.isEmpty || ended)
        case .swiftTesting(.runStarted):
            return idle || ended
        case .crash(_, let message):
            return message.hasPrefix("Process '") || message.hasPrefix("Exited with")
        default:
            return false
        }
    }

    mutating func suiteStarted(_ name: String, timestamp: LineText?) {
        run.hasTestOutput = true
        continuation = .none
        let timestamp = timestamp.flatMap { Self.isoTimestamp($0, sharing: lastTimestamp) }
        if Self.isRoot(name) {
            if Self.isTopRoot(name) {
                guard startsAProcess(.suiteStarted(name: name, timestamp: nil)) else {
                    unknown()  // printed while a test or run was going on
                    return
                }
                startProcess()
            } else if inSwiftTesting {
                unknown()
                return
            }
            lastTimestamp = timestamp ?? lastTimestamp
            suiteStack.append(name)
            return
        }
        guard currentSuite == nil, !inSwiftTesting else {
            unknown()  // classes do not nest, nor run inside Swift Testing: printed
            return
        }
        lastTimestamp = timestamp ?? lastTimestamp
        suiteStack.append(name)
        var suite = TestRun.Suite(name: name, framework: .xctest, timestamp: timestamp ?? lastTimestamp)
        // Room for as many cases as the class before had: classes of a run are often alike, so
        // most suites allocate their cases once.
        suite.cases.reserveCapacity(lastSuiteCaseCount)
        xctestSuites.append(consume suite)
        xctestSuiteOutput.append(PrintedOutput())
        currentSuite = xctestSuites.count - 1
    }

    private static func isTopRoot(_ name: String) -> Bool {
        name == "All tests" || name == "Selected tests"
    }

    /// A new test process starts: whatever ran in the one before did not finish.
    mutating func startProcess() {
        if !suiteStack.isEmpty { run.isComplete = false }
        closeOpenCaseAsCrash()
        chargeCrashToUnsettledCase()
        if inSwiftTesting { endSwiftTestingRun() }
        suiteStack = []
        currentSuite = nil
        crash = nil
    }

    /// The process crashed after the last test's end line and before XCTest went on: that line
    /// was the test's own output, and the test crashed.
    mutating func chargeCrashToUnsettledCase() {
        guard !lastClosedCaseIsSettled, crash != nil, let last = lastClosedCase, currentSuite == last.suite else {
            return
        }
        xctestSuites[last.suite].cases[last.index].status = .error
        xctestSuites[last.suite].cases[last.index].issues.append(crashIssue(running: [lastClosedName!.printed]))
        lastClosedCaseIsSettled = true
        run.isComplete = false
    }

    mutating func suiteFinished(_ name: String, timestamp: LineText?) {
        guard let top = suiteStack.last, top == name else {
            unknown()  // not the suite that is open: printed
            return
        }
        continuation = .none
        lastTimestamp = timestamp.flatMap { Self.isoTimestamp($0, sharing: lastTimestamp) } ?? lastTimestamp
        suiteStack.removeLast()
        lastClosedCaseIsSettled = true
        if Self.isRoot(name) {
            awaitingSummary = suiteStack.isEmpty ? .root : .none
        } else {
            awaitingSummary = currentSuite.map { .suite($0) } ?? .none
            if let suite = currentSuite {
                // Not much more room than cases: a run of many small classes stays small. (A few
                // left over, as a class like the one before leaves, are not worth copying every
                // case for.)
                lastSuiteCaseCount = xctestSuites[suite].cases.count
                if xctestSuites[suite].cases.capacity > lastSuiteCaseCount + max(4, lastSuiteCaseCount / 8) {
                    // Moved, not copied, into an array of their number: reversed in place, then
                    // taken from the end (a copy counts every string up, and the old array's end
                    // counts them down again).
                    var cases = xctestSuites[suite].cases
                    xctestSuites[suite].cases = []
                    cases.withUnsafeMutableBufferPointer { $0.reverse() }
                    xctestSuites[suite].cases.reserveCapacity(cases.count)
                    while !cases.isEmpty { xctestSuites[suite].cases.append(cases.removeLast()) }
                }
            }
            currentSuite = nil
        }
    }

    mutating func executed(tests: Int, skipped: Int, failures: Int, unexpected: Int, seconds: Double) {
        continuation = .none
        switch awaitingSummary {
        case .suite(let index):
            xctestSuites[index].reportedDuration = (xctestSuites[index].reportedDuration ?? 0) + seconds
        case .root:
            run.summaries.append(
                .xctest(tests: tests, skipped: skipped, failures: failures, unexpected: unexpected, seconds: seconds))
        case .none:
            unknown()
        }
        awaitingSummary = .none
    }

    /// A test case starts, named `name`, printed as `printed` (nil: as `name` prints it).
    mutating func testCaseStarted(_ name: consuming TestLogLine.XCTestName, printed: LineText?) {
        guard !inSwiftTesting else {
            unknown()  // XCTest does not run inside Swift Testing's run: printed
            return
        }
        let followsUnsettledEnd = !lastClosedCaseIsSettled
        run.hasTestOutput = true
        continuation = .none
        awaitingSummary = .none
        crash = nil
        lastClosedCaseIsSettled = true
        // On Linux the printed name is `Class.method`: the line was read with the open suite's
        // name, which tells where the class ends.
        let suite: Int
        if let current = currentSuite {
            suite = current
        } else {
            // A test without a suite line (a cut log): its class is its suite.
            xctestSuites.append(TestRun.Suite(name: name.className, framework: .xctest, timestamp: lastTimestamp))
            xctestSuiteOutput.append(PrintedOutput())
            suite = xctestSuites.count - 1
        }
        if let module = name.module {
            modulesByClass[name.className, default: [:]][name.method] = module
            parallelTests.modulesWrittenByCases += 1
        }
        if let printed {
            printed.bytes.withMemoryRebound(to: UInt8.self) {
                openCaseName.replaceSubrange(openCaseName.indices, with: $0)
            }
        } else {
            openCaseName = Array(name.printed.utf8)
        }
        // The name's class and method held once, by the case (each string held again is counted
        // up and down).
        openCase = OpenCase(
            suite: suite, module: name.module, form: name.form,
            value: TestRun.Case(className: name.className, testName: name.method, status: .passed),
            followsUnsettledEnd: followsUnsettledEnd)
    }

    private mutating func testCaseIssue(location: TestLogLine.LocationMatch, message: String) {
        let issue = Self.xctestIssue(location: location.value, message: message)
        openCase?.value.issues.append(issue)
        continuation = .xctestIssue
    }

    /// XCTest counts thrown errors as "unexpected" failures.
    private static func xctestIssue(location: TestRun.SourceLocation?, message: String) -> TestRun.Issue {
        let caught = LineText.with(message) { $0.hasPrefix("threw error") || $0.find("caught error") != nil }
        let kind: TestRun.Issue.Kind = caught ? .error : .failure
        return TestRun.Issue(kind: kind, message: message, location: location)
    }

    /// A failure line for the test that just ended (its tear-down failed): it still fails it.
    mutating func lateIssue(_ name: TestLogLine.XCTestName, location: TestRun.SourceLocation?, message: String) {
        guard let last = lastClosedCase, lastClosedName?.printed == name.printed, awaitingSummary.isNone else {
            unknown()
            return
        }
        let issue = Self.xctestIssue(location: location, message: message)
        xctestSuites[last.suite].cases[last.index].issues.append(issue)
        xctestSuites[last.suite].cases[last.index].status = max(
            xctestSuites[last.suite].cases[last.index].status, issue.kind == .error ? .error : .failed)
        continuation = .xctestIssue
    }

    private mutating func testCaseFinished(status: TestRun.Status, seconds: Double) {
        // Taken out, and changed in place: each read of `openCase!` copies the whole case.
        guard var open = openCase.take() else { return }
        continuation = .none
        if !open.output.isEmpty { open.value.output = open.output.text }
        Self.settle(&open.value, status: status, seconds: seconds)
        lastClosedCase = ClosedCase(
            suite: open.suite, index: xctestSuites[open.suite].cases.count, module: open.module, form: open.form)
        // Moved into the suite, not copied: swapped for an empty case (no strings to count).
        var value = TestRun.Case(className: "", testName: "", status: .passed)
        swap(&value, &open.value)
        xctestSuites[open.suite].cases.append(value)
        lastClosedCaseIsSettled = false
    }

    /// The test's end as its last line states it.
    private static func settle(_ testCase: inout TestRun.Case, status: TestRun.Status, seconds: Double) {
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
    }

    /// The end of the test that just ended, again, before anything else happened: the first
    /// one was printed by the test itself, and this one is XCTest's.
    mutating func lateFinish(_ name: TestLogLine.XCTestName, status: TestRun.Status, seconds: Double) {
        guard let last = lastClosedCase, lastClosedName?.printed == name.printed, last.suite == currentSuite,
            awaitingSummary.isNone
        else {
            unknown()  // about no open test: printed
            return
        }
        continuation = .none
        var testCase = xctestSuites[last.suite].cases[last.index]
        testCase.issues.removeAll { $0.message == "The test failed; the log shows no failure message." }
        Self.settle(&testCase, status: status, seconds: seconds)
        xctestSuites[last.suite].cases[last.index] = testCase
    }

    /// The test that was running did not finish: the process crashed, or the log ends.
    mutating func closeOpenCaseAsCrash() {
        guard var open = openCase.take() else { return }
        open.value.status = .error
        if !open.output.isEmpty { open.value.output = open.output.text }
        open.value.issues.append(crashIssue(running: [open.value.testName]))
        xctestSuites[open.suite].cases.append(open.value)
        lastClosedCase = ClosedCase(
            suite: open.suite, index: xctestSuites[open.suite].cases.count - 1, module: open.module, form: open.form)
        run.isComplete = false
    }

    mutating func parallelProgress(_ line: TestLogLine.ProgressLine) {
        run.hasTestOutput = true
        continuation = .none
        let (test, writesModule) = parallelTests.note(line)
        if writesModule, let module = parallelTests.names[test].module {
            modulesByClass[parallelTests.names[test].className, default: [:]][parallelTests.names[test].method] = module
        }
        parallelProgress = (max(parallelProgress.done, line.index), max(parallelProgress.total, line.total))
    }

    /// The XCTest suites: modules added where the log names them, and under `--parallel` (which
    /// prints only failed tests) the tests its progress lines name added as passed.
    mutating func finishXCTestSuites() -> [TestRun.Suite] {
        var suites = xctestSuites
        xctestSuites = []  // the run owns them now: changes below copy nothing
        for index in suites.indices where !xctestSuiteOutput[index].isEmpty {
            suites[index].output = xctestSuiteOutput[index].text
        }
        guard parallelTests.names.isEmpty else { return mergeParallelSuites(consume suites) }
        guard !modulesByClass.isEmpty else { return suites }
        for index in suites.indices {
            // The macOS form names the module; all of a class's tests are in the same one.
            var modules = ModuleLookup(modulesByClass)
            let found = Set(suites[index].cases.compactMap { modules.module(of: $0.className, $0.testName) })
            if found.count == 1, let module = found.first {
                suites[index].rename("\(module).\(suites[index].name)")
            }
        }
        return suites
    }

    /// `--parallel`: one suite per class (each failed test printed its own), named with the module
    /// the progress lines give; then the tests the progress lines name that printed nothing (they
    /// passed), each class's tests in order of name, the classes in order of name.
    private func mergeParallelSuites(_ suites: consuming [TestRun.Suite]) -> [TestRun.Suite] {
        var merged: [TestRun.Suite] = []
        var indexByName: [SuiteKey: Int] = [:]
        var modules = ModuleLookup(modulesByClass)
        // The cases of one class follow each other: the suite of the case before is looked up once.
        var last: (key: SuiteKey, index: Int)?
        for suiteIndex in suites.indices {
            // Taken out of the suite and reversed, so that each case moves out from the end rather
            // than being copied (a copy counts its strings up and down).
            var cases = suites[suiteIndex].cases
            suites[suiteIndex].cases = []
            cases.withUnsafeMutableBufferPointer { $0.reverse() }
            while !cases.isEmpty {
                let className = cases[cases.count - 1].className
                let key = SuiteKey(
                    module: modules.module(of: className, cases[cases.count - 1].testName), className: className)
                let index: Int
                if let last, last.key == key {
                    index = last.index
                } else if let known = indexByName[key] {
                    index = known
                } else {
                    var fresh = TestRun.Suite(
                        name: key.module.map { "\($0).\(key.className)" } ?? key.className, framework: .xctest,
                        timestamp: suites[suiteIndex].timestamp)
                    fresh.output = suites[suiteIndex].output
                    merged.append(fresh)
                    index = merged.count - 1
                    indexByName[key] = index
                }
                last = (key, index)
                // Renamed in place, then moved (a case held in a variable is copied into the suite).
                cases[cases.count - 1].className = merged[index].name
                merged[index].cases.append(cases.removeLast())
            }
        }
        // The tests of a suite that printed their end: the names of its cases so far, made only for
        // the suites the progress lines name.
        let printed = merged.map(\.cases.count)
        var printedNames: [Int: Set<String>] = [:]
        for name in parallelTests.names {
            let key = SuiteKey(module: name.module, className: name.className)
            if let index = indexByName[key], index < printed.count {
                let names = printedNames[index] ?? Self.names(of: merged[index].cases[..<printed[index]])
                printedNames[index] = names
                if names.contains(name.method) { continue }
            }
            let index: Int
            if let known = indexByName[key] {
                index = known
            } else {
                merged.append(
                    TestRun.Suite(
                        name: name.module.map { "\($0).\(name.className)" } ?? name.className, framework: .xctest,
                        timestamp: lastTimestamp))
                index = merged.count - 1
                indexByName[key] = index
            }
            merged[index].cases.append(
                TestRun.Case(className: merged[index].name, testName: name.method, status: .passed))
        }
        for index in merged.indices { Self.sortByName(&merged[index].cases) }
        merged.sort { $0.name < $1.name }
        return merged
    }

    /// The test names of `cases`.
    static func names(of cases: ArraySlice<TestRun.Case>) -> Set<String> {
        Set(NameGroups(cases).names.names)
    }

    /// Orders `cases` by their test names, the cases of one name in the order they came: as a
    /// stable sort by name orders them, but names compared once per pair of distinct names (a
    /// class of a long `--parallel` log has thousands of cases and a few dozen names), and the
    /// cases swapped into place rather than copied.
    static func sortByName(_ cases: inout [TestRun.Case]) {
        let groups = NameGroups(cases[...])
        let names = groups.names.names
        let order = names.indices.sorted { names[$0] < names[$1] }
        // Where each group's cases go: after the cases of the names before it.
        var next = [Int](repeating: 0, count: order.count)
        var placesTaken = 0
        for group in order {
            next[group] = placesTaken
            placesTaken += groups.count[group]
        }
        // The case that goes to each place: where it is now.
        var source = [Int](repeating: 0, count: cases.count)
        for position in groups.group.indices {
            let group = groups.group[position]
            source[next[group]] = position
            next[group] += 1
        }
        cases.withUnsafeMutableBufferPointer { cases in
            // Each cycle of the permutation in turn: the place that is filled next takes the case
            // the last swap moved away, until the cycle comes back to where it began.
            var placed = [Bool](repeating: false, count: cases.count)
            for start in cases.indices where !placed[start] {
                var place = start
                placed[place] = true
                while source[place] != start {
                    cases.swapAt(place, source[place])
                    place = source[place]
                    placed[place] = true
                }
            }
        }
    }

    /// The cases of a slice told apart by test name: one group per name, numbered in the order
    /// the names first come (`RunOrderNames`).
    private struct NameGroups {
        /// The names, by group.
        var names = RunOrderNames()
        /// Per case (from the slice's start): its group.
        var group: [Int] = []
        /// Per group: how many cases it has.
        var count: [Int] = []

        init(_ cases: ArraySlice<TestRun.Case>) {
            group.reserveCapacity(cases.count)
            for position in cases.indices {
                let (number, isNew) = names.number(of: cases[position].testName)
                if isNew { count.append(0) }
                group.append(number)
                count[number] += 1
            }
        }
    }

    /// Names numbered in the order they first come. The runs of a class repeat its tests in the
    /// same order: the name after the one numbered last is tried first (one comparison, most often
    /// of one string's storage with itself), then the table (a hash of the name).
    private struct RunOrderNames {
        /// The names, by number.
        private(set) var names: [String] = []
        private var numbers: [String: Int] = [:]
        private var last = -1

        /// The number of `name`, and whether it is new (numbered now, one more than the names before).
        mutating func number(of name: String) -> (number: Int, isNew: Bool) {
            let next = last + 1 < names.count ? last + 1 : 0
            if next < names.count, names[next] == name {
                last = next
                return (next, false)
            }
            if let known = numbers[name] {
                last = known
                return (known, false)
            }
            last = names.count
            numbers[name] = last
            names.append(name)
            return (last, true)
        }
    }

    /// A class of a module (nil: the log names none), the suite its tests merge into.
    private struct SuiteKey: Hashable {
        var module: String?
        var className: String
    }

    /// The module of a test by its class and method (`modulesByClass`): each class's methods are
    /// numbered in the order the runs repeat them (`RunOrderNames`), and a method new to the
    /// lookup is found in the class's table.
    private struct ModuleLookup {
        let modulesByClass: [String: [String: String]]
        /// Per class looked up: its table, and its methods in the order first looked up.
        private var classes: [ClassMethods] = []
        private var classNumbers: [String: Int] = [:]
        private var current = -1

        private struct ClassMethods {
            let name: String
            let table: [String: String]?
            /// The methods looked up so far, and each one's module, by number.
            var methods = RunOrderNames()
            var modules: [String?] = []

            mutating func module(of method: String) -> String? {
                guard let table else { return nil }
                let (number, isNew) = methods.number(of: method)
                if isNew { modules.append(table[method]) }
                return modules[number]
            }
        }

        init(_ modulesByClass: [String: [String: String]]) { self.modulesByClass = modulesByClass }

        mutating func module(of className: String, _ method: String) -> String? {
            if current < 0 || classes[current].name != className {
                if let known = classNumbers[className] {
                    current = known
                } else {
                    classes.append(ClassMethods(name: className, table: modulesByClass[className]))
                    current = classes.count - 1
                    classNumbers[className] = current
                }
            }
            return classes[current].module(of: method)
        }
    }

    /// "2026-11-22 14:03:53.085" → "2026-11-22T14:03:53"; nil for anything else. When that is
    /// `last`, `last` itself: suites started in the same second share one string.
    static func isoTimestamp(_ text: LineText, sharing last: String? = nil) -> String? {
        guard text.count >= 19, text[4] == 0x2D, text[7] == 0x2D, text[10] == 0x20, text[13] == 0x3A,
            text[16] == 0x3A, (0..<19).allSatisfy({ text[$0] >= 0x20 && text[$0] < 0x7F })
        else { return nil }
        func byte(_ index: Int) -> UInt8 { index == 10 ? UInt8(ascii: "T") : text[index] }
        if let last, last.utf8.count == 19,
            LineText.with(last, { stored in (0..<19).allSatisfy { stored[$0] == byte($0) } })
        {
            return last
        }
        return String(unsafeUninitializedCapacity: 19) { result in
            for index in 0..<19 { result[index] = byte(index) }
            return 19
        }
    }
}

extension TestLogParser.AwaitingSummary {
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}

/// `--parallel`: the tests its progress lines name, each once, in the order first named. Each
/// line names a test by its bytes, looked up as they are: no strings are made for a test named
/// again (every test is, in a log of many runs).
struct ParallelTests {
    /// The tests, numbered as their names as printed (`Module.Class/method`) in `printed`.
    private(set) var names: [TestLogLine.XCTestName] = []
    private var printed = NameTable()
    /// `Class/method`, the key the parser writes a test's module under (`modulesByClass`).
    private var keys = NameTable()
    /// Per test: the number of its key, and `modulesWrittenByCases` when it last wrote its module.
    private var keyOf: [Int] = []
    private var casesWhenWritten: [Int] = []
    /// Per key: the test that last wrote its module.
    private var writer: [Int] = []
    /// How many times a test case's line wrote a module (`-[Module.Class method]`), under any key.
    var modulesWrittenByCases = 0

    /// The number of the test `line` names in `names`, and whether its module must be written: not
    /// when it was the last written under its key (a test named again, most often).
    mutating func note(_ line: TestLogLine.ProgressLine) -> (test: Int, writesModule: Bool) {
        let test = printed.intern(line.qualified)
        if test == names.count {
            names.append(line.name)
            let key = keys.intern(line.classAndMethod)
            if key == writer.count { writer.append(test) }
            writer[key] = test
            keyOf.append(key)
            casesWhenWritten.append(modulesWrittenByCases)
            return (test, true)
        }
        let key = keyOf[test]
        if writer[key] == test, casesWhenWritten[test] == modulesWrittenByCases { return (test, false) }
        writer[key] = test
        casesWhenWritten[test] = modulesWrittenByCases
        return (test, true)
    }
}
