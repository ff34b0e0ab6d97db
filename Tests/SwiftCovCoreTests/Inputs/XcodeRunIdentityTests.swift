import Foundation
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// What kishikawakatsumi/xcresulttool's snapshot (`Fixtures/xcode/xcresulttool-snapshots/`, its
/// Markdown for a bundle) says: the summary's counts and each configured run of a test.
struct XcresulttoolSnapshot {
    /// Total, passed, failed, skipped, expected failures.
    var counts: [Int]
    /// A UI test's run in one configuration: the test, the configuration, the outcome's icon.
    struct ConfiguredRun: Hashable {
        var test: String
        var configuration: String
        var status: String
    }
    var configuredRuns: [ConfiguredRun]

    init(_ name: String) throws {
        let text = try String(
            contentsOfFile: XcodeFixtures.path("xcresulttool-snapshots/\(name).md"), encoding: .utf8)
        // The last summary: the snapshot's counts add up over a bundle's actions.
        let summary = try #require(text.ranges(of: "### Summary").last)
        let row = try #require(
            text[summary.upperBound...].split(separator: "\n").first { $0.hasPrefix("<td align=\"right\"") })
        let cells = row.replacing(/<[^>]*>/, with: " ").split(separator: " ")
        counts = cells.prefix(5).compactMap { Int($0) }
        configuredRuns = text.components(separatedBy: "<tr>").filter { $0.contains("<b>Configuration:</b>") }.compactMap
        { row in
            let statuses = row.matches(of: /alt="(Success|Failure|Expected Failure|Skipped)"/)
            guard let code = row.firstMatch(of: /<code>([^<]*)<\/code>/),
                let configuration = row.firstMatch(of: /<b>Configuration:<\/b><br><code>([^<]*)<\/code>/),
                let status = statuses.last(where: { $0.range.lowerBound < code.range.lowerBound })
            else { return nil }
            return ConfiguredRun(
                test: String(code.1), configuration: String(configuration.1), status: String(status.1))
        }
    }
}

/// A test's runs have an identity (test-plan configuration, destination, the test's own
/// configuration, argument case): runs that differ in it are separate cases, never attempts.
/// Real bundles of kishikawakatsumi/xcresulttool and JSON of fastlane (see `ORIGIN.md`), checked
/// against those projects' own outputs.
@Suite("Xcode runs with an identity")
struct XcodeRunIdentityTests {
    /// Our run's counts in the snapshot's terms: total, passed, failed, skipped, expected failures.
    func counts(_ run: TestRun) -> [Int] {
        let expected = run.cases.filter { $0.status == .passed && $0.issues.contains { $0.kind == .knownIssue } }.count
        return [
            run.totals.tests, run.totals.passed - expected, run.totals.failed + run.totals.errors, run.totals.skipped,
            expected,
        ]
    }

    /// Each configured run of the snapshot is a case of ours, in a suite named with its
    /// configuration, with the snapshot's outcome.
    func checkConfiguredRuns(_ run: TestRun, _ snapshot: XcresulttoolSnapshot) throws {
        #expect(!snapshot.configuredRuns.isEmpty)
        var ours: [XcresulttoolSnapshot.ConfiguredRun] = []
        for suite in run.suites {
            for testCase in suite.cases {
                guard
                    let configuration = snapshot.configuredRuns.map(\.configuration).first(where: {
                        suite.name.hasSuffix($0 + ")")
                    })
                else { continue }
                let status =
                    switch testCase.status {
                    case .passed: "Success"
                    case .skipped: "Skipped"
                    default: "Failure"
                    }
                ours.append(.init(test: testCase.testName, configuration: configuration, status: status))
            }
        }
        #expect(ours.sorted { "\($0)" < "\($1)" } == snapshot.configuredRuns.sorted { "\($0)" < "\($1)" })
    }

