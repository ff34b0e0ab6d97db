import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// What a file page can show beside each line's count when the site has it: the line's
/// differential category against a baseline (`swiftcov html --baseline`), and the tests that ran
/// it (per-test data of `swiftcov run --per-test`).
extension HTMLReport {
    /// What a file page shows besides the coverage itself; nothing by default.
    package struct Annotations: Sendable {
        package var categories: LineCategories?
        package var tests: LineTests?

        package init(categories: LineCategories? = nil, tests: LineTests? = nil) {
            self.categories = categories
            self.tests = tests
        }
    }

    /// What the whole site can show besides coverage: a differential comparison with a
    /// baseline, per-test data.
    package struct SiteAnnotations: Sendable {
        package var differential: DifferentialCoverage?
        /// The baseline as given (`--baseline FILE`).
        package var baselineName = ""
        /// Where the change came from ("since origin/main", "in change.diff").
        package var changes: String?
        package var perTest: PerTestCoverage?
        /// The tests' steps and attachments: a page for each test with some.
        package var evidence: Evidence?

        package init(
            differential: DifferentialCoverage? = nil, baselineName: String = "", changes: String? = nil,
            perTest: PerTestCoverage? = nil, evidence: Evidence? = nil
        ) {
            self.differential = differential
            self.baselineName = baselineName
            self.changes = changes
            self.perTest = perTest
            self.evidence = evidence
        }

        /// The differential files by path, for `forFile`.
        package func differentialFiles() -> [String: DifferentialCoverage.File] {
            var files: [String: DifferentialCoverage.File] = [:]
            for file in differential?.files ?? [] { files[file.path] = file }
            return files
        }

        /// What the page of the file at `path`, whose line view has `executableLines`, shows. Its
        /// tests only when the per-test data has the same executable lines (else they would be
        /// of another version of the file, and the site says why).
        package func forFile(
            _ path: String, executableLines: [UInt32], differentialFiles: [String: DifferentialCoverage.File]
        ) -> Annotations {
            var annotations = Annotations()
            if let file = differentialFiles[path] { annotations.categories = LineCategories(file) }
            if let perTest, perTest.executableLines(ofFile: path) == executableLines {
                annotations.tests = LineTests(perTest, path: path)
            }
            return annotations
        }
    }

    /// A file's lines in genhtml's categories, as its page shows them.
    package struct LineCategories: Sendable {
        /// Every current line with a category, ascending.
        package var lines: [(line: UInt32, category: DifferentialCategory)]
        /// The deleted baseline lines, grouped by the current line they stood before.
        package var deleted: [DeletedLines]
        package var counts: CategoryCounts
        package var coverage: CoverageChange
        /// What the change did to the file; nil when it left it alone.
        package var status: FileDiff.Status?
        /// Its path in the baseline when that differs.
        package var basePath: String?
        /// The runs of lines of each category numbered now (`DifferentialCoverage.File.ranges`).
        package var ranges: [DifferentialCategory: [ClosedRange<UInt32>]] = [:]

        /// Deleted lines that stood together, before current line `before`.
        package struct DeletedLines: Sendable, Equatable {
            package var before: UInt32
            /// Baseline line numbers that ran (DCB) and did not (DUB), ascending.
            package var covered: [UInt32] = []
            package var uncovered: [UInt32] = []

            package var count: Int { covered.count + uncovered.count }
        }

        package init(_ file: DifferentialCoverage.File) {
            var lines: [(line: UInt32, category: DifferentialCategory)] = []
            for category in DifferentialCategory.allCases where !category.isBaselineLine {
                for line in file.lines[category] { lines.append((line, category)) }
            }
            lines.sort { $0.line < $1.line }
            self.lines = lines
            var deleted: [UInt32: DeletedLines] = [:]
            for category in [DifferentialCategory.DCB, .DUB] {
                for line in file.lines[category] {
                    let before = file.map.insertionLine(ofRemoved: line)
                    if category == .DCB {
                        deleted[before, default: DeletedLines(before: before)].covered.append(line)
                    } else {
                        deleted[before, default: DeletedLines(before: before)].uncovered.append(line)
                    }
                }
            }
            self.deleted = deleted.values.sorted { $0.before < $1.before }
            counts = file.lines.counts
            coverage = file.coverage
            status = file.status
            basePath = file.basePath
            for category in counts.present where !category.isBaselineLine { ranges[category] = file.ranges(category) }
        }
    }

