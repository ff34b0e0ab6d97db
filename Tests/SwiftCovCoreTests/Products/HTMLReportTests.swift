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

@Suite("HTML report", .removingTemporaryFolders)
struct HTMLReportTests {
    let options = HTMLReport.Options(version: "0.0.0-test")

    func page(_ file: FileCoverage, source: HTMLReport.Source) throws -> String {
        HTMLReport.filePage(
            file, segments: try file.segments(), source: source,
            options: options)
    }

    /// `[line: count]` as a page shows them: the exact count is in each row's title; a counter
    /// below zero is marked instead, and stands for the export's Int64.max.
    func countsShown(in html: String) throws -> [LineCount] {
        let pattern = try Regex(
            #"<tr id="L(\d+)"[^>]*><td class="ln">.*?</td><td class="n" title="(?:(\d+) execution|(counter underflow))"#
        )
        return html.matches(of: pattern).map { match in
            let count = match.output[3].substring != nil ? UInt64(Int64.max) : UInt64(match.output[2].substring!)!
            return LineCount(line: UInt32(match.output[1].substring!)!, count: count)
        }
    }

    @Test("every page shows llvm-cov's count for every executable line", arguments: Fixture.all)
    func countsEqualLLVMCov(fixture: Fixture) throws {
        let expected = try fixture.llvmCovLineCounts()
        for file in try fixture.report().files {
            let html = try page(file, source: .missing(path: file.displayPath))
            #expect(try countsShown(in: html) == expected[file.path], "\(file.path)")
        }
    }

    @Test("the trivia sample's pages, with their sources, show llvm-cov's counts")
    func sampleCounts() throws {
        let report = try CoverageReport.build(
            exports: [Fixture.sample.export()], scope: CoverageScope(root: packageRoot))
        let expected = try Fixture.sample.llvmCovLineCounts()
        for file in report.files {
            let source = try #require(SourceText(path: packageRoot + "/" + file.path))
            let html = try page(file, source: .text(source))
            #expect(try countsShown(in: html) == expected[file.path], "\(file.path)")
            #expect(!html.contains("class=\"notice\""), "\(file.path) looks stale")
        }
    }

