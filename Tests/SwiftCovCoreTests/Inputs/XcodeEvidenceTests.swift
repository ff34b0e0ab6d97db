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

/// Each test run's steps, failures and attachments read from real bundles' object graphs:
/// ChargePoint/xcparse's bundles against the counts its own tests state
/// (`Tests/xcparseTests/xcparseTests.swift`), kishikawakatsumi/xcresulttool's against the
/// activity trees of its Markdown snapshots (see `Fixtures/xcode/ORIGIN.md`).
@Suite("Evidence in Xcode result bundles")
struct XcodeEvidenceTests {
    static func evidence(_ bundle: String) throws -> [TestEvidence] {
        let (evidence, warnings) = try XCResultBundle.evidence(path: XcodeFixtures.bundlePath(bundle))
        #expect(warnings.isEmpty, "\(warnings)")
        return evidence
    }

    /// The activity trees of a snapshot, each step as `depth|title|attachments shown`, one tree
    /// per test run shown with its activities.
    static func snapshotTrees(_ name: String) throws -> [[String]] {
        let text = try String(
            contentsOfFile: XcodeFixtures.path("xcresulttool-snapshots/\(name).md"), encoding: .utf8)
        var trees: [[String]] = []
        var current: [(depth: Int, title: String, attachments: Int)]?
        func close() {
            if let steps = current { trees.append(steps.map { "\($0.depth)|\($0.title)|\($0.attachments)" }) }
            current = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("<b>Activities:</b>") {
                close()
                current = []
                continue
            }
            guard current != nil else { continue }
            if line.hasPrefix("<tr>") || line.hasPrefix("</table>") {
                close()
            } else if let match = line.wholeMatch(of: /( *)- (.*)/) {
                let title = String(match.2).replacing("<span>#</span>", with: "#")
                current!.append((match.1.count / 2, title, 0))
            } else if line.contains("<details"), !current!.isEmpty {
                current![current!.count - 1].attachments += line.ranges(of: "<details").count
            }
        }
        close()
        return trees
    }

    /// Our trees in the snapshot's terms.
    static func trees(_ evidence: [TestEvidence]) -> [[String]] {
        evidence.filter { !$0.activities.isEmpty }.map { run in
            run.activities.indices.map { position in
                let step = run.activities[position]
                return "\(step.depth)|\(step.title)|\(run.attachments(at: position).count)"
            }
        }
    }

    static func sorted(_ trees: [[String]]) -> [[String]] {
        trees.sorted { $0.joined(separator: "\n") < $1.joined(separator: "\n") }
    }

    @Test(
        "each test run's activity tree equals the snapshot's: titles, nesting, attachments at their step",
        arguments: ["example", "merged", "Spaceship", "TestResults"])
    func activityTrees(bundle: String) throws {
        let snapshot = try Self.snapshotTrees(bundle)
        #expect(!snapshot.isEmpty)
        let ours = Self.trees(try Self.evidence(bundle))
        #expect(ours.count == snapshot.count)
        #expect(Self.sorted(ours) == Self.sorted(snapshot))
    }

    @Test("Attachment.xcresult: the snapshot's trees, titles and nesting (it shows only its screenshots)")
    func attachmentBundleTrees() throws {
        let evidence = try Self.evidence("Attachment")
        func shape(_ trees: [[String]]) -> [[String]] {
            Self.sorted(trees.map { $0.map { String($0[..<$0.lastIndex(of: "|")!]) } })
        }
        let snapshot = try Self.snapshotTrees("Attachment")
        #expect(snapshot.count == 8)
        #expect(shape(Self.trees(evidence)) == shape(snapshot))
        // Each "Added attachment named 'Launch Screen'" step the snapshot shows a screenshot at
        // holds one PNG.
        for run in evidence {
            for position in run.activities.indices where run.activities[position].title.contains("'Launch Screen'") {
                #expect(run.attachments(at: position).map(\.uniformTypeIdentifier) == ["public.png"])
            }
        }
    }

