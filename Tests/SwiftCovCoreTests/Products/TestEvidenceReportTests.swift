import Foundation
import SwiftCovTestSupport
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// The tests' evidence in the reports: the copies (`EvidenceFiles`), the HTML pages, JUnit's
/// attachments and Markdown's links, on ChargePoint/xcparse's and kishikawakatsumi's real
/// bundles (trimmed: some payloads were left out, see `Fixtures/xcode/ORIGIN.md`) and on Swift
/// Testing's event stream, with invented inputs only for hostile cases.
@Suite("Test evidence in the reports", .removingTemporaryFolders)
struct TestEvidenceReportTests {
    static func evidence(_ bundle: String) throws -> [TestEvidence] {
        try XCResultBundle.evidence(path: XcodeFixtures.bundlePath(bundle)).evidence
    }

    /// The payloads of `runs` the bundle holds, by id: what a copy can hold.
    static func storedPayloads(_ runs: [TestEvidence], failingOnly: Bool) throws -> Set<String> {
        var ids: Set<String> = []
        for run in runs where !failingOnly || run.hasFailed {
            let bundle = try XCResultBundle(path: run.bundle!)
            for attachment in run.attachments {
                if let id = attachment.payload?.id, bundle.hasObject(id) { ids.insert(id) }
            }
        }
        return ids
    }

    @Test("testFailure: each stored payload of the failing runs copied once, named by its content's MD5")
    func copiesOncePerContent() throws {
        let runs = try Self.evidence("testFailure")
        #expect(runs.count == 3 && runs.allSatisfy(\.hasFailed))
        let folder = try temporaryDirectory()
        let files = try EvidenceFiles.copy(runs, policy: EvidencePolicy(), into: folder, prefix: "e/")
        // Xcode's store is content-addressed: one file per stored payload id.
        let stored = try Self.storedPayloads(runs, failingOnly: true)
        #expect(!stored.isEmpty)
        #expect(files.filesWritten == stored.count)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(written.count == stored.count)
        for name in written {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let digest = bytes.withUnsafeBytes { MD5.digest($0) }.map { String(format: "%02x", $0) }.joined()
            #expect(name.hasPrefix(digest + "."))
        }
        // Every attachment is either copied or said to be left out because its payload is missing.
        let total = runs.reduce(0) { $0 + $1.attachments.count }
        #expect(files.copied.count + files.leftOut.count == total)
        for reason in files.leftOut.values {
            guard case .missingFile(let path) = reason else {
                Issue.record("unexpected reason \(reason)")
                continue
            }
            #expect(path.contains("/Data/data.0~"))
        }
        #expect(files.warnings(policy: EvidencePolicy()).count == 1)
    }

