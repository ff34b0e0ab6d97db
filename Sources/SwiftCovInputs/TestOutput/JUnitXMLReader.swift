import SwiftCovFormats
import SwiftCovModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads JUnit XML into a `TestRun`: swiftcov's own (`swiftcov junit`, `swiftcov run`) and both
/// files of SwiftPM's `swift test --xunit-output` (XCTest's, and Swift Testing's `-swift-testing.xml`),
/// so that the results of test shards run on several machines can be read back and merged.
///
/// swiftcov's files name one suite per `testsuite` (its `framework` property says which library
/// ran it) and write each failing issue as a `file:line: message` line of the `failure` or
/// `error` text; these come back as issues. SwiftPM's files put every test in one `testsuite`
/// ("TestResults"): the tests are grouped into suites by `classname`, Swift Testing's told
/// apart by the parentheses of their function names. Parsed with `XMLReader`, which resolves no
/// entity beyond XML's own.
package enum JUnitXMLReader {
    /// Whether a file starting with `head` is XML for this reader: an XML declaration or a
    /// `testsuites`/`testsuite` element first (after white space and a byte order mark), in
    /// UTF-8, UTF-16 or UTF-32 (see `WideEncoding`).
    package static func recognizes(_ head: UnsafeRawBufferPointer) -> Bool {
        if let (encoding, _) = WideEncoding.detect(head) {
            // The first characters, as UTF-8 (a character cut off at the end is dropped).
            let characters = encoding.decode(UnsafeRawBufferPointer(rebasing: head.prefix(256)), stopAtError: true)
            return characters.bytes.withUnsafeBytes { recognizesUTF8($0) }
        }
        return recognizesUTF8(head)
    }

    private static func recognizesUTF8(_ head: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        if head.starts(with: JSONValue.byteOrderMark) { index = 3 }
        while index < head.count, [0x20, 0x0A, 0x0D, 0x09].contains(head[index]) { index += 1 }
        let rest = head[index...]
        return ["<?xml", "<testsuites", "<testsuite"].contains { rest.starts(with: $0.utf8) }
    }

    /// At most this many test cases and suites are read from one document: a case costs some
    /// 150 bytes of memory, and `<testcase/>` is 11 bytes of XML (a run of a million tests is
    /// read well within it).
    package static let caseLimit = 4_000_000

    /// Reads the JUnit document `bytes` (from `path`, for messages): UTF-8, or UTF-16 or UTF-32
    /// told by a byte order mark or the zero bytes around the first `<` (XML allows them all).
    package static func read(
        _ bytes: [UInt8], path: String, caseLimit: Int = JUnitXMLReader.caseLimit
    ) throws(TestResultsError) -> TestRun {
        if let (encoding, _) = bytes.withUnsafeBytes({ WideEncoding.detect($0) }) {
            let decoded = bytes.withUnsafeBytes { encoding.decode($0, stopAtError: false) }
            if let offset = decoded.errorOffset {
                throw .malformedJUnit(
                    path: path, line: 1, column: 1,
                    message: "not \(encoding.name) (byte offset \(offset)); JUnit XML must be UTF-8, UTF-16 or UTF-32")
            }
            return try readUTF8(decoded.bytes, path: path, caseLimit: caseLimit)
        }
        return try readUTF8(bytes, path: path, caseLimit: caseLimit)
    }

    private static func readUTF8(_ bytes: [UInt8], path: String, caseLimit: Int) throws(TestResultsError) -> TestRun {
        // Refused first, and where they are: the reader takes UTF-8 for granted.
        if let offset = firstInvalidUTF8(in: bytes) {
            let (line, column) = position(of: offset, in: bytes)
            throw .malformedJUnit(
                path: path, line: line, column: column, message: "not UTF-8 (byte offset \(offset)); JUnit XML must be")
        }
        var reader = XMLReader(bytes)
        var document = Document(caseLimit: caseLimit)
        do throws(Document.Problem) {
            while true {
                let event: XMLReader.Event?
                do throws(XMLReader.Error) {
                    event = try reader.next()
                } catch {
                    throw Document.Problem(offset: error.offset, message: "not well-formed XML (\(error.message))")
                }
                guard let event else { break }
                document.offset = reader.eventOffset
                switch event {
                case .start(let name, let attributes): try document.start(name, attributes)
                case .text(let text): document.text(text)
                case .end(let name): document.end(name)
                }
            }
            document.finish()
        } catch {
            let (line, column) = position(of: error.offset, in: bytes)
            throw .malformedJUnit(path: path, line: line, column: column, message: error.message)
        }
        var run = TestRun(suites: document.suites)
        run.hasTestOutput = true
        return run
    }

    /// Splits a `failure`/`error` text swiftcov wrote (`file:line: message` lines, a message's
    /// further lines after it) into issues of `kind`; the issue whose message starts with
    /// `headline` gets `headlineKind` (the element's `type`).
    static func issues(
        text: String, headline: String, kind: TestRun.Issue.Kind, headlineKind: TestRun.Issue.Kind
    ) -> [TestRun.Issue] {
        var issues: [TestRun.Issue] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let (location, message) = locatedMessage(line) {
                issues.append(TestRun.Issue(kind: kind, message: String(message), location: location))
            } else if issues.isEmpty || (line == headline && !issues.contains { firstLine($0.message) == headline }) {
                // The headline without a location is an issue of its own (a crash, say).
                issues.append(TestRun.Issue(kind: kind, message: String(line)))
            } else {
                issues[issues.count - 1].message += "\n" + line
            }
        }
        if let index = issues.firstIndex(where: { firstLine($0.message) == headline }) ?? issues.indices.first {
            issues[index].kind = headlineKind
        }
        return issues
    }

    /// `path:line: message` as `JUnitReport.describe` writes it; the path names a Swift file or
    /// has a folder.
    private static func locatedMessage(_ line: Substring) -> (TestRun.SourceLocation, Substring)? {
        var search = line.startIndex
        while let colon = line[search...].firstIndex(of: ":") {
            let digits = line[line.index(after: colon)...].prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, line[digits.endIndex...].hasPrefix(": "), let number = Int(digits) {
                let path = line[..<colon]
                guard path.hasSuffix(".swift") || path.contains("/"), !path.hasPrefix(" ") else { return nil }
                let message = line[line.index(digits.endIndex, offsetBy: 2)...]
                return (TestRun.SourceLocation(file: String(path), line: number), message)
            }
            search = line.index(after: colon)
        }
        return nil
    }

    private static func firstLine(_ text: String) -> Substring {
        text.prefix { $0 != "\n" && $0 != "\r" }
    }

    /// Collects suites while the reader walks the document. No failure in it is lost: a
    /// `failure` or `error` of a suite itself (its set-up crashed) becomes a test case named after
    /// the suite; failures and errors that a suite's (or the root's) attributes count but no
    /// element shows become an error case too; and a test case inside a test case, or an outcome
    /// inside an outcome, is an error (the inner one would hide the outer). Failure texts and
    /// output are kept up to the log parser's limits per test.
    private struct Document {
        /// Why the document is not JUnit XML, and where.
        struct Problem: Error {
            var offset: Int
            var message: String
        }

        var suites: [TestRun.Suite] = []
        var sawRoot = false
        /// The most test cases and suites read, and how many were.
        let caseLimit: Int
        private var caseCount = 0

        init(caseLimit: Int) {
            self.caseLimit = caseLimit
        }
        /// Where the event being handled starts, for problems.
        var offset = 0

        /// A start tag's attributes by name, found by a search: a tag has a few.
        private struct Attributes {
            var list: [XMLReader.Attribute]

            subscript(name: String) -> String? {
                list.first { $0.name == name }?.value
            }

            /// `failures` plus `errors`, nil when neither is a count.
            var claimedFailing: Int? {
                let counts = [self["failures"], self["errors"]].compactMap { $0.flatMap { Int($0) } }.filter {
                    $0 >= 0
                }
                // Clamped: attributes cannot make the sum overflow.
                return counts.isEmpty ? nil : counts.reduce(0) { $0 + min($1, Int(Int32.max)) }
            }
        }

        /// A `testsuite` being read.
        private struct OpenSuite {
            var name: String
            var timestamp: String?
            var seconds: Double?
            var properties: [String: String] = [:]
            var cases: [TestRun.Case] = []
            var output = ""
            var outputBudget = TextBudget()
            /// `failures` plus `errors`, as its attributes say.
            var claimedFailing: Int?
            /// `Document.failing` when it started.
            var failingBefore: Int
        }

        /// A `failure`, `error` or `skipped` element being read.
        private struct Outcome {
            var element: String
            var message: String?
            var type: String?
            var text = ""
            /// Whether the element had text (kept or left out).
            var hasText = false
        }

        /// The root `testsuites` element's name and its `failures` plus `errors`.
        private var root: (name: String, claimedFailing: Int?)?
        private var openSuites: [OpenSuite] = []
        private var openCase: TestRun.Case?
        private var outcome: Outcome?
        /// The open test case's runs that failed before or beside its outcome, as Maven Surefire
        /// writes them: `flakyFailure`/`flakyError` (it passed in the end), `rerunFailure`/`rerunError`.
        private var reruns: [(run: TestRun.Case.Attempt, failedInTheEnd: Bool)] = []

        /// Maven Surefire's elements for the runs of a test that was run again.
        private static let rerunElements: Set<String> = ["flakyFailure", "flakyError", "rerunFailure", "rerunError"]
        /// The text of the `system-out`/`system-err` element being read.
        private var captured: String?
        /// What the open test case (or the suite's own `failure` or `error`) keeps of its
        /// failure texts, and of its output.
        private var issueBudget = TextBudget()
        private var caseOutputBudget = TextBudget()
        /// The `failure` and `error` elements read so far, plus the failures that attributes
        /// counted and no element showed.
        private var failing = 0

        mutating func start(_ element: String, _ attributeList: [XMLReader.Attribute]) throws(Problem) {
            let attributes = Attributes(list: attributeList)
            if !sawRoot {
                sawRoot = true
                guard element == "testsuites" || element == "testsuite" else {
                    throw Problem(
                        offset: offset,
                        message: "not JUnit XML: the root element is <\(element)>, not <testsuites> or <testsuite>")
                }
                if element == "testsuites" { root = (attributes["name"] ?? "", attributes.claimedFailing) }
            }
            switch element {
            case "testsuite", "testcase", "failure", "error", "skipped", "flakyFailure", "flakyError", "rerunFailure",
                "rerunError":
                // One inside another would hide the outer one's outcome.
                let isTest = element == "testcase" || element == "testsuite"
                if let outer = outcome?.element ?? (isTest && openCase != nil ? "testcase" : nil) {
                    throw Problem(
                        offset: offset,
                        message:
                            "not JUnit XML: a <\(element)> inside \(outer == "error" ? "an" : "a") <\(outer)> "
                            + "(its result would hide the other's)"
                    )
                }
            default:
                break
            }
            switch element {
            case "testsuite":
                try count()
                openSuites.append(
                    OpenSuite(
                        name: attributes["name"] ?? "", timestamp: attributes["timestamp"],
                        seconds: attributes["time"].flatMap(Double.init), claimedFailing: attributes.claimedFailing,
                        failingBefore: failing))
            case "property":
                if let name = attributes["name"], let value = attributes["value"], !openSuites.isEmpty {
                    openSuites[openSuites.count - 1].properties[name] = value
                }
            case "testcase":
                guard !openSuites.isEmpty else {
                    throw Problem(offset: offset, message: "not JUnit XML: <testcase> outside any <testsuite>")
                }
                try count()
                let name = attributes["name"] ?? ""
                var testCase = TestRun.Case(
                    className: attributes["classname"] ?? openSuites[openSuites.count - 1].name, testName: name,
                    status: .passed,
                    duration: attributes["time"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil })
                if let file = attributes["file"], let line = attributes["line"].flatMap(Int.init) {
                    testCase.location = TestRun.SourceLocation(file: file, line: line)
                }
                openCase = testCase
                reruns = []
                issueBudget = TextBudget()
                caseOutputBudget = TextBudget()
            case "failure", "error", "skipped":
                if element != "skipped" {
                    guard !openSuites.isEmpty else {
                        throw Problem(offset: offset, message: "not JUnit XML: <\(element)> outside any <testsuite>")
                    }
                    failing += 1
                }
                // A suite's own failure or error (its set-up failed) is kept as a test case of its own.
                if openCase == nil { issueBudget = TextBudget() }
                if openCase != nil || element != "skipped" {
                    outcome = Outcome(element: element, message: attributes["message"], type: attributes["type"])
                }
            case "flakyFailure", "flakyError", "rerunFailure", "rerunError":
                // A run of the test case: outside one, nothing to attach it to.
                if openCase != nil {
                    outcome = Outcome(element: element, message: attributes["message"], type: attributes["type"])
                }
            case "system-out", "system-err":
                captured = ""
            default:
                break
            }
        }

        /// Counts a test case or suite, against the limit.
        private mutating func count() throws(Problem) {
            caseCount += 1
            guard caseCount <= caseLimit else {
                throw Problem(
                    offset: offset,
                    message:
                        "more than \(caseLimit) test cases and suites in one file; swiftcov reads up to that many a file"
                )
            }
        }

        mutating func text(_ string: String) {
            if outcome != nil {
                outcome!.text += issueBudget.admit(string)
                outcome!.hasText = true
            } else if captured != nil {
                if openCase != nil {
                    captured! += caseOutputBudget.admit(string)
                } else if !openSuites.isEmpty {
                    captured! += openSuites[openSuites.count - 1].outputBudget.admit(string)
                }
            }
        }

        mutating func end(_ element: String) {
            switch element {
            case "testsuite":
                guard var suite = openSuites.popLast() else { return }
                if suite.outputBudget.isExhausted { suite.output.appendLines(TextBudget.outputLeftOut) }
                if let claimed = suite.claimedFailing, claimed > failing - suite.failingBefore {
                    let found = failing - suite.failingBefore
                    suite.cases.append(
                        Self.missingFailures(
                            suite: suite.name, element: "testsuite", claimed: claimed, found: found))
                    failing += claimed - found
                }
                suites += Self.suites(of: suite)
            case "testcase":
                if var testCase = openCase, !openSuites.isEmpty {
                    Self.attach(reruns, to: &testCase)
                    if caseOutputBudget.isExhausted { testCase.output.appendLines(TextBudget.outputLeftOut) }
                    Self.noteLeftOut(issueBudget, in: &testCase)
                    openSuites[openSuites.count - 1].cases.append(testCase)
                }
                openCase = nil
            case "flakyFailure", "flakyError", "rerunFailure", "rerunError":
                guard var outcome else { return }
                self.outcome = nil
                outcome.text += issueBudget.endElement()
                let failedInTheEnd = outcome.element.hasPrefix("rerun")
                outcome.element = outcome.element.hasSuffix("Error") ? "error" : "failure"
                var run = TestRun.Case(className: "", testName: "", status: .passed)
                apply(outcome, to: &run)
                reruns.append((TestRun.Case.Attempt(status: run.status, issues: run.issues), failedInTheEnd))
            case "failure", "error", "skipped":
                guard var outcome else { return }
                self.outcome = nil
                outcome.text += issueBudget.endElement()
                if var testCase = openCase {
                    openCase = nil  // changed alone, not copied
                    apply(outcome, to: &testCase)
                    openCase = testCase
                } else if !openSuites.isEmpty {
                    // The suite's own: a test case named after it.
                    let name = openSuites[openSuites.count - 1].name
                    var testCase = TestRun.Case(className: name, testName: name, status: .passed)
                    apply(outcome, to: &testCase)
                    Self.noteLeftOut(issueBudget, in: &testCase)
                    openSuites[openSuites.count - 1].cases.append(testCase)
                }
            case "system-out", "system-err":
                guard var text = captured else { return }
                captured = nil
                if openCase != nil {
                    text += caseOutputBudget.endElement()
                    openCase!.output.appendLines(text)
                } else if !openSuites.isEmpty {
                    text += openSuites[openSuites.count - 1].outputBudget.endElement()
                    openSuites[openSuites.count - 1].output.appendLines(text)
                }
            default:
                break
            }
        }

        /// Gives `testCase` the runs `reruns` read, as `JUnitReport` writes them: a test that passed
        /// in the end has its failed runs in `flakyFailure`/`flakyError`; one that failed has its
        /// first failed run in `failure`/`error` and the later ones in `rerunFailure`/`rerunError`,
        /// the last of them its outcome.
        private static func attach(
            _ reruns: [(run: TestRun.Case.Attempt, failedInTheEnd: Bool)], to testCase: inout TestRun.Case
        ) {
            guard !reruns.isEmpty, testCase.status != .skipped else { return }
            // A `rerunFailure` says the test failed in the end, with or without a `failure` beside it.
            guard testCase.status != .passed || reruns.contains(where: \.failedInTheEnd) else {
                testCase.attempts = reruns.map(\.run)
                return
            }
            var runs = reruns.map(\.run)
            if testCase.status != .passed {
                runs.insert(TestRun.Case.Attempt(status: testCase.status, issues: testCase.issues), at: 0)
            }
            testCase.attempts = Array(runs.dropLast())
            testCase.status = runs.last!.status
            testCase.issues = runs.last!.issues
        }

        /// After the document: failures the root's attributes count and no element shows.
        mutating func finish() {
            guard let root, let claimed = root.claimedFailing, claimed > failing else { return }
            let name = root.name.isEmpty ? "testsuites" : root.name
            var suite = TestRun.Suite(name: name, framework: .xctest)
            suite.cases = [Self.missingFailures(suite: name, element: "testsuites", claimed: claimed, found: failing)]
            suites.append(suite)
            failing = claimed
        }

        /// An error case for failures that `element`'s attributes count (`claimed`) and only
        /// `found` elements show: the file lacks failing test cases (cut, or made by a tool that
        /// lost them), so the run cannot pass.
        private static func missingFailures(suite: String, element: String, claimed: Int, found: Int) -> TestRun.Case {
            var testCase = TestRun.Case(className: suite, testName: suite, status: .error)
            testCase.issues = [
                TestRun.Issue(
                    kind: .error,
                    message:
                        "<\(element)> counts \(claimed) failures and errors (its failures and errors attributes), "
                        + "but the file shows \(found) <failure> or <error> elements: failing test cases are missing")
            ]
            return testCase
        }

        /// Says, after its last issue, how much of a test's failure text was left out.
        private static func noteLeftOut(_ budget: TextBudget, in testCase: inout TestRun.Case) {
            guard budget.isExhausted else { return }
            let note = budget.leftOutNote(of: "failure text")
            if let last = testCase.issues.indices.last {
                testCase.issues[last].message.appendLines(note)
            } else if testCase.skipReason != nil {
                testCase.skipReason!.appendLines(note)
            }
        }

        private mutating func apply(_ outcome: Outcome, to testCase: inout TestRun.Case) {
            if outcome.element == "skipped" {
                // A failure wins over a skip of the same test.
                guard testCase.status == .passed else { return }
                testCase.status = .skipped
                let reason = outcome.message ?? outcome.text
                if !reason.isEmpty { testCase.skipReason = reason }
                return
            }
            let isError = outcome.element == "error"
            let headlineKind: TestRun.Issue.Kind =
                !isError ? .failure : outcome.type == "crash" ? .crash : .error
            testCase.status = max(testCase.status, isError ? .error : .failed)
            // Its issues are bounded as its text is: past the limits, an element adds none.
            guard !(issueBudget.isExhausted && !testCase.failingIssues.isEmpty),
                testCase.issues.count < issueBudget.lineLimit
            else {
                issueBudget.leaveOutLine()
                return
            }
            let message = outcome.message ?? ""
            let text = outcome.hasText ? outcome.text : issueBudget.admit(message) + issueBudget.endElement()
            testCase.issues += JUnitXMLReader.issues(
                text: text, headline: String(JUnitXMLReader.firstLine(message)), kind: .failure,
                headlineKind: headlineKind)
        }
        /// swiftcov's `testsuite` is one suite; SwiftPM's holds many, one per `classname`.
        private static func suites(of open: OpenSuite) -> [TestRun.Suite] {
            if let framework = open.properties["framework"].flatMap(TestRun.Framework.init(rawValue:)) {
                var suite = TestRun.Suite(
                    name: open.name, displayName: open.properties["displayName"], framework: framework,
                    timestamp: open.timestamp)
                suite.reportedDuration = open.seconds
                suite.cases = open.cases
                suite.output = open.output
                return [suite]
            }
            var order: [String] = []
            var byClass: [String: [TestRun.Case]] = [:]
            for testCase in open.cases {
                if byClass[testCase.className] == nil { order.append(testCase.className) }
                byClass[testCase.className, default: []].append(testCase)
            }
            var suites = order.map { name in
                let cases = byClass[name]!
                let swiftTesting = cases.contains { $0.testName.hasSuffix(")") }
                var suite = TestRun.Suite(
                    name: name, framework: swiftTesting ? .swiftTesting : .xctest, timestamp: open.timestamp)
                suite.cases = cases
                return suite
            }
            if !open.output.isEmpty, !suites.isEmpty { suites[0].output = open.output }
            return suites
        }
    }
}