    /// The tests that ran each line of a file, as its page shows them: the tests that ran any of
    /// its lines once in a table, and each line referring to a set of them. Lines run by the same
    /// tests (most lines of a function) share a set, so that a package with thousands of tests
    /// does not repeat them on every line.
    package struct LineTests: Sendable {
        /// A test that ran some line of the file.
        package struct Test: Sendable, Equatable {
            package var id: String
            package var outcome: PerTestCoverage.Outcome
            /// How many lines of the file it ran.
            package var lines: Int
        }

        /// The tests that ran some line of the file, in the order they were listed; numbered from 1 on the page.
        package var tests: [Test]
        /// Sets of tests (indices into `tests`, ascending); the first is empty.
        package var sets: [[Int]]
        /// Every executable line of the file (ascending) and the index of its set in `sets`.
        package var lines: [(line: UInt32, set: Int)]
        /// Where and when the data was recorded, and how many tests it has.
        package var recording: PerTestCoverage.Recording
        package var totalTests: Int

        /// The tests of the file at `path` in `coverage`; nil when it was not recorded.
        package init?(_ coverage: PerTestCoverage, path: String) {
            // The tests that ran some line, numbered in their order; then each line's set of them.
            guard let ran = coverage.testsExecutingLines(ofFile: path) else { return nil }
            var local: [Int: Int] = [:]
            for (index, test) in ran.enumerated() { local[test] = index }
            var counts = [Int](repeating: 0, count: ran.count)
            var setIndex: [[Int]: Int] = [[]: 0]
            var sets: [[Int]] = [[]]
            var lines: [(line: UInt32, set: Int)] = []
            // `tests` ascends, and so do their local numbers: each set is sorted as it is made.
            var members: [Int] = []
            coverage.forEachLineTests(ofFile: path) { line, tests in
                members.removeAll(keepingCapacity: true)
                for test in tests {
                    let member = local[test]!
                    members.append(member)
                    counts[member] += 1
                }
                if let known = setIndex[members] {
                    lines.append((line, known))
                } else {
                    setIndex[members] = sets.count
                    lines.append((line, sets.count))
                    sets.append(members)
                }
            }
            tests = ran.enumerated().map { index, test in
                Test(id: coverage.tests[test].id, outcome: coverage.tests[test].outcome, lines: counts[index])
            }
            self.sets = sets
            self.lines = lines
            recording = coverage.recording
            totalTests = coverage.tests.count
        }
    }

    /// A set of tests longer than this is shown as ranges of the numbers of the page's test
    /// table rather than by name, so that pages stay small with thousands of tests.
    static let namedSetLimit = 25

    // MARK: Differential pieces

    /// The coverage before → after and what the change did, then the codes on this page, what
    /// they mean and links to their lines.
    static func categoryLegend(_ html: inout OutputBuffer, _ categories: LineCategories) {
        html.append("<div class=\"differential\">\n<p>")
        html.append(statusText(categories.status))
        if let basePath = categories.basePath {
            html.append(" (from <code>")
            html.append(escapingHTML: basePath)
            html.append("</code>)")
        }
        html.append(". Line coverage against the baseline: ")
        coverageChange(&html, categories.coverage)
        html.append(".</p>\n<ul class=\"categories\" aria-label=\"Line categories in this file\">\n")
        for category in categories.counts.present {
            let count = categories.counts[category]
            html.append("<li>")
            categoryKey(&html, category)
            html.append(" ")
            html.append(decimal: UInt64(count))
            html.append(count == 1 ? " line: " : " lines: ")
            html.append(unescaped: category.meaning)
            if category != .CBC && category != .UBC {
                // Links to its first few runs of lines (DCB, DUB: where they were deleted).
                let targets: [(prefix: StaticString, first: UInt32, last: UInt32)] =
                    category.isBaselineLine
                    ? categories.deleted.filter { !(category == .DCB ? $0.covered : $0.uncovered).isEmpty }.map {
                        ("#D", $0.before, $0.before)
                    } : (categories.ranges[category] ?? []).map { ("#L", $0.lowerBound, $0.upperBound) }
                html.append(" <span class=\"jump\">")
                for target in targets.prefix(8) {
                    html.append("<a href=\"")
                    html.append(target.prefix)
                    html.append(decimal: UInt64(target.first))
                    html.append(category.isBaselineLine ? "\">before " : "\">")
                    html.append(decimal: UInt64(target.first))
                    if target.last != target.first {
                        html.append("–")
                        html.append(decimal: UInt64(target.last))
                    }
                    html.append("</a> ")
                }
                if targets.count > 8 { html.append(unescaped: "and \(targets.count - 8) more") }
                html.append("</span>")
            }
            html.append("</li>\n")
        }
        html.append("</ul>\n")
        codeTable(&html)
        html.append("</div>\n")
    }

