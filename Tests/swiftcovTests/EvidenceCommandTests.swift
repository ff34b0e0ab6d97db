import Foundation
import Testing

/// A failing UI test's steps and screenshots where people look, from real result bundles
/// (ChargePoint/xcparse's `testFailure.xcresult`: one test failing in three configurations,
/// trimmed so that some payloads are missing — see `Fixtures/xcode/ORIGIN.md`).
@Suite("Test evidence in html, junit and report, end to end", .removingTemporaryFolders)
struct EvidenceCommandTests {
    static let bundle = "Tests/SwiftCovCoreTests/Fixtures/xcode/testFailure.xcresult"

    @Test("html --tests BUNDLE: a page for the failing test, its screenshots copied, the missing ones said once")
    func htmlSite() throws {
        let directory = try temporaryDirectory()
        let site = directory + "/site"
        let result = try swiftcov(["html", "SampleReports/coverage.json", "--tests", Self.bundle, "-o", site])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("files are missing, left out of the report") == true)
        let pages = try FileManager.default.contentsOfDirectory(atPath: site + "/tests")
        #expect(pages == ["bitrise_screenshot_automationUITests.testFailureCase_-cca0d180abcfc810.html"])
        let copies = try FileManager.default.contentsOfDirectory(atPath: site + "/evidence").sorted()
        // The JPEG and the debug description the trimmed bundle kept (ORIGIN.md), each once.
        #expect(copies.count == 2)
        #expect(copies.contains { $0.hasSuffix(".jpg") } && copies.contains { $0.hasSuffix(".txt") })
        let page = try String(contentsOfFile: site + "/tests/" + pages[0], encoding: .utf8)
        for copy in copies { #expect(page.contains("../evidence/" + copy)) }
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(index.contains("href=\"tests/\(pages[0])\">Steps and attachments</a>"))

        // --evidence none: the site as before.
        let plain = directory + "/plain"
        let none = try swiftcov([
            "html", "SampleReports/coverage.json", "--tests", Self.bundle, "-o", plain, "--evidence", "none",
        ])
        #expect(none.status == 0)
        #expect(!FileManager.default.fileExists(atPath: plain + "/tests"))
        #expect(!FileManager.default.fileExists(atPath: plain + "/evidence"))
    }

    @Test("html BUNDLE: the bundle's coverage and, unasked, its tests and their steps")
    func htmlOfABundle() throws {
        let site = try temporaryDirectory() + "/site"
        let bundle = "Tests/SwiftCovCoreTests/Fixtures/xcode/Test-FlakyFixture.xcresult"
        let result = try swiftcov(["html", bundle, "-o", site])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: with the tests of the result bundle; give --tests for others"))
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(index.contains("<h2 id=\"tests\">Tests</h2>"))
        let pages = try FileManager.default.contentsOfDirectory(atPath: site + "/tests").sorted()
        #expect(pages.contains { $0.hasPrefix("FlakyFixtureTests.testFlaky_-") })
    }

    @Test("junit BUNDLE -o DIR/junit.xml: the failures' files beside it, named in [[ATTACHMENT|…]] lines")
    func junitAttachments() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/reports/junit.xml"
        try FileManager.default.createDirectory(atPath: directory + "/reports", withIntermediateDirectories: true)
        let result = try swiftcov(["junit", Self.bundle, "-o", output])
        #expect(result.status == 1, "\(result.stderr)")  // the test failed
        let xml = try String(contentsOfFile: output, encoding: .utf8)
        let lines = xml.split(separator: "\n").filter { $0.contains("[[ATTACHMENT|") }
        #expect(!lines.isEmpty)
        for line in lines {
            let path = try #require(line.firstMatch(of: /\[\[ATTACHMENT\|([^\]]+)\]\]/)?.1)
            #expect(path.hasPrefix("junit-attachments/"))
            #expect(FileManager.default.fileExists(atPath: directory + "/reports/" + path))
        }
        // Three test cases (one per configuration), each naming the screenshot first.
        #expect(xml.components(separatedBy: "<system-out>[[ATTACHMENT|junit-attachments/").count - 1 == 3)

        // Again: the folder is replaced whole; a folder of someone else's files never is.
        #expect(try swiftcov(["junit", Self.bundle, "-o", output]).status == 1)
        let other = directory + "/other"
        try FileManager.default.createDirectory(atPath: other + "/junit-attachments", withIntermediateDirectories: true)
        try "keep".write(toFile: other + "/junit-attachments/notes.txt", atomically: true, encoding: .utf8)
        let refused = try swiftcov(["junit", Self.bundle, "-o", other + "/junit.xml"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("not replacing a folder that holds other files"))
        #expect(try String(contentsOfFile: other + "/junit-attachments/notes.txt", encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: other + "/junit.xml"))
    }

    @Test("report --format markdown --site-url: each failure with its failing step and its page")
    func markdownLinks() throws {
        let result = try swiftcov([
            "report", "--tests", Self.bundle, "--format", "markdown", "--site-url", "https://ci.example.com/7/html/",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").filter { $0.contains("testFailureCase()") }
        #expect(rows.count == 3)
        for row in rows {
            #expect(row.contains("failed at “Assertion Failure: bitrise\\_screenshot\\_automationUITests.swift:44"))
            #expect(
                row.contains(
                    "([steps and screenshots](https://ci.example.com/7/html/tests/"
                        + "bitrise_screenshot_automationUITests.testFailureCase_-cca0d180abcfc810.html))"))
        }
    }

    @Test("a size that is not one: a usage error")
    func badLimit() throws {
        let result = try swiftcov(["junit", Self.bundle, "--evidence-limit", "lots"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("invalid value 'lots' for '--evidence-limit'"))
    }
}