    @Test("example.xcresult: the failure is tied to its assertion step, and the screenshot there to the failure")
    func failureAtItsStep() throws {
        let evidence = try Self.evidence("example")
        let failing = evidence.filter { $0.status == .failed && $0.testName == "testLaunch()" }
        #expect(failing.count == 1)
        let run = try #require(failing.first)
        #expect(run.arguments == "XCUIAppearanceMode: 2, XCUIDeviceOrientation: 1")
        let failure = try #require(run.failures.first { !$0.isExpected })
        #expect(failure.message == "failed - Fail!!")
        #expect(failure.location?.line == 28)
        let step = try #require(failure.activity)
        #expect(
            run.activities[step].title == "Assertion Failure at WeatherUITestsLaunchTests.swift:28: failed - Fail!!")
        #expect(run.activities[step].depth == 0)
        #expect(run.isFailing(step))
        let screenshots = run.attachments(at: step)
        #expect(screenshots.count == 1)
        #expect(screenshots.allSatisfy { $0.isAssociatedWithFailure })
        // Steps before the failure hold attachments not tied to it.
        #expect(run.attachments.filter { !$0.isAssociatedWithFailure }.count == run.attachments.count - 1)
        // Every failure of the bundle's failing runs is at a step.
        for run in evidence where run.status == .failed {
            #expect(run.failures.filter { !$0.isExpected }.allSatisfy { $0.activity != nil }, "\(run.testIdentifier)")
        }
    }

    @Test("merged.xcresult: a failure the step names (failureSummaryIDs) is at that step: Tap \"enrollButton\"")
    func failureNamedByItsStep() throws {
        let evidence = try Self.evidence("merged")
        let taps = evidence.flatMap { run in
            run.failures.compactMap { failure in
                failure.activity.map { run.activities[$0].title }
            }
        }.filter { $0.hasPrefix("Tap ") }
        #expect(taps == ["Tap \"enrollButton\" Button", "Tap \"enrollButton\" Button"])
        let run = try #require(
            evidence.first { $0.failures.contains { $0.location?.file.hasSuffix("BDDTest.swift") == true } })
        let failure = try #require(run.failures.first)
        #expect(failure.location?.line == 40)
        #expect(failure.message.hasPrefix("Failed to synthesize event: Failed to scroll to visible"))
        // The retries the snapshot shows are inside the failing step.
        let tap = try #require(failure.activity)
        let retries = run.children(of: tap).map { run.activities[$0].title }.filter { $0.hasPrefix("Retrying") }
        #expect(
            retries == [
                "Retrying `Tap \"enrollButton\" Button` (attempt #2)",
                "Retrying `Tap \"enrollButton\" Button` (attempt #3)",
            ])
    }

    @Test("xcparse testSuccess.xcresult: 6 PNG screenshots, 3 per test, 2 per configuration (de, en, ko), on iPhone 11")
    func xcparseSuccess() throws {
        let evidence = try Self.evidence("testSuccess")
        let screenshots = evidence.flatMap { run in run.attachments.map { (run, $0) } }.filter {
            $0.1.uniformTypeIdentifier == "public.png"
        }
        #expect(screenshots.count == 6)
        #expect(screenshots.filter { $0.1.filename?.contains("MyAutomation_darkMapView") == true }.count == 3)
        #expect(screenshots.filter { $0.1.filename?.contains("MyAutomation_todayWidget") == true }.count == 3)
        for configuration in ["ko", "en", "de"] {
            let mine = screenshots.filter { $0.0.configuration == configuration }
            #expect(mine.count == 2)
            #expect(mine.filter { $0.1.name == "MyAutomation_darkMapView" }.count == 1)
            #expect(mine.filter { $0.1.name == "MyAutomation_todayWidget" }.count == 1)
        }
        #expect(
            screenshots.filter {
                $0.0.testIdentifier == "bitrise_screenshot_automationUITests/testMainViewScreenshot()"
            }
            .allSatisfy { $0.1.name == "MyAutomation_darkMapView" })
        #expect(screenshots.allSatisfy { $0.0.deviceName == "iPhone 11" && $0.0.status == .passed })
        #expect(screenshots.allSatisfy { $0.0.deviceIdentifier == "BFB8C9E3-0E55-4E20-B332-091631DF4F90" })
        // Content-addressed: 6 attachments, 5 payloads; the one kept in the fixture is the PNG
        // its record says, byte for byte as long.
        #expect(Set(screenshots.compactMap(\.1.payload)).count == 5)
        let kept = try #require(screenshots.map(\.1).first { $0.payload?.size == 384_781 })
        #expect(kept.name == "MyAutomation_darkMapView")
        let bundle = try XCResultBundle(path: XcodeFixtures.bundlePath("testSuccess"))
        let bytes = try bundle.payload(try #require(kept.payload))
        #expect(bytes.count == 384_781)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // Times: the attachment's timestamp within its step's span (2020-06-24, UTC-7).
        let run = try #require(screenshots.first { $0.1 == kept }?.0)
        let step = try #require(kept.activity)
        let start = try #require(run.activities[step].start)
        let finish = try #require(run.activities[step].finish)
        let stamp = try #require(kept.timestamp)
        #expect(start <= stamp + 0.5 && stamp <= finish + 0.5)
        #expect(start > 1_593_000_000 && start < 1_593_100_000)
    }

    @Test("xcparse testFailure.xcresult: 12 failure screenshots in 3 failing runs, failures at their steps")
    func xcparseFailure() throws {
        let evidence = try Self.evidence("testFailure")
        #expect(evidence.count == 3)
        #expect(evidence.allSatisfy { $0.status == .failed })
        #expect(Set(evidence.compactMap(\.configuration)) == ["de", "en", "ko"])
        let screenshots = evidence.flatMap(\.attachments).filter { $0.filename?.contains("Screenshot") == true }
        #expect(screenshots.count == 12)
        for run in evidence {
            let failure = try #require(run.failures.first)
            #expect(failure.message == "XCTAssertTrue failed")
            #expect(failure.location?.line == 44)
            let step = try #require(failure.activity)
            #expect(
                run.activities[step].title
                    == "Assertion Failure: bitrise_screenshot_automationUITests.swift:44: XCTAssertTrue failed")
            #expect(run.attachments(at: step).allSatisfy { $0.isAssociatedWithFailure })
            #expect(!run.attachments(at: step).isEmpty)
        }
        // A compressed payload: the element's description, 221 bytes once decoded.
        let text = try #require(evidence.flatMap(\.attachments).first { $0.payload?.size == 221 })
        #expect(text.uniformTypeIdentifier == "public.plain-text")
        let bytes = try XCResultBundle(path: XcodeFixtures.bundlePath("testFailure")).payload(
            try #require(text.payload))
        #expect(bytes.count == 221)
    }

    @Test("xcparse testHEIC.xcresult: 18 HEIC screenshots, 6 per configuration")
    func xcparseHEIC() throws {
        let evidence = try Self.evidence("testHEIC")
        let heic = evidence.flatMap { run in run.attachments.map { (run, $0) } }.filter {
            $0.1.filename?.hasSuffix(".heic") == true
        }
        #expect(heic.count == 18)
        #expect(heic.allSatisfy { $0.1.uniformTypeIdentifier == "public.heic" })
        for configuration in ["ko", "en", "de"] {
            #expect(heic.filter { $0.0.configuration == configuration }.count == 6)
        }
        #expect(heic.allSatisfy { $0.0.deviceName == "iPhone SE (2nd generation)" })
        let kept = try #require(heic.map(\.1).first { $0.payload?.size == 18_079 })
        let bytes = try XCResultBundle(path: XcodeFixtures.bundlePath("testHEIC")).payload(try #require(kept.payload))
        #expect(bytes.count == 18_079)
        #expect(Array(bytes[4..<8]) == Array("ftyp".utf8))
    }

    @Test("a payload the bundle does not hold: an error naming the object")
    func missingPayload() throws {
        let evidence = try Self.evidence("testSuccess")
        let missing = try #require(evidence.flatMap(\.attachments).first { $0.payload?.size == 1_119_485 })
        let bundle = try XCResultBundle(path: XcodeFixtures.bundlePath("testSuccess"))
        let payload = try #require(missing.payload)
        do throws(XcodeInputError) {
            _ = try bundle.payload(payload)
            Issue.record("a payload the bundle does not hold was read")
        } catch {
            #expect(error.message.contains(payload.id))
        }
    }

    @Test("dates of the object graph in seconds since 1970")
    func dates() {
        #expect(XcodeEvidence.seconds("2020-06-24T15:17:08.439-0700") == 1_593_037_028.439)
        #expect(XcodeEvidence.seconds("1970-01-01T00:00:00Z") == 0)
        #expect(XcodeEvidence.seconds("2000-03-01T00:00:00+01:00") == 951_865_200)
        #expect(XcodeEvidence.seconds("2020-13-01T00:00:00Z") == nil)
        #expect(XcodeEvidence.seconds("2020-06-24T15:17:08.439-07") == nil)
        #expect(XcodeEvidence.seconds("") == nil)
    }

    @Test("a deep tree of steps: built without recursion; the graph's depth limit is a clear error")
    func deepTree() throws {
        // 100 levels: read, each step under the one before.
        var summary = XCResultObject(type: "ActionTestSummary")
        var innermost = XCResultObject(
            type: "ActionTestActivitySummary", fields: [.init(key: "title", value: .init(type: "String", value: "99"))])
        for level in (0..<99).reversed() {
            innermost = XCResultObject(
                type: "ActionTestActivitySummary",
                fields: [
                    .init(key: "title", value: .init(type: "String", value: "\(level)")),
                    .init(key: "subactivities", value: .init(type: "Array", elements: [innermost])),
                ])
        }
        summary.fields.append(.init(key: "activitySummaries", value: .init(type: "Array", elements: [innermost])))
        let testCase = TestRun.Case(className: "A", testName: "t()", status: .passed)
        let run = XcodeEvidence.evidence(
            summary: summary, testIdentifier: "A/t()", testCase: testCase, label: XcodeRunBuilder.Label())
        #expect(run.activities.count == 100)
        #expect(run.activities.map(\.title) == (0..<100).map { "\($0)" })
        #expect(run.activities.map(\.depth) == Array(0..<100))
        #expect(run.activities.dropFirst().enumerated().allSatisfy { $0.element.parent == $0.offset })
        #expect(run.children(of: 0) == [1])
        #expect(run.topLevelActivities == [0])
        // 10,000 levels in a bundle's encoding: the parser's depth limit, an error that says so.
        var text = "[T[K2:_nV17:ActionTestSummary]K17:activitySummaries[T[K2:_nV5:Array]"
        text += "[T[K2:_nV25:ActionTestActivitySummary]K13:subactivities[S5:Array"
        text += String(repeating: "[S25:ActionTestActivitySummaryK13:subactivities[S5:Array", count: 9_999)
        text += String(repeating: "]]", count: 10_000) + "]]"
        let bytes = Array(text.utf8)
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(TestResultsError) in try XCResultObject.parseTypedEncoding(buffer, path: "deep") }
        }
        guard case .failure(let error) = result else {
            Issue.record("a 10,000-level tree was read")
            return
        }
        #expect(error.diagnostic.message.contains("nested too deep"))
    }
}

