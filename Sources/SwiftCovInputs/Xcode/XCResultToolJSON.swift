import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// Reads the JSON of Xcode 16's `xcrun xcresulttool get test-results tests --format json` and
/// `… summary --format json`.
///
/// `tests` is a tree of `testNodes` (`nodeType` Test Plan, Test Plan Configuration, Device, Unit
/// test bundle, UI test bundle, Test Suite, Test Case, Arguments, Repetition, Test Case Run,
/// Failure Message, …; `result` Passed, Failed, Skipped, Expected Failure): every Test Case is a
/// case of the suite its Test Suite nodes name, in the module of its bundle; its Arguments are
/// cases of their own (Swift Testing), its Repetitions and Test Case Runs attempts (the last one
/// the outcome), its Devices and Test Plan Configurations suites of their own when there are
/// several. Argument cases are told apart by their place as well as their label, devices by
/// their identifier (the document's `devices` give model and OS). Times come from
/// `durationInSeconds`, else from `duration`, localized text (`"0,00062s"`, `"6s"`, `"1m 2s"`;
/// Xcode 16.0–16.2 write only this).
///
/// A `summary` names only the tests that failed: its run holds those, each a failed case with
/// its message, and a warning gives the counts of the tests it does not name (passed, skipped,
/// expected failures); a summary that says the run failed with no failure named gets an error
/// case that says so. For every test, give the `tests` output.
package enum XCResultToolJSON {
    /// Whether a parsed document is `test-results tests` output.
    package static func isTests(_ document: JSONValue) -> Bool { document["testNodes"] != nil }

    /// Whether a parsed document is `test-results summary` output.
    package static func isSummary(_ document: JSONValue) -> Bool {
        document["totalTestCount"] != nil || document["testFailures"] != nil
            || document["devicesAndConfigurations"] != nil
    }

    /// The run of a `tests` document; `path` names the input in messages.
    package static func testRun(tests document: JSONValue, path: String) throws(TestResultsError) -> TestRun {
        var reader = TestsReader(path: path)
        do throws(TestsReader.Problem) {
            try reader.readDevices(document)
            let nodes = try TestsReader.array(document, "testNodes", keyPath: "")
            for (index, node) in nodes.enumerated() {
                try reader.read(node, keyPath: "testNodes[\(index)]", context: TestsReader.Context(), depth: 0)
            }
        } catch {
            throw .malformedXcodeResult(
                path: path, offset: nil, keyPath: error.keyPath,
                message: "not `xcresulttool get test-results tests` output: \(error.message)")
        }
        return reader.builder.finish(warnings: reader.warnings)
    }

    /// The run of a `summary` document: its failures (see the type's note).
    package static func testRun(summary document: JSONValue, path: String) throws(TestResultsError) -> TestRun {
        var builder = XcodeRunBuilder()
        var warnings: [Diagnostic] = []
        do throws(TestsReader.Problem) {
            let failures =
                document["testFailures"] == nil ? [] : try TestsReader.array(document, "testFailures", keyPath: "")
            for (index, failure) in failures.enumerated() {
                let keyPath = "testFailures[\(index)]"
                let testName = try TestsReader.string(failure, "testName", keyPath: keyPath) ?? "(unnamed test)"
                let target = try TestsReader.string(failure, "targetName", keyPath: keyPath) ?? ""
                let identifier = try TestsReader.string(failure, "testIdentifierString", keyPath: keyPath) ?? ""
                let text = try TestsReader.string(failure, "failureText", keyPath: keyPath) ?? ""
                var className = ""
                if let slash = identifier.lastIndex(of: "/") {
                    className = identifier[..<slash].split(separator: "/").joined(separator: ".")
                }
                let fullClass = target.isEmpty ? className : className.isEmpty ? target : target + "." + className
                var testCase = TestRun.Case(className: fullClass, testName: testName, status: .failed)
                testCase.issues = [TestsReader.issue(text)]
                builder.add(
                    testCase, label: XcodeRunBuilder.Label(), framework: .xctest, xcodeName: className + "." + testName)
            }
            for key in ["totalTestCount", "passedTests", "failedTests", "skippedTests", "expectedFailures"] {
                _ = try TestsReader.number(document, key, keyPath: "")
            }
        } catch {
            throw .malformedXcodeResult(
                path: path, offset: nil, keyPath: error.keyPath,
                message: "not `xcresulttool get test-results summary` output: \(error.message)")
        }
        let counts = ["passedTests": "passed", "skippedTests": "skipped", "expectedFailures": "expected failures"]
            .sorted { $0.key < $1.key }
            .compactMap { key, label -> String? in
                guard let count = document[key]?.numberValue, count > 0 else { return nil }
                return "\(Int(count)) \(label)"
            }
        if !counts.isEmpty {
            warnings.append(
                .warning(
                    file: path,
                    "a test-results summary names only the tests that failed; not listed: "
                        + counts.joined(separator: ", ")
                        + " (give `xcresulttool get test-results tests` for every test)"))
        }
        if document["result"]?.stringValue == "Failed", !builder.hasFailures {
            var testCase = TestRun.Case(className: XcodeTestResults.xcodeSuite, testName: "summary", status: .error)
            testCase.issues = [
                TestRun.Issue(kind: .error, message: "the summary says the run failed and names no failure")
            ]
            builder.addOutside(testCase)
        }
        return builder.finish(warnings: warnings)
    }
}