    @Test("example.xcresult: testLaunch() in 4 UI configurations is 4 cases, failed in Dark/portrait")
    func example() throws {
        let run = try XcodeFixtures.testRun(bundle: "example")
        let snapshot = try XcresulttoolSnapshot("example")
        #expect(snapshot.counts == [11, 8, 2, 0, 1])
        #expect(counts(run) == snapshot.counts)
        #expect(run.totals.flaky == 0 && run.cases.allSatisfy { $0.attempts.isEmpty })
        try checkConfiguredRuns(run, snapshot)
        let launches = run.suites.filter { $0.name.hasPrefix("WeatherUITests.WeatherUITestsLaunchTests (") }
        #expect(launches.count == 4)
        let failed = try #require(launches.first { $0.cases.contains { $0.status == .failed } })
        #expect(
            failed.name == "WeatherUITests.WeatherUITestsLaunchTests (XCUIAppearanceMode: 2, XCUIDeviceOrientation: 1)")
        let issue = try #require(failed.cases.first?.failingIssues.first)
        #expect(issue.message == "failed - Fail!!")
        #expect(issue.location?.file.hasSuffix("/WeatherUITestsLaunchTests.swift") == true)
        #expect(issue.location?.line == 28)
        let xml = JUnitReport.render(run, options: JUnitReportTests.options())
        #expect(!xml.contains("flakyFailure"))
        #expect(xml.contains("<failure message=\"failed - Fail!!\""))
    }

    /// Spaceship: UI tests in configurations on two devices; merged: three runs merged.
    static let configuredBundles: [(String, [Int])] = [
        ("Spaceship", [18, 16, 2, 0, 0]), ("merged", [94, 85, 8, 0, 1]),
    ]

    @Test("Spaceship.xcresult and merged.xcresult: 18 and 94 runs as the snapshots count", arguments: configuredBundles)
    func configured(bundle: String, expected: [Int]) throws {
        let run = try XcodeFixtures.testRun(bundle: bundle)
        let snapshot = try XcresulttoolSnapshot(bundle)
        #expect(snapshot.counts == expected)
        #expect(counts(run) == snapshot.counts)
        #expect(run.totals.flaky == 0)
        try checkConfiguredRuns(run, snapshot)
    }

    @Test("TestResults.xcresult: two test runner errors are two failures, not three")
    func errorsOnce() throws {
        let run = try XcodeFixtures.testRun(bundle: "TestResults")
        let snapshot = try XcresulttoolSnapshot("TestResults")
        #expect(snapshot.counts == [2, 0, 2, 0, 0])
        #expect(counts(run) == snapshot.counts)
        #expect(
            run.failingCases.map(\.testName).sorted() == [
                "xcresulttool-example encountered an error", "xcresulttool-exampleUITests-Runner encountered an error",
            ])
    }

    /// Two actions, each a destination of one name: iPhone 15 on iOS 16.4 and on iOS 17.0.
    /// Invented: no public bundle of this shape was found.
    static func twoDestinations() -> (record: XCResultObject, objects: [String: XCResultObject]) {
        func string(_ text: String) -> XCResultObject { XCResultObject(type: "String", value: text) }
        func object(_ type: String, _ fields: [(String, XCResultObject)], supertypes: [String] = []) -> XCResultObject {
            XCResultObject(
                type: type, supertypes: supertypes, fields: fields.map { XCResultObject.Field(key: $0.0, value: $0.1) })
        }
        func array(_ elements: [XCResultObject]) -> XCResultObject { XCResultObject(type: "Array", elements: elements) }
        var objects: [String: XCResultObject] = [:]
        var actions: [XCResultObject] = []
        for (index, (version, status)) in [("16.4 (20E247)", "Failure"), ("17.0 (21A328)", "Success")].enumerated() {
            let id = "0~tests\(index)"
            let test = object(
                "ActionTestMetadata",
                [
                    ("identifier", string("LayoutTests/testFits()")), ("name", string("testFits()")),
                    ("testStatus", string(status)),
                ], supertypes: ["ActionTestSummaryIdentifiableObject"])
            let group = object(
                "ActionTestSummaryGroup", [("name", string("LayoutTests")), ("subtests", array([test]))])
            let testable = object(
                "ActionTestableSummary", [("targetName", string("AppTests")), ("tests", array([group]))])
            let plan = object(
                "ActionTestPlanRunSummary",
                [("name", string("Test Scheme Action")), ("testableSummaries", array([testable]))])
            objects[id] = object("ActionTestPlanRunSummaries", [("summaries", array([plan]))])
            let device = object(
                "ActionDeviceRecord",
                [
                    ("identifier", string("UDID-\(index)")), ("modelName", string("iPhone 15")),
                    ("name", string("iPhone 15")), ("operatingSystemVersionWithBuildNumber", string(version)),
                ])
            let destination = object(
                "ActionRunDestinationRecord", [("displayName", string("iPhone 15")), ("targetDeviceRecord", device)])
            let result = object(
                "ActionResult",
                [
                    ("status", string(status == "Failure" ? "failed" : "succeeded")),
                    ("testsRef", object("Reference", [("id", string(id))])),
                ])
            actions.append(
                object("ActionRecord", [("actionResult", result), ("runDestination", destination)]))
        }
        return (object("ActionsInvocationRecord", [("actions", array(actions))]), objects)
    }

    @Test("two destinations of one name (iPhone 15 on iOS 16.4 and 17.0) are two cases, not a retry")
    func sameDeviceName() throws {
        let (record, objects) = Self.twoDestinations()
        let run = try XcodeTestResults.testRun(
            invocationRecord: record, testPlanRunSummaries: [], load: { objects[$0] }, path: "two.xcresult")
        #expect(run.totals.tests == 2 && run.totals.failed == 1 && run.totals.flaky == 0)
        #expect(
            run.suites.map(\.name) == [
                "AppTests.LayoutTests (iPhone 15 [iPhone 15, 16.4 (20E247), UDID-0])",
                "AppTests.LayoutTests (iPhone 15 [iPhone 15, 17.0 (21A328), UDID-1])",
            ])
        #expect(run.suites[0].cases.first?.status == .failed)
    }

    @Test("Xcode 26: a parameterized test's failure named `-[Suite name(value:)]` belongs to its argument case")
    func parameterizedFailureOnce() throws {
        func string(_ text: String) -> XCResultObject { XCResultObject(type: "String", value: text) }
        func object(_ type: String, _ fields: [(String, XCResultObject)]) -> XCResultObject {
            XCResultObject(type: type, fields: fields.map { XCResultObject.Field(key: $0.0, value: $0.1) })
        }
        func array(_ elements: [XCResultObject]) -> XCResultObject { XCResultObject(type: "Array", elements: elements) }
        // The shape of Xcode 26.1.1's bundles (xcresultparser's parametrized.xcresult and
        // Test-FlakyFixture.xcresult are its neighbours): argument cases in the tests, the
        // failure in the record under the Objective-C name of the test. Invented values.
        var tests: [XCResultObject] = []
        var all: [String: XCResultObject] = [:]
        for (value, status) in [("true", "Success"), ("false", "Failure"), ("false", "Failure")] {
            let argument = object(
                "TestArgument",
                [
                    ("parameter", object("TestParameter", [("label", string("value"))])),
                    ("value", object("TestValue", [("description", string(value))])),
                ])
            let summary = object(
                "ActionTestSummary",
                [
                    ("identifier", string("Checks/accepts(value:)")), ("name", string("accepts(value:)")),
                    ("testStatus", string(status)), ("arguments", array([argument])),
                ])
            let id = "0~summary\(tests.count)"
            all[id] = summary
            tests.append(
                object(
                    "ActionTestMetadata",
                    [
                        ("identifier", string("Checks/accepts(value:)")), ("name", string("accepts(value:)")),
                        ("testStatus", string(status)), ("summaryRef", object("Reference", [("id", string(id))])),
                    ]))
        }
        let group = object("ActionTestSummaryGroup", [("name", string("Checks")), ("subtests", array(tests))])
        let testable = object("ActionTestableSummary", [("targetName", string("AppTests")), ("tests", array([group]))])
        let plan = object("ActionTestPlanRunSummary", [("testableSummaries", array([testable]))])
        all["0~tests"] = object("ActionTestPlanRunSummaries", [("summaries", array([plan]))])
        let failure = object(
            "TestFailureIssueSummary",
            [("message", string("Expectation failed: value")), ("testCaseName", string("-[Checks accepts(value:)]"))])
        let record = object(
            "ActionsInvocationRecord",
            [
                (
                    "actions",
                    array([
                        object(
                            "ActionRecord",
                            [
                                (
                                    "actionResult",
                                    object(
                                        "ActionResult", [("testsRef", object("Reference", [("id", string("0~tests"))]))]
                                    )
                                )
                            ])
                    ])
                ),
                ("issues", object("ResultIssueSummaries", [("testFailureSummaries", array([failure]))])),
            ])
        let run = try XcodeTestResults.testRun(
            invocationRecord: record, testPlanRunSummaries: [], load: { all[$0] }, path: "p.xcresult")
        // Two argument cases; the second ran twice (a retry) and failed both times.
        #expect(run.totals.tests == 2 && run.totals.failed == 1)
        #expect(run.suites.allSatisfy { $0.framework == .swiftTesting })
        let failing = try #require(run.failingCases.first)
        #expect(failing.arguments == "value: false")
        #expect(failing.failingIssues.map(\.message) == ["Expectation failed: value"])
        #expect(XcodeRunBuilder.dotted("-[Checks accepts(value:)]") == "Checks.accepts(value:)")
        #expect(XcodeRunBuilder.dotted("Checks.accepts(value:)") == "Checks.accepts(value:)")
    }
}

