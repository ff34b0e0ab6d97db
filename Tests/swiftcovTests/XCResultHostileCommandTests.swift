import Foundation
import Testing

/// `swiftcov xcresult export attachments` on hostile bundles, INVENTED here in the shape of the
/// object graph (typed encoding, objects stored uncompressed as `compression = none` bundles keep
/// them): names that try to leave the folder, an SVG with a script, payloads of 20 GB (sparse),
/// and payloads that are links in a loop or out of the bundle.
@Suite("swiftcov xcresult export attachments: hostile bundles", .removingTemporaryFolders)
struct XCResultHostileCommandTests {
    // The typed encoding of the object graph.
    static func typed(_ type: String, _ fields: [(String, String)]) -> String {
        "[T[K2:_nV\(type.utf8.count):\(type)]"
            + fields.map { "K\($0.0.utf8.count):\($0.0)\($0.1)" }.joined() + "]"
    }
    static func string(_ text: String) -> String { "[T[K2:_nV6:String]K2:_vV\(text.utf8.count):\(text)]" }
    static func array(_ elements: [String]) -> String { "[T[K2:_nV5:Array]" + elements.joined() + "]" }
    static func reference(_ id: String) -> String { typed("Reference", [("id", string(id))]) }

    struct Attachment {
        var name: String
        var filename: String
        var uuid: String
        var type: String
        var payload: String
    }