/// Walks `testNodes`.
struct TestsReader {
    struct Problem: Error {
        var keyPath: String
        var message: String
    }

    struct Context {
        var module = ""
        var suites: [String] = []
        var label = XcodeRunBuilder.Label()
    }

    let path: String
    var builder = XcodeRunBuilder()
    var warnings: [Diagnostic] = []
    /// The document's devices by `deviceId`: model, OS version and build, identifier.
    var destinations: [String: String] = [:]

    init(path: String) { self.path = path }

    /// The document's `devices`, which say what a Device node's identifier stands for.
    mutating func readDevices(_ document: JSONValue) throws(Problem) {
        guard document["devices"] != nil, document["devices"] != .null else { return }
        for (index, device) in try Self.array(document, "devices", keyPath: "").enumerated() {
            let keyPath = "devices[\(index)]"
            guard let id = try Self.string(device, "deviceId", keyPath: keyPath), !id.isEmpty else { continue }
            let version = try Self.string(device, "osVersion", keyPath: keyPath)
            let build = try Self.string(device, "osBuildNumber", keyPath: keyPath)
            destinations[id] = [
                try Self.string(device, "modelName", keyPath: keyPath),
                version.map { version in build.map { "\(version) (\($0))" } ?? version },
                id,
            ].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
        }
    }

    /// A Device node's destination: its name, and what tells it from another of that name.
    func destination(_ node: JSONValue, name: String, keyPath: String) throws(Problem) -> (String, String?) {
        let id = try Self.string(node, "nodeIdentifier", keyPath: keyPath)
        return (name, id.map { destinations[$0] ?? $0 })
    }

    /// `duration`'s localized text as seconds: `0,0049s`, `6s`, `1m 2s`, `1h 2m 3s`, `12ms`
    /// (either decimal separator); nil for anything else.
    static func seconds(localized text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        var total = 0.0
        for part in parts {
            let units: [(String, Double)] = [("ms", 0.001), ("h", 3600), ("m", 60), ("s", 1)]
            guard let (unit, scale) = units.first(where: { part.hasSuffix($0.0) }) else { return nil }
            let digits = part.dropLast(unit.count).replacing(",", with: ".")
            guard digits.first?.isNumber == true, digits.last?.isNumber == true,
                digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(digits),
                value.isFinite
            else { return nil }
            total += value * scale
        }
        return total.isFinite ? total : nil
    }

    static func join(_ keyPath: String, _ key: String) -> String { keyPath.isEmpty ? key : keyPath + "." + key }

    static func array(_ object: JSONValue, _ key: String, keyPath: String) throws(Problem) -> [JSONValue] {
        guard let value = object[key] else { throw Problem(keyPath: keyPath, message: "no \(key)") }
        guard case .array(let elements) = value else {
            throw Problem(keyPath: join(keyPath, key), message: "not an array")
        }
        return elements
    }