/// The same evidence from Xcode 16 and later's `database.sqlite3`: fastlane's Xcode 16 and 26
/// bundles (database only) against their `xcresulttool get test-results tests` JSON and the
/// rows Python's `sqlite3` counts in them; xcresultparser's bundles that hold both stores agree.
@Suite("Evidence in Xcode result databases")
struct XcodeDatabaseEvidenceTests {
    /// Rows counted by Python's sqlite3 (`select count(*) …`) in each fastlane database.
    static let counts: [(bundle: String, runs: Int, activities: Int, issues: Int, attachments: Int)] = [
        ("Xcode16-Mixed-XCTest-SwiftTesting", 368, 291, 42, 8),
        ("Xcode26-Mixed-XCTest-SwiftTesting", 368, 315, 42, 8),
    ]

    @Test("every Activities, TestIssues and Attachments row of a run, once, under its run", arguments: counts)
    func rows(bundle: String, runs: Int, activities: Int, issues: Int, attachments: Int) throws {
        let (evidence, warnings) = try XCResultBundle.evidence(path: XcodeFixtures.bundlePath(bundle))
        #expect(warnings.isEmpty)
        #expect(evidence.count == runs)
        #expect(evidence.map(\.activities.count).reduce(0, +) == activities)
        #expect(evidence.map(\.failures.count).reduce(0, +) == issues)
        #expect(evidence.map(\.attachments.count).reduce(0, +) == attachments)
        // UI tests only have steps; 3 levels deep at most there.
        let withSteps = evidence.filter { !$0.activities.isEmpty }
        #expect(withSteps.count == 14)
        #expect(withSteps.allSatisfy { $0.testIdentifier.hasPrefix("FastlaneTrainerExampleUITests") })
        #expect(withSteps.flatMap(\.activities).map(\.depth).max() == 3)
        for run in withSteps {
            for (position, step) in run.activities.enumerated() {
                if let parent = step.parent {
                    #expect(parent < position && run.activities[parent].depth == step.depth - 1)
                } else {
                    #expect(step.depth == 0)
                }
            }
        }
    }

