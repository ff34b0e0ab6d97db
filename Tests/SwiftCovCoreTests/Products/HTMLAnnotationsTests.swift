import Foundation
import Testing

@testable import SwiftCovCore

/// File pages and the index with a baseline's categories (the swift-log two-revision fixture,
/// checked against the answer computed from llvm-cov's lcov output and the diff's hunks) and
/// with per-test data (made up here, so that the expected tests of each line are known).
@Suite("HTML report with a baseline and per-test data")
struct HTMLAnnotationsTests {
    let options = HTMLReport.Options(version: "0.0.0-test")

    static func independentCategories() throws -> [String: [String: [UInt32]]] {
        let fixture = DifferentialCoverageTests.fixture
        return try Independent.categories(
            base: fixture.text("base.lcov"), baseRoot: "/ci/base/swift-log/",
            head: fixture.text("head.lcov"), headRoot: "/ci/head/swift-log/",
            diff: fixture.text("change.diff"))
    }

    /// For each file of the diff, where each deleted line stood as git prints it: the line of the
    /// new file that follows it in its hunk.
    static func independentDeletionPlaces() throws -> [String: [UInt32: UInt32]] {
        var places: [String: [UInt32: UInt32]] = [:]
        for patch in Independent.patches(try DifferentialCoverageTests.fixture.text("change.diff")) {
            guard let path = patch.new else { continue }
            for hunk in patch.hunks {
                var old = hunk.oldStart
                var new = hunk.newStart
                for line in hunk.lines {
                    switch line.first {
                    case " ":
                        old += 1
                        new += 1
                    case "-":
                        places[path, default: [:]][UInt32(old)] = UInt32(new)
                        old += 1
                    default:
                        new += 1
                    }
                }
            }
        }
        return places
    }

    func differentialPages() throws -> [(path: String, html: String)] {
        let report = try DifferentialCoverageTests.current()
        let coverage = try DifferentialCoverageTests.differential()
        let site = HTMLReport.SiteAnnotations(differential: coverage, baselineName: "base.json")
        let files = site.differentialFiles()
        return try report.files.map { file in
            let segments = try file.segments()
            let html = HTMLReport.filePage(
                file, segments: segments,
                source: .missing(path: file.displayPath),
                annotations: site.forFile(
                    file.displayPath, executableLines: LineCoverage.lineCounts(of: segments).map(\.line),
                    differentialFiles: files),
                options: options)
            return (file.displayPath, html)
        }
    }

