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

/// Xcode's test results: the real result bundles in `Fixtures/xcode/`, compared with the JUnit
/// xcresultparser wrote for them and with the counts their invocation records state.
@Suite("Xcode test results")
struct XcodeTestResultsTests {
    /// The place at the end of xcresultparser's failure text: `message (File.swift:109)`.
    static func splitGroundTruth(_ text: String) -> (message: String, file: String, line: Int)? {
        guard let open = text.range(of: " (", options: .backwards), text.hasSuffix(")") else { return nil }
        let place = text[open.upperBound..<text.index(before: text.endIndex)]
        guard let colon = place.lastIndex(of: ":"), let line = Int(place[place.index(after: colon)...]) else {
            return nil
        }
        return (String(text[..<open.lowerBound]), String(place[..<colon]), line)
    }

    /// Every case of xcresultparser's JUnit is ours, by class and name, with its outcome, its
    /// failure message and place.
    func compare(bundle: String, with file: String) throws -> TestRun {
        let run = try XcodeFixtures.testRun(bundle: bundle)
        let expected = try XcodeFixtures.groundTruth(file)
        let ours = run.cases
        for expectedCase in expected.cases {
            let matches = ours.filter {
                $0.name == expectedCase.testName
                    && ($0.className == expectedCase.className || $0.className.hasSuffix("." + expectedCase.className))
            }
            try #require(matches.count == 1, "\(bundle): \(expectedCase.className) \(expectedCase.testName)")
            let testCase = matches[0]
            #expect(testCase.status == expectedCase.status, "\(expectedCase.testName)")
            if let duration = expectedCase.duration, expectedCase.status == .passed {
                #expect(abs((testCase.duration ?? -1) - duration) < 0.001)
            }
            guard let failure = expectedCase.failingIssues.first else { continue }
            let truth = try #require(Self.splitGroundTruth(failure.message))
            // xcresultparser's message is `failed - …`: the summary's message.
            let issue = try #require((testCase.attempts.flatMap(\.issues) + testCase.failingIssues).first)
            #expect(issue.message == truth.message)
            #expect(issue.location.map { URL(fileURLWithPath: $0.file).lastPathComponent } == truth.file)
            #expect(issue.location?.line == truth.line)
        }
        return run
    }

    @Test("test.xcresult: 7 tests, 1 failure, as xcresultparser reads it")
    func testBundle() throws {
        let run = try compare(bundle: "test", with: "junit.xml")
        let expected = try XcodeFixtures.groundTruth("junit.xml")
        #expect(run.totals.tests == expected.totals.tests)
        #expect(run.totals.failed == expected.totals.failed)
        #expect(run.totals.tests == 7 && run.totals.failed == 1)  // the record's metrics
        #expect(run.suites.map(\.name) == ["XcresultparserTests.XcresultparserTests"])
        #expect(run.warnings.isEmpty)
    }

    @Test("test_merged.xcresult: two actions naming the same tests object read it once")
    func mergedBundle() throws {
        let run = try compare(bundle: "test_merged", with: "junit_merged.xml")
        #expect(run.totals.tests == 7 && run.totals.failed == 1)
        #expect(run.cases.allSatisfy { $0.attempts.isEmpty })
    }