    @Test("Xcode 26: testLaunch's four argument cases each attach its Launch Screen at its step")
    func launchScreens() throws {
        let (evidence, _) = try XCResultBundle.evidence(
            path: XcodeFixtures.bundlePath("Xcode26-Mixed-XCTest-SwiftTesting"))
        let launches = evidence.filter { $0.testIdentifier == "FastlaneTrainerExampleUITestsLaunchTests/testLaunch" }
        // The argument cases the tool names in the JSON.
        #expect(
            Set(launches.compactMap(\.arguments)) == [
                "Dark Appearance, Landscape Right", "Dark Appearance, Portrait", "Light Appearance, Landscape Right",
                "Light Appearance, Portrait",
            ])
        #expect(launches.allSatisfy { $0.deviceName == "iPhone 17 Pro Max" && $0.status == .passed })
        #expect(launches.allSatisfy { $0.deviceIdentifier == "B961613E-6760-407D-9A20-94F45FDFDC4D" })
        for run in launches {
            #expect(run.attachments.count == 1)
            let screen = try #require(run.attachments.first)
            #expect(screen.name == "Launch Screen" && screen.uniformTypeIdentifier == "public.png")
            #expect(screen.lifetime == "keepAlways" && !screen.isAssociatedWithFailure)
            let step = try #require(screen.activity)
            #expect(run.activities[step].title == "Added attachment named 'Launch Screen'")
            // Times in seconds since 1970: December 2025, within the step.
            let stamp = try #require(screen.timestamp)
            #expect(stamp > 1_765_700_000 && stamp < 1_765_800_000)
            #expect(run.activities.contains { $0.depth == 0 && $0.title.hasPrefix("Start Test at 2025-12-14") })
        }
        // Content-addressed: two screenshots, each shared by two runs.
        #expect(Set(launches.compactMap(\.attachments.first?.payload?.id)).count == 2)
    }

    @Test("Xcode 26: testBasicNavigation's failure in each attempt, with the tool's message and the UI hierarchy")
    func failures() throws {
        let (evidence, _) = try XCResultBundle.evidence(
            path: XcodeFixtures.bundlePath("Xcode26-Mixed-XCTest-SwiftTesting"))
        let runs = evidence.filter { $0.testIdentifier == "FastlaneTrainerExampleUITests/testBasicNavigation()" }
        #expect(runs.map(\.attempt).sorted() == [1, 2])
        #expect(runs.allSatisfy { $0.status == .failed })
        // The JSON's Failure Messages: `FastlaneTrainerExampleUITests.swift:43: Failed to tap …, pid: 20176` first.
        let first = try #require(runs.first { $0.attempt == 1 }?.failures.first)
        #expect(first.location?.line == 43)
        #expect(first.location?.file.hasSuffix("/FastlaneTrainerExampleUITests.swift") == true)
        #expect(first.message.hasPrefix("Failed to tap \"Details\" Button: No matches found"))
        #expect(first.message.hasSuffix("given input App element pid: 20176"))
        for run in runs {
            #expect(
                run.attachments.map(\.name).sorted() == [
                    "App UI hierarchy for org.fastlane.FastlaneTrainerExample", "kXCTAttachmentLegacySnapshot",
                ])
            #expect(run.attachments.allSatisfy { $0.isAssociatedWithFailure })
        }
    }

    @Test("hostile (invented): steps 10,000 deep read without recursion, a cycle left out, a hostile name kept safe")
    func deepDatabaseTree() throws {
        let path = XcodeFixtures.path("hostile/deep-activities.xcresult")
        let (evidence, _) = try XCResultBundle.evidence(path: path)
        let run = try #require(evidence.first)
        #expect(evidence.count == 1)
        #expect(run.activities.count == 10_000)
        #expect(run.activities.last?.depth == 9_999)
        #expect(run.activities.enumerated().allSatisfy { $0.element.parent == ($0.offset == 0 ? nil : $0.offset - 1) })
        #expect(run.activities.allSatisfy { !$0.title.hasPrefix("cycle") })
        // The failure the deepest step names, and the attachment there.
        #expect(run.failures.first?.activity == 9_999)
        let attachment = try #require(run.attachments.first)
        #expect(attachment.activity == 9_999 && attachment.isAssociatedWithFailure)
        #expect(attachment.name.hasPrefix("../../etc/passwd\u{0}"))
        let items = XcodeAttachmentExport.items(evidence, onlyFailures: true)
        #expect(items.map(\.exportedFileName) == ["attachment-1.png"])
        // Its payload is not in the bundle (no Data folder): one error naming the bundle, nothing written.
        let output = FileManager.default.temporaryDirectory.path + "/swiftcov-deep-\(getpid())"
        #expect(throws: Diagnostic.self) {
            try XcodeAttachmentExport.write(bundle: path, to: output, onlyFailures: false)
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(
        "bundles with both stores: the object graph and the database give the same runs and failures",
        arguments: ["test_repeated", "Test-FlakyFixture"])
    func storesAgree(bundle: String) throws {
        let path = XcodeFixtures.bundlePath(bundle)
        let (graph, warnings) = try XCResultBundle.evidence(path: path)
        #expect(warnings.isEmpty)
        let database = try XcodeResultDatabase.evidence(bundle: path)
        func digest(_ runs: [TestEvidence]) -> [String] {
            runs.map { run in
                ([run.testIdentifier, "\(run.status)"]
                    + run.failures.map { "\($0.message) @\($0.location?.line ?? 0) \($0.isExpected)" })
                    .joined(separator: " | ")
            }.sorted()
        }
        #expect(!graph.isEmpty)
        #expect(digest(graph) == digest(database))
        #expect(graph.flatMap(\.failures).count >= 1)
    }
}