/// What is kept of a test's failure texts, or of its output: the log parser's limits per test
/// (`TestLogParser.outputLineLimit` lines, `outputByteLimit` bytes), so that no input makes a
/// test's issues or output grow past them; what is left out is counted, to say so.
///
/// Text just past the limits (a few lines: the note swiftcov itself adds when it leaves some
/// out) is held until the element ends and kept if nothing follows it, so that swiftcov's own
/// JUnit of a cut test reads back the same.
struct TextBudget {
    private(set) var keptBytes = 0
    private(set) var keptLineBreaks = 0
    private(set) var leftOutBytes = 0
    /// The line breaks left out (but the one ending the last line kept): the lines left out.
    private(set) var leftOutLineBreaks = 0
    /// Whether something was left out: everything after is.
    private(set) var isExhausted = false
    let lineLimit: Int
    let byteLimit: Int
    /// Text past the limits, held until the element ends, and its line breaks.
    private var held: [UInt8] = []
    private var heldLineBreaks = 0
    /// How much text past the limits is held.
    static let slackLines = 8
    static let slackBytes = 4096

    init(lineLimit: Int = TestLogParser.outputLineLimit, byteLimit: Int = TestLogParser.outputByteLimit) {
        self.lineLimit = lineLimit
        self.byteLimit = byteLimit
    }