    @Test("failures first within the byte limit; a passing run's attachments only with --evidence all")
    func policyAndLimit() throws {
        let runs = try Self.evidence("testSuccess")
        #expect(!runs.isEmpty && runs.allSatisfy { !$0.hasFailed })
        let folder = try temporaryDirectory()
        let failures = try EvidenceFiles.copy(runs, policy: EvidencePolicy(), into: folder + "/a", prefix: "")
        #expect(failures.filesWritten == 0)
        #expect(failures.leftOut.values.allSatisfy { $0 == .passingRun })
        let all = try EvidenceFiles.copy(
            runs, policy: EvidencePolicy(scope: .all), into: folder + "/b", prefix: "")
        #expect(all.filesWritten == (try Self.storedPayloads(runs, failingOnly: false)).count)
        // The kept PNG is 384,781 bytes (ORIGIN.md): a limit below it leaves it out and says so.
        let limited = try EvidenceFiles.copy(
            runs, policy: EvidencePolicy(scope: .all, byteLimit: 384_780), into: folder + "/c", prefix: "")
        #expect(limited.filesWritten < all.filesWritten)
        #expect(limited.overLimit.count > 0)
        #expect(limited.bytesWritten <= 384_780)
        #expect(
            limited.warnings(policy: EvidencePolicy(scope: .all, byteLimit: 384_780)).first?.message
                .contains("left out past the evidence limit") == true)
        let none = try EvidenceFiles.copy(
            runs, policy: EvidencePolicy(scope: .none), into: folder + "/d", prefix: "")
        #expect(none.filesWritten == 0 && !FileManager.default.fileExists(atPath: folder + "/d"))
    }

    @Test("a payload of 20 GB (sparse) is left out past the limit, never read")
    func hugePayload() throws {
        let folder = try temporaryDirectory()
        let bundle = folder + "/testFailure.xcresult"
        try FileManager.default.copyItem(atPath: XcodeFixtures.bundlePath("testFailure"), toPath: bundle)
        var runs = try XCResultBundle.evidence(path: bundle).evidence
        let stored = try #require(
            runs.flatMap(\.attachments).compactMap(\.payload?.id).first {
                FileManager.default.fileExists(atPath: bundle + "/Data/data." + $0)
            })
        let handle = try #require(FileHandle(forWritingAtPath: bundle + "/Data/data." + stored))
        try handle.truncate(atOffset: 20_000_000_000)
        try handle.close()
        for index in runs.indices { runs[index].bundle = bundle }
        let files = try EvidenceFiles.copy(runs, policy: EvidencePolicy(), into: folder + "/copies", prefix: "")
        let huge = files.leftOut.values.filter { $0 == .overLimit(bytes: 20_000_000_000) }
        #expect(!huge.isEmpty)
        #expect(files.bytesWritten < 1_000_000)
    }

    @Test("only inert types keep their extension: SVG, HTML and unknown types are copied as .bin")
    func inertExtensions() {
        func ext(_ type: String?, _ name: String) -> String {
            var attachment = TestEvidence.Attachment(name: name, uniformTypeIdentifier: type)
            attachment.filename = name
            return EvidenceFiles.fileExtension(of: attachment)
        }
        #expect(ext("public.png", "Screen.png") == "png")
        #expect(ext("public.jpeg", "x") == "jpg")
        #expect(ext("public.mpeg-4", "Recording.mp4") == "mp4")
        #expect(ext("public.heic", "a") == "heic")
        #expect(ext("public.svg-image", "evil.svg") == "bin")
        #expect(ext(nil, "evil.svg") == "bin")
        #expect(ext(nil, "page.html") == "bin")
        #expect(ext(nil, "../../etc/passwd") == "bin")
        #expect(ext(nil, "screen.txt") == "txt")
        // The copy's extension: an image's from its bytes, whatever it says it is.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        let heic: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0]
        let svg = Array("<svg onload=alert(1)>".utf8)
        let declaredPNG = TestEvidence.Attachment(name: "Screenshot", uniformTypeIdentifier: "public.png")
        #expect(EvidenceFiles.copyExtension(of: declaredPNG, bytes: png) == "png")
        #expect(EvidenceFiles.copyExtension(of: declaredPNG, bytes: heic) == "heic")
        #expect(EvidenceFiles.copyExtension(of: declaredPNG, bytes: svg) == "bin")
        #expect(EvidenceFiles.copyExtension(of: .init(name: "log.txt"), bytes: Array("hello".utf8)) == "txt")
        #expect(EvidenceFiles.kind(ofCopy: "evidence/0a.png") == .image)
        #expect(EvidenceFiles.kind(ofCopy: "evidence/0a.heic") == .download)
        #expect(EvidenceFiles.kind(ofCopy: "evidence/0a.bin") == .download)
    }

    @Test("sizes as users write them")
    func byteCounts() {
        #expect(EvidencePolicy.byteCount("250000") == 250_000)
        #expect(EvidencePolicy.byteCount("100MB") == 100_000_000)
        #expect(EvidencePolicy.byteCount("1.5GB") == 1_500_000_000)
        #expect(EvidencePolicy.byteCount("2g") == 2_000_000_000)
        #expect(EvidencePolicy.byteCount("512kB") == 512_000)
        #expect(EvidencePolicy.byteCount("0") == 0)
        for bad in ["", "MB", "-1", "1.5.5", "1e9", "99999999999999999GB", "½MB", "1.MB"] {
            #expect(EvidencePolicy.byteCount(bad) == nil, "\(bad)")
        }
    }

    /// The page of `testFailure`'s one test, rendered after copying.
    static func testFailurePage() throws -> (page: String, evidence: HTMLReport.Evidence, folder: String) {
        var evidence = HTMLReport.Evidence(runs: try evidence("testFailure"), policy: EvidencePolicy())
        let folder = try temporaryDirectory()
        evidence.files = try EvidenceFiles.copy(
            evidence.runs, policy: evidence.policy, into: folder + "/evidence", prefix: "evidence/")
        #expect(evidence.tests.count == 1)
        let page = HTMLReport.testPageBuffer(
            evidence.tests[0].runs, evidence: evidence, linking: [], options: HTMLReport.Options(version: "1.0.0")
        ).text
        return (page, evidence, folder)
    }

    @Test("a failing UI test's page: its runs, the failing step marked with its message, screenshots at their step")
    func testPage() throws {
        let (page, evidence, _) = try Self.testFailurePage()
        // Three runs (de, en, ko on an iPhone 11), as xcparse's tests say, each failing at the
        // assertion step with XCTAssertTrue at line 44.
        for configuration in ["de", "en", "ko"] { #expect(page.contains("<td>\(configuration)</td>")) }
        #expect(page.components(separatedBy: "class=\"failing\"").count - 1 == 3)
        #expect(page.components(separatedBy: "✗ Failed here:").count - 1 == 3)
        #expect(page.contains("bitrise_screenshot_automationUITests.swift:44: XCTAssertTrue failed"))
        // Each copied JPEG is shown at its step; each missing payload is said.
        let images = evidence.files.copied.filter { EvidenceFiles.kind(ofCopy: $0.value) == .image }
        #expect(!images.isEmpty)
        #expect(page.components(separatedBy: "<img src=\"../evidence/").count - 1 == images.count)
        #expect(
            page.components(separatedBy: "not copied: its file is missing").count - 1 == evidence.files.leftOut.count)
        // The debug description (221 bytes of text, ORIGIN.md) is shown as it is.
        #expect(page.contains("<figure class=\"attachment text\"><pre>"))
        try assertGolden(page, "html-evidence-test.html")
    }

    @Test("the index: each failure links to its page with its failing step and screenshot, and the matrix")
    func indexLinks() throws {
        let (_, evidence, _) = try Self.testFailurePage()
        let run = try XCResultBundle.testRun(path: XcodeFixtures.bundlePath("testFailure"))
        var html = OutputBuffer()
        HTMLReport.testSummary(&html, run, evidence: evidence, linking: [])
        let text = html.text
        let page = HTMLReport.testPageName(
            className: evidence.runs[0].className, testName: evidence.runs[0].testName)
        #expect(text.components(separatedBy: "<a href=\"\(page)\">Steps and attachments</a>").count - 1 == 3)
        // The thumbnail once, not once per configuration.
        #expect(text.components(separatedBy: "class=\"thumb\"").count - 1 == 1)
        #expect(text.contains("failed at “Assertion Failure: bitrise_screenshot_automationUITests.swift:44"))
        #expect(text.contains("<h3>Failures by configuration and destination</h3>"))
        #expect(text.components(separatedBy: "1 of 1 failed").count - 1 == 3)
    }

    @Test("the snapshot's trees become nested lists, steps in the snapshot's order")
    func nestedStepsFollowTheSnapshot() throws {
        var evidence = HTMLReport.Evidence(runs: try Self.evidence("example"), policy: EvidencePolicy(scope: .none))
        evidence.files = EvidenceFiles()
        let snapshot = try XcodeEvidenceTests.snapshotTrees("example")
        for test in evidence.tests {
            let page = HTMLReport.testPageBuffer(test.runs, evidence: evidence, linking: [], options: .init()).text
            // Balanced lists, and as deep as the deepest step.
            #expect(page.components(separatedBy: "<ol").count == page.components(separatedBy: "</ol>").count)
            #expect(page.matches(of: /<li[ >]/).count == page.components(separatedBy: "</li>").count - 1)
            for position in test.runs {
                let run = evidence.runs[position]
                guard !run.activities.isEmpty else { continue }
                let titles = run.activities.map(\.title)
                #expect(snapshot.contains { $0.map { String($0.split(separator: "|")[1]) } == titles })
                var index = page.startIndex
                for title in titles {
                    let escaped = title.replacingOccurrences(of: "&", with: "&amp;")
                        .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
                        .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
                    guard let found = page.range(of: "<span class=\"title\">" + escaped, range: index..<page.endIndex)
                    else {
                        Issue.record("step \(title) (\(escaped)) missing or out of order")
                        break
                    }
                    index = found.upperBound
                }
            }
        }
    }

    @Test("hostile evidence: a 10,000-level tree stays within 24 levels, names are escaped, SVG never inlined")
    func hostile() throws {
        var run = TestEvidence(testIdentifier: "A/b()", className: "M.A", testName: "b()", status: .failed)
        for depth in 0..<10_000 {
            run.activities.append(
                .init(title: "<script>alert(\(depth))</script>", parent: depth == 0 ? nil : depth - 1, depth: depth))
        }
        run.failures = [.init(message: "</pre><img src=x onerror=alert(1)>", activity: 9_999)]
        let folder = try temporaryDirectory()
        let svg = folder + "/evil.svg"
        try "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>".write(
            toFile: svg, atomically: true, encoding: .utf8)
        var attachment = TestEvidence.Attachment(
            name: "\"><script>x</script>", uniformTypeIdentifier: "public.svg-image")
        attachment.file = svg
        attachment.activity = 9_999
        attachment.isAssociatedWithFailure = true
        run.attachments = [attachment]
        var evidence = HTMLReport.Evidence(runs: [run], policy: EvidencePolicy())
        evidence.files = try EvidenceFiles.copy(
            [run], policy: evidence.policy, into: folder + "/site/evidence", prefix: "evidence/")
        let page = HTMLReport.testPageBuffer([0], evidence: evidence, linking: [], options: .init()).text
        #expect(!page.contains("<script>alert"))
        #expect(!page.contains("<img src=x"))
        #expect(!page.contains("<svg"))
        #expect(page.components(separatedBy: "<ol>").count - 1 == HTMLReport.deepestStep)
        #expect(page.components(separatedBy: "<ol").count == page.components(separatedBy: "</ol>").count)
        let copy = try #require(evidence.files.copied[.init(run: 0, attachment: 0)])
        #expect(copy.hasSuffix(".bin"))
        #expect(page.contains("download=\"evil.svg\""))
        // The copy holds the file's bytes unchanged.
        #expect(try String(contentsOfFile: folder + "/site/" + copy, encoding: .utf8).contains("<script>"))
    }

    @Test("Swift Testing's attachments from the event stream are a run's evidence, files copied")
    func swiftTestingAttachments() throws {
        let run = try TestResultsReader.read(paths: [LogFixture("real-attachments-events.jsonl").path], utcOffset: 0)
        let evidence = run.evidence
        let withAttachments = run.suites.flatMap(\.cases).filter { !$0.attachments.isEmpty }
        #expect(!withAttachments.isEmpty)
        #expect(evidence.count == withAttachments.count)
        for (runEvidence, testCase) in zip(evidence, withAttachments) {
            #expect(runEvidence.className == testCase.className && runEvidence.testName == testCase.testName)
            #expect(runEvidence.attachments.map(\.file) == testCase.attachments.map(\.path))
            #expect(runEvidence.hasFailed == (testCase.status >= .failed))
        }
    }
}
