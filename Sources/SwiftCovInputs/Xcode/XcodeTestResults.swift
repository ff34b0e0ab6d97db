import SwiftCovModel
import SwiftCovPlatform

/// Reads the tests of an Xcode result (a result bundle's object graph, or `xcresulttool get
/// --legacy`'s JSON of it) into a `TestRun`:
/// `ActionsInvocationRecord.actions[].actionResult.testsRef` → `ActionTestPlanRunSummaries` →
/// `ActionTestPlanRunSummary` (a test-plan configuration) → `ActionTestableSummary` (a test
/// bundle) → `ActionTestSummaryGroup`… → `ActionTestMetadata`, whose `summaryRef`
/// (`ActionTestSummary`) holds failures with their file and line, the skip's reason and a Swift
/// Testing case's arguments.
///
/// - A run has an identity: its test-plan configuration, its destination (device identifier,
///   model, OS version and build), the test's own configuration (a UI test's appearance and
///   orientation) and its arguments. Runs that differ in any of these are separate cases, never
///   attempts; a test run again with the same identity (Xcode's retries, `-test-iterations`, the
///   same test in several actions on one destination) is one case with its earlier attempts,
///   its outcome the last attempt's.
/// - Expected failures pass (the failure is kept as a known issue).
/// - Failures outside any test (a session-level issue, a build error, an action that failed
///   without a failing test) are failing cases of their own: a failure is never lost.
/// - Several configurations or run destinations: one suite per class per each, named
///   `Module.Class (configuration, device, test configuration)` with the parts that differ (a
///   device name two destinations share followed by the destination's model, OS and identifier).
/// - A failure the record names `-[Suite name(value:)]` (Xcode 26) is `Suite.name(value:)`'s;
///   an error the record repeats for a failing test (a test runner's) is not written twice.
/// - An object of a type that is not expected where it is met is skipped with a warning
///   (`TestRun.warnings`), never guessed.
package enum XcodeTestResults {
    /// Gives the object a reference points to (`testsRef`, `summaryRef` ids), nil when the input
    /// does not hold it (a bundle of Xcode 16+, which keeps tests in its database; a JSON file
    /// of one object); throws when it holds it and cannot read it.
    package typealias Loader = (String) throws(TestResultsError) -> XCResultObject?

    /// The run of an invocation record (a bundle's root; nil when only test summaries are at
    /// hand) and of `testPlanRunSummaries` read apart (objects of type
    /// `ActionTestPlanRunSummaries`); the tests the record refers to are loaded through `load`.
    /// `path` names the input in messages.
    package static func testRun(
        invocationRecord: XCResultObject?, testPlanRunSummaries: [XCResultObject], load: @escaping Loader, path: String
    ) throws(TestResultsError) -> TestRun {
        var reader = GraphReader(path: path, load: load)
        if let invocationRecord {
            guard invocationRecord.isA("ActionsInvocationRecord") else {
                throw .malformedXcodeResult(
                    path: path, offset: nil, keyPath: nil,
                    message: "an object of type \(invocationRecord.type), not an ActionsInvocationRecord")
            }
            try reader.readInvocationRecord(invocationRecord)
        }
        for (index, summaries) in testPlanRunSummaries.enumerated() {
            reader.readPlanRunSummaries(summaries, keyPath: "[\(index)]", destination: XcodeRunBuilder.Label())
        }
        if let invocationRecord { reader.readIssues(of: invocationRecord) }
        return reader.builder.finish(warnings: reader.warnings)
    }

    /// The run of one object: an invocation record or a test plan's run summaries (what
    /// `xcresulttool get --legacy` prints for the root and for `--id testsRef`).
    package static func testRun(
        object: XCResultObject, load: @escaping Loader, path: String
    ) throws(TestResultsError) -> TestRun {
        if object.isA("ActionsInvocationRecord") {
            return try testRun(invocationRecord: object, testPlanRunSummaries: [], load: load, path: path)
        }
        if object.isA("ActionTestPlanRunSummaries") {
            return try testRun(invocationRecord: nil, testPlanRunSummaries: [object], load: load, path: path)
        }
        throw .malformedXcodeResult(
            path: path, offset: nil, keyPath: nil,
            message:
                "an Xcode object of type \(object.type); swiftcov reads an ActionsInvocationRecord "
                + "or ActionTestPlanRunSummaries (the root or `--id` of the action's testsRef)")
    }

    /// Each test run's evidence (`TestEvidence`) in an invocation record's tests, loaded through
    /// `load`, with warnings for what could not be read.
    package static func evidence(
        invocationRecord: XCResultObject, load: @escaping Loader, path: String
    ) throws(TestResultsError) -> (evidence: [TestEvidence], warnings: [Diagnostic]) {
        var reader = GraphReader(path: path, load: load)
        reader.evidence = []
        try reader.readInvocationRecord(invocationRecord)
        return (reader.evidence ?? [], reader.warnings)
    }

    /// The results of an invocation record's tests (`xcresulttool get test-results`' documents
    /// are made from them), loaded through `load`, with warnings for what could not be read: the
    /// tree the tool shows (each testable, its groups, its tests; a test's runs in each
    /// configuration, on each destination, with each argument case and repetition), the devices,
    /// configurations, the action's times, its scheme and SDK.
    package static func testResults(
        invocationRecord: XCResultObject, load: @escaping Loader, path: String
    ) throws(TestResultsError) -> (results: XcodeTestsDocument.Results, warnings: [Diagnostic]) {
        var reader = GraphReader(path: path, load: load)
        reader.document = XcodeTestsDocument.Builder()
        try reader.readInvocationRecord(invocationRecord)
        var results = reader.document?.finish() ?? XcodeTestsDocument.Results()
        // The first test action's name, times, scheme and SDK.
        if let action = invocationRecord.array("actions").first(where: { $0["actionResult"]?["testsRef"] != nil }) {
            if let plan = action.string("testPlanName"), !plan.isEmpty { results.plan = plan }
            let metadata = try invocationRecord.reference("metadataRef").flatMap(load)
            let scheme = metadata?["schemeIdentifier"]?.string("entityName")
            if let name = action.string("schemeCommandName"), let scheme { results.title = name + " - " + scheme }
            if let scheme, let sdk = action["runDestination"]?["targetSDKRecord"]?.string("name") {
                results.environmentDescription = scheme + " · Built with " + sdk
            }
            results.startTime = action.string("startedTime").flatMap(XcodeEvidence.seconds)
            results.finishTime = action.string("endedTime").flatMap(XcodeEvidence.seconds)
        }
        return (results, reader.warnings)
    }

    /// `file:///path/File.swift#…&StartingLineNumber=108…` (lines from 0) as a location.
    static func location(documentURL url: String) -> TestRun.SourceLocation? {
        let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        var file = String(parts[0])
        if file.hasPrefix("file://") { file = percentDecoded(String(file.dropFirst(7))) }
        guard !file.isEmpty else { return nil }
        guard parts.count == 2 else { return nil }
        for item in parts[1].split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == "StartingLineNumber", let line = Int(pair[1]), line >= 0, line < Int32.max {
                return TestRun.SourceLocation(file: file, line: line + 1)
            }
        }
        return nil
    }

    /// A failure's place: its own file and line (from 1), else its document location's URL.
    static func location(of failure: XCResultObject) -> TestRun.SourceLocation? {
        if let file = failure.string("fileName"), !file.isEmpty, let line = failure.number("lineNumber"), line >= 1,
            line < Double(Int32.max)
        {
            return TestRun.SourceLocation(file: file, line: Int(line))
        }
        if let url = failure["documentLocationInCreatingWorkspace"]?.string("url") {
            return XcodeTestResults.location(documentURL: url)
        }
        return nil
    }

    /// `%20` and the like decoded; malformed escapes kept as they are.
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count, let high = hex(utf8[index + 1]),
                let low = hex(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The name of the suite of failures recorded outside any test (xcresultparser's).
    static let sessionLevelSuite = "Session-level issues"
    /// The name of the test that holds them.
    static let sessionLevelTest = "Issues recorded without an associated test or suite"
    /// The suite of errors outside tests (the build, an action that failed).
    static let xcodeSuite = "Xcode"
}

/// Walks an object graph into a `XcodeRunBuilder`.
private struct GraphReader {
    let path: String
    let load: XcodeTestResults.Loader
    var builder = XcodeRunBuilder()
    var warnings: [Diagnostic] = []
    /// Each test run's evidence, when asked for (`XCResultBundle.evidence`); nil otherwise.
    var evidence: [TestEvidence]?
    /// The tool's tree of the tests, when asked for (`XcodeTestResults.testResults`); nil otherwise.
    var document: XcodeTestsDocument.Builder?
    /// The device of the action being read, as the tool's documents list it.
    var device: XcodeTestsDocument.Device?
    /// The runs met of each identity (configuration, device, arguments, test), for repetitions
    /// the graph does not number.
    var repetitions: [[String?]: Int] = [:]
    /// Failing outcomes of actions with no failure recorded for them.
    var actionFailures: [String] = []

    init(path: String, load: @escaping XcodeTestResults.Loader) {
        self.path = path
        self.load = load
    }

    /// The object `id`, as the loader gives it each time (a bundle's keeps a byte-bounded cache:
    /// the reader keeps no object). An object is followed no further than the test it is met at.
    mutating func object(_ id: String) throws(TestResultsError) -> XCResultObject? {
        try load(id)
    }

    mutating func warn(_ keyPath: String, _ message: String) {
        warnings.append(.warning(file: path, at: .keyPath(keyPath), message))
    }

    mutating func readInvocationRecord(_ record: XCResultObject) throws(TestResultsError) {
        var seen: Set<String> = []
        for (index, action) in record.array("actions").enumerated() {
            let keyPath = "actions[\(index)]"
            guard action.isA("ActionRecord") else {
                warn(keyPath, "skipped an object of type \(action.type), not an ActionRecord")
                continue
            }
            let destination = Self.destination(action["runDestination"])
            device = Self.device(action["runDestination"])
            for resultKey in ["buildResult", "actionResult"] {
                guard let result = action[resultKey] else { continue }
                let status = result.string("status") ?? ""
                if ["failed", "cancelled", "errored", "interrupted"].contains(status) {
                    let name = result.string("resultName") ?? resultKey
                    let title = action.string("title").map { " (\($0))" } ?? ""
                    actionFailures.append("Xcode's \(name) action\(title) ended: \(status)")
                }
            }
            guard let id = action["actionResult"]?.reference("testsRef"), seen.insert(id).inserted else { continue }
            guard let summaries = try object(id) else {
                warn(
                    keyPath + ".actionResult.testsRef",
                    "the tests (object \(id)) are not in this input (a bundle missing objects, or the root's JSON "
                        + "alone): only the failures the invocation record names are read")
                continue
            }
            readPlanRunSummaries(summaries, keyPath: keyPath + ".actionResult.testsRef", destination: destination)
        }
    }

    /// An action's run destination (`ActionRunDestinationRecord`): its name, and its device's
    /// identifier, model and OS version and build, which tell apart destinations of one name.
    static func destination(_ record: XCResultObject?) -> XcodeRunBuilder.Label {
        guard let record else { return XcodeRunBuilder.Label() }
        let device = record["targetDeviceRecord"]
        let identity = [
            device?.string("modelName"),
            device?.string("operatingSystemVersionWithBuildNumber") ?? device?.string("operatingSystemVersion"),
            device?.string("identifier"),
        ].compactMap { $0 }.filter { !$0.isEmpty }
        return XcodeRunBuilder.Label(
            device: record.string("displayName") ?? device?.string("name"),
            destination: identity.isEmpty ? nil : identity.joined(separator: ", "),
            deviceIdentifier: device?.string("identifier"))
    }

    /// An action's run destination as the tool's documents list its device (the destination's
    /// architecture, the device's name, model, OS and platform).
    static func device(_ record: XCResultObject?) -> XcodeTestsDocument.Device? {
        guard let device = record?["targetDeviceRecord"], let id = device.string("identifier"), !id.isEmpty else {
            return nil
        }
        return XcodeTestsDocument.Device(
            id: id, name: device.string("name"),
            architecture: record?.string("targetArchitecture") ?? device.string("nativeArchitecture"),
            modelName: device.string("modelName"), osVersion: device.string("operatingSystemVersion"),
            osVersionWithBuildNumber: device.string("operatingSystemVersionWithBuildNumber"),
            platform: device["platformRecord"]?.string("userDescription"))
    }

    mutating func readPlanRunSummaries(_ summaries: XCResultObject, keyPath: String, destination: XcodeRunBuilder.Label)
    {
        guard summaries.isA("ActionTestPlanRunSummaries") else {
            warn(keyPath, "skipped an object of type \(summaries.type), not ActionTestPlanRunSummaries")
            return
        }
        for (index, plan) in summaries.array("summaries").enumerated() {
            let planPath = keyPath + ".summaries[\(index)]"
            guard plan.isA("ActionTestPlanRunSummary") else {
                warn(planPath, "skipped an object of type \(plan.type), not an ActionTestPlanRunSummary")
                continue
            }
            var label = destination
            label.configuration = plan.string("name")
            for (testableIndex, testable) in plan.array("testableSummaries").enumerated() {
                let testablePath = planPath + ".testableSummaries[\(testableIndex)]"
                guard testable.isA("ActionTestableSummary") else {
                    warn(testablePath, "skipped an object of type \(testable.type), not an ActionTestableSummary")
                    continue
                }
                var module = testable.string("targetName") ?? testable.string("name") ?? ""
                if module.hasSuffix(".xctest") { module.removeLast(7) }
                let bundle = XcodeTestsDocument.Group(
                    type: testable.string("testKind") == "UI" ? "UI test bundle" : "Unit test bundle",
                    name: testable.string("name") ?? module, url: testable.string("identifierURL"))
                readTests(
                    testable.array("tests"), keyPath: testablePath + ".tests", label: label, module: module,
                    group: nil, place: (bundle, []), depth: 0)
            }
        }
    }

    /// Where a test is in the tool's tree: its bundle and its suites, outermost first.
    typealias Place = (bundle: XcodeTestsDocument.Group, suites: [(name: String, url: String?)])

    mutating func readTests(
        _ tests: [XCResultObject], keyPath: String, label: XcodeRunBuilder.Label, module: String, group: String?,
        place: Place, depth: Int
    ) {
        guard depth < XCResultObject.maximumDepth else { return }  // deeper than any parser returns
        for (index, test) in tests.enumerated() {
            let testPath = keyPath + "[\(index)]"
            if test.isA("ActionTestSummaryGroup") {
                var name = test.string("name") ?? ""
                // The wrappers Xcode puts around a bundle's classes are no class.
                if name == "All tests" || name.hasSuffix(".xctest") { name = "" }
                var inner = place
                if !name.isEmpty { inner.suites.append((name, test.string("identifierURL"))) }
                readTests(
                    test.array("subtests"), keyPath: testPath + ".subtests", label: label, module: module,
                    group: name.isEmpty ? group : name, place: inner, depth: depth + 1)
            } else if test.isA("ActionTestMetadata") || test.isA("ActionTestSummary") {
                readTest(test, keyPath: testPath, label: label, module: module, group: group, place: place)
            } else {
                warn(testPath, "skipped an object of type \(test.type), not a test or a group of tests")
            }
        }
    }

    mutating func readTest(
        _ test: XCResultObject, keyPath: String, label: XcodeRunBuilder.Label, module: String, group: String?,
        place: Place
    ) {
        let identifier = test.string("identifier") ?? ""
        var name = test.string("name") ?? ""
        var className = group ?? ""
        if let slash = identifier.lastIndex(of: "/") {
            className = identifier[..<slash].split(separator: "/").joined(separator: ".")
            if name.isEmpty { name = String(identifier[identifier.index(after: slash)...]) }
        }
        if name.isEmpty { name = identifier.isEmpty ? "(unnamed test)" : identifier }
        var summary: XCResultObject? = test.isA("ActionTestSummary") ? test : nil
        if summary == nil, let id = test.reference("summaryRef") {
            do {
                summary = try object(id)
            } catch {
                warn(keyPath + ".summaryRef", "the test's summary cannot be read: \(error.diagnostic.message)")
            }
            if let loaded = summary, !loaded.isA("ActionTestSummary") {
                warn(keyPath + ".summaryRef", "skipped an object of type \(loaded.type), not an ActionTestSummary")
                summary = nil
            }
        }
        let statusText = test.string("testStatus") ?? summary?.string("testStatus") ?? ""
        var testCase = TestRun.Case(
            className: module.isEmpty ? className : className.isEmpty ? module : module + "." + className,
            testName: name, status: .passed, duration: test.number("duration") ?? summary?.number("duration"))
        var framework = TestRun.Framework.xctest
        var label = label
        if let summary {
            // A UI test run in each of its configurations (appearance, orientation): the runs
            // are separate cases, never retries of one another.
            let values = summary["configuration"]?["values"]?.array("storage").compactMap { pair in
                pair.string("key").map { $0 + ": " + (pair.string("value") ?? "") }
            }
            if let values, !values.isEmpty { label.testConfiguration = values.joined(separator: ", ") }
            let arguments = summary.array("arguments").map { argument in
                let value = argument["value"]?.string("description") ?? argument.string("identifier") ?? ""
                guard let label = argument["parameter"]?.string("label"), !label.isEmpty else { return value }
                return label + ": " + value
            }
            if !arguments.isEmpty {
                testCase.arguments = arguments.joined(separator: ", ")
                framework = .swiftTesting
            }
            for failure in summary.array("failureSummaries") {
                testCase.issues.append(Self.issue(failure, kind: .failure))
            }
            for expected in summary.array("expectedFailures") {
                let failure = expected["failureSummary"] ?? expected
                var issue = Self.issue(failure, kind: .knownIssue)
                if let reason = expected.string("failureReason"), !reason.isEmpty {
                    issue.message = reason + (issue.message.isEmpty ? "" : ": " + issue.message)
                }
                testCase.issues.append(issue)
            }
            if let skip = summary["skipNoticeSummary"] {
                testCase.skipReason = skip.string("message")
                testCase.location = XcodeTestResults.location(of: skip)
            }
        }
        switch statusText {
        case "Success", "Expected Failure":
            testCase.status = .passed
        case "Skipped":
            testCase.status = .skipped
        case "Failure":
            testCase.status = .failed
        default:
            // Never green: an outcome not known here is an error that says what it was.
            testCase.status = .error
            testCase.issues.append(
                TestRun.Issue(
                    kind: .error,
                    message: statusText.isEmpty ? "Xcode gives no status" : "Xcode's status: \(statusText)"))
        }
        if evidence != nil, let summary {
            var run = XcodeEvidence.evidence(
                summary: summary, testIdentifier: identifier.isEmpty ? name : identifier, testCase: testCase,
                label: label)
            run.attempt =
                1
                + evidence!.count(where: {
                    $0.className == run.className && $0.testName == run.testName
                        && $0.configuration == run.configuration && $0.deviceName == run.deviceName
                        && $0.deviceIdentifier == run.deviceIdentifier && $0.arguments == run.arguments
                })
            evidence!.append(run)
        }
        if document != nil {
            addToDocument(test, summary: summary, testCase: testCase, label: label, place: place, name: name)
        }
        builder.add(
            testCase, label: label, framework: framework, xcodeName: className + "." + name)
    }

    /// A test's run in the tool's tree: its configuration, device, argument case, repetition
    /// (`repetitionPolicySummary`, else its place among the runs met of the same identity), result,
    /// time and failure messages (`File.swift:LINE: message`).
    mutating func addToDocument(
        _ test: XCResultObject, summary: XCResultObject?, testCase: TestRun.Case, label: XcodeRunBuilder.Label,
        place: Place, name: String
    ) {
        let statusText = test.string("testStatus") ?? summary?.string("testStatus")
        var run = XcodeTestsDocument.Run(result: XcodeTestsDocument.result(statusText))
        run.configuration = label.configuration
        run.device = device
        run.arguments = testCase.arguments ?? label.testConfiguration
        run.duration = testCase.duration
        for failure in summary?.array("failureSummaries") ?? [] {
            let message = failure.string("message") ?? ""
            run.failures.append(message)
            if let location = XcodeTestResults.location(of: failure) {
                let file = location.file.split(separator: "/").last.map(String.init) ?? location.file
                run.messages.append("\(file):\(location.line): \(message)")
            } else {
                run.messages.append(message)
            }
        }
        if let skip = summary?["skipNoticeSummary"]?.string("message") { run.messages.append(skip) }
        run.hasPerformanceMetrics = !(summary?.array("performanceMetrics").isEmpty ?? true)
        let policy = summary?["repetitionPolicySummary"]
        if let policy, let iteration = policy.number("iteration"), iteration >= 1, iteration < 1e9 {
            run.repetition = Int64(iteration)
            run.retryOnFailure = policy.string("repetitionMode") == "RunRetryOnFailure"
        } else {
            let key = [run.configuration, run.device?.id, run.arguments, test.string("identifier") ?? name]
            run.repetition = Int64(repetitions[key, default: 0] + 1)
        }
        repetitions[
            [run.configuration, run.device?.id, run.arguments, test.string("identifier") ?? name], default: 0] +=
            1
        let testCase = XcodeTestsDocument.Case(
            name: name, identifier: test.string("identifier"), url: test.string("identifierURL"))
        document?.add(run, of: testCase, in: place.suites, bundle: place.bundle)
    }

    /// Failures the invocation record names: attached to a failing test that has none, a test
    /// the input does not hold (its own case), and outside tests; errors (the build's) and failed
    /// actions with no failure to show for them.
    mutating func readIssues(of record: XCResultObject) {
        let issues = record["issues"]
        var sessionLevel: [TestRun.Issue] = []
        // The record's issues gather its actions' (in the bundles of Xcode 14 and 15); where they
        // are empty (Xcode 26), the actions' own.
        var failures = issues?.array("testFailureSummaries") ?? []
        if failures.isEmpty {
            failures = record.array("actions").flatMap {
                $0["actionResult"]?["issues"]?.array("testFailureSummaries") ?? []
            }
        }
        for failure in failures {
            let issue = Self.issue(failure, kind: .failure)
            guard let testName = failure.string("testCaseName"), !testName.isEmpty else {
                sessionLevel.append(issue)
                continue
            }
            builder.attach(issue, toTestNamed: testName)
        }
        if !sessionLevel.isEmpty {
            var testCase = TestRun.Case(
                className: XcodeTestResults.sessionLevelSuite, testName: XcodeTestResults.sessionLevelTest,
                status: .failed)
            testCase.issues = sessionLevel
            builder.addOutside(testCase)
        }
        var errors = (issues?.array("errorSummaries") ?? []).map { Self.issue($0, kind: .error) }
        if errors.isEmpty {
            for action in record.array("actions") {
                for key in ["buildResult", "actionResult"] {
                    errors += (action[key]?["issues"]?.array("errorSummaries") ?? []).map {
                        Self.issue($0, kind: .error)
                    }
                }
            }
        }
        // An error that repeats a failing test's failure (Xcode records a test runner's error
        // both ways: "The test runner encountered an error (…)") is said once, by the test.
        errors.removeAll { builder.alreadySays($0.message) }
        let buildFailed = record.array("actions").contains { $0["buildResult"]?.string("status") == "failed" }
        if !errors.isEmpty {
            var testCase = TestRun.Case(
                className: XcodeTestResults.xcodeSuite, testName: buildFailed ? "build" : "errors outside tests",
                status: .error)
            testCase.issues = errors
            builder.addOutside(testCase)
        } else if !actionFailures.isEmpty, !builder.hasFailures {
            var testCase = TestRun.Case(className: XcodeTestResults.xcodeSuite, testName: "actions", status: .error)
            testCase.issues = actionFailures.map {
                TestRun.Issue(kind: .error, message: $0 + ", with no failure recorded")
            }
            builder.addOutside(testCase)
        }
    }

    /// An `ActionTestFailureSummary` or `IssueSummary` as an issue.
    static func issue(_ failure: XCResultObject, kind: TestRun.Issue.Kind) -> TestRun.Issue {
        var kind = kind
        if kind == .failure, let type = failure.string("issueType"),
            type.contains("Thrown Error") || type.contains("Uncaught")
        {
            kind = .error
        }
        return TestRun.Issue(
            kind: kind, message: failure.string("message") ?? "", location: XcodeTestResults.location(of: failure))
    }

}

/// Collects Xcode's test cases (from the object graph or `xcresulttool`'s JSON) into suites: a
/// test met again is a rerun of the first; suites per class and per configuration and device.
struct XcodeRunBuilder {
    /// Where a test ran, apart from its name and arguments: a test-plan configuration, a run
    /// destination and the test's own configuration (a UI test's appearance and orientation).
    /// Runs of one test that differ in any of these are separate cases, never attempts.
    struct Label: Hashable {
        var configuration: String?
        /// The destination's name, as shown.
        var device: String?
        /// What tells destinations of one name apart: the device's identifier, model and OS
        /// version and build.
        var destination: String?
        /// The test's own configuration (`XCUIAppearanceMode: 2, XCUIDeviceOrientation: 1`).
        var testConfiguration: String?
        /// The device's identifier alone (part of `destination`), for evidence.
        var deviceIdentifier: String?
    }

    private struct Entry {
        var label: Label
        var framework: TestRun.Framework
        /// `Class.test()`, as the invocation record names a test.
        var xcodeName: String
        var testCase: TestRun.Case
    }

    private struct Key: Hashable {
        var label: Label
        var className: String
        var name: String
        /// An argument case's place among its test's cases: two cases may show one label.
        var position: Int?
    }

    private var entries: [Entry] = []
    private var index: [Key: Int] = [:]
    private var outside: [TestRun.Case] = []

    /// Adds a test case; the same test again (same class, name and arguments, and argument case
    /// `position` when known, in the same configuration and destination) is a rerun: the case
    /// keeps the earlier as an attempt.
    mutating func add(
        _ testCase: TestRun.Case, label: Label, framework: TestRun.Framework, xcodeName: String, position: Int? = nil
    ) {
        let key = Key(label: label, className: testCase.className, name: testCase.name, position: position)
        if let position = index[key] {
            entries[position].testCase.rerun(as: testCase)
            return
        }
        index[key] = entries.count
        entries.append(Entry(label: label, framework: framework, xcodeName: xcodeName, testCase: testCase))
    }

    /// Adds a case for failures outside any test.
    mutating func addOutside(_ testCase: TestRun.Case) { outside.append(testCase) }

    /// Whether any case read so far failed.
    var hasFailures: Bool {
        entries.contains { $0.testCase.status >= .failed } || outside.contains { $0.status >= .failed }
    }

    /// Whether a failing case read so far has a failure `message` repeats: the same text, or
    /// in parentheses as Xcode wraps it (`… encountered an error (MESSAGE)`).
    func alreadySays(_ message: String) -> Bool {
        entries.contains { entry in
            entry.testCase.status >= .failed
                && entry.testCase.failingIssues.contains {
                    !$0.message.isEmpty && (message == $0.message || message.contains("(" + $0.message + ")"))
                }
        }
    }

    /// Attaches a failure the invocation record names (`Class.test()`) to the test: to its last
    /// attempt or an earlier one that failed without saying why; to a case of its own when the
    /// input does not hold the test.
    mutating func attach(_ issue: TestRun.Issue, toTestNamed givenName: String) {
        let name = Self.dotted(givenName)
        let matching = entries.indices.filter { entries[$0].xcodeName == name }
        if matching.isEmpty {
            let dot = name.lastIndex(of: ".")
            let className = dot.map { String(name[..<$0]) } ?? name
            let testName = dot.map { String(name[name.index(after: $0)...]) } ?? name
            var testCase = TestRun.Case(className: className, testName: testName, status: .failed)
            testCase.issues = [issue]
            add(testCase, label: Label(), framework: .xctest, xcodeName: name)
            return
        }
        for position in matching {
            let testCase = entries[position].testCase
            if !testCase.failingIssues.isEmpty
                || testCase.attempts.contains(where: { $0.issues.contains(where: \.isFailing) })
            {
                return  // already said
            }
        }
        for position in matching where entries[position].testCase.status >= .failed {
            entries[position].testCase.issues.append(issue)
            return
        }
        for position in matching {
            if let attempt = entries[position].testCase.attempts.firstIndex(where: { $0.status >= .failed }) {
                entries[position].testCase.attempts[attempt].issues.append(issue)
                return
            }
        }
    }

    /// `-[Suite name(value:)]` (how Xcode 26 names a Swift Testing test in the invocation
    /// record's failures) as `Suite.name(value:)`, as the tests name it; other names as they are.
    static func dotted(_ name: String) -> String {
        guard name.hasPrefix("-[") || name.hasPrefix("+["), name.hasSuffix("]") else { return name }
        let inner = name.dropFirst(2).dropLast()
        guard let space = inner.firstIndex(of: " "), space != inner.startIndex else { return name }
        let method = inner[inner.index(after: space)...]
        guard !method.isEmpty, !method.contains(" ") else { return name }
        return inner[..<space] + "." + method
    }

    /// The run: suites in the order their first test came, XCTest before Swift Testing, named
    /// with the configuration and device when there are several.
    func finish(warnings: [Diagnostic]) -> TestRun {
        let labels = Set(entries.map(\.label))
        let configurations = Set(labels.map(\.configuration)).count > 1
        let destinations = Set(labels.map { [$0.device, $0.destination] })
        let devices = destinations.count > 1
        // A name two destinations share says which is which with its OS and identifier.
        let sharedNames = Set(
            Dictionary(grouping: destinations, by: { $0[0] }).filter { $0.value.count > 1 }.keys.compactMap { $0 })
        var suites: [TestRun.Suite] = []
        var suiteIndex: [String: Int] = [:]
        for entry in entries {
            var testCase = entry.testCase
            if testCase.status >= .failed, testCase.failingIssues.isEmpty {
                testCase.issues.append(
                    TestRun.Issue(
                        kind: testCase.status == .error ? .error : .failure,
                        message: "failed (the result gives no failure message)"))
            }
            var parts: [String] = []
            if configurations, let configuration = entry.label.configuration { parts.append(configuration) }
            if devices, let device = entry.label.device ?? entry.label.destination {
                if sharedNames.contains(device), let destination = entry.label.destination {
                    parts.append(device + " [" + destination + "]")
                } else {
                    parts.append(device)
                }
            }
            if let testConfiguration = entry.label.testConfiguration { parts.append(testConfiguration) }
            let name = testCase.className + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
            let key = entry.framework.rawValue + "\u{0}" + name
            if let position = suiteIndex[key] {
                suites[position].cases.append(testCase)
            } else {
                suiteIndex[key] = suites.count
                var suite = TestRun.Suite(name: name, framework: entry.framework)
                suite.cases = [testCase]
                suites.append(suite)
            }
        }
        for testCase in outside {
            var suite = TestRun.Suite(name: testCase.className, framework: .xctest)
            suite.cases = [testCase]
            suites.append(suite)
        }
        var run = TestRun(
            suites: suites.filter { $0.framework == .xctest } + suites.filter { $0.framework == .swiftTesting })
        run.hasTestOutput = true
        run.warnings = warnings
        return run
    }
}
