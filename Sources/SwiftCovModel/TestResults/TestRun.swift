import SwiftCovPlatform

/// The results of one `swift test` run (or several, read together): XCTest classes and Swift
/// Testing suites with their test cases, as read from the console output and, for Swift Testing,
/// the event stream. Every report of test results is a function of this value.
package struct TestRun: Sendable, Equatable {
    /// The class of Swift Testing tests when only the console is read: the console does not say
    /// which suite or module a test belongs to (the event stream does).
    package static let swiftTestingSuiteName = "Swift Testing"

    /// Which testing library ran a test.
    package enum Framework: String, Sendable, Equatable {
        case xctest = "XCTest"
        case swiftTesting = "Swift Testing"
    }

    /// How a test case ended.
    package enum Status: String, Sendable, Equatable, Comparable {
        case passed
        case skipped
        /// An assertion or expectation failed.
        case failed
        /// The test threw an unexpected error, crashed, or was still running when the log ended.
        case error

        private var rank: Int {
            switch self {
            case .passed: 0
            case .skipped: 1
            case .failed: 2
            case .error: 3
            }
        }

        /// Ordered by severity: passed, skipped, failed, error.
        package static func < (lhs: Status, rhs: Status) -> Bool { lhs.rank < rhs.rank }
    }

    /// A place in a source file; `file` is as the log gives it (a full path, or a base name
    /// until resolved).
    package struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
        /// The path, or the file name alone.
        package var file: String
        /// The line, from 1.
        package var line: Int
        /// The column, when the log gives it (Swift Testing does).
        package var column: Int?

        /// A location from its parts.
        package init(file: String, line: Int, column: Int? = nil) {
            self.file = file
            self.line = line
            self.column = column
        }

        /// `file:line` (and `:column` when known), as compilers and test libraries print it.
        package var description: String { "\(file):\(line)" + (column.map { ":\($0)" } ?? "") }
    }

    /// Something recorded while a test ran.
    package struct Issue: Sendable, Equatable {
        /// What kind of issue it is; only failures and errors make a test fail.
        package enum Kind: String, Sendable, Equatable {
            /// An assertion or expectation failed.
            case failure
            /// An unexpected error was thrown (XCTest counts these as "unexpected").
            case error
            /// The test process crashed or the log ended while the test ran.
            case crash
            /// A Swift Testing known issue (`withKnownIssue`): recorded, not failing.
            case knownIssue
            /// A Swift Testing warning: recorded, not failing.
            case warning
        }

        /// What kind of issue it is.
        package var kind: Kind
        /// The full message; may span several lines.
        package var message: String
        /// Where it was recorded, when the log says.
        package var location: SourceLocation?

        /// An issue from its parts.
        package init(kind: Kind, message: String, location: SourceLocation? = nil) {
            self.kind = kind
            self.message = message
            self.location = location
        }

        /// Whether this issue makes its test fail.
        package var isFailing: Bool { kind == .failure || kind == .error || kind == .crash }
    }

    /// A file a test attached while it ran (a rendered screen, a log): where Swift Testing wrote
    /// it (`swift test --attachments-path`), with the test's name for it.
    package struct Attachment: Sendable, Equatable {
        /// The name the test gave it (`screen-1.txt`); the file's may differ (made unique).
        package var name: String
        /// The file, as the event stream gives it (absolute).
        package var path: String
        /// When it was attached, in seconds since 1970, when known.
        package var time: Double?
        /// Where in the test it was attached, when known.
        package var location: SourceLocation?

        /// An attachment from its parts.
        package init(name: String, path: String, time: Double? = nil, location: SourceLocation? = nil) {
            self.name = name
            self.path = path
            self.time = time
            self.location = location
        }
    }

    /// One test case: an XCTest method, a Swift Testing test, or one case (argument set) of a
    /// parameterized Swift Testing test.
    package struct Case: Sendable, Equatable {
        /// `Module.Class` or the module plus suite path; as JUnit's `classname`.
        package var className: String
        /// The test's name as the log shows it: the XCTest method, or the Swift Testing display
        /// name or function name (without quotes).
        package var testName: String
        /// Seconds, when the log says.
        package var duration: Double?
        /// How the test case ended. (After `duration`, in the padding of its optional: a case is
        /// 56 bytes.)
        package var status: Status
        /// The rest, which most tests leave empty: kept apart (and shared until changed), and
        /// only while it holds something, so that a run of a million tests holds a few dozen
        /// bytes per test.
        private var details: CopyOnWriteBox<Details>?

        /// The arguments of a parameterized test's case ("x → 2"), nil otherwise.
        package var arguments: String? {
            get { details?.value.arguments }
            _modify {
                yield &uniqueDetails().value.arguments
                dropEmptyDetails()
            }
        }
        /// Everything recorded while it ran: failures, errors, known issues, warnings.
        package var issues: [Issue] {
            get { details?.value.issues ?? [] }
            set {
                // Nothing to keep: no box made (most tests).
                if newValue.isEmpty && details == nil { return }
                uniqueDetails().value.issues = newValue
                dropEmptyDetails()
            }
            _modify {
                yield &uniqueDetails().value.issues
                dropEmptyDetails()
            }
        }
        /// Why the test was skipped, when it says.
        package var skipReason: String? {
            get { details?.value.skipReason }
            set {
                if newValue == nil && details == nil { return }
                uniqueDetails().value.skipReason = newValue
                dropEmptyDetails()
            }
            _modify {
                yield &uniqueDetails().value.skipReason
                dropEmptyDetails()
            }
        }
        /// Where the skip was recorded (XCTest) or the test is declared (Swift Testing event stream).
        package var location: SourceLocation? {
            get { details?.value.location }
            _modify {
                yield &uniqueDetails().value.location
                dropEmptyDetails()
            }
        }
        /// What the test printed: its lines joined by line breaks (within the parser's limits).
        package var output: String {
            get { details?.value.output ?? "" }
            set {
                if newValue.isEmpty && details == nil { return }
                uniqueDetails().value.output = newValue
                dropEmptyDetails()
            }
            _modify {
                yield &uniqueDetails().value.output
                dropEmptyDetails()
            }
        }
        /// The test function's name (`add(_:)`) when `testName` is a Swift Testing display name,
        /// so that the case can be matched to the test ID `swift test list` prints.
        package var function: String? {
            get { details?.value.function }
            _modify {
                yield &uniqueDetails().value.function
                dropEmptyDetails()
            }
        }
        /// The files it attached (Swift Testing's `Attachment.record`), in the order attached,
        /// every attempt's.
        package var attachments: [Attachment] {
            get { details?.value.attachments ?? [] }
            set {
                if newValue.isEmpty && details == nil { return }
                uniqueDetails().value.attachments = newValue
                dropEmptyDetails()
            }
            _modify {
                yield &uniqueDetails().value.attachments
                dropEmptyDetails()
            }
        }
        /// The attempts before the last (retries, repetitions), oldest first; the case's own
        /// status, issues and duration are the last attempt's.
        package var attempts: [Attempt] {
            get { details?.value.attempts ?? [] }
            _modify {
                yield &uniqueDetails().value.attempts
                dropEmptyDetails()
            }
        }

        /// One earlier run of a test case that was run again (Xcode's retries and repetitions).
        package struct Attempt: Sendable, Equatable {
            /// How the attempt ended.
            package var status: Status
            /// What it recorded.
            package var issues: [Issue]
            /// Seconds, when known.
            package var duration: Double?

            /// An attempt from its parts.
            package init(status: Status, issues: [Issue] = [], duration: Double? = nil) {
                self.status = status
                self.issues = issues
                self.duration = duration
            }
        }

        /// Whether the case says nothing beyond its names, status and duration: no arguments,
        /// issues, skip reason, location, output or earlier attempts (most tests).
        package var isBare: Bool { details == nil }

        /// `isBare` of the case at `testCase`, told in place: a target above this one that asks
        /// the case itself copies it (every string retained and released), a million times for
        /// a million cases written.
        package static func isBare(_ testCase: UnsafePointer<Case>) -> Bool { testCase.pointee.details == nil }

        /// Whether the case at `testCase` says nothing a report shows beyond its names (its
        /// arguments too), status and duration: no issues, skip reason, location, output,
        /// attachments or earlier attempts (most cases of a parameterized test). Told in place.
        package static func showsOnlyItsName(_ testCase: UnsafePointer<Case>) -> Bool {
            guard let details = testCase.pointee.details else { return true }
            return details.value.showsOnlyItsName
        }

        /// Passed in the end after an attempt that failed: flaky. (A case whose last attempt
        /// failed is failed, whatever came before.)
        package var isFlaky: Bool {
            status == .passed && details != nil && attempts.contains { $0.status == .failed || $0.status == .error }
        }

        /// Records the case as it stands as an earlier attempt, and takes `next`'s outcome as its own.
        package mutating func rerun(as next: Case) {
            var earlier = attempts
            earlier.append(Attempt(status: status, issues: issues, duration: duration))
            earlier += next.attempts
            status = next.status
            duration = next.duration
            issues = next.issues
            skipReason = next.skipReason
            output.appendLines(next.output)
            attachments += next.attachments
            attempts = earlier
        }

        private struct Details: Sendable, Equatable {
            var arguments: String?
            var issues: [Issue] = []
            var skipReason: String?
            var location: SourceLocation?
            var output = ""
            var attempts: [Attempt] = []
            var function: String?
            var attachments: [Attachment] = []

            var isEmpty: Bool { arguments == nil && function == nil && showsOnlyItsName }

            var showsOnlyItsName: Bool {
                issues.isEmpty && skipReason == nil && location == nil && output.isEmpty && attempts.isEmpty
                    && attachments.isEmpty
            }
        }

        private mutating func dropEmptyDetails() {
            if details?.value.isEmpty == true { details = nil }
        }

        private mutating func uniqueDetails() -> CopyOnWriteBox<Details> {
            CopyOnWriteBox.unique(&details) { Details() }
        }

        /// Equal when everything the case says is equal (an empty box is no box).
        package static func == (lhs: Case, rhs: Case) -> Bool {
            lhs.className == rhs.className && lhs.testName == rhs.testName && lhs.status == rhs.status
                && lhs.duration == rhs.duration
                && (lhs.details?.value ?? Details()) == (rhs.details?.value ?? Details())
        }

        /// A test case with no issues or output yet.
        package init(
            className: String, testName: String, arguments: String? = nil, status: Status, duration: Double? = nil
        ) {
            self.className = className
            self.testName = testName
            self.status = status
            self.duration = duration
            if let arguments { self.arguments = arguments }
        }

        /// The name to show: the test's name, and the case's arguments in parentheses.
        package var name: String { arguments.map { "\(testName) (\($0))" } ?? testName }

        /// The issues that make the test fail.
        package var failingIssues: [Issue] { issues.filter(\.isFailing) }

        /// Where to point a reader: the first failing issue, else the skip or declaration.
        package var primaryLocation: SourceLocation? { failingIssues.lazy.compactMap(\.location).first ?? location }
    }

    /// An XCTest class or a Swift Testing suite (or a module's free-standing Swift Testing tests).
    package struct Suite: Sendable, Equatable {
        /// `Module.Class`, `Module.Suite.Inner`, or the module; as JUnit's `testsuite` name.
        package var name: String
        /// A Swift Testing suite's display name, when it has one.
        package var displayName: String?
        /// Which library ran the suite.
        package var framework: Framework
        /// When the suite started, ISO 8601 without a zone (`2026-11-22T14:03:53`), when known.
        package var timestamp: String?
        /// Seconds, as the log says; nil to add up the cases.
        package var reportedDuration: Double?
        /// The suite's test cases, in the order they are reported.
        package var cases: [Case] = []
        /// Lines printed inside the suite but outside any test (class set-up, for example), joined
        /// by line breaks.
        package var output = ""

        /// An empty suite.
        package init(name: String, displayName: String? = nil, framework: Framework, timestamp: String? = nil) {
            self.name = name
            self.displayName = displayName
            self.framework = framework
            self.timestamp = timestamp
        }

        /// The suite's time: as reported, else the sum of its cases' times.
        package var duration: Double {
            // Each case read in place (a case passed to a closure is copied).
            reportedDuration
                ?? cases.withUnsafeBufferPointer { cases in
                    cases.indices.reduce(0) { $0 + (cases[$1].duration ?? 0) }
                }
        }

        /// `duration` of the suite at `suite`, told in place: a target above this one that asks
        /// the suite itself copies it (every string retained and released).
        package static func duration(of suite: UnsafePointer<Suite>) -> Double { suite.pointee.duration }

        /// Counts of the suite's cases.
        package var totals: Totals { Totals(cases) }
    }

    /// Counts of test cases by status.
    package struct Totals: Sendable, Equatable {
        /// All test cases.
        package var tests = 0
        /// Test cases that passed (known issues and warnings included).
        package var passed = 0
        /// Test cases with a failed assertion or expectation.
        package var failed = 0
        /// Skipped test cases.
        package var skipped = 0
        /// Test cases that threw, crashed or did not finish.
        package var errors = 0
        /// Test cases that passed only when run again (counted in `passed` too).
        package var flaky = 0

        /// Zero counts.
        package init() {}

        /// The counts of `cases`.
        package init(_ cases: [Case]) {
            add(cases)
        }

        /// Adds the counts of `cases` (read in place through their buffer: no case is copied).
        mutating func add(_ cases: [Case]) {
            tests += cases.count
            cases.withUnsafeBufferPointer { cases in
                for index in cases.indices {
                    switch cases[index].status {
                    case .passed:
                        passed += 1
                        // A bare case (most) had no earlier attempts: told without copying it.
                        if !cases[index].isBare && cases[index].isFlaky { flaky += 1 }
                    case .failed: failed += 1
                    case .skipped: skipped += 1
                    case .error: errors += 1
                    }
                }
            }
        }

        /// Adds `other`'s counts.
        package mutating func add(_ other: Totals) {
            tests += other.tests
            passed += other.passed
            failed += other.failed
            skipped += other.skipped
            errors += other.errors
            flaky += other.flaky
        }

        /// Whether any test failed or ended in an error.
        package var hasFailures: Bool { failed > 0 || errors > 0 }
    }

    /// A summary line the log printed itself: XCTest's `Executed …` for a whole run, or Swift
    /// Testing's `Test run with …`. Kept to check what was read against what the run says.
    package enum LogSummary: Sendable, Equatable {
        /// `Executed 15 tests, with 1 test skipped and 3 failures (0 unexpected) in 0.453 (0.453) seconds`
        case xctest(tests: Int, skipped: Int, failures: Int, unexpected: Int, seconds: Double)
        /// `Test run with 26 tests in 5 suites failed after 0.065 seconds with 2 issues.`
        case swiftTesting(tests: Int, suites: Int?, issues: Int, knownIssues: Int, warnings: Int, seconds: Double)
    }

    /// XCTest classes first, then Swift Testing suites.
    package var suites: [Suite] = []
    /// The log's own run summaries, in order.
    package var summaries: [LogSummary] = []
    /// False when the log ended before the run did (a crash, a killed job, a cut log).
    package var isComplete = true
    /// Whether reading stopped early on a signal (Ctrl-C, a CI job's timeout).
    package var wasInterrupted = false
    /// Whether the log had any line of `swift test` output at all.
    package var hasTestOutput = false
    /// Lines outside any suite (build output, SwiftPM's messages), up to a limit.
    package var output: [String] = []
    /// Tests that several inputs report (shards that overlap, a file given twice): each is kept
    /// once, with its worse outcome.
    package var duplicates: [Duplicate] = []
    /// What a reader skipped and says so (an Xcode object of a type it does not know), to be
    /// shown as warnings.
    package var warnings: [Diagnostic] = []

    /// A test reported by more than one input.
    package struct Duplicate: Sendable, Equatable, CustomStringConvertible {
        /// The suite's name and the test's (as `Case.name`).
        package var suite: String
        package var test: String
        /// Its outcomes, in the order the inputs were read.
        package var outcomes: [Status]
        /// The outcome kept: the worst.
        package var kept: Status

        package init(suite: String, test: String, outcomes: [Status], kept: Status) {
            self.suite = suite
            self.test = test
            self.outcomes = outcomes
            self.kept = kept
        }

        package var description: String {
            "\(suite).\(test) is reported more than once (\(outcomes.map(\.rawValue).joined(separator: ", "))); "
                + "kept \(kept.rawValue)"
        }
    }

    /// A run of `suites`.
    package init(suites: [Suite] = []) {
        self.suites = suites
    }

    /// Every test case, suite by suite.
    package var cases: [Case] { suites.flatMap(\.cases) }

    /// The failed and errored cases, in order, without copying the others (a run can hold a
    /// million cases).
    package var failingCases: [Case] {
        var failing: [Case] = []
        for suite in suites {
            for testCase in suite.cases where testCase.status == .failed || testCase.status == .error {
                failing.append(testCase)
            }
        }
        return failing
    }

    /// Counts over the whole run.
    package var totals: Totals {
        var totals = Totals()
        for index in suites.indices { totals.add(suites[index].cases) }
        return totals
    }

    /// The tests that ran for a time their results do not give, left out of `duration`: XCTest's
    /// tests that passed under `swift test --parallel` (it prints no time for them), tests that
    /// crashed or never ended, JUnit cases without a `time`. Skipped tests, and the argument cases
    /// of a parameterized test (its time covers them), are not counted.
    package var untimedTests: Int {
        var count = 0
        for index in suites.indices {  // each case read in place: a run of many is not copied
            suites[index].cases.withUnsafeBufferPointer { cases in
                for position in cases.indices where cases[position].duration == nil {
                    if case .skipped = cases[position].status { continue }
                    if cases[position].arguments == nil { count += 1 }
                }
            }
        }
        return count
    }

    /// The run's time: XCTest's suites one after the other, plus Swift Testing's run as it states
    /// it (its suites run in parallel, so their times overlap), else the sum of its suites' times.
    package var duration: Double {
        var xctest = 0.0
        var swiftTestingSuites = 0.0
        for index in suites.indices {  // by index: a run of many suites is not copied
            if suites[index].framework == .xctest {
                xctest += suites[index].duration
            } else {
                swiftTestingSuites += suites[index].duration
            }
        }
        let stated = summaries.compactMap { summary -> Double? in
            if case .swiftTesting(_, _, _, _, _, let seconds) = summary { return seconds }
            return nil
        }
        return xctest + (stated.isEmpty ? swiftTestingSuites : stated.reduce(0, +))
    }
}

extension TestRun.Suite {
    /// Renames the suite and its cases' class name.
    package mutating func rename(_ newName: String) {
        name = newName
        for index in cases.indices { cases[index].className = newName }
    }
}

extension TestRun.Suite {
    /// Adds `other`'s cases, output and time.
    package mutating func join(_ other: TestRun.Suite) {
        cases += other.cases
        output.appendLines(other.output)
        if let duration = other.reportedDuration { reportedDuration = (reportedDuration ?? 0) + duration }
    }
}

extension String {
    /// Appends `lines` (text of lines joined by line breaks) after a line break.
    package mutating func appendLines(_ lines: String) {
        guard !lines.isEmpty else { return }
        if !isEmpty { self += "\n" }
        self += lines
    }
}
