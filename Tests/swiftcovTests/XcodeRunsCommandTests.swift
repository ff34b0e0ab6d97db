import Foundation
import Testing

/// `swiftcov junit` and `report` on Xcode results whose tests ran more than once for a reason
/// other than a retry, and on a bundle it cannot read: a failure never passes the gate.
@Suite("swiftcov on Xcode runs with an identity, end to end", .removingTemporaryFolders)
struct XcodeRunsCommandTests {
    static let fixtures = "Tests/SwiftCovCoreTests/Fixtures/xcode/"

    @Test("a UI test failing in one of its configurations: exit 1, a failure, no flaky pass")
    func configurations() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/junit.xml"
        let result = try swiftcov(["junit", Self.fixtures + "example.xcresult", "--root", directory, "-o", output])
        #expect(result.status == 1)
        #expect(result.stderr.contains("2 failed") && !result.stderr.contains("flaky"))
        let xml = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!xml.contains("flakyFailure"))
        #expect(
            xml.contains(
                "<testsuite name=\"WeatherUITests.WeatherUITestsLaunchTests (XCUIAppearanceMode: 2, XCUIDeviceOrientation: 1)\""
            ))
        #expect(xml.contains("<failure message=\"failed - Fail!!\""))
    }

    @Test("check --tests: the failure in one configuration and the one on one device fail the gate")
    func gate() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: packageRoot + "/" + Self.fixtures + "TestResults-669.xcresult", toPath: directory + "/c.xcresult")
        for (tests, failure) in [
            ("example.xcresult", "FAIL  tests  WeatherUITests.WeatherUITestsLaunchTests.testLaunch()  failed - Fail!!"),
            ("json/same-device-name.tests.json", "FAIL  tests  AppTests.LayoutTests.testFitsScreen()"),
        ] {
            let result = try swiftcov(
                ["check", "c.xcresult", "--min-lines", "1", "--tests", packageRoot + "/" + Self.fixtures + tests],
                in: directory)
            #expect(result.status == 1, "\(tests): \(result.stderr)")
            #expect(result.stdout.contains(failure), "\(tests): \(result.stdout)")
        }
    }

    @Test("one device name on two OS versions, failing on one: exit 1, not a flaky pass")
    func sameDeviceName() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/junit.xml"
        let result = try swiftcov([
            "junit", Self.fixtures + "json/same-device-name.tests.json", "--root", directory, "-o", output,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("1 passed, 1 failed (2 tests"))
        #expect(!(try String(contentsOfFile: output, encoding: .utf8)).contains("flakyFailure"))
    }

    @Test(
        "a bundle with only Info.plist and database.sqlite3: junit reads what xcresulttool's JSON says; report, one line"
    )
    func databaseOnly() throws {
        let directory = try temporaryDirectory()
        let name = "Xcode26-Mixed-XCTest-SwiftTesting"
        let fromBundle = try swiftcov([
            "junit", Self.fixtures + name + ".xcresult", "--root", directory, "-o", directory + "/bundle.xml",
        ])
        let fromJSON = try swiftcov([
            "junit", Self.fixtures + "json/" + name + ".json", "--root", directory, "-o", directory + "/json.xml",
        ])
        #expect(fromBundle.status == 1, "\(fromBundle.stderr)")
        #expect(fromJSON.status == 1)
        let bundleXML = try String(contentsOfFile: directory + "/bundle.xml", encoding: .utf8)
        let jsonXML = try String(contentsOfFile: directory + "/json.xml", encoding: .utf8)
        // The same test cases and failures, line for line; argument cases in the order they ran
        // (xcresulttool sorts them by its collation, which the database does not keep).
        // (Neither input says when the run started: each suite's timestamp is the time junit ran.)
        func lines(_ xml: String) -> [String] {
            Array(xml.utf8).split(separator: UInt8(ascii: "\n")).map { line in
                let text = String(decoding: line, as: UTF8.self)
                guard let start = text.range(of: " timestamp=\"") else { return text }
                let end = text[start.upperBound...].firstIndex(of: "\"") ?? text.endIndex
                return String(text[..<start.lowerBound] + text[end...])
            }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        let (ours, theirs) = (lines(bundleXML), lines(jsonXML))
        #expect(ours.count == theirs.count)
        let differing = zip(ours, theirs).filter { $0 != $1 }
        #expect(differing.isEmpty, "\(differing.count) lines differ, first: \(String(describing: differing.first))")
        #expect(fromBundle.stderr.split(separator: "—").last == fromJSON.stderr.split(separator: "—").last)
        #expect(bundleXML.components(separatedBy: "<testcase ").count - 1 == 192)

        // history add records its tests, and does not look for coverage in it.
        let history = try swiftcov(
            [
                "history", "add", packageRoot + "/" + Self.fixtures + name + ".xcresult", "--history", "h.jsonl",
                "--commit", "abc",
            ], in: directory)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stderr.contains("(192 tests, abc)"), "\(history.stderr)")

        let report = try swiftcov(["report", Self.fixtures + name + ".xcresult", "--root", directory])
        #expect(report.status == 2)
        #expect(report.stderr.split(separator: "\n").count == 1, "\(report.stderr)")
        #expect(
            report.stderr.contains(
                "a result bundle holding Info.plist, database.sqlite3 and no Data folder: its database.sqlite3 holds "
                    + "test results"), "\(report.stderr)")
    }
}