    /// A bundle of one failing UI test whose one step holds `attachments`; payload files are left
    /// to the caller.
    static func bundle(at path: String, attachments: [Attachment]) throws {
        try FileManager.default.createDirectory(atPath: path + "/Data", withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>rootId</key><dict><key>hash</key><string>0~root</string></dict>\
        <key>storage</key><dict><key>compression</key><string>none</string></dict>\
        <key>version</key><dict><key>major</key><integer>3</integer><key>minor</key><integer>53</integer></dict>\
        </dict></plist>

        """.write(toFile: path + "/Info.plist", atomically: true, encoding: .utf8)
        let records = attachments.map { attachment in
            typed(
                "ActionTestAttachment",
                [
                    ("uniformTypeIdentifier", string(attachment.type)), ("name", string(attachment.name)),
                    ("uuid", string(attachment.uuid)), ("filename", string(attachment.filename)),
                    ("payloadRef", reference(attachment.payload)),
                ])
        }
        let summary = typed(
            "ActionTestSummary",
            [
                ("testStatus", string("Failure")),
                (
                    "activitySummaries",
                    array([
                        typed(
                            "ActionTestActivitySummary",
                            [("title", string("Tap \"Answer B\"")), ("attachments", array(records))])
                    ])
                ),
            ])
        let tests = typed(
            "ActionTestPlanRunSummaries",
            [
                (
                    "summaries",
                    array([
                        typed(
                            "ActionTestPlanRunSummary",
                            [
                                ("name", string("Default")),
                                (
                                    "testableSummaries",
                                    array([
                                        typed(
                                            "ActionTestableSummary",
                                            [
                                                ("name", string("AppUITests")),
                                                (
                                                    "tests",
                                                    array([
                                                        typed(
                                                            "ActionTestMetadata",
                                                            [
                                                                ("identifier", string("GameUITests/testAnswer()")),
                                                                ("name", string("testAnswer()")),
                                                                ("testStatus", string("Failure")),
                                                                ("summaryRef", reference("0~summary")),
                                                            ])
                                                    ])
                                                ),
                                            ])
                                    ])
                                ),
                            ])
                    ])
                )
            ])
        let root = typed(
            "ActionsInvocationRecord",
            [
                (
                    "actions",
                    array([
                        typed(
                            "ActionRecord",
                            [("actionResult", typed("ActionResult", [("testsRef", reference("0~tests"))]))])
                    ])
                )
            ])
        for (id, text) in [("0~root", root), ("0~tests", tests), ("0~summary", summary)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/Data/data." + id))
        }
    }

    static let svg = Data(
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(document.cookie)</script></svg>\n".utf8)
    static let tenGiB: UInt64 = 10 << 30

    @Test("hostile names, an SVG with a script, 20 GB of sparse payloads: safe names, bytes unaltered, holes kept")
    func hostileExport() throws {
        let directory = try temporaryDirectory()
        let bundle = directory + "/Hostile.xcresult"
        let longName = "a\u{0}" + String(repeating: "n", count: 10_000) + ".png"
        try Self.bundle(
            at: bundle,
            attachments: [
                Attachment(
                    name: "../../etc/passwd", filename: "../../etc/passwd", uuid: "../../escape", type: "public.png",
                    payload: "0~png"),
                Attachment(
                    name: "/abs/x.png", filename: "/abs/x.png", uuid: "AAAAAAAA-0000-0000-0000-000000000001",
                    type: "public.png", payload: "0~png"),
                Attachment(
                    name: longName, filename: longName, uuid: "AAAAAAAA-0000-0000-0000-000000000002",
                    type: "public.png", payload: "0~png2"),
                Attachment(
                    name: "chart", filename: "chart_0_AAAAAAAA-0000-0000-0000-000000000003.svg",
                    uuid: "AAAAAAAA-0000-0000-0000-000000000003", type: "public.svg-image", payload: "0~svg"),
                Attachment(
                    name: "recording 1", filename: "recording_1.mp4", uuid: "AAAAAAAA-0000-0000-0000-000000000004",
                    type: "public.mpeg-4", payload: "0~big1"),
                Attachment(
                    name: "recording 2", filename: "recording_2.mp4", uuid: "AAAAAAAA-0000-0000-0000-000000000005",
                    type: "public.mpeg-4", payload: "0~big2"),
            ])
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100))
        try png.write(to: URL(fileURLWithPath: bundle + "/Data/data.0~png"))
        try (png + Data([1])).write(to: URL(fileURLWithPath: bundle + "/Data/data.0~png2"))
        try Self.svg.write(to: URL(fileURLWithPath: bundle + "/Data/data.0~svg"))
        for id in ["0~big1", "0~big2"] {
            let path = bundle + "/Data/data." + id
            #expect(FileManager.default.createFile(atPath: path, contents: Data([0x00, 0x00, 0x01])))
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: Self.tenGiB)
            try handle.close()
        }

        let output = directory + "/attachments"
        let result = try swiftcov(["xcresult", "export", "attachments", bundle, "--output-path", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(files.count == 7)
        #expect(files.allSatisfy { !$0.contains("/") && !$0.contains("\u{0}") && $0.utf8.count < 80 })
        // Nothing outside the folder: the folder holds only what the export wrote.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [
                "Hostile.xcresult", "attachments",
            ])

        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/manifest.json")))
                as? [[String: Any]])
        let attachments = try #require(manifest.first?["attachments"] as? [[String: Any]])
        #expect(attachments.count == 6)
        func file(named suggested: String) throws -> String {
            let entry = try #require(attachments.first { $0["suggestedHumanReadableName"] as? String == suggested })
            return output + "/" + (try #require(entry["exportedFileName"] as? String))
        }
        // The names are kept in the manifest, whole; the files are named apart from them.
        #expect(try file(named: longName).hasSuffix(".png"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: try file(named: "../../etc/passwd"))) == png)
        #expect(try Data(contentsOf: URL(fileURLWithPath: try file(named: "/abs/x.png"))) == png)
        // The SVG is a file of its own, byte for byte, its script untouched and never rendered.
        let svgFile = try file(named: "chart_0_AAAAAAAA-0000-0000-0000-000000000003.svg")
        #expect(svgFile.hasSuffix("AAAAAAAA-0000-0000-0000-000000000003.svg"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: svgFile)) == Self.svg)
        // 20 GB exported as 20 GB of holes: the sizes are the payloads', the disk used is not.
        for name in ["recording_1.mp4", "recording_2.mp4"] {
            var info = stat()
            #expect(stat(try file(named: name), &info) == 0)
            #expect(UInt64(info.st_size) == Self.tenGiB)
            #expect(Int(info.st_blocks) < 1024, "\(info.st_blocks) blocks")
            let handle = try #require(FileHandle(forReadingAtPath: try file(named: name)))
            #expect(try handle.read(upToCount: 4) == Data([0x00, 0x00, 0x01, 0x00]))
            try handle.close()
        }
    }

    @Test(
        "a payload that is a link in a loop, or a link out of the bundle: one line naming it, exit 2, nothing written")
    func linkedPayloads() throws {
        let directory = try temporaryDirectory()
        for (name, target) in [("loop", "data.0~shot"), ("outside", "../../secret.png")] {
            let bundle = directory + "/\(name).xcresult"
            try Self.bundle(
                at: bundle,
                attachments: [
                    Attachment(
                        name: "Screenshot", filename: "Screenshot.png", uuid: "AAAAAAAA-0000-0000-0000-000000000001",
                        type: "public.png", payload: "0~shot")
                ])
            try Data("secret".utf8).write(to: URL(fileURLWithPath: directory + "/secret.png"))
            try FileManager.default.createSymbolicLink(
                atPath: bundle + "/Data/data.0~shot", withDestinationPath: target)
            let output = directory + "/out-\(name)"
            let result = try swiftcov(["xcresult", "export", "attachments", bundle, "--output-path", output])
            #expect(result.status == 2, "\(name)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(bundle + "/Data/data.0~shot"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