/// `xcresulttool get test-results tests` JSON of Xcode 16 and 26 (fastlane's trainer fixtures),
/// checked against the JUnit fastlane made from the same bundles.
@Suite("xcresulttool JSON of Xcode 16 and 26")
struct XcodeTestsJSONIdentityTests {
    func read(_ file: String) throws -> TestRun {
        try TestResultsReader.read(paths: [XcodeFixtures.path("json/" + file)], utcOffset: 0)
    }

    /// fastlane's counts for the Xcode 26 bundle: `<testsuites tests='192' failures='20' skipped='7'`.
    func fastlaneCounts() throws -> [Int] {
        let junit = try String(
            contentsOfFile: XcodeFixtures.path("json/Xcode26-Mixed-XCTest-SwiftTesting-WithoutRetries.junit"),
            encoding: .utf8)
        let match = try #require(junit.firstMatch(of: /<testsuites tests='(\d+)' failures='(\d+)' skipped='(\d+)'/))
        return [Int(match.1)!, Int(match.2)!, Int(match.3)!]
    }

    @Test("Xcode 26: 192 cases as fastlane counts, two argument cases labelled \" \" two cases")
    func xcode26() throws {
        let run = try read("Xcode26-Mixed-XCTest-SwiftTesting.json")
        #expect(try fastlaneCounts() == [192, 20, 7])
        #expect(
            [run.totals.tests, run.totals.failed + run.totals.errors, run.totals.skipped] == (try fastlaneCounts()))
        let spaces = run.cases.filter {
            $0.testName == "testName🏷️And📋ParamsUsingSome😱Unusual🤪Characters(asciiCharacter:)" && $0.arguments == " "
        }
        #expect(spaces.count == 2)
        #expect(run.warnings.isEmpty)
    }

    @Test("Xcode 16.2: times from the localized `duration` (`0,012s`) when `durationInSeconds` is absent")
    func xcode16Durations() throws {
        let run = try read("Xcode16-Mixed-XCTest-SwiftTesting.json")
        // "Password complexity": Repetitions of "0,012s" then "0,0095s"; the last is the case's.
        let complexity = try #require(run.cases.first { $0.testName == "Password complexity" })
        #expect(complexity.duration == 0.0095)
        #expect(complexity.attempts.map(\.duration) == [0.012])
        // "testAlertHandling()": "6s", no repetitions.
        #expect(run.cases.first { $0.testName == "testAlertHandling()" }?.duration == 6)
        // Every test case node has a `duration` (argument nodes have none).
        #expect(run.cases.filter { $0.arguments == nil }.allSatisfy { $0.duration != nil })
        #expect(run.cases.first { $0.testName == "testLaunchPerformance()" }?.duration == 22)  // "22s"
    }

    @Test("localized durations: either separator, minutes and hours, nothing else")
    func localizedSeconds() {
        #expect(TestsReader.seconds(localized: "0,0049s") == 0.0049)
        #expect(TestsReader.seconds(localized: "0.0049s") == 0.0049)
        #expect(TestsReader.seconds(localized: "1m 2s") == 62)
        #expect(TestsReader.seconds(localized: "1h 2m 3,5s") == 3723.5)
        #expect(TestsReader.seconds(localized: "12ms") == 0.012)
        for text in ["", "s", ",5s", "5", "1e9s", "1 s", "-1s", "1m 2s 3s 4s 5s", "١s"] {
            #expect(TestsReader.seconds(localized: text) == nil, "\(text)")
        }
    }

    @Test("two Devices of one name (iPhone 15, iOS 16.4 and 17.0) are two cases: the failure stays a failure")
    func sameDeviceName() throws {
        let run = try read("same-device-name.tests.json")
        #expect(run.totals.tests == 2 && run.totals.failed == 1 && run.totals.flaky == 0)
        #expect(
            run.suites.map(\.name) == [
                "AppTests.LayoutTests (iPhone 15 [iPhone 15, 16.4 (20E247), 5B1F0A52-6A4E-4E0C-9C0B-0A3F8D1E6C11])",
                "AppTests.LayoutTests (iPhone 15 [iPhone 15, 17.0 (21A328), C2D7E9B4-1F3A-4B8E-8D2C-7E6F5A4B3C22])",
            ])
        #expect(run.suites[0].cases.first?.duration == 0.41)
    }
}