    @Test("every id on the index is unique, also for modules whose names differ only in punctuation (invented)")
    func uniqueIDs() throws {
        let file = #"{"filename":"/p/Sources/NAME/x.swift","summary":{"lines":{"count":1,"covered":1}}}"#
        let files = ["A.B", "A-B", "A_B"].map { file.replacing("NAME", with: $0) }.joined(separator: ",")
        let json = #"{"data":[{"files":[\#(files)]}],"type":"llvm.coverage.json.export","version":"3.0.1"}"#
        let export = try LLVMCovExportReader.read(MappedFile(bytes: Array(json.utf8)))
        let report = try CoverageReport.build(exports: [export], scope: CoverageScope(root: "/p"))
        let html = HTMLReport.indexPage(report, options: options)
        let ids = html.matches(of: /id="([^"]*)"/).map { String($0.output.1) }
        #expect(ids.count > 5)
        #expect(Set(ids).count == ids.count, "\(ids)")
        #expect(ids.contains("module-A-2eB") && ids.contains("module-A-2dB"))
    }

    @Test("index and a file page of the trivia sample")
    func sampleGolden() throws {
        let report = try CoverageReport.build(
            exports: [Fixture.sample.export()], scope: CoverageScope(root: packageRoot))
        try assertGolden(HTMLReport.indexPage(report, options: options), "html-index.html")
        let file = try #require(report.files.first { $0.path == "Sources/TriviaCore/LaunchConfiguration.swift" })
        let source = try #require(SourceText(path: packageRoot + "/" + file.path))
        let html = try page(file, source: .text(source))
        // Plain source shows as written: no replacement characters from line breaks or encoding.
        #expect(!html.contains("\u{FFFD}"))
        try assertGolden(html, "html-file.html")
    }

    @Test("a source file that cannot be found still gets its counts and a notice")
    func missingSource() throws {
        let report = try Fixture(name: "yams").report()
        let file = try #require(report.files.first { $0.path.hasSuffix("Resolver.swift") })
        let html = try page(file, source: .missing(path: file.displayPath))
        #expect(html.contains("Source not found."))
        try assertGolden(html, "html-missing-source.html")
    }

    @Test("a source file that changed since the run is flagged")
    func staleSource() throws {
        let report = try CoverageReport.build(
            exports: [Fixture.sample.export()], scope: CoverageScope(root: packageRoot))
        let file = try #require(report.files.first { $0.path.hasSuffix("Game.swift") })
        let directory = try temporaryDirectory()
        // The file cut to its first 5 lines, as if code had been deleted since the coverage run.
        let original = try String(contentsOfFile: packageRoot + "/" + file.path, encoding: .utf8)
        let shortened = directory + "/Game.swift"
        try original.split(separator: "\n", omittingEmptySubsequences: false).prefix(5).joined(separator: "\n")
            .write(toFile: shortened, atomically: true, encoding: .utf8)
        let html = try page(file, source: .text(try #require(SourceText(path: shortened))))
        #expect(html.contains("This file changed after the coverage run."))
        #expect(html.contains("(beyond the end of the file)"))
    }

    @Test("a region that never ran inside a line that did is marked within the line")
    func partialLine() throws {
        // guard x else { return }: the line ran 5 times, its else block never.
        let segments = [
            CoverageSegment(line: 1, column: 1, count: 5, hasCount: true, isRegionEntry: true, isGapRegion: false),
            CoverageSegment(line: 1, column: 14, count: 0, hasCount: true, isRegionEntry: true, isGapRegion: false),
            CoverageSegment(line: 1, column: 24, count: 5, hasCount: true, isRegionEntry: false, isGapRegion: false),
            CoverageSegment(line: 2, column: 2, count: 0, hasCount: false, isRegionEntry: false, isGapRegion: false),
        ]
        #expect(LineCoverage.unexecutedColumns(in: segments) == [1: [14..<24]])
        let path = try temporaryDirectory() + "/a.swift"
        try "guard x else { return }\n}\n".write(toFile: path, atomically: true, encoding: .utf8)
        let file = FileCoverage.forTesting(path: "a.swift", segments: segments)
        let html = HTMLReport.filePage(
            file, segments: segments, source: .text(try #require(SourceText(path: path))),
            options: options)
        #expect(
            html.contains(
                #"<span class="kw">guard</span> x <span class="kw">else</span> <span class="z" title="never ran">{ "#
                    + #"<span class="kw">return</span> }</span>"#))
    }

    @Test("n and p step through blocks: runs of lines that never ran or ran in part, each its own tbody")
    func uncoveredBlocks() throws {
        // Lines 1-2 ran, 3-4 never, 5 ran, 6 ran in part, 7 never, 8 not code, 9 never.
        let segments = [
            CoverageSegment(line: 1, column: 1, count: 1, hasCount: true, isRegionEntry: true, isGapRegion: false),
            CoverageSegment(line: 3, column: 1, count: 0, hasCount: true, isRegionEntry: true, isGapRegion: false),
            CoverageSegment(line: 5, column: 1, count: 1, hasCount: true, isRegionEntry: true, isGapRegion: false),
            CoverageSegment(line: 6, column: 3, count: 0, hasCount: true, isRegionEntry: true, isGapRegion: false),
            CoverageSegment(line: 7, column: 10, count: 0, hasCount: false, isRegionEntry: false, isGapRegion: false),
            CoverageSegment(line: 9, column: 1, count: 0, hasCount: true, isRegionEntry: true, isGapRegion: false),
            CoverageSegment(line: 9, column: 5, count: 0, hasCount: false, isRegionEntry: false, isGapRegion: false),
        ]
        let lines = LineCoverage.lineCounts(of: segments)
        #expect(lines.map(\.line) == [1, 2, 3, 4, 5, 6, 7, 9])
        #expect(HTMLReport.uncoveredBlockCount(lines, partial: LineCoverage.unexecutedColumns(in: segments)) == 3)
        let file = FileCoverage.forTesting(path: "a.swift", segments: segments)
        let html = HTMLReport.filePage(
            file, segments: segments, source: .missing(path: "a.swift"), options: options)
        let blocks = html.matches(of: /<tbody class="block" id="B(\d+)">\n((?:<tr[^\n]*\n)+)/).map {
            ($0.output.1, $0.output.2.matches(of: /<tr id="L(\d+)"/).map { Int($0.output.1)! })
        }
        #expect(blocks.map(\.0) == ["1", "2", "3"])
        #expect(blocks.map(\.1) == [[3, 4], [6, 7], [9]])
        #expect(html.contains("3 blocks never ran"))
        #expect(html.contains(#"<tr id="L6" class="hit partial">"#))
    }

    @Test("a failure shows under its line on the file page, with its line breaks")
    func failureUnderItsLine() throws {
        let segments = [
            CoverageSegment(line: 1, column: 1, count: 1, hasCount: true, isRegionEntry: true, isGapRegion: false),
            CoverageSegment(line: 3, column: 1, count: 0, hasCount: false, isRegionEntry: false, isGapRegion: false),
        ]
        let file = FileCoverage.forTesting(path: "Tests/T/ATests.swift", segments: segments)
        let note = HTMLReport.LineNote(line: 2, title: "ATests › testA", message: "XCTAssertEqual failed\n<b>two</b>")
        let lost = HTMLReport.LineNote(line: 40, title: "ATests › testB", message: "elsewhere")
        let html = HTMLReport.filePage(
            file, segments: segments, source: .missing(path: file.path), notes: [note, lost],
            listedInIndex: false, options: options)
        #expect(
            html.contains(
                "<tr class=\"note\"><td></td><td></td><td><div class=\"failure\" role=\"note\"><strong>ATests › testA"
                    + "</strong>\n<pre>XCTAssertEqual failed\n&lt;b&gt;two&lt;/b&gt;</pre></div></td></tr>"))
        let rowOfLine2 = try #require(html.firstRange(of: "<tr id=\"L2\""))
        let noteRow = try #require(html.firstRange(of: "<tr class=\"note\">"))
        #expect(rowOfLine2.lowerBound < noteRow.lowerBound)
        #expect(html.contains("Failures at lines this page does not show"))
        #expect(html.contains("elsewhere"))
        #expect(!html.contains("\u{FFFD}"))
        // A test file is not in the index's tree: its breadcrumb leads to the test section.
        #expect(html.contains("<li><a href=\"../index.html#tests\">Tests</a></li>"))
    }

    @Test("the index has a folder tree with each folder's totals, and every breadcrumb of a page leads to it")
    func folderTree() throws {
        let report = try Fixture(name: "swift-collections").report()
        let tree = FolderTree(report.files)
        for folder in tree.folders {
            var sum = CoverageSummary()
            func add(_ index: Int) {
                for file in tree.folders[index].files { sum += tree.files[file].summary }
                for child in tree.folders[index].folders { add(child) }
            }
            add(tree.folders.firstIndex { $0.path == folder.path }!)
            #expect(folder.summary == sum, "\(folder.path)")
        }
        #expect(tree.folders[tree.root].summary == report.totals)
        let index = HTMLReport.indexPage(report, options: options)
        let ids = Set(index.matches(of: /id="([^"]*)"/).map { String($0.output.1) })
        for file in report.files.prefix(20) {
            let page = try page(file, source: .missing(path: file.displayPath))
            let targets = page.matches(of: /href="\.\.\/index\.html#([^"]*)"/).map { String($0.output.1) }
            #expect(targets.count == file.displayPath.split(separator: "/").count - 1)
            for target in targets { #expect(ids.contains(target), "\(file.displayPath): #\(target)") }
        }
        // The tree lists each file once, linked to its page.
        for file in report.files {
            #expect(
                index.ranges(
                    of:
                        "<li class=\"file\"><div class=\"row\"><a class=\"name\" href=\"\(HTMLReport.pageName(for: file.displayPath))\""
                ).count == 1)
        }
    }

    @Test("the treemap has a tile for each file with code, linked to its page, inside the picture")
    func treemap() throws {
        let report = try Fixture(name: "swift-collections").report()
        let index = HTMLReport.indexPage(report, options: options)
        let svg = try #require(index.firstMatch(of: /<svg [^>]*>\n(?s:(.*))<\/svg>/)).output.1
        let tiles = svg.matches(
            of:
                /<a href="([^"]*)" tabindex="-1"><title>[^<]*<\/title><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="hsl\((\d+),/
        )
        let withCode = report.files.filter { $0.summary.lines.count > 0 }
        #expect(
            Set(tiles.map { String($0.output.1) }) == Set(withCode.map { HTMLReport.pageName(for: $0.displayPath) }))
        for tile in tiles {
            let (x, y, width, height) = (
                Double(tile.output.2)!, Double(tile.output.3)!, Double(tile.output.4)!, Double(tile.output.5)!
            )
            #expect(x >= 0 && y >= 0 && x + width <= 1000.05 && y + height <= 420.05)
        }
        // Area follows executable lines: the largest file has the largest tile.
        let largest = try #require(withCode.max { $0.summary.lines.count < $1.summary.lines.count })
        let largestTile = try #require(
            tiles.max { Double($0.output.4)! * Double($0.output.5)! < Double($1.output.4)! * Double($1.output.5)! })
        #expect(String(largestTile.output.1) == HTMLReport.pageName(for: largest.displayPath))
        #expect(HTMLReport.treemapColor(0) == "hsl(0,65%,62%)" && HTMLReport.treemapColor(100) == "hsl(120,65%,62%)")
    }

    @Test("the package's name comes from a plain name: in Package.swift")
    func packageName() {
        #expect(
            PackageManifest.name(
                inManifest: "// swift-tools-version:5.9\nlet package = Package(\n    name: \"swift-collections\",\n")
                == "swift-collections")
        #expect(PackageManifest.name(inManifest: "let package = Package(name: computed)") == nil)
        #expect(PackageManifest.name(inManifest: "let package = Package(name: \"a\\\"b\")") == nil)
        #expect(PackageManifest.name(inManifest: "nothing") == nil)
        #expect(PackageManifest.name(inPackageAt: packageRoot) == "swiftcov")
    }

    @Test("sources that could not be shown make one warning for the command line to print")
    func missingSourceWarning() {
        var written = HTMLSite.Written()
        #expect(written.warnings.isEmpty)
        written.missingSources = [("Sources/A/a.swift", .notARegularFile), ("Sources/A/b.swift", .outsideRoot)]
        #expect(
            written.warnings.map(\.description) == [
                "Sources/A/a.swift: warning: 2 source files not shown (their pages list counts without code), "
                    + "first this one: not a regular file"
            ])
    }

    @Test("hostile file and function names cannot inject markup or escape the output folder")
    func hostileNames() throws {
        let json = """
            {"data":[{"files":[{"filename":"../../<script>alert(1)</script>.swift","segments":[[1,1,2,true,true,false],\
            [2,2,0,false,false,false]],"summary":{}}],"functions":[{"count":2,"filenames":["../../<script>alert(1)</script>.swift"],\
            "name":"</td><img src=x onerror=alert(1)>\\u0000\\u001b[31m","regions":[[1,1,2,2,2,0,0,0]]}]}],\
            "type":"llvm.coverage.json.export","version":"3.0.1"}
            """
        let export = try LLVMCovExportReader.read(MappedFile(bytes: Array(json.utf8)))
        let report = try CoverageReport.build(exports: [export], scope: CoverageScope(root: "/p", allFiles: true))
        let file = try #require(report.files.first)
        let index = HTMLReport.indexPage(report, options: options)
        let filePage = try page(file, source: .missing(path: file.displayPath))
        for html in [index, filePage] {
            #expect(!html.contains("<script>alert"))
            #expect(!html.contains("<img"))
            #expect(!html.contains("\u{0}") && !html.contains("\u{1B}"))
        }
        try assertGolden(filePage, "html-hostile.html")
        let name = HTMLReport.pageName(for: file.displayPath)
        #expect(name.hasPrefix("files/") && !name.dropFirst(6).contains("/") && !name.contains(".."))
    }

    @Test(
        "page names stay inside the folder and never collide",
        arguments: [
            "../../etc/passwd", "/etc/passwd", "Sources/A/B.swift", "Sources/A_B.swift", "Sources/A/B\u{0}.swift",
            ".hidden", "ä/ö.swift",
        ])
    func pageNames(path: String) {
        let name = HTMLReport.pageName(for: path)
        #expect(name.hasPrefix("files/"))
        let file = name.dropFirst(6)
        #expect(!file.contains("/") && !file.hasPrefix(".") && !file.contains(".."))
        #expect(file.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        #expect(HTMLReport.pageName(for: path) != HTMLReport.pageName(for: path + "x"))
    }

    @Test(
        "compact counts",
        arguments: [
            (0, "0"), (999, "999"), (1000, "1.0k"), (1234, "1.2k"), (9999, "9.9k"), (12_345, "12k"),
            (123_456_789, "123M"), (3_400_000, "3.4M"), (UInt64.max, "18E"),
        ])
    func compactCounts(count: UInt64, text: String) {
        #expect(HTMLReport.compactCount(count) == text)
    }
}

