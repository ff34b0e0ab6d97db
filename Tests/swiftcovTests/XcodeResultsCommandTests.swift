import Foundation
import Testing

/// `swiftcov junit` on Xcode's test results: `xcresulttool get test-results tests|summary` JSON
/// and `get --legacy` JSON, told by their content.
@Suite("swiftcov junit on Xcode's results, end to end", .removingTemporaryFolders)
struct XcodeResultsCommandTests {
    static let json = "Tests/SwiftCovCoreTests/Fixtures/xcode/json/"

    @Test("test-results tests JSON: retries, arguments and devices in the JUnit file, exit 1 for the failures")
    func testsJSON() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/junit.xml"
        let result = try swiftcov(["junit", Self.json + "tests.json", "--root", directory, "-o", output])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "swiftcov: wrote \(output) — 5 passed (1 only on retry: flaky), 3 failed, 1 skipped (9 tests in 0.015 s)\n"
        )
        let xml = try String(contentsOfFile: output, encoding: .utf8)
        #expect(xml.contains("<flakyFailure message=\"failed - Intentional first-attempt failure"))
        #expect(
            xml.contains(
                "<rerunFailure message=\"XCTAssertEqual failed: (&quot;1&quot;) is not equal to (&quot;3&quot;)\""))
        #expect(xml.contains("<testsuite name=\"FlakyFixtureTests.PathTests (iPad Air 11-inch (M2))\""))
        #expect(xml.contains("name=\"normalizes(strictPathnames:) (strictPathnames: false)\""))
    }

    @Test("legacy JSON of a tests object: read as the bundle is, exit 0 (the flaky test passed)")
    func legacyJSON() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/junit.xml"
        let result = try swiftcov([
            "junit", Self.json + "Test-FlakyFixture.tests.legacy.json", "--root", directory, "-o", output,
        ])
        #expect(result.status == 0)
        #expect(result.stderr.hasSuffix("2 passed (1 only on retry: flaky) (2 tests in 0.001 s)\n"))
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("<flakyFailure"))
    }

    @Test("a summary names only its failures: those, and a warning with what it does not list")
    func summaryJSON() throws {
        let directory = try temporaryDirectory()
        let result = try swiftcov([
            "junit", Self.json + "summary.json", "--root", directory, "-o", directory + "/junit.xml",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("warning: a test-results summary names only the tests that failed"))
        #expect(result.stderr.contains("2 passed, 1 skipped"))
    }

    @Test("truncated JSON: exit 2, the file and the byte offset named, no JUnit file")
    func truncated() throws {
        let directory = try temporaryDirectory()
        let text = try String(contentsOfFile: Self.json + "tests.json", encoding: .utf8)
        try String(text.prefix(1000)).write(toFile: directory + "/tests.json", atomically: true, encoding: .utf8)
        let result = try swiftcov(["junit", directory + "/tests.json", "-o", directory + "/junit.xml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(directory)/tests.json: error: "))
        #expect(result.stderr.contains("(byte offset 1000"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/junit.xml"))
    }
}