    static func string(_ object: JSONValue, _ key: String, keyPath: String) throws(Problem) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard let text = value.stringValue else { throw Problem(keyPath: join(keyPath, key), message: "not a string") }
        return text
    }

    static func number(_ object: JSONValue, _ key: String, keyPath: String) throws(Problem) -> Double? {
        guard let value = object[key], value != .null else { return nil }
        guard let number = value.numberValue, number.isFinite else {
            throw Problem(keyPath: join(keyPath, key), message: "not a number")
        }
        return number
    }

    /// `File.swift:12: message` (how xcresulttool names a failure) as an issue with its place.
    static func issue(_ text: String, kind: TestRun.Issue.Kind = .failure) -> TestRun.Issue {
        let utf8 = Array(text.utf8)
        // The file name: no space before `.swift:` (or another extension), then digits and ": ".
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon > 0, !utf8[..<colon].contains(0x20) {
            var end = colon + 1
            while end < utf8.count, utf8[end] >= 0x30, utf8[end] <= 0x39, end - colon <= 9 { end += 1 }
            if end > colon + 1, end + 1 < utf8.count, utf8[end] == UInt8(ascii: ":"), utf8[end + 1] == 0x20,
                let line = Int(String(decoding: utf8[(colon + 1)..<end], as: UTF8.self)), line > 0,
                utf8[..<colon].contains(UInt8(ascii: "."))
            {
                return TestRun.Issue(
                    kind: kind, message: String(decoding: utf8[(end + 2)...], as: UTF8.self),
                    location: TestRun.SourceLocation(file: String(decoding: utf8[..<colon], as: UTF8.self), line: line))
            }
        }
        return TestRun.Issue(kind: kind, message: text)
    }

    static func status(_ result: String?) -> TestRun.Status? {
        switch result {
        case "Passed", "Expected Failure": .passed
        case "Failed": .failed
        case "Skipped": .skipped
        default: nil
        }
    }

    mutating func read(_ node: JSONValue, keyPath: String, context: Context, depth: Int) throws(Problem) {
        guard depth < XCResultObject.maximumDepth else { throw Problem(keyPath: keyPath, message: "nested too deep") }
        guard case .object = node else { throw Problem(keyPath: keyPath, message: "a test node that is not an object") }
        guard let type = try Self.string(node, "nodeType", keyPath: keyPath) else {
            throw Problem(keyPath: keyPath, message: "a test node without a nodeType")
        }
        let name = try Self.string(node, "name", keyPath: keyPath) ?? ""
        var context = context
        switch type {
        case "Test Case":
            try readCase(node, keyPath: keyPath, context: context, depth: depth)
            return
        case "Unit test bundle", "UI test bundle":
            context.module = name.hasSuffix(".xctest") ? String(name.dropLast(7)) : name
            context.suites = []
        case "Test Suite":
            context.suites.append(name)
        case "Test Plan Configuration":
            context.label.configuration = name
        case "Device":
            (context.label.device, context.label.destination) = try destination(node, name: name, keyPath: keyPath)
        case "Test Plan":
            break
        case "Failure Message", "Runtime Warning", "Source Code Reference", "Attachment", "Expression", "Test Value":
            return  // outside a test case: nothing of a test's
        default:
            warnings.append(
                .warning(
                    file: path, at: .keyPath(keyPath),
                    "skipped a test node of type '\(type)' that swiftcov does not know"))
            return
        }
        if node["children"] != nil {
            for (index, child) in try Self.array(node, "children", keyPath: keyPath).enumerated() {
                try read(child, keyPath: keyPath + ".children[\(index)]", context: context, depth: depth + 1)
            }
        }
    }

    /// One run of a test (the case, an argument set, a device's or a repetition's): its result,
    /// time and messages.
    private struct Outcome {
        var status: TestRun.Status
        var duration: Double?
        var issues: [TestRun.Issue] = []
        var statusText: String?
    }

    private mutating func outcome(_ node: JSONValue, keyPath: String) throws(Problem) -> Outcome {
        let result = try Self.string(node, "result", keyPath: keyPath)
        var duration = try Self.number(node, "durationInSeconds", keyPath: keyPath)
        if duration == nil, let text = try Self.string(node, "duration", keyPath: keyPath) {
            duration = Self.seconds(localized: text)
        }
        var outcome = Outcome(
            status: Self.status(result) ?? .error, duration: duration, statusText: result)
        if node["children"] != nil {
            for (index, child) in try Self.array(node, "children", keyPath: keyPath).enumerated() {
                let childPath = keyPath + ".children[\(index)]"
                switch try Self.string(child, "nodeType", keyPath: childPath) {
                case "Failure Message":
                    let text = try Self.string(child, "name", keyPath: childPath) ?? ""
                    outcome.issues.append(Self.issue(text, kind: result == "Expected Failure" ? .knownIssue : .failure))
                case "Runtime Warning":
                    outcome.issues.append(
                        Self.issue(try Self.string(child, "name", keyPath: childPath) ?? "", kind: .warning))
                default:
                    break
                }
            }
        }
        return outcome
    }

    private static let splitting: Set<String> = ["Arguments", "Device", "Test Plan Configuration"]
    private static let attempts: Set<String> = ["Repetition", "Test Case Run"]

    private mutating func readCase(_ node: JSONValue, keyPath: String, context: Context, depth: Int) throws(Problem) {
        let name = try Self.string(node, "name", keyPath: keyPath) ?? ""
        let identifier = try Self.string(node, "nodeIdentifier", keyPath: keyPath) ?? ""
        var className = context.suites.joined(separator: ".")
        if className.isEmpty, let slash = identifier.lastIndex(of: "/") {
            className = identifier[..<slash].split(separator: "/").joined(separator: ".")
        }
        let fullClass =
            context.module.isEmpty ? className : className.isEmpty ? context.module : context.module + "." + className
        let testName = name.isEmpty ? (identifier.isEmpty ? "(unnamed test)" : identifier) : name
        let shortClass = context.suites.last ?? className
        try readRuns(
            node, keyPath: keyPath, className: fullClass, testName: testName, xcodeName: shortClass + "." + testName,
            arguments: nil, position: nil, label: context.label, inherited: nil, depth: depth)
    }

    /// A test case node or one of its splitting children (arguments, a device, a configuration).
    private mutating func readRuns(
        _ node: JSONValue, keyPath: String, className: String, testName: String, xcodeName: String,
        arguments: String?, position: Int?, label: XcodeRunBuilder.Label, inherited: Outcome?, depth: Int
    ) throws(Problem) {
        guard depth < XCResultObject.maximumDepth else { throw Problem(keyPath: keyPath, message: "nested too deep") }
        var own = try outcome(node, keyPath: keyPath)
        if own.statusText == nil, let inherited {
            own.status = inherited.status
            own.statusText = inherited.statusText
        }
        var runs: [(JSONValue, String)] = []
        var split = false
        var argumentCases = 0
        let children = node["children"] == nil ? [] : try Self.array(node, "children", keyPath: keyPath)
        for (index, child) in children.enumerated() {
            let childPath = keyPath + ".children[\(index)]"
            guard case .object = child else {
                throw Problem(keyPath: childPath, message: "a test node that is not an object")
            }
            guard let type = try Self.string(child, "nodeType", keyPath: childPath) else {
                throw Problem(keyPath: childPath, message: "a test node without a nodeType")
            }
            let childName = try Self.string(child, "name", keyPath: childPath) ?? ""
            if Self.splitting.contains(type) {
                split = true
                var label = label
                var childArguments = arguments
                var childPosition = position
                switch type {
                case "Device":
                    (label.device, label.destination) = try destination(child, name: childName, keyPath: childPath)
                case "Test Plan Configuration": label.configuration = childName
                default:
                    childArguments = childName
                    childPosition = argumentCases
                    argumentCases += 1
                }
                try readRuns(
                    child, keyPath: childPath, className: className, testName: testName, xcodeName: xcodeName,
                    arguments: childArguments, position: childPosition, label: label, inherited: own, depth: depth + 1)
            } else if Self.attempts.contains(type) {
                runs.append((child, childPath))
            }
        }
        guard !split else { return }
        var outcomes: [Outcome] = []
        for (run, runPath) in runs {
            var attempt = try outcome(run, keyPath: runPath)
            if attempt.statusText == nil { attempt.status = own.status }
            outcomes.append(attempt)
        }
        if outcomes.isEmpty { outcomes = [own] }
        var testCase: TestRun.Case?
        for attempt in outcomes {
            var next = TestRun.Case(
                className: className, testName: testName, arguments: arguments, status: attempt.status,
                duration: attempt.duration)
            next.issues = attempt.issues
            if attempt.status == .error {
                next.issues.append(
                    TestRun.Issue(kind: .error, message: "xcresulttool's result: \(attempt.statusText ?? "none")"))
            }
            if attempt.status == .skipped, let reason = attempt.issues.first?.message {
                next.skipReason = reason
                next.issues = []
            }
            if testCase == nil { testCase = next } else { testCase!.rerun(as: next) }
        }
        if var testCase {
            if outcomes.count > 1 { testCase.duration = testCase.duration ?? own.duration }
            builder.add(
                testCase, label: label, framework: arguments == nil ? .xctest : .swiftTesting, xcodeName: xcodeName,
                position: position)
        }
    }
}
