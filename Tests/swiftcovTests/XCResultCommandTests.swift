import Foundation
import Testing

/// `swiftcov xcresult export attachments`: xcresulttool's files and manifest from real bundles
/// (ChargePoint/xcparse's, trimmed: see `Fixtures/xcode/ORIGIN.md`).
@Suite("swiftcov xcresult export attachments, end to end", .removingTemporaryFolders)
struct XCResultCommandTests {
    static let fixtures = "Tests/SwiftCovCoreTests/Fixtures/xcode/"

    @Test("--only-failures: the three screenshots taken at testHEIC's failures, and their manifest")
    func onlyFailures() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/attachments"
        let result = try swiftcov([
            "xcresult", "export", "attachments", Self.fixtures + "testHEIC.xcresult", "--output-path", output,
            "--only-failures",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "swiftcov: wrote \(output) — 3 attachments of 1 test, 3 distinct\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(files.count == 4)
        // Format 3.26 gives attachments no UUID: named by their place, with the suggested name's extension.
        #expect(files == ["attachment-1.png", "attachment-2.png", "attachment-3.png", "manifest.json"])
        #expect(files.contains("manifest.json"))
        let data = try Data(contentsOf: URL(fileURLWithPath: output + "/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(manifest.count == 1)
        #expect(
            manifest[0]["testIdentifier"] as? String
                == "bitrise_screenshot_automationUITests/testTodayWidgetScreenshot()")
        #expect(manifest[0]["testIdentifierURL"] == nil)  // the object graph does not hold it
        let attachments = try #require(manifest[0]["attachments"] as? [[String: Any]])
        #expect(Set(attachments.compactMap { $0["configurationName"] as? String }) == ["de", "en", "ko"])
        for attachment in attachments {
            #expect(attachment["isAssociatedWithFailure"] as? Bool == true)
            #expect(attachment["deviceName"] as? String == "iPhone SE (2nd generation)")
            #expect(attachment["deviceId"] as? String == "89E613DB-63A3-4690-AEA6-BC56A6D6958F")
            let file = try #require(attachment["exportedFileName"] as? String)
            let name = try #require(attachment["suggestedHumanReadableName"] as? String)
            #expect(name.hasPrefix("Screenshot_") && name.hasSuffix(".png") && !file.contains("/"))
            #expect((attachment["timestamp"] as? Double).map { $0 > 1_593_000_000 } == true)
            // The bytes as stored: HEIC, though the record says public.png (as xcparse found).
            let bytes = try Data(contentsOf: URL(fileURLWithPath: output + "/" + file))
            #expect(bytes[4..<8] == Data("ftyp".utf8))
        }
    }

    @Test("a payload the bundle does not hold: one line naming the bundle and the object, exit 2, nothing written")
    func missingPayload() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/attachments"
        let bundle = Self.fixtures + "testSuccess.xcresult"
        let result = try swiftcov(["xcresult", "export", "attachments", "--path", bundle, "--output-path", output])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(bundle + ": error: "))
        #expect(result.stderr.contains("is missing (Data/data.0~"))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("usage: no subcommand, no bundle, no output folder: exit 2")
    func usage() throws {
        let directory = try temporaryDirectory()
        for arguments in [
            ["xcresult"], ["xcresult", "export", "attachments", "--output-path", directory + "/out"],
            ["xcresult", "export", "attachments", Self.fixtures + "testHEIC.xcresult"],
        ] {
            let result = try swiftcov(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("error:"))
        }
        // A folder of someone's files is never replaced.
        try "keep".write(toFile: directory + "/notes.txt", atomically: true, encoding: .utf8)
        let result = try swiftcov([
            "xcresult", "export", "attachments", Self.fixtures + "testHEIC.xcresult", "--output-path", directory,
            "--only-failures",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("not replacing a folder"))
        #expect(FileManager.default.fileExists(atPath: directory + "/notes.txt"))
    }

    @Test("get test-results activities: the test's runs as JSON on stdout; an unknown test, exit 2")
    func activities() throws {
        let bundle = Self.fixtures + "testFailure.xcresult"
        let test = "bitrise_screenshot_automationUITests/testFailureCase()"
        let result = try swiftcov([
            "xcresult", "get", "test-results", "activities", "--test-id", test, "--path", bundle, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let runs = try #require(document["testRuns"] as? [[String: Any]])
        #expect(
            runs.compactMap { ($0["testPlanConfiguration"] as? [String: Any])?["configurationName"] as? String }
                == ["de", "en", "ko"])
        let unknown = try swiftcov(["xcresult", "get", "test-results", "activities", "--test-id", "A/b()", bundle])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no test A/b() in this bundle"))
    }

    @Test("get test-results tests|summary|test-details: xcresulttool's JSON on stdout, from either store")
    func testResultsDocuments() throws {
        let bundle = Self.fixtures + "Xcode26-Mixed-XCTest-SwiftTesting.xcresult"
        func json(_ arguments: [String]) throws -> [String: Any] {
            let result = try swiftcov(["xcresult", "get", "test-results"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
        // fastlane's JSON of the same bundle is the ground truth for the devices and configurations.
        let truth = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    contentsOf: URL(fileURLWithPath: Self.fixtures + "json/Xcode26-Mixed-XCTest-SwiftTesting.json")))
                as? [String: Any])
        let tests = try json(["tests", "--path", bundle, "--format", "json"])
        #expect((tests["devices"] as? NSArray) == (truth["devices"] as? NSArray))
        #expect((tests["testPlanConfigurations"] as? NSArray) == (truth["testPlanConfigurations"] as? NSArray))
        #expect((tests["testNodes"] as? [[String: Any]])?.first?["name"] as? String == "TestPlan")
        let summary = try json(["summary", bundle])
        #expect(summary["title"] as? String == "Test - FastlaneTrainerExample")
        #expect((summary["devicesAndConfigurations"] as? [Any])?.count == 1)
        let id = "FastlaneTrainerTests/UserTests/RegistrationTests/PasswordTests/testPasswordLength()"
        let details = try json(["test-details", "--test-id", id, bundle])
        #expect(details["testResult"] as? String == "Failed")
        #expect(details["testDescription"] as? String == "Test case with 2 runs")
        let runs = try #require(details["testRuns"] as? [[String: Any]])
        #expect(runs.map { $0["name"] as? String } == ["iPhone 17 Pro Max"])
        #expect((runs[0]["children"] as? [[String: Any]])?.map { $0["name"] as? String } == ["First Run", "Retry 1"])
        // The object graph of a legacy bundle.
        let legacy = try json(["summary", Self.fixtures + "test.xcresult"])
        #expect(legacy["totalTestCount"] as? Int == 7)
        #expect(legacy["failedTests"] as? Int == 1)
    }

    @Test("get test-results: an unknown document, test-details without --test-id, an unknown test: exit 2")
    func testResultsUsage() throws {
        let bundle = Self.fixtures + "test.xcresult"
        for arguments in [
            ["xcresult", "get", "test-results", "metrics", bundle],
            ["xcresult", "get", "test-results", "test-details", bundle],
            ["xcresult", "get", "test-results", "tests"],
        ] {
            let result = try swiftcov(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix("swiftcov xcresult: error: "), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let unknown = try swiftcov(["xcresult", "get", "test-results", "test-details", "--test-id", "A/b()", bundle])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no test A/b() in this bundle"))
        let missing = try swiftcov(["xcresult", "get", "test-results", "summary", Self.fixtures + "nothing.xcresult"])
        #expect(missing.status == 2)
        #expect(missing.stdout.isEmpty)
    }
}