/// Xcode's coverage scoped by file: kishikawakatsumi/xcresulttool's `TestResults#669.xcresult`.
@Suite("Xcode coverage scoped by file")
struct XcodeScopeByFileTests {
    /// The snapshot's Code Coverage rows: name (target, or file name) → covered, executable.
    func snapshotCoverage() throws -> [String: (covered: Int, executable: Int)] {
        let text = try String(
            contentsOfFile: XcodeFixtures.path("xcresulttool-snapshots/TestResults-669.md"), encoding: .utf8)
        let section = try #require(text.range(of: "### Code Coverage"))
        var rows: [String: (Int, Int)] = [:]
        for row in text[section.upperBound...].components(separatedBy: "<tr>") {
            let cells = row.components(separatedBy: "<td").dropFirst().map {
                $0.replacing(/<[^>]*>|^[^>]*>/, with: "").replacing("&nbsp;", with: "")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard cells.count >= 5, let covered = Int(cells[3]), let executable = Int(cells[4]) else { continue }
            rows[cells[0]] = (covered, executable)
        }
        return rows
    }

    @Test("library files listed only under a test target stay in the default scope, with Xcode's numbers")
    func libraryFilesUnderTestTarget() throws {
        let (coverage, workspace) = try XCResultBundle(path: XcodeFixtures.bundlePath("TestResults-669")).coverage()
        let root = XcodeCoverageInput.inferRoot(coverage, workspace: workspace)
        let report = try CoverageReport.build(xcode: coverage, scope: CoverageScope(root: root), input: "b.xcresult")
        let truth = try snapshotCoverage()
        let target = try #require(truth["P2PTestsIntegrationTests"])
        #expect(target == (4, 64))
        let module = try #require(report.modules.first { $0.name == "P2PTestsIntegrationTests" })
        #expect(module.summary.lines.covered == target.covered && module.summary.lines.count == target.executable)
        for (path, name) in [
            ("Sources/P2PSwift/Model/SolendConfig.swift", "SolendConfig.swift"),
            ("Sources/P2PSwift/SolendModels.swift", "SolendModels.swift"),
        ] {
            let file = try #require(report.files.first { $0.displayPath == path })
            let expected = try #require(truth[name])
            #expect(file.summary.lines.covered == expected.covered && file.summary.lines.count == expected.executable)
        }
        // The test targets' own files stay out.
        #expect(!report.files.contains { $0.displayPath.hasPrefix("Tests/") })
        #expect(report.files.contains { $0.displayPath.hasPrefix("Sources/Send/") })
    }
}

/// A bundle that keeps its results only in its database (fastlane's Xcode 26 fixture).
@Suite("Xcode bundles with no Data folder")
struct XcodeDatabaseOnlyBundleTests {
    static let bundle = "Xcode26-Mixed-XCTest-SwiftTesting"

    @Test("is a bundle: its tests come from the database, its coverage is refused with what it holds")
    func databaseOnly() throws {
        let path = XcodeFixtures.bundlePath(Self.bundle)
        #expect(XCResultBundle.isBundle(path))
        let error = #expect(throws: XcodeInputError.self) { try XCResultBundle(path: path) }
        #expect(error?.message.contains("holding Info.plist, database.sqlite3 and no Data folder") == true)
        #expect(error?.message.contains("no coverage") == true)
        let run = try TestResultsReader.read(paths: [path], utcOffset: 0)
        // fastlane's JUnit of the same bundle (json/…-WithoutRetries.junit) holds 192 test cases.
        #expect(run.cases.count == 192)
    }
}
