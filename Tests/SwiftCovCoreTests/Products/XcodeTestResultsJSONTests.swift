import Foundation
import Testing

@testable import SwiftCovCore

/// `xcresulttool get test-results tests|summary|test-details` on any machine, against what the
/// tool printed on a Mac: fastlane's Xcode 26 `tests` JSON of the bundle beside it (every node),
/// and the `summary` and `test-details` JSON of xcresultparser's `test.xcresult` kept in
/// xcresultparser's tests (see `Fixtures/xcode/ORIGIN.md`); a bundle holding both stores gives
/// the same documents from either.
@Suite("xcresulttool's test-results documents")
struct XcodeTestResultsJSONTests {
    static func results(_ bundle: String) throws -> XcodeTestsDocument.Results {
        let (results, warnings) = try XCResultBundle.testResults(path: XcodeFixtures.bundlePath(bundle))
        #expect(warnings.isEmpty, "\(warnings)")
        return results
    }

    static func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    static func groundTruth(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Array(Data(contentsOf: URL(fileURLWithPath: XcodeFixtures.path("json/\(name)")))))
    }

    /// The members of an object other than `except`.
    static func members(_ value: JSONValue?, except: Set<String> = []) -> [String: JSONValue] {
        guard case .object(let members)? = value else { return [:] }
        return Dictionary(members.filter { !except.contains($0.key) }.map { ($0.key, $0.value) }) { first, _ in first }
    }

    /// Every node of `truth` against its match in `ours` (children matched by type, name and
    /// identifier, the n-th with the n-th: the database does not keep the order the tool sorts
    /// them in): each key equal, tags as a set.
    static func differences(_ ours: JSONValue, _ truth: JSONValue, at path: String, into found: inout [String]) {
        let scalars = members(truth, except: ["children", "tags"])
        if members(ours, except: ["children", "tags"]) != scalars {
            found.append("\(path): \(members(ours, except: ["children", "tags"])) ≠ \(scalars)")
        }
        func tags(_ node: JSONValue) -> Set<String> {
            guard case .array(let values)? = node["tags"] else { return [] }
            return Set(values.compactMap(\.stringValue))
        }
        if tags(ours) != tags(truth) { found.append("\(path).tags") }
        guard case .array(let truthChildren)? = truth["children"] else {
            if ours["children"] != nil { found.append("\(path).children: not in the ground truth") }
            return
        }
        guard case .array(let ourChildren)? = ours["children"], ourChildren.count == truthChildren.count else {
            found.append("\(path).children: a different number")
            return
        }
        var taken = Set<Int>()
        for (index, child) in truthChildren.enumerated() {
            guard
                let match = ourChildren.indices.first(where: {
                    !taken.contains($0) && ourChildren[$0]["nodeType"] == child["nodeType"]
                        && ourChildren[$0]["name"] == child["name"]
                        && ourChildren[$0]["nodeIdentifier"] == child["nodeIdentifier"]
                })
            else {
                found.append("\(path).children[\(index)]: no \(String(describing: child["name"]))")
                continue
            }
            taken.insert(match)
            differences(ourChildren[match], child, at: "\(path).children[\(index)]", into: &found)
        }
    }

    @Test("tests, Xcode 26 database: devices, configurations and all 630 nodes key for key equal xcresulttool's")
    func xcode26Tests() throws {
        let name = "Xcode26-Mixed-XCTest-SwiftTesting"
        let ours = try Self.parse(XcodeTestResultsJSON.tests(try Self.results(name)))
        let truth = try Self.groundTruth("\(name).json")
        #expect(ours["devices"] == truth["devices"])
        #expect(ours["testPlanConfigurations"] == truth["testPlanConfigurations"])
        guard case .array(let plans)? = ours["testNodes"], case .array(let truePlans)? = truth["testNodes"] else {
            Issue.record("no testNodes")
            return
        }
        #expect(plans.count == 1 && truePlans.count == 1)
        var found: [String] = []
        Self.differences(plans[0], truePlans[0], at: "testNodes[0]", into: &found)
        #expect(found.isEmpty, "\(found.count) differences, first: \(found.prefix(5).joined(separator: "\n"))")
    }

    @Test("the duration texts: each of fastlane's 399 `duration`s from its `durationInSeconds`")
    func durationTexts() throws {
        var pairs: [(String, Double)] = []
        var pending = [try Self.groundTruth("Xcode26-Mixed-XCTest-SwiftTesting.json")]
        while let node = pending.popLast() {
            if case .string(let text)? = node["duration"], case .number(let seconds)? = node["durationInSeconds"] {
                pairs.append((text, seconds))
            }
            for key in ["testNodes", "children"] {
                if case .array(let children)? = node[key] { pending += children }
            }
        }
        #expect(pairs.count == 399)
        for (text, seconds) in pairs { #expect(XcodeTestsDocument.durationText(seconds) == text, "\(seconds)") }
        #expect(XcodeTestsDocument.durationText(60) == nil)
        #expect(XcodeTestsDocument.durationText(.nan) == nil)
        #expect(XcodeTestsDocument.durationText(0.996) == "1s")
    }

    @Test(
        "both stores of one bundle give the same tests and summary documents",
        arguments: ["Test-FlakyFixture", "test_repeated"])
    func storesAgree(bundle: String) throws {
        let graph = try Self.results(bundle)
        let bytes = try Array(
            Data(contentsOf: URL(fileURLWithPath: XcodeFixtures.bundlePath(bundle) + "/database.sqlite3")))
        let database = try bytes.withUnsafeBytes { try XcodeResultDatabase.results(try SQLiteDatabase($0)) }
        #expect(XcodeTestResultsJSON.tests(graph) == XcodeTestResultsJSON.tests(database))
        let fromGraph = Self.members(try Self.parse(XcodeTestResultsJSON.summary(graph)))
        let fromDatabase = Self.members(try Self.parse(XcodeTestResultsJSON.summary(database)))
        // The trimmed test_repeated bundle lacks the metadata object that names the scheme.
        for key in Set(fromGraph.keys).union(fromDatabase.keys) where fromGraph[key] != nil {
            #expect(fromGraph[key] == fromDatabase[key], "\(key)")
        }
        #expect(fromDatabase["totalTestCount"] != nil)
    }

    @Test("summary of test.xcresult equals xcresultparser's xcresulttool JSON (its failure text edited upstream)")
    func summary() throws {
        let ours = Self.members(try Self.parse(XcodeTestResultsJSON.summary(try Self.results("test"))))
        let truth = Self.members(try Self.groundTruth("test.summary.json"))
        #expect(Set(ours.keys) == Set(truth.keys))
        for key in truth.keys where key != "testFailures" { #expect(ours[key] == truth[key], "\(key)") }
        guard case .array(let failures)? = ours["testFailures"], case .array(let trueFailures)? = truth["testFailures"]
        else {
            Issue.record("no testFailures")
            return
        }
        #expect(failures.count == 1 && trueFailures.count == 1)
        // The deprecated integer id is left out; the text is the bundle's (upstream wrote "example").
        #expect(
            Self.members(failures[0], except: ["failureText"])
                == Self.members(trueFailures[0], except: ["failureText", "testIdentifier"]))
        #expect(
            failures[0]["failureText"]?.stringValue?.hasPrefix("failed - Unable to create CoverageConverter") == true)
    }

    @Test("test-details of test.xcresult equals xcresultparser's xcresulttool JSON but the localized sentence")
    func testDetails() throws {
        let text = try #require(
            XcodeTestResultsJSON.testDetails(
                try Self.results("test"), testID: "XcresultparserTests/testCoverageConverter()", evidence: []))
        let truth = try Self.groundTruth("test.test-details.json")
        #expect(Self.members(try Self.parse(text)) == Self.members(truth, except: ["duration"]))
        #expect(
            XcodeTestResultsJSON.testDetails(try Self.results("test"), testID: "Nope/nope()", evidence: []) == nil)
    }

    @Test("test-details: a UI test with screenshots has media attachments; goldens of the three documents")
    func goldens() throws {
        let results = try Self.results("testHEIC")
        let evidence = try XCResultBundle.evidence(path: XcodeFixtures.bundlePath("testHEIC")).evidence
        let test = "bitrise_screenshot_automationUITests/testTodayWidgetScreenshot()"
        let details = try #require(XcodeTestResultsJSON.testDetails(results, testID: test, evidence: evidence))
        #expect(Self.members(try Self.parse(details))["hasMediaAttachments"] == .bool(true))
        try assertGolden(details, "xcresult-test-details-heic.json")
        try assertGolden(XcodeTestResultsJSON.summary(results), "xcresult-summary-heic.json")
        try assertGolden(XcodeTestResultsJSON.tests(results), "xcresult-tests-heic.json")
    }

    @Test("export manifest: each launch screenshot names its run's argument case, as xcresulttool's tests JSON does")
    func manifestArguments() throws {
        let name = "Xcode26-Mixed-XCTest-SwiftTesting"
        let evidence = try XCResultBundle.evidence(path: XcodeFixtures.bundlePath(name)).evidence
        let items = XcodeAttachmentExport.items(evidence, onlyFailures: false)
        let launch = items.filter { $0.suggestedHumanReadableName.hasPrefix("Launch Screen") }
        #expect(launch.count == 4)
        // The ground truth: the Arguments nodes of testLaunch in fastlane's JSON of this bundle.
        var cases: [String] = []
        var pending = [try Self.groundTruth("\(name).json")]
        while let node = pending.popLast() {
            if node["nodeIdentifier"]?.stringValue?.hasSuffix("/testLaunch") == true,
                case .array(let children)? = node["children"]
            {
                cases += children.filter { $0["nodeType"] == .string("Arguments") }.compactMap {
                    $0["name"]?.stringValue
                }
            }
            for key in ["testNodes", "children"] {
                if case .array(let children)? = node[key] { pending += children }
            }
        }
        #expect(cases.count == 4)
        #expect(Set(launch.map { $0.arguments.joined(separator: ", ") }) == Set(cases))
        #expect(launch.allSatisfy { $0.arguments.count == 2 })
        // Runs without an argument case: no key at all.
        let manifest = try Self.parse(XcodeAttachmentExport.manifest(items))
        guard case .array(let tests) = manifest else {
            Issue.record("not a list")
            return
        }
        for test in tests {
            guard case .array(let attachments)? = test["attachments"] else { continue }
            let isLaunch = test["testIdentifier"]?.stringValue?.hasSuffix("testLaunch") == true
            for attachment in attachments { #expect((attachment["arguments"] != nil) == isLaunch) }
        }
    }
}
