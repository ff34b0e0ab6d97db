import Testing

@testable import SwiftCovCore

/// Names with markup, quotes, NUL and ANSI escapes (an invented export, as no real one has
/// them) never break a report format or reach the terminal as control codes.
@Suite("Hostile names")
struct HostileNameTests {
    static let hostile = "Sources/Evil/<script>alert(\\\"&'\\\")</script>\\u0000\\u001b[31m|`*.swift"

    func report() throws -> CoverageReport {
        let json = """
            {"data":[{"files":[{"filename":"\(Self.hostile)","segments":[[1,1,2,true,true,false],[2,2,0,false,false,false]],\
            "summary":{"lines":{"count":2,"covered":2}}}],"functions":[{"count":2,"filenames":["\(Self.hostile)"],\
            "name":"f\\u001b[2J</td>","regions":[[1,1,2,2,2,0,0,0]]}]}],"type":"llvm.coverage.json.export","version":"3.0.1"}
            """
        let export = try LLVMCovExportReader.read(MappedFile(bytes: Array(json.utf8)))
        return try CoverageReport.build(exports: [export], scope: CoverageScope(root: "/p"))
    }

    @Test("JSON keeps every character, escaped")
    func json() throws {
        let text = try CoverageJSONReport.render(report(), options: CoverageReportOptions(showFunctions: true))
        let value = try foundationJSON(text)
        guard case .array(let files)? = value["files"] else { Issue.record("no files"); return }
        #expect(
            files.first?["path"]?.stringValue == "Sources/Evil/<script>alert(\"&'\")</script>\u{0}\u{1B}[31m|`*.swift")
        #expect(!text.contains("\u{1B}"))
        #expect(!text.contains("\u{0}"))
    }

    @Test("the table shows no control characters")
    func table() throws {
        let text = CoverageTableReport.render(try report(), options: CoverageReportOptions(showFunctions: true))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(text.contains("</script>"))
    }

    @Test("Markdown escapes markup and table separators")
    func markdown() throws {
        let text = CoverageMarkdownReport.render(try report(), options: CoverageReportOptions())
        #expect(!text.contains("<script>"))
        #expect(text.contains("&lt;script&gt;"))
        #expect(text.contains("\\|"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }
}