    /// Every code and its meaning, folded.
    static func codeTable(_ html: inout OutputBuffer) {
        html.append("<details class=\"codes\"><summary>What the codes mean</summary>\n<dl>\n")
        for category in DifferentialCategory.allCases {
            html.append("<div><dt>")
            categoryKey(&html, category)
            html.append("</dt><dd>")
            html.append(unescaped: category.meaning)
            html.append(category.isBaselineLine ? " (shown where it was, counted in the baseline)" : "")
            html.append("</dd></div>\n")
        }
        html.append("</dl>\n<p>Categories are genhtml&#39;s (lcov 2.x): new lines are those the diff adds; ")
        html.append("the others are compared with the line they were in the baseline.</p></details>\n")
    }

    /// A code as text in a coloured box (the colour repeats what the text says).
    static func categoryKey(_ html: inout OutputBuffer, _ category: DifferentialCategory) {
        html.append("<span class=\"cat ")
        html.append(categoryClass(category))
        html.append("\" title=\"")
        html.append(unescaped: category.meaning)
        html.append("\">")
        html.append(unescaped: category.rawValue)
        html.append("</span>")
    }

    /// Bad news, good news, or neither.
    static func categoryClass(_ category: DifferentialCategory) -> StaticString {
        switch category {
        case .UNC, .LBC, .UIC: "bad"
        case .GNC, .GBC, .GIC: "good"
        case .CBC, .UBC, .ECB, .EUB, .DCB, .DUB: "same"
        }
    }

    static func statusText(_ status: FileDiff.Status?) -> StaticString {
        switch status {
        case nil: "The change leaves this file alone"
        case .added?: "The change adds this file"
        case .deleted?: "The change deletes this file"
        case .modified?: "The change modifies this file"
        case .renamed?: "The change renames this file"
        case .copied?: "The change copies this file"
        }
    }

    /// `70.00% → 75.00% (+5.00)`: the same text as the other differential reports.
    static func coverageChange(_ html: inout OutputBuffer, _ change: CoverageChange) {
        html.append(escapingHTML: change.arrowText)
        if !change.deltaText.isEmpty {
            html.append(" (")
            html.append(escapingHTML: change.deltaText)
            html.append(")")
        }
    }

    /// The row of deleted lines that stood before the next row.
    static func deletedRow(_ html: inout OutputBuffer, _ group: LineCategories.DeletedLines, testColumn: Bool) {
        html.append("<tr class=\"deleted\" id=\"D")
        html.append(decimal: UInt64(group.before))
        html.append("\"><td class=\"ln\"></td><td class=\"n\"></td><td class=\"d\">")
        if !group.covered.isEmpty { categoryKey(&html, .DCB) }
        if !group.uncovered.isEmpty { categoryKey(&html, .DUB) }
        html.append(testColumn ? "</td><td class=\"t\"></td><td class=\"src\">" : "</td><td class=\"src\">")
        html.append("<span class=\"gone\">− ")
        html.append(decimal: UInt64(group.count))
        html.append(group.count == 1 ? " executable line deleted here" : " executable lines deleted here")
        html.append(" (baseline line")
        let all = (group.covered + group.uncovered).sorted()
        html.append(all.count == 1 ? " " : "s ")
        html.append(decimal: UInt64(all.first ?? 0))
        if all.count > 1 {
            html.append("–")
            html.append(decimal: UInt64(all.last ?? 0))
        }
        html.append("): ")
        html.append(decimal: UInt64(group.covered.count))
        html.append(" ran (DCB), ")
        html.append(decimal: UInt64(group.uncovered.count))
        html.append(" did not (DUB)</span></td></tr>\n")
    }

    /// A line's category cell.
    static func categoryCell(_ html: inout OutputBuffer, _ category: DifferentialCategory?) {
        html.append("<td class=\"d\">")
        if let category { categoryKey(&html, category) }
        html.append("</td>")
    }