@Suite("Exporting attachments as xcresulttool does")
struct XcodeAttachmentExportTests {
    @Test("hostile names: the file name is the UUID and a safe extension, unique, never a path")
    func hostileNames() {
        var taken = Set<String>(["manifest.json"])
        let uuid = "6FA1D88D-D866-456F-A5B4-9DAF95DDCEA5"
        #expect(
            XcodeAttachmentExport.fileName(uuid: uuid, suggested: "Launch Screen_0_X.png", index: 1, taken: &taken)
                == uuid + ".png")
        #expect(
            XcodeAttachmentExport.fileName(uuid: uuid, suggested: "again.png", index: 2, taken: &taken)
                == uuid + "-2.png")
        #expect(
            XcodeAttachmentExport.fileName(uuid: uuid.lowercased(), suggested: "a.PNG", index: 3, taken: &taken)
                == uuid.lowercased() + "-3.PNG")
        for (hostileUUID, suggested) in [
            ("../../etc/passwd", "../../x.png"), ("/tmp/a", "/abs/path.txt"), ("a\u{0}b", "n\u{0}ul.png"),
            (String(repeating: "A", count: 10_000), String(repeating: "n", count: 10_000) + ".png"),
            (nil, "x./y"), ("ok", "name.t/xt"), ("manifest", "manifest.json"),
        ] {
            let name = XcodeAttachmentExport.fileName(uuid: hostileUUID, suggested: suggested, index: 9, taken: &taken)
            #expect(!name.contains("/") && !name.contains("\u{0}") && !name.hasPrefix("."), "\(name)")
            #expect(name.utf8.count <= 90 && name != "manifest.json", "\(name)")
        }
    }

    @Test("the manifest: one entry per test, keys the bundle cannot supply left out")
    func manifest() throws {
        var run = TestEvidence(testIdentifier: "A/t()", className: "M.A", testName: "t()", status: .failed)
        run.configuration = "de"
        run.attachments = [
            TestEvidence.Attachment(name: "s", filename: "s_0_U.png", uuid: "U", payload: .init(id: "0~a")),
            TestEvidence.Attachment(name: "q\"\u{0}", timestamp: 1.5, uuid: "V", payload: .init(id: "0~a")),
        ]
        run.attachments[1].isAssociatedWithFailure = true
        let items = XcodeAttachmentExport.items([run], onlyFailures: false)
        #expect(items.map(\.exportedFileName) == ["U.png", "V"])
        #expect(XcodeAttachmentExport.items([run], onlyFailures: true).map(\.exportedFileName) == ["V"])
        let text = XcodeAttachmentExport.manifest(items)
        let value = try JSONValue.parse(Array(text.utf8))
        guard case .array(let tests) = value, case .object(let members)? = tests.first else {
            Issue.record("not an array of objects: \(text)")
            return
        }
        #expect(members.map(\.key) == ["testIdentifier", "attachments"])
        guard case .array(let attachments)? = tests.first?["attachments"],
            case .object(let first)? = attachments.first, case .object(let second)? = attachments.last
        else {
            Issue.record("no attachments: \(text)")
            return
        }
        #expect(
            first.map(\.key) == [
                "exportedFileName", "suggestedHumanReadableName", "isAssociatedWithFailure", "configurationName",
            ])
        #expect(
            second.map(\.key) == [
                "exportedFileName", "suggestedHumanReadableName", "isAssociatedWithFailure", "timestamp",
                "configurationName",
            ])
        #expect(attachments.last?["suggestedHumanReadableName"] == .string("q\"\u{0}"))
    }
}