    @Test("each line shows the category lcov's counts and the diff's hunks give, as text")
    func lineCategories() throws {
        let expected = try Self.independentCategories()
        for (path, html) in try differentialPages() {
            var shown: [String: [UInt32]] = [:]
            for match in html.matches(
                of: /<tr id="L(\d+)"[^>]*>.*?<td class="d"><span class="cat \w+" title="[^"]*">([A-Z]{3})<\/span><\/td>/
            ) {
                shown[String(match.output.2), default: []].append(UInt32(match.output.1)!)
            }
            let current = (expected[path] ?? [:]).filter { $0.key != "DCB" && $0.key != "DUB" }
            #expect(shown == current, "\(path)")
        }
    }

    @Test("deleted lines are shown where they stood, with how many of them ran")
    func deletedLines() throws {
        let expected = try Self.independentCategories()
        let places = try Self.independentDeletionPlaces()
        var checked = 0
        for (path, html) in try differentialPages() {
            // before line → (DCB, DUB) from the independent answer.
            var want: [UInt32: (covered: Int, uncovered: Int)] = [:]
            for (code, lines) in expected[path] ?? [:] where code == "DCB" || code == "DUB" {
                for line in lines {
                    let place = try #require(places[path]?[line], "\(path):\(line)")
                    var entry = want[place] ?? (0, 0)
                    if code == "DCB" { entry.covered += 1 } else { entry.uncovered += 1 }
                    want[place] = entry
                }
            }
            var got: [UInt32: (covered: Int, uncovered: Int)] = [:]
            for match in html.matches(
                of: /<tr class="deleted" id="D(\d+)">.*?: (\d+) ran \(DCB\), (\d+) did not \(DUB\)<\/span><\/td><\/tr>/)
            {
                got[UInt32(match.output.1)!] = (Int(match.output.2)!, Int(match.output.3)!)
            }
            #expect(
                got.mapValues { [$0.covered, $0.uncovered] } == want.mapValues { [$0.covered, $0.uncovered] }, "\(path)"
            )
            checked += want.count
            // Each marker comes right before the row of the line it names.
            for place in want.keys {
                let marker = try #require(html.firstRange(of: "<tr class=\"deleted\" id=\"D\(place)\""))
                if let row = html.firstRange(of: "<tr id=\"L\(place)\"") { #expect(marker.upperBound < row.lowerBound) }
            }
        }
        #expect(checked >= 2)
    }

    @Test("a removed line's place is the line after the unchanged line above it, before added lines")
    func insertionLines() throws {
        let places = try Self.independentDeletionPlaces()
        let diff = try UnifiedDiff.parse(DifferentialCoverageTests.fixture.text("change.diff"))
        for change in diff.files {
            let map = LineMap(added: change.addedLines, removed: change.removedLines)
            for line in change.removedLines {
                #expect(map.insertionLine(ofRemoved: line) == places[change.path]?[line], "\(change.path):\(line)")
            }
        }
        // Invented: a file that loses its first two lines and gains one at its top, and loses its last.
        let map = LineMap(added: [1], removed: [1, 2, 9])
        #expect(map.insertionLine(ofRemoved: 1) == 1)
        #expect(map.insertionLine(ofRemoved: 2) == 1)
        #expect(map.insertionLine(ofRemoved: 9) == 8)
    }

    @Test("the index lists the changed files with their lines per category, linked to their first line")
    func changedFiles() throws {
        let report = try DifferentialCoverageTests.current()
        let coverage = try DifferentialCoverageTests.differential()
        let expected = try Self.independentCategories()
        let html = HTMLReport.indexPage(
            report, annotations: HTMLReport.SiteAnnotations(differential: coverage, baselineName: "base.json"),
            options: options)
        let section = try #require(html.firstMatch(of: /<h2 id="changes">(?s:.*?)<\/section>/)).output
        #expect(section.contains("<strong>7 new lines no test runs; 8 lines lost their coverage.</strong>"))
        let rows = section.matches(
            of: /<tr><th scope="row">(?:<a href="([^"]*)">)?([^<]*)(?:<\/a>)?.*?<\/th><td class="counts">(.*?)<\/td>/)
        var shown: [String: [String: Int]] = [:]
        for row in rows {
            let path = String(row.output.2)
            if let page = row.output.1 { #expect(page == HTMLReport.pageName(for: path)) }
            for count in row.output.3.matches(of: /<span class="cat \w+" title="[^"]*">([A-Z]{3})<\/span> (\d+)/) {
                shown[path, default: [:]][String(count.output.1)] = Int(count.output.2)!
            }
        }
        // Every file with a line in a category other than CBC and UBC, or that the diff touches.
        var want: [String: [String: Int]] = [:]
        for (path, categories) in expected {
            for (code, lines) in categories where code != "CBC" && code != "UBC" {
                want[path, default: [:]][code] = lines.count
            }
        }
        #expect(shown.filter { !$0.value.isEmpty } == want)
        #expect(rows.contains { $0.output.2 == "Sources/Logging/Logger+MetadataProvider.swift" })
        // A count links to the first line of its category on the file's page.
        let page = HTMLReport.pageName(for: "Sources/InMemoryLogging/InMemoryLogHandler.swift")
        let firstUNC = try #require(expected["Sources/InMemoryLogging/InMemoryLogHandler.swift"]?["UNC"]?.first)
        #expect(section.contains("<a href=\"\(page)#L\(firstUNC)\"><span class=\"cat bad\""))
    }

    @Test("a baseline's page: golden")
    func differentialGolden() throws {
        let page = try #require(
            try differentialPages().first { $0.path == "Sources/InMemoryLogging/InMemoryLogHandler.swift" })
        try assertGolden(page.html, "html-differential.html")
    }

    // MARK: Per-test

    /// Three tests of a made-up file whose executable lines are 1, 2, 3 and 5: `A/one` ran 1 and
    /// 2, `A/two` (failed) ran 2 and 3, `B/three` ran a line of another file only.
    static func perTest(extraTests: Int = 0) -> PerTestCoverage {
        var coverage = PerTestCoverage(
            recording: .init(commit: "0123456789abcdef0123", dirty: true, date: "2026-11-24T02:00:00Z"),
            files: [
                .init(path: "Sources/A/a.swift", lines: [1, 2, 3, 5]), .init(path: "Sources/B/b.swift", lines: [4]),
            ])
        coverage.add(id: "T.A/one", outcome: .passed, milliseconds: 1, lines: ["Sources/A/a.swift": [1, 2]])
        coverage.add(id: "T.A/two", outcome: .failed, milliseconds: 1, lines: ["Sources/A/a.swift": [3, 2]])
        coverage.add(id: "T.B/three", outcome: .passed, milliseconds: 1, lines: ["Sources/B/b.swift": [4]])
        for index in 0..<extraTests {
            coverage.add(id: "T.C/many\(index)", outcome: .passed, milliseconds: 1, lines: ["Sources/A/a.swift": [5]])
        }
        return coverage
    }

    static let perTestSegments = [
        CoverageSegment(line: 1, column: 1, count: 2, hasCount: true, isRegionEntry: true, isGapRegion: false),
        CoverageSegment(line: 3, column: 20, count: 0, hasCount: false, isRegionEntry: false, isGapRegion: false),
        CoverageSegment(line: 5, column: 1, count: 0, hasCount: true, isRegionEntry: true, isGapRegion: false),
        CoverageSegment(line: 5, column: 9, count: 0, hasCount: false, isRegionEntry: false, isGapRegion: false),
    ]

    func perTestPage(_ coverage: PerTestCoverage, path: String = "Sources/A/a.swift") -> String {
        let file = FileCoverage.forTesting(path: path, segments: Self.perTestSegments)
        return HTMLReport.filePage(
            file, segments: Self.perTestSegments, source: .missing(path: path),
            annotations: HTMLReport.Annotations(tests: HTMLReport.LineTests(coverage, path: path)), options: options)
    }

    /// Line → the IDs its button's popover lists (names, not numbers: sets of up to 25).
    func testsShown(in html: String) throws -> [UInt32: [String]] {
        var sets: [String: [String]] = [:]
        for set in html.matches(of: /<div class="test-set" popover id="(S\d+)">(?s:(.*?))<\/div>/) {
            sets[String(set.output.1)] = set.output.2.replacing("<wbr>", with: "")
                .matches(of: /<li><a href="#T\d+">\d+<\/a> ([^<]*)/).map {
                    String($0.output.1).trimmingCharacters(in: .whitespaces)
                }
        }
        var lines: [UInt32: [String]] = [:]
        for row in html.matches(of: /<tr id="L(\d+)"[^>]*>.*?<td class="t">(.*?)<\/td>/) {
            let cell = row.output.2
            guard !cell.isEmpty else { continue }
            if let button = cell.firstMatch(of: /popovertarget="(S\d+)" aria-label="(\d+) tests? ran line \d+">(\d+)</)
            {
                let members = try #require(sets[String(button.output.1)])
                #expect(Int(button.output.2)! == members.count && Int(button.output.3)! == members.count)
                lines[UInt32(row.output.1)!] = members
            } else {
                #expect(cell == "0")
                lines[UInt32(row.output.1)!] = []
            }
        }
        return lines
    }

    @Test("each executable line shows how many tests ran it and which; the page lists every test that ran the file")
    func lineTests() throws {
        let html = perTestPage(Self.perTest())
        let shown = try testsShown(in: html)
        #expect(shown == [1: ["T.A/one"], 2: ["T.A/one", "T.A/two"], 3: ["T.A/two"], 5: []])
        #expect(html.contains("T.<wbr>A/<wbr>two <em>(failed)</em>"))
        // The table: the two tests that ran a line here, with how many lines; not B/three.
        let table = try #require(html.firstMatch(of: /<h2 id="tests">(?s:.*?)<\/section>/)).output
        let rows = table.matches(
            of:
                /<tr id="T(\d+)"><td>\d+<\/td><th scope="row">([^<]*(?:<wbr>[^<]*)*)<\/th><td>(\w+)<\/td><td>(\d+)<\/td>/
        )
        .map { "\($0.output.1) \($0.output.2.replacing("<wbr>", with: "")) \($0.output.3) \($0.output.4)" }
        #expect(rows == ["1 T.A/one passed 2", "2 T.A/two failed 2"])
        #expect(table.contains("2 of 3 tests ran some line of this file"))
        #expect(table.contains("at commit <code>0123456789ab</code> with changes"))
        #expect(html.contains("<a class=\"aside\" href=\"#tests\">2 tests ran this file ↓</a>"))
        try assertGolden(html, "html-per-test.html")
    }

    @Test("lines run by the same tests share one list; a long list is given as ranges of the table's numbers")
    func sharedSets() throws {
        let html = perTestPage(Self.perTest(extraTests: 30))
        // Lines 1, 2 and 3 have different tests; line 5 has the 30 extra ones: four lists.
        #expect(html.matches(of: /<div class="test-set" popover/).count == 4)
        #expect(
            html.contains(
                "<strong>30 tests</strong> ran these lines:</p>\n<p>Numbers in the table of tests below: <a href=\"#T3\">3–32</a></p>"
            ))
        #expect(html.contains("popovertarget=\"S4\" aria-label=\"30 tests ran line 5\">30</button>"))
    }

    @Test("a file without per-test data, and the index's note")
    func notRecorded() throws {
        #expect(HTMLReport.LineTests(Self.perTest(), path: "Sources/C/c.swift") == nil)
        let report = try CoverageReport.build(exports: [Fixture.sample.export()], scope: CoverageScope(root: "/p"))
        let index = HTMLReport.indexPage(
            report, annotations: HTMLReport.SiteAnnotations(perTest: Self.perTest()), options: options)
        #expect(index.contains("Per-test data: 3 tests, recorded at commit <code>0123456789ab</code> with changes."))
    }

    @Test("a site: per-test data of another run is not shown on the pages it does not fit, with one warning")
    func mismatchedPerTest() throws {
        let report = try CoverageReport.build(
            exports: [Fixture.sample.export()], scope: CoverageScope(root: packageRoot))
        let fitting = try #require(report.files.first { $0.path.hasSuffix("LaunchConfiguration.swift") })
        let stale = try #require(report.files.first { $0.path.hasSuffix("Question.swift") })
        // The first file's executable lines as its coverage has them; the second with a line of another version.
        let fittingLines = try fitting.lineCounts().map(\.line)
        var coverage = PerTestCoverage(
            recording: .init(commit: "", dirty: false, date: ""),
            files: [
                .init(path: fitting.displayPath, lines: fittingLines),
                .init(path: stale.displayPath, lines: try stale.lineCounts().map(\.line) + [9999]),
            ].sorted { $0.path < $1.path })
        coverage.add(
            id: "T.A/one", outcome: .passed, milliseconds: 1,
            lines: [fitting.displayPath: [fittingLines[0]], stale.displayPath: [9999]])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftcov-\(UUID().uuidString)")
            .path
        let written = try HTMLSite.write(
            report, to: directory, annotations: HTMLReport.SiteAnnotations(perTest: coverage), options: options)
        #expect(written.mismatchedTests == [stale.displayPath])
        #expect(
            written.warnings.map(\.description) == [
                "\(stale.displayPath): warning: the per-test data has other executable lines than the coverage for 1 "
                    + "file (recorded in another run?); their pages show no tests, first this one"
            ])
        func page(_ file: FileCoverage) throws -> String {
            try String(contentsOfFile: directory + "/" + HTMLReport.pageName(for: file.displayPath), encoding: .utf8)
        }
        #expect(try page(fitting).contains("1 test ran this file"))
        #expect(try !page(stale).contains("class=\"t\""))
        let index = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        #expect(index.contains("Per-test data: 1 test."))
    }

    @Test("hostile test IDs, paths and baseline names are escaped everywhere")
    func hostile() throws {
        let evil = "T.</script><script>alert(1)</script>/a&b\"c'd`e\u{0}\u{1B}[31mred"
        var coverage = PerTestCoverage(
            recording: .init(commit: "<b>&</b>", dirty: false, date: "\"><img src=x>"),
            files: [.init(path: "Sources/A/a.swift", lines: [1, 2, 3, 5])])
        coverage.add(id: evil, outcome: .crashed, milliseconds: 1, lines: ["Sources/A/a.swift": [1]])
        let page = perTestPage(coverage)
        let report = try CoverageReport.build(exports: [Fixture.sample.export()], scope: CoverageScope(root: "/p"))
        var differential = try DifferentialCoverageTests.differential()
        differential.files[0].path = "</td><script>x</script>.swift"
        differential.files[0].basePath = "<img src=y>"
        let index = HTMLReport.indexPage(
            report,
            annotations: HTMLReport.SiteAnnotations(
                differential: differential, baselineName: "</code><script>", changes: "in <i>x</i>", perTest: coverage),
            options: options)
        let categories = HTMLReport.LineCategories(differential.files[0])
        let file = FileCoverage.forTesting(path: "Sources/A/a.swift", segments: Self.perTestSegments)
        let differentialPage = HTMLReport.filePage(
            file, segments: Self.perTestSegments, source: .missing(path: "x"),
            annotations: HTMLReport.Annotations(categories: categories), options: options)
        for html in [page, index, differentialPage] {
            #expect(!html.contains("<script>") && !html.contains("</script><"))
            #expect(!html.contains("<img") && !html.contains("<b>&") && !html.contains("<i>"))
            #expect(!html.contains("\u{0}") && !html.contains("\u{1B}"))
        }
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/"))
        #expect(page.contains("a&amp;b&quot;c&#39;d`e\u{FFFD}red"))
        #expect(index.contains("&lt;/td&gt;&lt;script&gt;x&lt;/script&gt;.swift"))
        try assertGolden(page, "html-per-test-hostile.html")
    }
}
