import SwiftCovModel

/// Reads `swift test` console output into a `TestRun`, line by line as it arrives, so a piped
/// run is parsed while it runs: XCTest (Linux and macOS forms, `--parallel`), then Swift
/// Testing, with build output and the tests' own output mixed in.
///
/// It follows the structure the test libraries print, not the shape of single lines: which
/// XCTest suite and test case are open, the name a `started` line announced, which Swift Testing
/// tests are running. So a line a test prints that looks like a status line (`Test Case '…'
/// failed`, `Test Suite 'X' failed at …`, `✔ Test run with 999 tests passed …`) is that test's
/// output and changes no result. A log cut off in the middle reports the tests that were
/// running as errors. Memory holds per-test state and bounded output, never the log.
package struct TestLogParser {
    /// At most this many lines of output are kept per test, suite, or run.
    package static let outputLineLimit = 2_000
    /// At most this many bytes of output are kept per test or suite.
    package static let outputByteLimit = 256 * 1024
    /// Longer lines are cut to this many bytes.
    package static let lineByteLimit = 16 * 1024

    var run = TestRun()
    private(set) var reader = LogLineReader(lineLimit: TestLogParser.lineByteLimit)

    // XCTest
    var xctestSuites: [TestRun.Suite] = []
    var xctestSuiteOutput: [PrintedOutput] = []
    /// Names of the open suites, outermost first (`All tests`, `debug.xctest`, the class).
    var suiteStack: [String] = []
    /// The open class suite (an index into `xctestSuites`).
    var currentSuite: Int?
    /// How many cases the last class that ended had.
    var lastSuiteCaseCount = 0
    var openCase: OpenCase?
    /// The XCTest case that ended last, where it is kept.
    var lastClosedCase: ClosedCase?
    /// Whether XCTest went on after the last test's end line (the next test, or the suite's
    /// end): until then, that line may have been printed by the test itself.
    var lastClosedCaseIsSettled = true
    var awaitingSummary: AwaitingSummary = .none
    /// `--parallel`: the tests its progress lines name, in order, and their modules.
    var parallelTests = ParallelTests()
    var parallelProgress = (done: 0, total: 0)
    /// The modules the log names (`--parallel` progress, the macOS form), by class, then by
    /// method: a class the log names no module for costs one lookup, not one per test.
    var modulesByClass: [String: [String: String]] = [:]
    var lastTimestamp: String?
    var crash: CrashReport?

    // Swift Testing
    var inSwiftTesting = false
    var swiftTests: [ConsoleTest] = []
    /// Indices into `swiftTests` of the tests running now.
    var inFlight = InFlightTests()
    /// The Swift Testing tests' names as printed, numbered.
    var swiftTestNames = NameTable()
    /// Indices into `swiftTests` by the number of their name in `swiftTestNames`.
    var swiftTestsByName: [[Int]] = []
    /// Strings read before, shared by the tests that repeat them: XCTest names, a parameterized
    /// test's arguments. A cache: emptied when it holds many (a log of names that never repeat).
    var sharedStrings = NameTable()
    var swiftTestingOutput = PrintedOutput()
    var swiftTestingSeconds: Double?
    var swiftTestingTimestamp: String?
    /// The last `Test run with …` line of the run going on: the run's own only when nothing of
    /// the run follows it (a test can print such a line).
    var pendingRunEnd: TestRun.LogSummary?
    /// Where the tests of the Swift Testing run going on start in `swiftTests`.
    var swiftTestingRunStart = 0
    /// While a test prints a run of its own (a `Test run started.` line inside the run): where
    /// the tests announced since then start in `swiftTests`.
    var printedRunStart: Int?
    /// Tests that started and ended inside such a printed run: a test's output, when the run's
    /// own summary counts them out.
    var printedRunTests: [Int] = []

    var continuation: Continuation = .none
    /// While a piece of the log is read: where its lines are plain text, told at once.
    private var plainLines: Range<UnsafeRawPointer>?
    /// The line being read, as it came (with its ANSI codes); empty between lines.
    var rawLine = LineText(UnsafeRawBufferPointer(start: nil, count: 0))

    enum AwaitingSummary {
        case none, suite(Int), root
    }

    /// Where a line that is not a known shape belongs when it directly follows an issue.
    enum Continuation {
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

    /// Where an XCTest case that ended is, `xctestSuites[suite].cases[index]`, and how its name
    /// was printed (its class and method are the case's). Without the name's strings, replacing
    /// it on every test costs no reference counting.
    struct ClosedCase {
        var suite: Int
        var index: Int
        var module: String?
        var form: TestLogLine.XCTestName.Form
    }

    /// The name of the case that ended last, as it was printed.
    var lastClosedName: TestLogLine.XCTestName? {
        guard let last = lastClosedCase else { return nil }
        return TestLogLine.XCTestName(
            module: last.module, className: xctestSuites[last.suite].cases[last.index].className,
            method: xctestSuites[last.suite].cases[last.index].testName, form: last.form)
    }

    /// The name of the open XCTest case as its `started` line printed it: the bytes the lines
    /// about it (its issues, its end) are matched on. Rewritten in place for each test.
    var openCaseName: [UInt8] = []

    /// The XCTest case running now, with the exact name its `started` line printed: only lines
    /// naming that test (its issues, its end) are about it; anything else is its output.
    struct OpenCase {
        var suite: Int
        /// The rest of its name (the class and method are the case's own): how it was printed.
        var module: String?
        var form: TestLogLine.XCTestName.Form
        var value: TestRun.Case
        var output = PrintedOutput()
        /// Whether it started after the last test's end line, before XCTest went on: it may be
        /// a line that test printed.
        var followsUnsettledEnd = false
    }

    /// What the log says of a crash: the runtime's message (`Fatal error: …`) and where, and the
    /// functions on the crashed thread's backtrace.
    struct CrashReport {
        var issue: TestRun.Issue
        var crashedThreadFrames: [String] = []
        var inCrashedThread = false
    }

    /// A Swift Testing test as the console shows it, named as printed.
    /// A Swift Testing test of the console. What most tests leave empty (skip reason, cases,
    /// issues, output) is kept apart, and only while it holds something: a log of a million tests
    /// holds a few dozen bytes per test until the run is assembled.
    struct ConsoleTest {
        // In this order, 24 bytes.
        var duration: Double?
        var status: TestRun.Status?
        var ended = false
        /// A `started` line a test printed: no test ran.
        var isPhantom = false
        private var nameNumber: Int32
        private var details: CopyOnWriteBox<Details>?

        /// The number of the test's name in the parser's `swiftTestNames`.
        var name: Int { Int(nameNumber) }
        /// Whether it has a skip reason, cases, issues or output.
        var hasDetails: Bool { details != nil }

        /// Its end, as its `passed`/`failed after` line says (one change of the test: the array
        /// that holds it is checked for sharing once).
        mutating func end(_ status: TestRun.Status, seconds: Double) {
            self.status = status
            duration = seconds
            ended = true
        }

        init(name: Int, status: TestRun.Status? = nil, skipReason: String? = nil) {
            self.nameNumber = Int32(truncatingIfNeeded: name)
            self.status = status
            if let skipReason { self.skipReason = skipReason }
        }

        var skipReason: String? {
            get { details?.value.skipReason }
            _modify {
                yield &uniqueDetails().value.skipReason
                dropEmptyDetails()
            }
        }
        /// The argument text of each case, one entry per `Test case passing …` line.
        var cases: [String] {
            get { details?.value.cases ?? [] }
            _modify {
                yield &uniqueDetails().value.cases
                dropEmptyDetails()
            }
        }
        /// Issues, with the index in `cases` of the case they were recorded in.
        var issues: [(caseIndex: Int?, issue: TestRun.Issue)] {
            get { details?.value.issues ?? [] }
            _modify {
                yield &uniqueDetails().value.issues
                dropEmptyDetails()
            }
        }
        var output: PrintedOutput {
            get { details?.value.output ?? PrintedOutput() }
            _modify {
                yield &uniqueDetails().value.output
                dropEmptyDetails()
            }
        }

        private struct Details {
            var skipReason: String?
            var cases: [String] = []
            var issues: [(caseIndex: Int?, issue: TestRun.Issue)] = []
            var output = PrintedOutput()

            var isEmpty: Bool { skipReason == nil && cases.isEmpty && issues.isEmpty && output.isEmpty }
        }

        private mutating func dropEmptyDetails() {
            if details?.value.isEmpty == true { details = nil }
        }

        private mutating func uniqueDetails() -> CopyOnWriteBox<Details> {
            CopyOnWriteBox.unique(&details) { Details() }
        }
    }

    /// A parser that has read nothing yet.
    package init() {}

    /// Feeds the next bytes of the log; complete lines are parsed now, a partial line waits for
    /// the rest (or for `finish()`). Lines end at LF, CR LF or CR; UTF-16 is read too.
    package mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        plainLines = Self.plainLines(in: bytes)
        defer { plainLines = nil }
        LogLineReader.using(&self, \.reader) { reader, parser in
            reader.consume(bytes) { parser.consume(line: $0, wasCut: $1) }
        }
    }

    /// Where in `bytes` their whole lines are (from after the first line break to the last) when
    /// those are plain text (`LineText.isPlainLines`): told for all at once, as most pieces of
    /// most logs are.
    private static func plainLines(in bytes: UnsafeRawBufferPointer) -> Range<UnsafeRawPointer>? {
        guard let base = bytes.baseAddress else { return nil }
        func isBreak(_ index: Int) -> Bool { bytes[index] == 0x0A || bytes[index] == 0x0D }
        var start = 0
        while start < bytes.count, !isBreak(start) { start += 1 }
        var end = bytes.count - 1
        while end > start, !isBreak(end) { end -= 1 }
        guard start < end, LineText.isPlainLines(UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<end])) else {
            return nil
        }
        return (base + start + 1)..<(base + end)
    }

    @inline(__always)  // into the loop over a piece's lines
    private mutating func consume(line bytes: UnsafeRawBufferPointer, wasCut: Bool) {
        if wasCut {
            consume(line: String(decoding: bytes, as: UTF8.self) + " … (line cut)")
        } else if let plain = plainLines, let start = bytes.baseAddress, start >= plain.lowerBound,
            start + bytes.count <= plain.upperBound
        {
            // A line of the piece being read, told plain with the rest of it.
            consume(strippedLine: LineText(bytes), raw: LineText(bytes))
        } else if LineText.isPlainText(bytes) {
            // Most lines (Swift Testing's symbols too): read as they are, no String made.
            consume(strippedLine: LineText(bytes), raw: LineText(bytes))
        } else {
            // Repaired as a String would be (invalid UTF-8), without ANSI codes.
            consume(line: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Parses one line (without its line break).
    package mutating func consume(line text: String) {
        var line = text
        if line.utf8.last == 0x0D { line.removeLast() }
        guard line.utf8.contains(0x1B) else {
            return line.withUTF8 { consume(strippedLine: LineText($0), raw: LineText($0)) }
        }
        // Output keeps its colours; the reports decide what to show.
        var stripped = line.strippingANSIEscapes
        line.withUTF8 { raw in
            stripped.withUTF8 { consume(strippedLine: LineText($0), raw: LineText(raw)) }
        }
    }

    /// A line without ANSI codes, and the line as it came (`raw`, for output).
    private mutating func consume(strippedLine line: LineText, raw: LineText) {
        rawLine = raw
        defer { rawLine = LineText(UnsafeRawBufferPointer(start: nil, count: 0)) }
        if case .some = openCase, consumeInOpenCase(line) { return }
        // `--parallel` progress lines, a quarter of such a log: read on their bytes.
        if line.first == UInt8(ascii: "["), let progress = TestLogLine.parseProgress(line.dropFirst()) {
            parallelProgress(progress)
            return
        }
        // Swift Testing's lines are read on their bytes: only what is kept becomes a string.
        if let first = line.first, first >= 0x80 || first == UInt8(ascii: "-"),
            let message = TestLogLine.parseSwiftTestingLine(line)
        {
            swiftTesting(message)
            return
        }
        // XCTest's suite lines, read on their bytes: their times become strings only as kept.
        if line.first == UInt8(ascii: "T"), let rest = line.after("Test Suite '"),
            let suite = TestLogLine.parseSuiteLine(rest)
        {
            if suite.passed == nil {
                suiteStarted(shared(suite.name), timestamp: suite.timestamp)
            } else {
                suiteFinished(shared(suite.name), timestamp: suite.timestamp)
            }
            return
        }
        guard
            let parsed = TestLogLine.parse(
                plain: line, openClass: currentSuite.map { xctestSuites[$0].name }, string: { shared($0) })
        else {
            unknown()
            return
        }
        // Consumed: the names it carries move to where they are kept instead of being copied.
        switch consume parsed {
        case .suiteStarted, .suiteFinished:
            break  // read on its bytes above
        case .executed(let tests, let skipped, let failures, let unexpected, _, let wallSeconds):
            executed(tests: tests, skipped: skipped, failures: failures, unexpected: unexpected, seconds: wallSeconds)
        case .testCaseStarted(let name):
            testCaseStarted(name, printed: TestLogLine.printedCaseName(line, name))
        case .testCaseIssue(let name, let location, let message):
            lateIssue(name, location: location, message: message)
        case .testCaseFinished(let name, let status, let seconds):
            lateFinish(name, status: status, seconds: seconds)
        case .testCaseSkipped:
            unknown()  // about no open test: printed
        case .parallelProgress:
            break  // read on its bytes above
        case .crash(let location, let message):
            crashReported(location: location, message: message)
        case .swiftTesting:
            break  // read on its bytes above
        }
    }

    /// Ends the log: tests still running become errors (the run was cut off), and the run is
    /// assembled.
    package mutating func finish() -> TestRun {
        LogLineReader.using(&self, \.reader) { reader, parser in
            reader.finish { parser.consume(line: $0, wasCut: $1) }
        }
        closeOpenCaseAsCrash()
        chargeCrashToUnsettledCase()
        if inSwiftTesting { endSwiftTestingRun() }
        if parallelProgress.done < parallelProgress.total { run.isComplete = false }
        var suites = finishXCTestSuites()
        if let swiftTesting = swiftTestingSuite() { suites.append(swiftTesting) }
        run.suites = suites
        return run
    }

    // MARK: Output

    /// Lines of output, kept whole up to the limits and joined by line breaks: held as bytes
    /// while the test runs, a `String` once it ends.
    struct PrintedOutput {
        private var bytes: [UInt8] = []
        private var lines = 0

        var isEmpty: Bool { lines == 0 }

        /// The lines joined by line breaks.
        var text: String { String(decoding: bytes, as: UTF8.self) }

        mutating func append(_ line: String) {
            LineText.with(line) { append($0) }
        }

        mutating func append(_ line: LineText) {
            guard lines <= TestLogParser.outputLineLimit else { return }
            if lines == TestLogParser.outputLineLimit || bytes.count + line.count > outputByteLimit {
                if lines > 0 { bytes.append(0x0A) }
                bytes.append(contentsOf: "… (more output left out)".utf8)
                lines = TestLogParser.outputLineLimit + 1
                return
            }
            if lines > 0 { bytes.append(0x0A) }
            line.bytes.withMemoryRebound(to: UInt8.self) { bytes.append(contentsOf: $0) }
            lines += 1
        }
    }

    /// The line being read is output (of the open test, suite or run), or continues an issue's
    /// message.
    mutating func unknown() {
        switch continuation {
        case .xctestIssue:
            if openCase != nil, let last = openCase?.value.issues.indices.last {
                Self.extend(&openCase!.value.issues[last].message, with: rawLine.string)
                return
            }
            if openCase == nil, let closed = lastClosedCase,
                let last = xctestSuites[closed.suite].cases[closed.index].issues.indices.last
            {
                Self.extend(
                    &xctestSuites[closed.suite].cases[closed.index].issues[last].message, with: rawLine.string)
                return
            }
        case .swiftTestingIssue(let test, let issue):
            Self.extend(&swiftTests[test].issues[issue].issue.message, with: rawLine.string)
            return
        case .swiftTestingDetails(let test, let issue):
            if rawLine.hasPrefix("  ") {
                Self.extend(&swiftTests[test].issues[issue].issue.message, with: rawLine.dropFirst(2).string)
                return
            }
        case .none, .swiftTestingNotes:
            break
        }
        continuation = .none
        if crash != nil { noteBacktraceLine(rawLine.string) }
        if openCase != nil {
            openCase!.output.append(rawLine)
        } else if inSwiftTesting {
            if inFlight.count == 1, let test = inFlight.first {
                swiftTests[test].output.append(rawLine)
            } else {
                swiftTestingOutput.append(rawLine)
            }
        } else if let suite = currentSuite {
            xctestSuiteOutput[suite].append(rawLine)
        } else {
            // Build output and the like: only the last lines matter (a build error, a crash).
            run.output.append(rawLine.string)
            if run.output.count > 2 * Self.runOutputLineLimit { run.output.removeFirst(Self.runOutputLineLimit) }
        }
    }

    /// The string of `text`, shared with the lines before that held the same (within limits).
    mutating func shared(_ text: LineText) -> String {
        if sharedStrings.count >= Self.sharedStringLimit || sharedStrings.byteCount >= 64 * Self.sharedStringLimit {
            sharedStrings.removeAll()
        }
        return sharedStrings.string(text)
    }

    /// How many strings `sharedStrings` holds at most.
    private static let sharedStringLimit = 1 << 16

    /// A message continued on the next line, within the output limit.
    static func extend(_ message: inout String, with line: String) {
        guard message.utf8.count + line.utf8.count < outputByteLimit else { return }
        message += "\n" + line
    }

    /// At most this many lines outside any test are kept (the last ones).
    private static let runOutputLineLimit = 200
}
