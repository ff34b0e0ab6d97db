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
    /// `testsuites`/`testsuite` element first (after white space and a byte order mark).
    package static func recognizes(_ head: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        if head.starts(with: JSONValue.byteOrderMark) { index = 3 }
        while index < head.count, [0x20, 0x0A, 0x0D, 0x09].contains(head[index]) { index += 1 }
        let rest = head[index...]
        return ["<?xml", "<testsuites", "<testsuite"].contains { rest.starts(with: $0.utf8) }
    }

    /// Reads the JUnit document `bytes` (from `path`, for messages).
    package static func read(_ bytes: [UInt8], path: String) throws(TestResultsError) -> TestRun {
        // Refused first, and where they are: the reader takes UTF-8 for granted.
        if let offset = firstInvalidUTF8(in: bytes) {
            let (line, column) = position(of: offset, in: bytes)
            throw .malformedJUnit(
                path: path, line: line, column: column, message: "not UTF-8 (byte offset \(offset)); JUnit XML must be")
        }
        var reader = XMLReader(bytes)
        var document = Document()
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

    /// Collects suites while the reader walks the document.
    private struct Document {
        /// Why the document is not JUnit XML, and where.
        struct Problem: Error {
            var offset: Int
            var message: String
        }

        var suites: [TestRun.Suite] = []
        var sawRoot = false
        /// Where the event being handled starts, for problems.
        var offset = 0

        /// A start tag's attributes by name, found by a search: a tag has a few.
        private struct Attributes {
            var list: [XMLReader.Attribute]

            subscript(name: String) -> String? {
                list.first { $0.name == name }?.value
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
        }

        /// A `failure`, `error` or `skipped` element being read.
        private struct Outcome {
            var element: String
            var message: String?
            var type: String?
            var text = ""
        }

        private var openSuites: [OpenSuite] = []
        private var openCase: TestRun.Case?
        private var outcome: Outcome?
        /// The text of the `system-out`/`system-err` element being read.
        private var captured: String?

        mutating func start(_ element: String, _ attributeList: [XMLReader.Attribute]) throws(Problem) {
            let attributes = Attributes(list: attributeList)
            if !sawRoot {
                sawRoot = true
                guard element == "testsuites" || element == "testsuite" else {
                    throw Problem(
                        offset: offset,
                        message: "not JUnit XML: the root element is <\(element)>, not <testsuites> or <testsuite>")
                }
            }
            switch element {
            case "testsuite":
                openSuites.append(
                    OpenSuite(
                        name: attributes["name"] ?? "", timestamp: attributes["timestamp"],
                        seconds: attributes["time"].flatMap(Double.init)))
            case "property":
                if let name = attributes["name"], let value = attributes["value"], !openSuites.isEmpty {
                    openSuites[openSuites.count - 1].properties[name] = value
                }
            case "testcase":
                guard !openSuites.isEmpty else {
                    throw Problem(offset: offset, message: "not JUnit XML: <testcase> outside any <testsuite>")
                }
                let name = attributes["name"] ?? ""
                var testCase = TestRun.Case(
                    className: attributes["classname"] ?? openSuites[openSuites.count - 1].name, testName: name,
                    status: .passed,
                    duration: attributes["time"].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil })
                if let file = attributes["file"], let line = attributes["line"].flatMap(Int.init) {
                    testCase.location = TestRun.SourceLocation(file: file, line: line)
                }
                openCase = testCase
            case "failure", "error", "skipped":
                if openCase != nil {
                    outcome = Outcome(element: element, message: attributes["message"], type: attributes["type"])
                }
            case "system-out", "system-err":
                captured = ""
            default:
                break
            }
        }

        mutating func text(_ string: String) {
            if outcome != nil {
                outcome!.text += string
            } else if captured != nil {
                captured! += string
            }
        }

        mutating func end(_ element: String) {
            switch element {
            case "testsuite":
                guard let suite = openSuites.popLast() else { return }
                suites += Self.suites(of: suite)
            case "testcase":
                if let testCase = openCase, !openSuites.isEmpty {
                    openSuites[openSuites.count - 1].cases.append(testCase)
                }
                openCase = nil
            case "failure", "error", "skipped":
                if let outcome, openCase != nil { apply(outcome, to: &openCase!) }
                outcome = nil
            case "system-out", "system-err":
                guard let text = captured else { return }
                captured = nil
                if openCase != nil {
                    openCase!.output.appendLines(text)
                } else if !openSuites.isEmpty {
                    openSuites[openSuites.count - 1].output.appendLines(text)
                }
            default:
                break
            }
        }

        private func apply(_ outcome: Outcome, to testCase: inout TestRun.Case) {
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
            let message = outcome.message ?? ""
            let text = outcome.text.isEmpty ? message : outcome.text
            testCase.issues += JUnitXMLReader.issues(
                text: text, headline: String(JUnitXMLReader.firstLine(message)), kind: .failure,
                headlineKind: headlineKind)
            testCase.status = max(testCase.status, isError ? .error : .failed)
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

extension JUnitXMLReader {
    /// The offset of the first byte that does not belong to valid UTF-8, nil when all do.
    static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        if let _ = String(validating: bytes, as: UTF8.self) { return nil }
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