@Suite("Source text", .removingTemporaryFolders)
struct SourceTextTests {
    @Test(
        "lines without their line breaks, whatever the file ends with",
        arguments: [
            ("a\nb\n", ["a", "b"]), ("a\nb", ["a", "b"]), ("a\r\nb\r\n", ["a", "b"]), ("", []), ("\n", [""]),
        ])
    func lines(contents: String, expected: [String]) throws {
        let path = try temporaryDirectory() + "/source.swift"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        let source = try #require(SourceText(path: path))
        #expect(source.lineCount == expected.count)
        let lines = (0..<source.lineCount).map { line in
            source.withLine(line + 1) { String(decoding: $0, as: UTF8.self) }
        }
        #expect(lines == expected)
    }
}

@Suite("HTML report with test results", .removingTemporaryFolders)
struct HTMLTestSummaryTests {
    @Test("failures are listed on the index, linked to their line when the file has a page")
    func failuresLinkToLines() throws {
        let report = try CoverageReport.build(exports: [Fixture.sample.export()], scope: CoverageScope(root: "/p"))
        // An invented failure in a file of the report, and one in a file without a page.
        var parser = TestLogParser()
        for line in [
            "Test Suite 'All tests' started at 2026-11-22 13:30:21.462",
            "Test Suite 'QuestionTests' started at 2026-11-22 13:30:21.462",
            "Test Case 'QuestionTests.testA' started at 2026-11-22 13:30:21.462",
            "Sources/TriviaCore/Question.swift:42: error: QuestionTests.testA : XCTAssertTrue failed - <b>bold</b>",
            "Test Case 'QuestionTests.testA' failed (0.001 seconds)",
            "Test Case 'QuestionTests.testB' started at 2026-11-22 13:30:21.462",
            "Tests/Elsewhere.swift:7: error: QuestionTests.testB : XCTFail - nope",
            "Test Case 'QuestionTests.testB' failed (0.001 seconds)",
            "Test Suite 'QuestionTests' failed at 2026-11-22 13:30:21.470",
            "\t Executed 2 tests, with 2 failures (0 unexpected) in 0.002 (0.002) seconds",
        ] {
            parser.consume(line: line)
        }
        let html = HTMLReport.indexPage(report, tests: parser.finish(), options: HTMLReport.Options(version: "test"))
        let page = HTMLReport.pageName(for: "Sources/TriviaCore/Question.swift")
        #expect(html.contains("2 tests: 0 passed, 2 failed, 0 skipped, 0 errors."))
        #expect(html.contains("<a href=\"\(page)#L42\">Sources/TriviaCore/Question.swift:42</a>"))
        #expect(html.contains("Tests/Elsewhere.swift:7: XCTFail - nope"))
        #expect(html.contains("&lt;b&gt;bold&lt;/b&gt;"))
    }
}