    /// The note a test's output gets when some was left out (as the log parser writes it).
    static let outputLeftOut = "… (more output left out)"

    /// The part of `piece` (the next text of an element, cut anywhere but inside a character)
    /// that is kept: up to the line or byte limit, at a line break when the lines run out.
    /// What follows is held (see `endElement`), or left out past the slack.
    mutating func admit(_ piece: String) -> String {
        var piece = piece
        return piece.withUTF8 { utf8 in
            if isExhausted {
                leaveOut(utf8[...])
                return ""
            }
            var cut = 0
            let room = byteLimit - keptBytes
            // After text held, all is held.
            while held.isEmpty, cut < utf8.count {
                if cut >= room { break }
                if utf8[cut] == 0x0A {
                    if keptLineBreaks + 1 >= lineLimit { break }
                    keptLineBreaks += 1
                }
                cut += 1
            }
            // Not inside a character.
            while cut < utf8.count, cut > 0, utf8[cut] & 0xC0 == 0x80 { cut -= 1 }
            keptBytes += cut
            if cut < utf8.count {
                let rest = UnsafeBufferPointer(rebasing: utf8[cut...])
                let breaks = Self.lineBreaks(in: rest)
                if held.count + rest.count <= Self.slackBytes && heldLineBreaks + breaks <= Self.slackLines {
                    held += rest
                    heldLineBreaks += breaks
                } else {
                    // The line break that ended the last line kept is not a line left out.
                    if (held.first ?? rest.first) == 0x0A { leftOutLineBreaks -= 1 }
                    isExhausted = true
                    leftOutBytes += held.count
                    leftOutLineBreaks += heldLineBreaks
                    held = []
                    heldLineBreaks = 0
                    leaveOut(utf8[cut...])
                }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: utf8[..<cut]), as: UTF8.self)
        }
    }

    /// At the end of an element: the text held past the limits, now kept (nothing left out
    /// followed it).
    mutating func endElement() -> String {
        guard !held.isEmpty else { return "" }
        defer {
            held = []
            heldLineBreaks = 0
        }
        keptBytes += held.count
        keptLineBreaks += heldLineBreaks
        return String(decoding: held, as: UTF8.self)
    }

    /// Counts a line (an element's) as left out.
    mutating func leaveOutLine() {
        isExhausted = true
        leftOutLineBreaks += 1
    }

    /// Counts `bytes` as left out.
    private mutating func leaveOut(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        leftOutBytes += bytes.count
        leftOutLineBreaks += Self.lineBreaks(in: UnsafeBufferPointer(rebasing: bytes))
    }

    /// The line feeds in `bytes`, found by `memchr` (megabytes are left out at a time).
    private static func lineBreaks(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard var next = bytes.baseAddress else { return 0 }
        let end = next + bytes.count
        var count = 0
        while next < end, let found = memchr(next, 0x0A, end - next) {
            count += 1
            next = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return count
    }

    /// "… (13999998 more lines, 97999986 bytes, of failure text left out: …)"
    func leftOutNote(of what: String) -> String {
        "… (\(leftOutLineBreaks) more lines, \(leftOutBytes) bytes, of \(what) left out: swiftcov keeps "
            + "\(lineLimit) lines or \(byteLimit / 1024) KiB of it per test)"
    }
}

