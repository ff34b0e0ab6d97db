import SwiftCovModel
import SwiftCovPlatform

/// Reads each test run's evidence (`TestEvidence`) from a result bundle's object graph:
/// `ActionTestMetadata.summaryRef` → `ActionTestSummary`, whose `activitySummaries`
/// (`ActionTestActivitySummary`: title, activity type, start, finish, `subactivities`,
/// `attachments`, `failureSummaryIDs`, `expectedFailureIDs`) are the steps, whose
/// `failureSummaries` and `expectedFailures` are the failures, and whose attachments
/// (`ActionTestAttachment`) name their bytes by `payloadRef` (the file `Data/data.<id>`).
///
/// A failure is tied to the step that names it (`failureSummaryIDs`, Xcode 13 and later), else
/// to the assertion-failure step whose title ends with its message (the step Xcode records for
/// each failed assertion: `Assertion Failure at File.swift:28: message`). Bounded: steps are
/// walked with a stack of their own (never recursion), at most `TestEvidence.maximumActivities`
/// steps and `maximumAttachments` attachments a run, titles and messages within one
/// `TextBudget` a run; what is left out is said in `leftOut`.
package enum XcodeEvidence {
    /// The evidence of a test's summary read alone, outside any run (named `A/b()`, failed): the
    /// legacy evidence path's entry point for the fuzzer.
    package static func evidence(ofSummary summary: XCResultObject) -> TestEvidence {
        evidence(
            summary: summary, testIdentifier: "A/b()",
            testCase: TestRun.Case(className: "A", testName: "b()", status: .failed), label: XcodeRunBuilder.Label())
    }

    /// The evidence of one test run from its summary; `testCase` and `label` are what the tests'
    /// reader made of the run (its names, outcome, configuration and destination).
    static func evidence(
        summary: XCResultObject, testIdentifier: String, testCase: TestRun.Case, label: XcodeRunBuilder.Label
    ) -> TestEvidence {
        var evidence = TestEvidence(
            testIdentifier: testIdentifier, className: testCase.className, testName: testCase.testName,
            status: testCase.status)
        evidence.configuration = label.configuration
        evidence.deviceName = label.device
        evidence.deviceIdentifier = label.deviceIdentifier
        evidence.arguments = testCase.arguments ?? label.testConfiguration
        evidence.argumentValues = summary.array("arguments").map { argument in
            argument["value"]?.string("description") ?? argument.string("identifier") ?? ""
        }
        var budget = TextBudget()
        func kept(_ text: String) -> String { budget.admit(text) + budget.endElement() }

        var failureOfUUID: [String: Int] = [:]
        var messages: [String] = []
        func addFailure(_ failure: XCResultObject, expected: Bool) {
            let message = failure.string("message") ?? ""
            let uuid = failure.string("uuid")
            if let uuid, failureOfUUID[uuid] == nil { failureOfUUID[uuid] = evidence.failures.count }
            messages.append(message)
            evidence.failures.append(
                TestEvidence.Failure(
                    message: kept(message), location: XcodeTestResults.location(of: failure), isExpected: expected,
                    uuid: uuid))
        }
        for failure in summary.array("failureSummaries") { addFailure(failure, expected: false) }
        for expected in summary.array("expectedFailures") {
            addFailure(expected["failureSummary"] ?? expected, expected: true)
        }

        // Depth first, with a stack of steps still to visit (their parent and depth).
        var pending: [(activity: XCResultObject, parent: Int?, depth: Int)] = summary.array("activitySummaries")
            .reversed().map { ($0, nil, 0) }
        var assertionSteps: [(position: Int, title: String)] = []
        var stepsLeftOut = 0
        var attachmentsLeftOut = 0
        while let (activity, parent, depth) = pending.popLast() {
            guard evidence.activities.count < TestEvidence.maximumActivities else {
                stepsLeftOut += 1
                pending.append(contentsOf: activity.array("subactivities").map { ($0, nil, depth + 1) })
                continue
            }
            let position = evidence.activities.count
            let title = activity.string("title") ?? ""
            let type = activity.string("activityType")
            evidence.activities.append(
                TestEvidence.Activity(
                    title: kept(title), activityType: type, start: activity.string("start").flatMap(Self.seconds),
                    finish: activity.string("finish").flatMap(Self.seconds), uuid: activity.string("uuid"),
                    parent: parent, depth: depth))
            if type?.hasSuffix("AssertionFailure") == true { assertionSteps.append((position, title)) }
            for id in activity.array("failureSummaryIDs") + activity.array("expectedFailureIDs") {
                if let uuid = id.value, let failure = failureOfUUID[uuid], evidence.failures[failure].activity == nil {
                    evidence.failures[failure].activity = position
                }
            }
            for attachment in activity.array("attachments") {
                guard evidence.attachments.count < TestEvidence.maximumAttachments else {
                    attachmentsLeftOut += 1
                    continue
                }
                evidence.attachments.append(Self.attachment(attachment, at: position, kept: kept))
            }
            pending.append(contentsOf: activity.array("subactivities").reversed().map { ($0, position, depth + 1) })
        }

        // Failures no step names: the assertion-failure step that says their message.
        for (position, title) in assertionSteps {
            if let failure = evidence.failures.indices.first(where: {
                evidence.failures[$0].activity == nil && !messages[$0].isEmpty && title.hasSuffix(messages[$0])
            }) {
                evidence.failures[failure].activity = position
            }
        }
        let failingSteps = Set(evidence.failures.compactMap(\.activity))
        for index in evidence.attachments.indices {
            if let step = evidence.attachments[index].activity, failingSteps.contains(step) {
                evidence.attachments[index].isAssociatedWithFailure = true
            }
        }
        var notes: [String] = []
        if stepsLeftOut > 0 { notes.append("\(stepsLeftOut) steps past the first \(TestEvidence.maximumActivities)") }
        if attachmentsLeftOut > 0 {
            notes.append("\(attachmentsLeftOut) attachments past the first \(TestEvidence.maximumAttachments)")
        }
        if budget.isExhausted { notes.append(budget.leftOutNote(of: "text")) }
        if !notes.isEmpty { evidence.leftOut = notes.joined(separator: "; ") }
        return evidence
    }

    /// An `ActionTestAttachment` at step `position`.
    static func attachment(
        _ object: XCResultObject, at position: Int?, kept: (String) -> String
    ) -> TestEvidence.Attachment {
        var payload: TestEvidence.Payload?
        if let id = object.reference("payloadRef") {
            let size = object.number("payloadSize").flatMap { $0 >= 0 && $0 < 0x1p62 ? Int($0) : nil }
            payload = TestEvidence.Payload(id: id, size: size)
        }
        return TestEvidence.Attachment(
            name: kept(object.string("name") ?? ""), uniformTypeIdentifier: object.string("uniformTypeIdentifier"),
            timestamp: object.string("timestamp").flatMap(Self.seconds), lifetime: object.string("lifetime"),
            filename: object.string("filename").map(kept), uuid: object.string("uuid"), payload: payload,
            activity: position)
    }

    /// A date as the object graph writes it (`2020-06-24T15:17:08.439-0700`; `Z`, `+02:00` too)
    /// in seconds since 1970; nil when it is not one.
    static func seconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                index += 1
            }
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip(UInt8(ascii: "-")), let month = number(2), skip(UInt8(ascii: "-")),
            let day = number(2), skip(UInt8(ascii: "T")), let hour = number(2), skip(UInt8(ascii: ":")),
            let minute = number(2), skip(UInt8(ascii: ":")), let second = number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if skip(UInt8(ascii: ".")) {
            var scale = 0.1
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
        }
        var offset = 0
        if skip(UInt8(ascii: "Z")) {
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = skip(UInt8(ascii: ":"))
            guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count else { return nil }
        // Days from 1970-01-01 to the civil date (proleptic Gregorian).
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}

extension XCResultBundle {
    /// Each test run's evidence in the bundle at `path`: from its object graph, or from its
    /// `database.sqlite3` when that is all it holds (`XcodeResultDatabase.evidence`), with
    /// warnings for what could not be read (a test's summary the bundle lacks or cannot decode).
    package static func evidence(path: String) throws(TestResultsError) -> (
        evidence: [TestEvidence], warnings: [Diagnostic]
    ) {
        var read: (evidence: [TestEvidence], warnings: [Diagnostic])
        if holdsOnlyDatabase(path) {
            read = (try XcodeResultDatabase.evidence(bundle: path), [])
        } else {
            let (bundle, record) = try openGraph(path)
            read = try XcodeTestResults.evidence(invocationRecord: record, load: bundle.loader, path: path)
        }
        for index in read.evidence.indices { read.evidence[index].bundle = path }
        return read
    }
}