@Suite("A test's activities as xcresulttool prints them")
struct XcodeActivitiesJSONTests {
    /// The steps of a document's run as `depth|title|attachments`, read back from its JSON.
    static func steps(_ activities: [Any], depth: Int = 0) -> [String] {
        activities.compactMap { $0 as? [String: Any] }.flatMap { step -> [String] in
            let title = step["title"] as? String ?? ""
            let attachments = (step["attachments"] as? [Any])?.count ?? 0
            return ["\(depth)|\(title)|\(attachments)"]
                + steps(step["childActivities"] as? [Any] ?? [], depth: depth + 1)
        }
    }

    @Test("example.xcresult: testLaunch()'s four runs, each tree the snapshot's, the failing step marked")
    func example() throws {
        let (evidence, _) = try XCResultBundle.evidence(path: XcodeFixtures.bundlePath("example"))
        let text = try #require(
            XcodeActivitiesJSON.render(evidence, testID: "WeatherUITestsLaunchTests/testLaunch()"))
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["testIdentifier"] as? String == "WeatherUITestsLaunchTests/testLaunch()")
        #expect(document["testName"] as? String == "testLaunch()")
        let runs = try #require(document["testRuns"] as? [[String: Any]])
        #expect(runs.count == 4)
        let trees = runs.map { Self.steps($0["activities"] as? [Any] ?? []) }
        let snapshot = try XcodeEvidenceTests.snapshotTrees("example")
        #expect(trees.allSatisfy { snapshot.contains($0) })
        let marked = runs.flatMap { run in
            func walk(_ activities: [Any]) -> [String] {
                activities.compactMap { $0 as? [String: Any] }.flatMap { step -> [String] in
                    (step["isAssociatedWithFailure"] as? Bool == true ? [step["title"] as? String ?? ""] : [])
                        + walk(step["childActivities"] as? [Any] ?? [])
                }
            }
            return walk(run["activities"] as? [Any] ?? [])
        }
        #expect(marked == ["Assertion Failure at WeatherUITestsLaunchTests.swift:28: failed - Fail!!"])
        #expect(XcodeActivitiesJSON.render(evidence, testID: "WeatherUITestsLaunchTests/nothing()") == nil)
    }

    @Test("a tree 10,000 deep: written without recursion, no pyramid of indentation")
    func deep() throws {
        let (evidence, _) = try XCResultBundle.evidence(path: XcodeFixtures.path("hostile/deep-activities.xcresult"))
        let text = try #require(XcodeActivitiesJSON.render(evidence, testID: "DeepTests/testDeep()"))
        #expect(text.ranges(of: "\"childActivities\"").count == 9_999)
        #expect(text.utf8.count < 2_000_000)
        #expect(text.hasSuffix("}\n"))
    }
}
