import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// Reads Swift Testing's JSON event stream (`swift test --experimental-event-stream-output FILE
/// --experimental-event-stream-version 0`): one JSON object per line, `test` records describing
/// every suite and test (full IDs, display names, parameterized cases, source locations) and
/// `event` records of the run. Unlike the console, it says which suite and module each test
/// belongs to and where every issue is, so it is the authority for Swift Testing results.
package enum SwiftTestingEventStream {
    /// Whether `bytes` are an event stream: the first line is a JSON object with `kind` and `payload`.
    package static func recognizes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let start = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
            bytes[start] == UInt8(ascii: "{")
        else { return false }
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
        let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return line.contains("\"kind\"") && line.contains("\"payload\"")
    }

    /// A `test` record.
    private struct TestRecord {
        var id: String
        var isSuite: Bool
        var name: String
        var displayName: String?
        var caseIDs: [String]
        var caseDisplayNames: [String: String]
        var location: TestRun.SourceLocation?

        /// The name as the console prints it: the display name in quotes, else the name.
        var consoleName: String { displayName.map { "\"\($0)\"" } ?? name }
    }

    /// What the events say about one test or suite.
    private struct Progress {
        var start: Double?
        var end: Double?
        var startEpoch: Double?
        var skipped = false
        var skipReason: String?
        var issues: [(caseID: String?, issue: TestRun.Issue)] = []
        /// The files attached, at most `maximumAttachments`.
        var attachments: [(caseID: String?, attachment: TestRun.Attachment)] = []
        /// Keys of `cases` in the order they started: the case ID, and for a case whose
        /// arguments repeat an earlier one's (the same ID again) the ID and a number.
        var caseOrder: [String] = []
        var cases: [String: (arguments: String?, start: Double?, end: Double?)] = [:]
        /// The key of the latest case started with each ID.
        var latestKey: [String: String] = [:]

        /// The key for issues and the end of the case with `caseID`.
        func key(of caseID: String?) -> String? {
            caseID.map { latestKey[$0] ?? $0 }
        }
    }

    /// Reads the event stream in `bytes` (from `path`, for messages). Timestamps are shown in
    /// the time zone `utcOffset` seconds east of UTC. A last line cut off by a crash is ignored
    /// (the run is then incomplete); any other line that is not a JSON object is an error.
    package static func read(
        _ bytes: UnsafeRawBufferPointer, path: String, utcOffset: Int
    ) throws(TestResultsError) -> TestRun {
        var reader = Reader(path: path, utcOffset: utcOffset)
        try reader.consume(bytes)
        return try reader.finish()
    }

    /// Reads an event stream given in pieces, line by line: memory holds the tests, not the stream.
    package struct Reader {
        private let path: String
        private let utcOffset: Int
        private var lines = LogLineReader(lineLimit: 64 << 20)
        private var records: [TestRecord] = []
        private var recordIndexByID: [String: Int] = [:]
        private var progress: [String: Progress] = [:]
        private var run = TestRun()
        private var runEnded = false
        private var lineNumber = 0
        /// A line that is not JSON: an error, unless it is the last (cut off by a crash).
        private var malformed: (line: Int, message: String)?
        private var failure: TestResultsError?

        /// A reader of the stream in `path` (named in messages).
        package init(path: String, utcOffset: Int) {
            self.path = path
            self.utcOffset = utcOffset
        }

        /// Reads the next bytes.
        package mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(TestResultsError) {
            LogLineReader.using(&self, \.lines) { lines, reader in
                lines.consume(bytes) { reader.consume(line: $0, wasCut: $1) }
            }
            if let failure { throw failure }
        }

        /// Ends the stream and assembles the run.
        package mutating func finish() throws(TestResultsError) -> TestRun {
            LogLineReader.using(&self, \.lines) { lines, reader in
                lines.finish { reader.consume(line: $0, wasCut: $1) }
            }
            if let failure { throw failure }
            if malformed != nil { run.isComplete = false }
            if !runEnded { run.isComplete = false }
            run.suites = suites(records: records, progress: progress, runEnded: runEnded, utcOffset: utcOffset)
            if run.suites.contains(where: { $0.cases.contains { $0.issues.contains { $0.kind == .crash } } }) {
                run.isComplete = false
            }
            return run
        }

        private mutating func consume(line: UnsafeRawBufferPointer, wasCut: Bool) {
            guard failure == nil else { return }
            lineNumber += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
            if let malformed {
                failure = .malformedEventStream(path: path, line: malformed.line, message: malformed.message)
                return
            }
            let value: JSONValue
            do {
                value = try JSONValue.parse(line)
            } catch {
                malformed = (lineNumber, wasCut ? "line longer than 64 MiB" : error.description)
                return
            }
            guard case .object = value, let payload = value["payload"] else {
                failure = .malformedEventStream(
                    path: path, line: lineNumber, message: "expected {\"kind\":…,\"payload\":{…}}")
                return
            }
            switch value["kind"]?.stringValue {
            case "test":
                if let record = testRecord(payload) {
                    recordIndexByID[record.id] = records.count
                    records.append(record)
                }
            case "event":
                run.hasTestOutput = true
                let record = payload["testID"]?.stringValue.flatMap { recordIndexByID[$0] }.map { records[$0] }
                let ended = apply(event: payload, to: &progress, record: record, run: &run)
                runEnded = runEnded || ended
            default:
                return
            }
        }
    }

    private static func testRecord(_ payload: JSONValue) -> TestRecord? {
        guard let id = payload["id"]?.stringValue, let name = payload["name"]?.stringValue else { return nil }
        var caseIDs: [String] = []
        var caseNames: [String: String] = [:]
        if case .array(let cases)? = payload["_testCases"] {
            for testCase in cases {
                guard let caseID = testCase["id"]?.stringValue else { continue }
                caseIDs.append(caseID)
                caseNames[caseID] = testCase["displayName"]?.stringValue
            }
        }
        return TestRecord(
            id: id, isSuite: payload["kind"]?.stringValue == "suite", name: name,
            displayName: payload["displayName"]?.stringValue, caseIDs: caseIDs, caseDisplayNames: caseNames,
            location: location(payload["sourceLocation"]))
    }

    private static func location(_ value: JSONValue?) -> TestRun.SourceLocation? {
        guard let value, let file = value["_filePath"]?.stringValue ?? value["fileID"]?.stringValue,
            let line = value["line"]?.numberValue
        else { return nil }
        // Numbers out of any file's range (a corrupt stream) leave the location out.
        guard let line = Int(exactly: line.rounded(.down)), line >= 0 else { return nil }
        let column = value["column"]?.numberValue.flatMap { Int(exactly: $0.rounded(.down)) }
        return TestRun.SourceLocation(file: file, line: line, column: column)
    }

    /// Applies one event; returns whether it ended the run.
    private static func apply(
        event: JSONValue, to progress: inout [String: Progress], record: TestRecord?, run: inout TestRun
    ) -> Bool {
        let kind = event["kind"]?.stringValue ?? ""
        let instant = event["instant"]?["absolute"]?.numberValue
        let messages: [(symbol: String, text: String)]
        if case .array(let values)? = event["messages"] {
            messages = values.compactMap { message in
                message["text"]?.stringValue.map { (message["symbol"]?.stringValue ?? "", $0) }
            }
        } else {
            messages = []
        }
        guard let testID = event["testID"]?.stringValue else {
            if kind == "runEnded" {
                if let text = messages.first?.text,
                    case .runEnded(let tests, let suites, _, let seconds, let counts)? =
                        TestLogLine.parseSwiftTestingMessage(Substring(text))
                {
                    run.summaries.append(
                        .swiftTesting(
                            tests: tests, suites: suites, issues: counts.failing, knownIssues: counts.knownIssues,
                            warnings: counts.warnings, seconds: seconds))
                }
                return true
            }
            return false
        }
        let caseID = event["_testCase"]?["id"]?.stringValue
        var state = progress[testID] ?? Progress()
        defer { progress[testID] = state }
        switch kind {
        case "testStarted":
            state.start = instant
            state.startEpoch = event["instant"]?["since1970"]?.numberValue
        case "testEnded":
            state.end = instant
        case "testSkipped", "testCancelled":
            state.skipped = true
            state.startEpoch = state.startEpoch ?? event["instant"]?["since1970"]?.numberValue
            if case .array(let comments)? = event["_comments"], let first = comments.first?.stringValue {
                state.skipReason = first
            } else if let text = messages.first?.text,
                case .skipped(_, _, let reason)? = TestLogLine.parseSwiftTestingMessage(Substring(text))
            {
                state.skipReason = reason
            }
        case "testCaseStarted":
            guard let caseID else { break }
            var arguments = event["_testCase"]?["displayName"]?.stringValue
            if let text = messages.first?.text,
                case .caseStarted(let argumentsAndTest)? = TestLogLine.parseSwiftTestingMessage(Substring(text)),
                let record,
                argumentsAndTest.hasSuffix(" to " + record.consoleName)
            {
                arguments = String(argumentsAndTest.dropLast(record.consoleName.count + 4))
            }
            var key = caseID
            if state.cases[key] != nil { key = caseID + "\u{0}\(state.caseOrder.count)" }
            state.caseOrder.append(key)
            state.latestKey[caseID] = key
            state.cases[key] = (arguments, instant, nil)
        case "testCaseEnded":
            if let key = state.key(of: caseID) { state.cases[key]?.end = instant }
        case "issueRecorded":
            guard let issue = event["issue"] else { break }
            let primary = messages.first { $0.symbol != "details" }
            var text = primary?.text ?? "Issue recorded"
            for detail in messages where detail.symbol == "details" { text += "\n" + detail.text }
            let issueKind: TestRun.Issue.Kind
            if case .bool(true)? = issue["isKnown"] {
                issueKind = .knownIssue
            } else if primary?.symbol == "warning" || issue["severity"]?.stringValue == "warning" {
                issueKind = .warning
            } else if issue["_error"] != nil || text.hasPrefix("Caught error") {
                issueKind = .error
            } else {
                issueKind = .failure
            }
            let location = location(issue["sourceLocation"]) ?? location(event["_sourceLocation"])
            state.issues.append(
                (state.key(of: caseID), TestRun.Issue(kind: issueKind, message: text, location: location)))
        case "valueAttached":
            // A file attached while the test ran (written only with `--attachments-path`).
            guard let path = event["attachment"]?["path"]?.stringValue, !path.isEmpty,
                state.attachments.count < maximumAttachments
            else { break }
            let name =
                event["attachment"]?["_preferredName"]?.stringValue ?? path.split(separator: "/").last.map(String.init)
                ?? path
            state.attachments.append(
                (
                    state.key(of: caseID),
                    TestRun.Attachment(
                        name: name, path: path, time: event["instant"]?["since1970"]?.numberValue,
                        location: location(event["_sourceLocation"]))
                ))
        default:
            break
        }
        return false
    }

    /// The most attachments kept of one test (a loop attaching a screen per frame).
    package static let maximumAttachments = 1_000

    /// The test's suite ID (`Module.Suite/Inner`), or nil for a free-standing test, from its
    /// ID: `Module.Suite/Inner/name(x:)/File.swift:12:6`.
    private static func suiteID(of record: TestRecord) -> String? {
        var components = record.id.split(separator: "/", omittingEmptySubsequences: false)
        if let last = components.last, last.contains(".swift:") { components.removeLast() }
        guard components.count > 1 else { return nil }
        return components.dropLast().joined(separator: "/")
    }

    private static func module(of id: String) -> String {
        String(id.prefix { $0 != "." && $0 != "/" })
    }

    private static func suites(
        records: [TestRecord], progress: [String: Progress], runEnded: Bool, utcOffset: Int
    ) -> [TestRun.Suite] {
        let suiteRecords = Dictionary(
            records.filter(\.isSuite).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var suites: [String: TestRun.Suite] = [:]
        // Tests run in parallel, so events come in a different order each run; declarations do not.
        let functions = records.enumerated().filter { !$0.element.isSuite }.sorted { first, second in
            let (a, b) = (first.element.location, second.element.location)
            switch (a, b) {
            case (let a?, let b?):
                if a.file != b.file { return a.file < b.file }
                if a.line != b.line { return a.line < b.line }
                if a.column != b.column { return (a.column ?? 0) < (b.column ?? 0) }
            case (nil, .some): return false
            case (.some, nil): return true
            case (nil, nil): break
            }
            return first.offset < second.offset
        }
        for (_, record) in functions {
            guard let state = progress[record.id], state.skipped || state.start != nil else { continue }
            let suiteKey = suiteID(of: record) ?? module(of: record.id)
            let className = suiteKey.replacingSlashes
            if suites[suiteKey] == nil {
                let suiteRecord = suiteRecords[suiteKey]
                var suite = TestRun.Suite(
                    name: className, displayName: suiteRecord?.displayName, framework: .swiftTesting)
                if let suiteState = progress[suiteKey], let start = suiteState.start, let end = suiteState.end {
                    suite.reportedDuration = end - start
                }
                suites[suiteKey] = suite
            }
            let epoch = progress[suiteKey]?.startEpoch ?? state.startEpoch
            if let epoch, let timestamp = Clock.timestamp(epoch, utcOffset: utcOffset),
                suites[suiteKey]!.timestamp.map({ timestamp < $0 }) ?? true
            {
                suites[suiteKey]!.timestamp = timestamp
            }
            suites[suiteKey]!.cases += cases(of: record, state: state, className: className)
        }
        return suites.values.sorted { $0.name < $1.name }
    }

    private static func cases(of record: TestRecord, state: Progress, className: String) -> [TestRun.Case] {
        let testName = record.displayName ?? record.name
        let crashed = !state.skipped && state.end == nil
        var testLevel = state.issues.filter { issue in issue.caseID.map { state.cases[$0] == nil } ?? true }.map(
            \.issue)
        let didNotFinish = TestRun.Issue(
            kind: .crash,
            message:
                "The test did not finish: the event stream ends while it runs (the test process crashed or was killed)."
        )
        // A crash ends the cases still running; the test itself only when none was.
        let unfinishedCases = crashed && state.cases.values.contains { $0.end == nil }
        if crashed && !unfinishedCases { testLevel.append(didNotFinish) }
        let baseStatus: TestRun.Status = state.skipped ? .skipped : .passed
        let declared = Set(record.caseIDs)
        let orderedCases =
            record.caseIDs.filter { state.cases[$0] != nil } + state.caseOrder.filter { !declared.contains($0) }
        let issuesByCase = Dictionary(grouping: state.issues.compactMap { $0.caseID == nil ? nil : $0 }) { $0.caseID! }
        let attachmentsByCase = Dictionary(grouping: state.attachments.filter { $0.caseID != nil }) { $0.caseID! }
        guard !orderedCases.isEmpty else {
            var single = TestRun.Case(className: className, testName: testName, status: baseStatus)
            single.attachments = state.attachments.map(\.attachment)
            single.issues = state.issues.map(\.issue) + (crashed ? [didNotFinish] : [])
            single.status = TestLogParser.settledStatus(single.issues, default: baseStatus)
            single.skipReason = state.skipReason
            single.location = record.location
            if record.displayName != nil { single.function = record.name }
            if let start = state.start, let end = state.end { single.duration = end - start }
            return [single]
        }
        var result: [TestRun.Case] = orderedCases.map { key in
            let info = state.cases[key]!
            let caseID = String(key.prefix { $0 != "\u{0}" })
            let arguments = info.arguments ?? record.caseDisplayNames[caseID] ?? caseID
            var testCase = TestRun.Case(className: className, testName: testName, arguments: arguments, status: .passed)
            testCase.issues = issuesByCase[key]?.map(\.issue) ?? []
            testCase.attachments = attachmentsByCase[key]?.map(\.attachment) ?? []
            if crashed && info.end == nil { testCase.issues.append(didNotFinish) }
            testCase.status = TestLogParser.settledStatus(testCase.issues, default: baseStatus)
            testCase.location = record.location
            if record.displayName != nil { testCase.function = record.name }
            if let start = info.start, let end = info.end { testCase.duration = end - start }
            return testCase
        }
        let failing = testLevel.filter(\.isFailing)
        if !failing.isEmpty {
            var whole = TestRun.Case(className: className, testName: testName, status: .failed)
            whole.issues = failing
            whole.status = TestLogParser.settledStatus(failing, default: .failed)
            whole.location = record.location
            if record.displayName != nil { whole.function = record.name }
            result.append(whole)
        }
        result[0].issues += testLevel.filter { !$0.isFailing }
        // Attached outside any of its cases: the first case's.
        result[0].attachments += state.attachments.filter { $0.caseID.map { state.cases[$0] == nil } ?? true }.map(
            \.attachment)
        return result
    }
}

extension String {
    /// `Module.Suite/Inner` → `Module.Suite.Inner`.
    fileprivate var replacingSlashes: String {
        String(unicodeScalars.map { $0 == "/" ? "." : Character($0) })
    }
}