    /// The index's "Changed files": the headline, coverage before → after, and every file the
    /// change touched or whose coverage moved, with its lines per category (each linked to the
    /// first such line on its page).
    static func changedFiles(
        _ html: inout OutputBuffer, _ site: SiteAnnotations, _ coverage: DifferentialCoverage,
        linking pages: Set<String>
    ) {
        html.append("<section aria-labelledby=\"changes\">\n<h2 id=\"changes\">Changed files</h2>\n<p><strong>")
        let headline = coverage.headline
        html.append(escapingHTML: headline.prefix(1).uppercased() + headline.dropFirst())
        html.append(".</strong> Line coverage ")
        coverageChange(&html, coverage.totals)
        html.append(" against the baseline <code>")
        html.append(escapingHTML: site.baselineName)
        html.append("</code>")
        if let changes = site.changes {
            html.append(", changes ")
            html.append(escapingHTML: changes)
        }
        html.append(".</p>\n")
        let touched = coverage.files.filter(\.isTouched)
        if touched.isEmpty {
            html.append("<p>The change touches no file the report covers and moves no file&#39;s coverage.</p>\n")
        } else {
            html.append("<div class=\"wide\"><table class=\"sortable changed\">\n")
            html.append(
                "<caption class=\"visually-hidden\">Files the change touched or whose coverage moved</caption>\n")
            html.append("<thead><tr><th scope=\"col\" data-sort=\"text\">File</th>")
            html.append("<th scope=\"col\" data-sort=\"text\">Lines by category</th>")
            html.append("<th scope=\"col\" data-sort=\"number\">Coverage before → after</th></tr></thead>\n<tbody>\n")
            for file in touched {
                let page = pages.contains(file.path) ? pageName(for: file.path) : nil
                html.append("<tr><th scope=\"row\">")
                if let page {
                    html.append("<a href=\"")
                    html.append(escapingHTML: page)
                    html.append("\">")
                    html.append(escapingHTML: file.path)
                    html.append("</a>")
                } else {
                    html.append(escapingHTML: file.path)
                }
                let annotation = file.status?.annotation(oldPath: file.basePath) ?? ""
                if !annotation.isEmpty {
                    html.append(" <span class=\"frac\">")
                    html.append(escapingHTML: annotation)
                    html.append("</span>")
                }
                html.append("</th><td class=\"counts\">")
                let categories = page == nil ? nil : LineCategories(file)
                for category in file.lines.counts.present where category != .CBC && category != .UBC {
                    var target: UInt32?
                    var prefix: StaticString = "#L"
                    if category.isBaselineLine {
                        prefix = "#D"
                        target =
                            categories?.deleted.first { group in
                                !(category == .DCB ? group.covered : group.uncovered).isEmpty
                            }?.before
                    } else {
                        target = file.lines[category].first
                    }
                    if let page, let target {
                        html.append("<a href=\"")
                        html.append(escapingHTML: page)
                        html.append(prefix)
                        html.append(decimal: UInt64(target))
                        html.append("\">")
                    }
                    categoryKey(&html, category)
                    html.append(" ")
                    html.append(decimal: UInt64(file.lines[category].count))
                    html.append(page != nil && target != nil ? "</a> " : " ")
                }
                html.append("</td><td data-value=\"")
                html.append(unescaped: file.coverage.delta.map { String($0) } ?? "0")
                html.append("\">")
                coverageChange(&html, file.coverage)
                html.append("</td></tr>\n")
            }
            html.append("</tbody>\n</table></div>\n")
        }
        codeTable(&html)
        html.append("</section>\n")
    }

    /// The index's note that file pages list the tests that ran each line.
    static func perTestNote(_ html: inout OutputBuffer, _ coverage: PerTestCoverage) {
        html.append("<p class=\"per-test\">Per-test data: ")
        html.append(decimal: UInt64(coverage.tests.count))
        html.append(coverage.tests.count == 1 ? " test" : " tests")
        if !coverage.recording.commit.isEmpty {
            html.append(", recorded at commit <code>")
            html.append(escapingHTML: String(coverage.recording.commit.prefix(12)))
            html.append("</code>")
            if coverage.recording.dirty { html.append(" with changes") }
        }
        html.append(
            ". Each file page shows how many tests ran each line, which ones, and every test that ran the file.</p>\n")
    }

    // MARK: Per-test pieces

    /// A line's tests cell: how many tests ran it, a button showing which.
    static func testsCell(_ html: inout OutputBuffer, _ tests: LineTests, set: Int?, line: Int) {
        html.append("<td class=\"t\">")
        if let set {
            let count = tests.sets[set].count
            if count == 0 {
                html.append("0")
            } else {
                html.append("<button type=\"button\" popovertarget=\"S")
                html.append(decimal: UInt64(set))
                html.append("\" aria-label=\"")
                html.append(decimal: UInt64(count))
                html.append(count == 1 ? " test ran line " : " tests ran line ")
                html.append(decimal: UInt64(line))
                html.append("\">")
                html.append(decimal: UInt64(count))
                html.append("</button>")
            }
        }
        html.append("</td>")
    }