    @Test("test_repeated.xcresult: three iterations are one test, failed three times")
    func repeatedBundle() throws {
        let run = try compare(bundle: "test_repeated", with: "junit_repeated.xml")
        #expect(run.totals.tests == 1 && run.totals.failed == 1)
        let testCase = try #require(run.cases.first)
        #expect(testCase.attempts.map(\.status) == [.failed, .failed])
        // testsFailedCount 3 in the record: three failing runs, each with its own message.
        #expect(
            (testCase.attempts.flatMap(\.issues) + testCase.issues).map(\.message) == [
                "failed - Failed with number: 51", "failed - Failed with number: 61", "failed - Failed with number: 25",
            ])
        let xml = JUnitReport.render(run, options: JUnitReportTests.options())
        #expect(xml.contains("<failure message=\"failed - Failed with number: 51\""))
        #expect(xml.components(separatedBy: "<rerunFailure ").count == 3)
    }

    @Test("session_level_failure.xcresult: the failure outside any test is a failed case")
    func sessionLevelBundle() throws {
        let run = try XcodeFixtures.testRun(bundle: "session_level_failure")
        let expected = try XcodeFixtures.groundTruth("junit_session_level_failure.xml")
        let expectedCase = try #require(expected.cases.first { $0.status == .failed })
        let testCase = try #require(run.failingCases.first)
        #expect(run.failingCases.count == 1)
        #expect(testCase.testName == expectedCase.testName)
        #expect(run.suites.map(\.name).contains(XcodeTestResults.sessionLevelSuite))
        let truth = try #require(Self.splitGroundTruth(expectedCase.failingIssues[0].message))
        // "Issue recorded: Issue recorded in Task.detached — no Test.current": the dash is three
        // bytes, and the length before it counts bytes.
        #expect(testCase.issues.map(\.message) == [truth.message])
        #expect(testCase.issues.first?.location?.line == truth.line)
        // The two passing tests are in the bundle's database (Xcode 26), trimmed from the fixture:
        // a warning says the tests object is not there.
        #expect(run.warnings.count == 1)
        #expect(run.warnings.first?.message.contains("not in this input") == true)
    }

    @Test("resultWithCompileError.xcresult: the build error is an error case with its place")
    func compileErrorBundle() throws {
        let run = try XcodeFixtures.testRun(bundle: "resultWithCompileError")
        #expect(run.totals.errors == 1)
        let testCase = try #require(run.failingCases.first)
        #expect(testCase.testName == "build")
        #expect(
            testCase.issues.map(\.message) == [
                "Cannot find 'xmlString1' in scope", "Testing cancelled because the build failed.",
            ])
        #expect(
            testCase.issues[0].location?.file.hasSuffix("/Sources/xcresultparser/CoberturaCoverageConverter.swift")
                == true)
        #expect(testCase.issues[0].location?.line == 40)  // StartingLineNumber=39, from 0
    }

    @Test("parametrized.xcresult: 49 tests as its record counts, Swift Testing cases with their arguments")
    func parametrizedBundle() throws {
        let run = try XcodeFixtures.testRun(bundle: "parametrized")
        #expect(run.totals.tests == 49)
        #expect(run.totals.passed == 49)
        let cases = run.cases.filter { $0.testName == "testCoverageConverterPathnames(strictPathnames:projectRoot:)" }
        #expect(cases.count == 4)
        #expect(Set(cases.compactMap(\.arguments)).count == 4)
        #expect(
            cases.contains {
                $0.arguments == #"strictPathnames: true, projectRoot: "/Users/notexistant/code/xcresultparser""#
            })
        #expect(run.suites.contains { $0.framework == .swiftTesting })
    }

    @Test("Test-FlakyFixture.xcresult: a retry that passed is a flaky pass, with the failure kept")
    func flakyBundle() throws {
        let run = try XcodeFixtures.testRun(bundle: "Test-FlakyFixture")
        #expect(run.totals.tests == 2 && run.totals.passed == 2 && run.totals.flaky == 1)  // testsCount 2, 0 failed
        let flaky = try #require(run.cases.first { $0.testName == "testFlaky()" })
        #expect(flaky.isFlaky)
        #expect(flaky.attempts.count == 1)
        #expect(
            flaky.attempts[0].issues.map(\.message) == [
                "failed - Intentional first-attempt failure to produce a flaky/mixed retry result"
            ])
        #expect(flaky.attempts[0].issues.first?.location?.line == 33)
        let xml = JUnitReport.render(run, options: JUnitReportTests.options())
        #expect(xml.contains("<flakyFailure message=\"failed - Intentional first-attempt failure"))
        #expect(!xml.contains("<failure"))
        #expect(TestSummaryTableReport.render(run).contains("2 passed (1 only on retry: flaky)"))
    }

    static let goldenBundles = ["test", "parametrized", "Test-FlakyFixture", "test_repeated", "session_level_failure"]

    @Test("JUnit of the bundles, plain and strict, as their golden files", arguments: goldenBundles)
    func golden(bundle: String) throws {
        let run = try XcodeFixtures.testRun(bundle: bundle)
        for strict in [false, true] {
            let xml = JUnitReport.render(run, options: JUnitReportTests.options(strict: strict))
            try assertGolden(xml, "junit-xcode-\(bundle)\(strict ? "-strict" : "").xml")
            #expect(try XMLShape(xml: xml).problems(strict: strict) == [])
        }
    }

    @Test(
        "every object of every bundle reads, and reads the same from the legacy JSON of it",
        arguments: XcodeFixtures.bundles)
    func everyObject(bundle: String) throws {
        for id in try XcodeFixtures.objectIDs(bundle: bundle) {
            let bytes = try #require(try XcodeFixtures.objectBytes(bundle: bundle, id: id))
            guard bytes.starts(with: Array("[T[".utf8)) else { continue }  // the coverage report's plist
            let object = try bytes.withUnsafeBytes { try XCResultObject.parseTypedEncoding($0, path: id) }
            let json = Array(LegacyJSON.render(object).utf8)
            #expect(try json.withUnsafeBytes { try XCResultObject.parseLegacyJSON($0, path: id) } == object)
        }
    }

    @Test("the committed legacy JSON of the flaky fixture's tests gives the bundle's run")
    func legacyJSONFile() throws {
        let run = try TestResultsReader.read(
            paths: [XcodeFixtures.path("json/Test-FlakyFixture.tests.legacy.json")], utcOffset: 0)
        let bundle = try XcodeFixtures.testRun(bundle: "Test-FlakyFixture")
        #expect(run.totals == bundle.totals)
        // Without the summaries (other objects), the failure of the first attempt has no message.
        #expect(run.cases.map(\.name) == bundle.cases.map(\.name))
        #expect(run.cases.map(\.status) == bundle.cases.map(\.status))
    }

    @Test("a legacy invocation record alone gives the failures it names")
    func legacyInvocationRecord() throws {
        let run = try TestResultsReader.read(
            paths: [XcodeFixtures.path("json/test.invocation.legacy.json")], utcOffset: 0)
        #expect(run.totals.tests == 1 && run.totals.failed == 1)
        let testCase = try #require(run.failingCases.first)
        #expect(testCase.className == "XcresultparserTests" && testCase.testName == "testCoverageConverter()")
        #expect(testCase.issues.first?.location?.line == 109)
        #expect(run.warnings.count == 1)
    }
}