extension JUnitXMLReader {
    /// The offset of the first byte that does not belong to valid UTF-8, nil when all do.
    static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        // Validated in place: a document is not copied to check it.
        do {
            _ = try UTF8Span(validating: bytes.span)
            return nil
        } catch {
            return error.byteOffsets.lowerBound
        }
    }

    /// The same, a character at a time: what `firstInvalidUTF8` finds, checked by tests.
    static func firstInvalidUTF8ByDecoding(in bytes: [UInt8]) -> Int? {
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The line and column (in characters, both from 1) of the byte at `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

extension JUnitXMLReader {
    /// The encodings besides UTF-8 that XML allows a document: told by a byte order mark, or
    /// without one by the zero bytes around the `<` that starts every JUnit file.
    enum WideEncoding: Equatable {
        case utf16LittleEndian, utf16BigEndian, utf32LittleEndian, utf32BigEndian

        var name: String {
            switch self {
            case .utf16LittleEndian: "UTF-16LE"
            case .utf16BigEndian: "UTF-16BE"
            case .utf32LittleEndian: "UTF-32LE"
            case .utf32BigEndian: "UTF-32BE"
            }
        }

        private var unitSize: Int { self == .utf16LittleEndian || self == .utf16BigEndian ? 2 : 4 }

        /// The encoding of a document starting with `head`, and the length of its byte order
        /// mark; nil for UTF-8 (or anything else).
        static func detect(_ head: UnsafeRawBufferPointer) -> (WideEncoding, byteOrderMark: Int)? {
            guard head.count >= 2 else { return nil }
            let b = Array(head.prefix(4)) + [UInt8](repeating: 0xFF, count: max(0, 4 - head.count))
            switch (b[0], b[1], b[2], b[3]) {
            case (0x00, 0x00, 0xFE, 0xFF): return (.utf32BigEndian, 4)
            case (0xFF, 0xFE, 0x00, 0x00): return (.utf32LittleEndian, 4)
            case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
            case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
            case (0x00, 0x00, 0x00, 0x01...): return (.utf32BigEndian, 0)
            case (0x01..., 0x00, 0x00, 0x00): return (.utf32LittleEndian, 0)
            case (0x00, 0x01..., 0x00, 0x01...): return (.utf16BigEndian, 0)
            case (0x01..., 0x00, 0x01..., 0x00): return (.utf16LittleEndian, 0)
            default: return nil
            }
        }

        /// `bytes` (a whole document, its byte order mark dropped) as UTF-8, and the offset of
        /// the first code unit that is not a character; with `stopAtError`, what comes before it.
        func decode(_ bytes: UnsafeRawBufferPointer, stopAtError: Bool) -> (bytes: [UInt8], errorOffset: Int?) {
            let start = Self.detect(bytes)?.byteOrderMark ?? 0
            var output: [UInt8] = []
            output.reserveCapacity((bytes.count - start) / unitSize * 3 / 2)
            let size = unitSize
            var offset = start
            func unit() -> UInt32? {
                guard offset + size <= bytes.count else { return nil }
                defer { offset += size }
                var value: UInt32 = 0
                for index in 0..<size {
                    let byte = UInt32(bytes[offset + (isBigEndian ? index : size - 1 - index)])
                    value = value << 8 | byte
                }
                return value
            }
            var errorOffset: Int?
            if size == 2 {
                var iterator = AnyIterator { unit().map { UInt16(truncatingIfNeeded: $0) } }
                var decoder = UTF16()
                loop: while true {
                    let before = offset
                    switch decoder.decode(&iterator) {
                    case .scalarValue(let scalar): output.append(contentsOf: UTF8.encode(scalar)!)
                    case .emptyInput: break loop
                    case .error:
                        errorOffset = before
                        break loop
                    }
                }
            } else {
                while let value = unit() {
                    guard let scalar = Unicode.Scalar(value) else {
                        errorOffset = offset - size
                        break
                    }
                    output.append(contentsOf: UTF8.encode(scalar)!)
                }
            }
            if errorOffset == nil, offset < bytes.count, !stopAtError { errorOffset = offset }
            return (output, errorOffset)
        }

        private var isBigEndian: Bool { self == .utf16BigEndian || self == .utf32BigEndian }
    }
}