    /// The sets of tests the lines' buttons open (popovers: no script needed), each once.
    static func testSets(_ html: inout OutputBuffer, _ tests: LineTests) {
        for (index, members) in tests.sets.enumerated() where !members.isEmpty {
            html.append("<div class=\"test-set\" popover id=\"S")
            html.append(decimal: UInt64(index))
            html.append("\"><p><strong>")
            html.append(decimal: UInt64(members.count))
            html.append(members.count == 1 ? " test" : " tests")
            html.append("</strong> ran these lines:</p>\n")
            if members.count <= namedSetLimit {
                html.append("<ol>\n")
                for member in members {
                    html.append("<li><a href=\"#T")
                    html.append(decimal: UInt64(member + 1))
                    html.append("\">")
                    html.append(decimal: UInt64(member + 1))
                    html.append("</a> ")
                    appendBreakable(&html, tests.tests[member].id, after: UInt8(ascii: "/"), UInt8(ascii: "."))
                    outcomeText(&html, tests.tests[member].outcome)
                    html.append("</li>\n")
                }
                html.append("</ol>\n")
            } else {
                html.append("<p>Numbers in the table of tests below: ")
                var start = 0
                while start < members.count {
                    var end = start
                    while end + 1 < members.count && members[end + 1] == members[end] + 1 { end += 1 }
                    html.append("<a href=\"#T")
                    html.append(decimal: UInt64(members[start] + 1))
                    html.append("\">")
                    html.append(decimal: UInt64(members[start] + 1))
                    if end > start {
                        html.append("–")
                        html.append(decimal: UInt64(members[end] + 1))
                    }
                    html.append(end + 1 < members.count ? "</a>, " : "</a>")
                    start = end + 1
                }
                html.append("</p>\n")
            }
            html.append("<button type=\"button\" popovertarget=\"S")
            html.append(decimal: UInt64(index))
            html.append("\" popovertargetaction=\"hide\">Close</button></div>\n")
        }
    }

    /// `— failed` after a test that did not pass.
    private static func outcomeText(_ html: inout OutputBuffer, _ outcome: PerTestCoverage.Outcome) {
        guard outcome != .passed else { return }
        html.append(" <em>(")
        html.append(unescaped: outcome.name)
        html.append(")</em>")
    }

    /// The table of the tests that ran some line of the file.
    static func testTable(_ html: inout OutputBuffer, _ tests: LineTests) {
        html.append("<section aria-labelledby=\"tests\">\n<h2 id=\"tests\">Tests that ran this file ")
        html.append("<a class=\"aside\" href=\"#source\">↑ source</a></h2>\n<p>")
        html.append(decimal: UInt64(tests.tests.count))
        html.append(" of ")
        html.append(decimal: UInt64(tests.totalTests))
        html.append(tests.totalTests == 1 ? " test" : " tests")
        html.append(" ran some line of this file (per-test data recorded")
        if !tests.recording.commit.isEmpty {
            html.append(" at commit <code>")
            html.append(escapingHTML: String(tests.recording.commit.prefix(12)))
            html.append("</code>")
            if tests.recording.dirty { html.append(" with changes") }
        }
        if !tests.recording.date.isEmpty {
            html.append(" on ")
            html.append(escapingHTML: tests.recording.date)
        }
        html.append(").</p>\n")
        guard !tests.tests.isEmpty else {
            html.append("</section>\n")
            return
        }
        html.append("<div class=\"wide\"><table class=\"sortable tests\">\n")
        html.append("<caption class=\"visually-hidden\">Tests that ran lines of this file</caption>\n")
        html.append("<thead><tr><th scope=\"col\" data-sort=\"number\">#</th>")
        html.append("<th scope=\"col\" data-sort=\"text\">Test</th><th scope=\"col\" data-sort=\"text\">Outcome</th>")
        html.append("<th scope=\"col\" data-sort=\"number\">Lines here</th></tr></thead>\n<tbody>\n")
        for (index, test) in tests.tests.enumerated() {
            html.append("<tr id=\"T")
            html.append(decimal: UInt64(index + 1))
            html.append("\"><td>")
            html.append(decimal: UInt64(index + 1))
            html.append("</td><th scope=\"row\">")
            appendBreakable(&html, test.id, after: UInt8(ascii: "/"), UInt8(ascii: "."))
            html.append("</th><td>")
            html.append(unescaped: test.outcome.name)
            html.append("</td><td>")
            html.append(decimal: UInt64(test.lines))
            html.append("</td></tr>\n")
        }
        html.append("</tbody>\n</table></div>\n</section>\n")
    }
}