/// `xcresulttool get test-results tests|summary` JSON (Xcode 16+): invented outputs that follow
/// the documented schema (see `Fixtures/xcode/ORIGIN.md`).
@Suite("xcresulttool test-results JSON")
struct XCResultToolJSONTests {
    func read(_ file: String) throws -> TestRun {
        try TestResultsReader.read(paths: [XcodeFixtures.path("json/" + file)], utcOffset: 0)
    }

    @Test("tests: retries, skips, expected failures, arguments and devices")
    func tests() throws {
        let run = try read("tests.json")
        #expect(run.totals.tests == 9)
        #expect(run.totals.passed == 5 && run.totals.failed == 3 && run.totals.skipped == 1 && run.totals.flaky == 1)
        func find(_ name: String, _ suite: String? = nil) throws -> TestRun.Case {
            let suites = run.suites.filter { suite == nil || $0.name == suite }
            return try #require(suites.flatMap(\.cases).first { $0.name == name })
        }
        let flaky = try find("testFlaky()")
        #expect(flaky.isFlaky && flaky.className == "FlakyFixtureTests.FlakyFixtureTests")
        #expect(
            flaky.attempts.first?.issues.first?.location
                == TestRun.SourceLocation(file: "FlakyFixtureTests.swift", line: 33))
        #expect(flaky.attempts.first?.issues.first?.message.hasPrefix("failed - Intentional") == true)
        #expect(flaky.duration == 0.0007139444351196289)
        let failing = try find("testAlwaysFails()")
        #expect(failing.status == .failed && failing.attempts.map(\.status) == [.failed])
        #expect(failing.issues.map(\.message) == [#"XCTAssertEqual failed: ("1") is not equal to ("3")"#])
        #expect(try find("testCamera()").skipReason == "Test skipped - needs a camera")
        let known = try find("testKnownBug()")
        #expect(known.status == .passed && known.issues.map(\.kind) == [.knownIssue])
        let argument = try find("normalizes(strictPathnames:) (strictPathnames: false)")
        #expect(argument.status == .failed)
        #expect(argument.issues.first?.message == #"Expectation failed: (path → "/tmp/é") == "/tmp/e""#)
        let onPad = try find("Layout fits the screen", "FlakyFixtureTests.PathTests (iPad Air 11-inch (M2))")
        #expect(onPad.status == .failed && onPad.issues.first?.location?.line == 30)
        #expect(try find("Layout fits the screen", "FlakyFixtureTests.PathTests (iPhone 16)").status == .passed)
        #expect(run.warnings.isEmpty)
        for strict in [false, true] {
            let xml = JUnitReport.render(run, options: JUnitReportTests.options(strict: strict))
            try assertGolden(xml, "junit-xcode-tests-json\(strict ? "-strict" : "").xml")
            #expect(try XMLShape(xml: xml).problems(strict: strict) == [])
        }
    }

    @Test("summary: the failures it names, and a warning with the counts it does not")
    func summary() throws {
        let run = try read("summary.json")
        #expect(run.totals.tests == 1 && run.totals.failed == 1)
        let testCase = try #require(run.cases.first)
        #expect(testCase.className == "FlakyFixtureTests.FlakyFixtureTests" && testCase.testName == "testAlwaysFails()")
        #expect(testCase.issues.map(\.message) == [#"XCTAssertEqual failed: ("1") is not equal to ("2")"#])
        #expect(
            run.warnings.map(\.message) == [
                "a test-results summary names only the tests that failed; not listed: 1 expected failures, 2 passed, "
                    + "1 skipped (give `xcresulttool get test-results tests` for every test)"
            ])
    }

    @Test("a summary that says the run failed and names no failure is an error, not a pass")
    func failedWithoutFailures() throws {
        let run = try TestResultsStream.readXcode(
            Array(#"{"result":"Failed","totalTestCount":3,"testFailures":[]}"#.utf8), path: "s.json")
        #expect(run.totals.errors == 1)
    }

    @Test("merged with another run (a shard), a case keeps its attempts")
    func mergeKeepsAttempts() throws {
        let flaky = try XcodeFixtures.testRun(bundle: "Test-FlakyFixture")
        let other = try read("tests.json")
        let merged = TestResultsReader.combine([.xcode(other), .xcode(flaky)])
        let testCases = merged.cases.filter { $0.testName == "testFlaky()" }
        #expect(testCases.count == 1)
        #expect(testCases.allSatisfy { $0.isFlaky })
        #expect(merged.duplicates.count == 2)
        #expect(merged.totals.flaky == 1)
    }
}

/// An object written back as `xcresulttool get --legacy --format json` prints it.
enum LegacyJSON {
    static func render(_ object: XCResultObject) -> String {
        var json = JSONWriter()
        write(object, to: &json)
        return json.output
    }

    static func write(_ object: XCResultObject, to json: inout JSONWriter) {
        json.beginObject()
        json.key("_type")
        writeType([object.type] + object.supertypes, to: &json)
        for field in object.fields {
            json.key(field.key)
            write(field.value, to: &json)
        }
        if let value = object.value { json.member("_value", value) }
        if object.type == "Array" {
            json.key("_values")
            json.beginArray()
            for element in object.elements { write(element, to: &json) }
            json.endArray()
        }
        json.endObject()
    }

    static func writeType(_ chain: [String], to json: inout JSONWriter) {
        json.beginObject()
        json.member("_name", chain[0])
        if chain.count > 1 {
            json.key("_supertype")
            writeType(Array(chain.dropFirst()), to: &json)
        }
        json.endObject()
    }
}
