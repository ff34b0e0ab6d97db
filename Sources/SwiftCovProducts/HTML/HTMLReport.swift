import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// The pages of the HTML report: an index of modules and files, and one page per source file
/// with every line's execution count. Pure functions from the model to text; `HTMLSite` writes
/// them. Every piece of input text goes through `OutputBuffer.append(escapingHTML:)`.
package enum HTMLReport {
    /// What goes around the coverage numbers.
    package struct Options: Sendable {
        /// Shown in the footer.
        package var version: String
        /// Shown in the footer when given; left out by default so that pages are reproducible.
        package var generatedAt: String?
        /// The package's name, in the index's title (`HTMLSite` reads it from `Package.swift`).
        package var packageName: String?
        /// Whether the numbers have regions (Xcode's have not: no Regions column then).
        package var showsRegions = true
        /// The tool whose numbers the pages show (`HTMLSite` sets it from the report).
        package var origin: CoverageReport.Origin = .llvmCov

        package init(version: String = SwiftCov.version, generatedAt: String? = nil, packageName: String? = nil) {
            self.version = version
            self.generatedAt = generatedAt
            self.packageName = packageName
        }
    }

    // MARK: File page

    /// What is known about a file's source text.
    package enum Source {
        /// The file as read now.
        case text(SourceText)
        /// The file could not be read at this path, for this reason (when known).
        case missing(path: String, reason: String = "")
    }

    /// A message to show under a line of a file page: a test failure recorded there.
    package struct LineNote: Sendable, Equatable {
        package var line: Int
        /// What it is about (`Suite › test`).
        package var title: String
        package var message: String

        package init(line: Int, title: String, message: String) {
            self.line = line
            self.title = title
            self.message = message
        }
    }

    /// A source file's page: its numbers, its lines with their counts, then its functions.
    package static func filePage(
        _ file: FileCoverage, segments: [CoverageSegment], source: Source,
        notes: [LineNote] = [], listedInIndex: Bool = true, annotations: Annotations = Annotations(),
        options: Options
    ) -> String {
        filePageBuffer(
            file, segments: segments, source: source, notes: notes,
            listedInIndex: listedInIndex, annotations: annotations, options: options
        ).text
    }

    /// A source file's page as UTF-8 bytes. The source comes first (a toolbar to step through
    /// the blocks that never ran, a legend), the functions after it. `notes` are shown under
    /// their lines; a file not `listedInIndex` (a test file a failure points at) links back to
    /// the index's test section instead of its folders. `annotations` add a column for each
    /// line's differential category and one for the tests that ran it.
    package static func filePageBuffer(
        _ file: FileCoverage, segments: [CoverageSegment], source: Source,
        notes: [LineNote] = [], listedInIndex: Bool = true, annotations: Annotations = Annotations(),
        options: Options
    ) -> OutputBuffer {
        // Sized by the segments in memory, not by the line count the export claims (any number).
        var html = OutputBuffer(reservingCapacity: 8192 + segments.count * 160)
        writeFilePage(
            file, segments: segments, source: source, notes: notes, listedInIndex: listedInIndex,
            annotations: annotations, options: options, into: &html)
        return html
    }

    /// A source file's page, appended to `html` (a streaming buffer writes it as it is made).
    package static func writeFilePage(
        _ file: FileCoverage, segments: [CoverageSegment], source: Source,
        notes: [LineNote] = [], listedInIndex: Bool = true, annotations: Annotations = Annotations(),
        options: Options, into html: inout OutputBuffer
    ) {
        let lineCounts = LineCoverage.lineCounts(of: segments)
        let partial = LineCoverage.unexecutedColumns(in: segments)
        header(&html, title: file.displayPath, assetPrefix: "../")
        html.append(
            "<nav aria-label=\"Breadcrumb\"><ol class=\"crumbs\"><li><a href=\"../index.html\">All files</a></li>")
        let components = file.displayPath.split(separator: "/")
        if listedInIndex {
            var folder = ""
            for component in components.dropLast() {
                folder += folder.isEmpty ? String(component) : "/" + component
                html.append("<li><a href=\"../index.html#")
                html.append(escapingHTML: folderID(folder))
                html.append("\">")
                html.append(escapingHTML: String(component))
                html.append("</a></li>")
            }
        } else {
            html.append("<li><a href=\"../index.html#tests\">Tests</a></li>")
        }
        html.append("<li aria-current=\"page\">")
        html.append(escapingHTML: components.last.map(String.init) ?? file.displayPath)
        html.append("</li></ol></nav>\n<h1>")
        html.append(escapingHTML: file.displayPath)
        html.append("</h1>\n</header>\n<main>\n")
        summaryList(&html, file.summary, options: options)

        var sourceText: SourceText?
        switch source {
        case .text(let text):
            sourceText = text
            if let problem = staleness(of: text, segments: segments) {
                html.append(
                    "<p class=\"notice\" role=\"note\"><strong>This file changed after the coverage run.</strong> ")
                html.append(escapingHTML: problem)
                html.append(" Counts may be shown beside the wrong lines.</p>\n")
            }
        case .missing(let path, let reason):
            html.append("<p class=\"notice\" role=\"note\"><strong>Source not found.</strong> ")
            html.append("The file could not be read at <code>")
            html.append(escapingHTML: path)
            html.append("</code>")
            if !reason.isEmpty {
                html.append(" (")
                html.append(escapingHTML: reason)
                html.append(")")
            }
            html.append("; its executable lines are listed with their counts, without the code.</p>\n")
        }

        html.append("<section aria-labelledby=\"source\">\n<h2 id=\"source\">Source")
        if !file.functions.isEmpty {
            let notRun = file.functions.count { $0.executionCount == 0 }
            html.append(" <a class=\"aside\" href=\"#functions\">")
            html.append(decimal: UInt64(file.functions.count))
            html.append(file.functions.count == 1 ? " function" : " functions")
            html.append(unescaped: notRun > 0 ? ", \(notRun) never ran" : "")
            html.append(" ↓</a>")
        }
        if let tests = annotations.tests {
            html.append(" <a class=\"aside\" href=\"#tests\">")
            html.append(decimal: UInt64(tests.tests.count))
            html.append(tests.tests.count == 1 ? " test ran this file ↓</a>" : " tests ran this file ↓</a>")
        }
        html.append("</h2>\n")
        let blockCount = uncoveredBlockCount(lineCounts, partial: partial)
        html.append("<div class=\"toolbar\">")
        html.append("<button type=\"button\" id=\"previous-block\">◀ Previous</button>")
        html.append("<span id=\"block-status\" aria-live=\"polite\">")
        html.append(decimal: UInt64(blockCount))
        html.append(blockCount == 1 ? " block never ran" : " blocks never ran")
        html.append("</span>")
        html.append("<button type=\"button\" id=\"next-block\">Next ▶</button>")
        html.append("<label class=\"keys\"><input type=\"checkbox\" id=\"keys\" checked> ")
        html.append("keys <kbd>n</kbd> next, <kbd>p</kbd> previous block not run</label></div>\n")
        html.append("<p class=\"legend\"><span class=\"key hit\">5</span> ran 5 times ")
        html.append("<span class=\"key miss\">0</span> never ran ")
        html.append("<span class=\"key partial\">5</span> ran, part never ran: ")
        html.append("<span class=\"z\">marked</span> ")
        html.append("<span class=\"key\"> </span> not code")
        let categories = annotations.categories
        let lineTests = annotations.tests
        if lineTests != nil { html.append(" <span class=\"key tests\">3</span> tests ran the line (press for which)") }
        html.append("</p>\n")
        if let categories { categoryLegend(&html, categories) }
        html.append("<div class=\"code\" tabindex=\"0\" role=\"region\" aria-label=\"Source code\">\n")
        html.append(
            "<table class=\"source\">\n<caption class=\"visually-hidden\">Source with execution counts</caption>\n")
        html.append("<thead class=\"visually-hidden\"><tr><th scope=\"col\">Line</th><th scope=\"col\">Executions</th>")
        if categories != nil { html.append("<th scope=\"col\">Category</th>") }
        if lineTests != nil { html.append("<th scope=\"col\">Tests</th>") }
        html.append("<th scope=\"col\">Code</th></tr></thead>\n<tbody>\n")
        var highlighter = SwiftHighlighter()
        var tokens: [SwiftHighlighter.Token] = []
        let notesByLine = Dictionary(grouping: notes, by: \.line)
        var notedLines: Set<Int> = []
        var blocks = 0
        var previousLine = 0
        var inBlock = false
        // A row for every line of the source, and for each line with a count past its end (or
        // without the source): as many rows as the file and its counts have, whatever the line numbers.
        // Lines with a category (ECB, EUB: not executable now) get rows too; deleted lines a row
        // where they stood.
        let sourceLines = sourceText?.lineCount ?? 0
        let categoryLines = categories?.lines ?? []
        let deleted = categories?.deleted ?? []
        let testLines = lineTests?.lines ?? []
        var nextCategory = 0
        var nextDeleted = 0
        var nextTests = 0
        var next = 0
        var line = 0
        while true {
            line += 1
            while next < lineCounts.count && Int(lineCounts[next].line) < line { next += 1 }
            while nextCategory < categoryLines.count && Int(categoryLines[nextCategory].line) < line {
                nextCategory += 1
            }
            if line > sourceLines {
                let counted = next < lineCounts.count ? Int(lineCounts[next].line) : Int.max
                let categorized =
                    nextCategory < categoryLines.count ? Int(categoryLines[nextCategory].line) : Int.max
                guard min(counted, categorized) < Int.max else { break }
                line = min(counted, categorized)
            }
            while nextDeleted < deleted.count && Int(deleted[nextDeleted].before) <= line {
                deletedRow(&html, deleted[nextDeleted], testColumn: lineTests != nil)
                nextDeleted += 1
            }
            var count: UInt64?
            if next < lineCounts.count && Int(lineCounts[next].line) == line {
                count = lineCounts[next].count
                next += 1
            }
            let ranges = partial[UInt32(line)]
            // A block: consecutive lines that never ran or ran only in part; each its own tbody.
            let isUncovered = count == 0 || (count != nil && ranges != nil)
            if isUncovered != inBlock || (isUncovered && line != previousLine + 1) {
                inBlock = isUncovered
                if inBlock {
                    blocks += 1
                    html.append("</tbody>\n<tbody class=\"block\" id=\"B")
                    html.append(decimal: UInt64(blocks))
                    html.append("\">\n")
                } else {
                    html.append("</tbody>\n<tbody>\n")
                }
            }
            previousLine = line
            html.append("<tr id=\"L")
            html.append(decimal: UInt64(line))
            if let count {
                html.append(
                    count == 0 ? "\" class=\"miss" : ranges == nil ? "\" class=\"hit" : "\" class=\"hit partial")
            }
            html.append("\"><td class=\"ln\"><a href=\"#L")
            html.append(decimal: UInt64(line))
            html.append("\">")
            html.append(decimal: UInt64(line))
            html.append("</a></td><td class=\"n\"")
            if let count, LineCount(line: UInt32(line), count: count).isCounterUnderflow {
                // Not a count: llvm-cov's counter went below zero (see `LineCount.isCounterUnderflow`).
                html.append(
                    unescaped: " title=\"counter underflow: llvm-cov's counter for this line went below zero "
                        + "(llvm-cov show prints 2^64 minus the deficit; the export keeps \(count))\">&lt;0")
            } else if let count {
                html.append(" title=\"")
                html.append(decimal: count)
                html.append(count == 1 ? " execution" : " executions")
                html.append(ranges == nil ? "\">" : ", part of the line never ran\">")
                html.append(unescaped: compactCount(count))
            } else {
                html.append(">")
            }
            html.append("</td>")
            if categories != nil {
                let category =
                    nextCategory < categoryLines.count && Int(categoryLines[nextCategory].line) == line
                    ? categoryLines[nextCategory].category : nil
                categoryCell(&html, category)
            }
            if let lineTests {
                while nextTests < testLines.count && Int(testLines[nextTests].line) < line { nextTests += 1 }
                let set =
                    nextTests < testLines.count && Int(testLines[nextTests].line) == line
                    ? testLines[nextTests].set : nil
                testsCell(&html, lineTests, set: set, line: line)
            }
            html.append("<td class=\"src\">")
            if let sourceText, line <= sourceText.lineCount {
                sourceText.withLine(line) { bytes in
                    highlighter.tokens(of: bytes, into: &tokens)
                    appendCode(&html, bytes, tokens: tokens, unexecuted: ranges ?? [])
                }
            } else if sourceText != nil {
                html.append("(beyond the end of the file)")
            }
            html.append("</td></tr>\n")
            if let lineNotes = notesByLine[line] {
                notedLines.insert(line)
                html.append("<tr class=\"note\"><td></td><td></td>")
                if categories != nil { html.append("<td></td>") }
                if lineTests != nil { html.append("<td></td>") }
                html.append("<td>")
                for note in lineNotes { appendNote(&html, note) }
                html.append("</td></tr>\n")
            }
        }
        for group in deleted[nextDeleted...] { deletedRow(&html, group, testColumn: lineTests != nil) }
        html.append("</tbody>\n</table>\n</div>\n")
        if let lineTests { testSets(&html, lineTests) }
        let unplaced = notes.filter { !notedLines.contains($0.line) }
        if !unplaced.isEmpty {
            html.append("<h3>Failures at lines this page does not show</h3>\n")
            for note in unplaced { appendNote(&html, note) }
        }
        html.append("</section>\n")
        if !file.functions.isEmpty { functionTable(&html, file, options: options) }
        if let lineTests { testTable(&html, lineTests) }
        html.append("</main>\n")
        footer(&html, options: options, assetPrefix: "../")
    }

    /// How many blocks of a file never ran: runs of consecutive lines that never ran or ran
    /// only in part (the `tbody class="block"` of its page, which `n` and `p` step through).
    package static func uncoveredBlockCount(_ lineCounts: [LineCount], partial: [UInt32: [Range<UInt32>]]) -> Int {
        var blocks = 0
        var previous: UInt32?
        for entry in lineCounts {
            let isUncovered = entry.count == 0 || partial[entry.line] != nil
            guard isUncovered else {
                previous = nil
                continue
            }
            if previous.map({ $0 + 1 != entry.line }) ?? true { blocks += 1 }
            previous = entry.line
        }
        return blocks
    }

    /// The functions of a file page: short names (the full one on hover), line, count, coverage.
    private static func functionTable(
        _ html: inout OutputBuffer, _ file: FileCoverage, options: Options
    ) {
        html.append("<section aria-labelledby=\"functions\">\n<h2 id=\"functions\">Functions ")
        html.append("<a class=\"aside\" href=\"#source\">↑ source</a></h2>\n")
        html.append("<div class=\"wide\"><table class=\"sortable functions\">\n")
        html.append("<caption class=\"visually-hidden\">Functions in this file</caption>\n")
        html.append("<thead><tr><th scope=\"col\" data-sort=\"text\">Function</th>")
        html.append(
            "<th scope=\"col\" data-sort=\"number\">Line</th><th scope=\"col\" data-sort=\"number\">Executions</th>")
        html.append("<th scope=\"col\" data-sort=\"number\">Lines</th>")
        if options.showsRegions { html.append("<th scope=\"col\" data-sort=\"number\">Regions</th>") }
        html.append("</tr></thead>\n<tbody>\n")
        for (function, names) in zip(file.functions, file.functionNamesReadOnce) {
            let name = names.demangled
            html.append(function.executionCount == 0 ? "<tr class=\"miss\">" : "<tr>")
            html.append("<th scope=\"row\"><a href=\"#L")
            html.append(decimal: UInt64(function.line))
            html.append("\" title=\"")
            html.append(escapingHTML: name)
            html.append("\">")
            // Break opportunities after `(` and each label's `:`, so that narrow screens wrap names there.
            appendBreakable(&html, names.display, after: UInt8(ascii: "("), UInt8(ascii: ":"))
            html.append("</a></th><td data-value=\"")
            html.append(decimal: UInt64(function.line))
            html.append("\">")
            html.append(decimal: UInt64(function.line))
            html.append("</td><td data-value=\"")
            html.append(decimal: function.executionCount)
            html.append("\" title=\"")
            html.append(decimal: function.executionCount)
            html.append("\">")
            html.append(unescaped: compactCount(function.executionCount))
            html.append("</td>")
            metricCell(&html, function.summary.lines, noun: "lines")
            if options.showsRegions { metricCell(&html, function.summary.regions, noun: "regions") }
            html.append("</tr>\n")
        }
        html.append("</tbody>\n</table></div>\n</section>\n")
    }

    /// `text` escaped, with a break opportunity (`<wbr>`) after each of `breaks`, so that
    /// narrow screens wrap long names there rather than anywhere.
    static func appendBreakable(_ html: inout OutputBuffer, _ text: String, after breaks: UInt8...) {
        var text = text.strippingANSIEscapes
        text.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count where breaks.contains(bytes[index]) {
                html.append(escapingHTML: UnsafeBufferPointer(rebasing: bytes[start...index]))
                html.append("<wbr>")
                start = index + 1
            }
            html.append(escapingHTML: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    /// A test failure under its line, or in a list: what failed and its message, lines kept.
    private static func appendNote(_ html: inout OutputBuffer, _ note: LineNote) {
        html.append("<div class=\"failure\" role=\"note\"><strong>")
        html.append(escapingHTML: note.title)
        html.append("</strong>\n<pre>")
        html.append(escapingHTML: note.message)
        html.append("</pre></div>")
    }

    /// A line's code, coloured by `tokens`, with the byte-column ranges that never ran wrapped
    /// in `<span class="z">` (the colours' spans are closed and reopened around them).
    package static func appendCode(
        _ html: inout OutputBuffer, _ bytes: UnsafeBufferPointer<UInt8>, tokens: [SwiftHighlighter.Token],
        unexecuted: [Range<UInt32>]
    ) {
        guard !unexecuted.isEmpty || !tokens.isEmpty else {
            html.append(escapingHTML: bytes)
            return
        }
        // The never-run ranges as byte ranges: clamped, in order, not overlapping.
        var missed: [Range<Int>] = []
        var end = 0
        for range in unexecuted {
            let start = min(bytes.count, max(end, Int(range.lowerBound) - 1))
            let stop = range.upperBound == UInt32.max ? bytes.count : min(bytes.count, Int(range.upperBound) - 1)
            guard stop > start else { continue }
            missed.append(start..<stop)
            end = stop
        }
        var position = 0
        var tokenIndex = 0
        var missedIndex = 0
        var openKind: SwiftHighlighter.Kind?
        var inMissed = false
        while position < bytes.count {
            while tokenIndex < tokens.count && tokens[tokenIndex].range.upperBound <= position { tokenIndex += 1 }
            while missedIndex < missed.count && missed[missedIndex].upperBound <= position { missedIndex += 1 }
            var stop = bytes.count
            var kind: SwiftHighlighter.Kind?
            if tokenIndex < tokens.count {
                let token = tokens[tokenIndex].range
                if token.lowerBound <= position {
                    kind = tokens[tokenIndex].kind
                    stop = min(stop, token.upperBound)
                } else {
                    stop = min(stop, token.lowerBound)
                }
            }
            var missing = false
            if missedIndex < missed.count {
                let range = missed[missedIndex]
                if range.lowerBound <= position {
                    missing = true
                    stop = min(stop, range.upperBound)
                } else {
                    stop = min(stop, range.lowerBound)
                }
            }
            if kind != openKind || missing != inMissed {
                if openKind != nil { html.append("</span>") }
                if missing != inMissed {
                    html.append(missing ? "<span class=\"z\" title=\"never ran\">" : "</span>")
                    inMissed = missing
                }
                if let kind {
                    html.append("<span class=\"")
                    html.append(unescaped: kind.rawValue)
                    html.append("\">")
                }
                openKind = kind
            }
            html.append(escapingHTML: UnsafeBufferPointer(rebasing: bytes[position..<stop]))
            position = stop
        }
        if openKind != nil { html.append("</span>") }
        if inMissed { html.append("</span>") }
    }

    /// Why the coverage cannot belong to this version of the file, if it cannot: a segment on a
    /// line past its end, or a region starting past the end of its line (or on an empty line).
    package static func staleness(of source: SourceText, segments: [CoverageSegment]) -> String? {
        for segment in segments {
            let line = Int(segment.line)
            if line == 0 { return "The coverage data has code on line 0." }
            if line > source.lineCount {
                return "The coverage data has code on line \(line), but the file has \(source.lineCount) lines."
            }
            guard segment.isRegionEntry && segment.hasCount else { continue }
            let length = source.length(ofLine: line)
            if Int(segment.column) > length + 1 || length == 0 {
                return
                    "A region starts at line \(line), column \(segment.column), but that line has \(length) characters."
            }
        }
        return nil
    }

    /// The test run: totals, then every failure with its message, linked to its source line
    /// when the file is in the report.
    static func testSummary(
        _ html: inout OutputBuffer, _ run: TestRun, evidence: Evidence? = nil, linking pages: Set<String>
    ) {
        let totals = run.totals
        html.append("<section aria-labelledby=\"tests\">\n<h2 id=\"tests\">Tests</h2>\n<p>")
        html.append(unescaped: "\(totals.tests) tests: \(totals.passed) passed, \(totals.failed) failed, ")
        html.append(unescaped: "\(totals.skipped) skipped, \(totals.errors) errors")
        if !run.isComplete { html.append(" — <strong>the run was cut off</strong>") }
        html.append(".</p>\n")
        var linkedTests: Set<String> = []
        for suite in run.suites {
            for test in suite.cases where test.status == .failed || test.status == .error {
                html.append("<div class=\"failure\"><strong>")
                html.append(escapingHTML: suite.displayName ?? suite.name)
                html.append(" › ")
                html.append(escapingHTML: test.name)
                html.append("</strong>")
                for issue in test.failingIssues.isEmpty
                    ? [TestRun.Issue(kind: .error, message: test.status.rawValue)] : test.failingIssues
                {
                    html.append("\n<pre>")
                    failureText(&html, location: issue.location, message: issue.message, linking: pages, prefix: "")
                    html.append("</pre>")
                }
                if let evidence, let page = evidence.page(className: test.className, testName: test.testName) {
                    // The failing step and screenshot once a test (its other configurations link only).
                    let first = linkedTests.insert(page).inserted
                    evidenceLink(
                        &html, page: page,
                        positions: first ? evidence.runs(className: test.className, testName: test.testName) : [],
                        evidence: evidence)
                }
                html.append("</div>\n")
            }
        }
        if let evidence {
            evidenceMatrix(&html, evidence)
            passingEvidence(&html, evidence)
        }
        html.append("</section>\n")
    }

    // MARK: Pieces

    /// A failure's `file:line: message`, the place linked to its line when the site has the
    /// file's page (`prefix` leads from the page to the site's root).
    static func failureText(
        _ html: inout OutputBuffer, location: TestRun.SourceLocation?, message: String, linking pages: Set<String>,
        prefix: StaticString
    ) {
        if let location {
            if pages.contains(location.file) {
                html.append("<a href=\"")
                html.append(prefix)
                html.append(escapingHTML: pageName(for: location.file))
                html.append("#L")
                html.append(decimal: UInt64(max(location.line, 0)))
                html.append("\">")
                html.append(escapingHTML: location.description)
                html.append("</a>")
            } else {
                html.append(escapingHTML: location.description)
            }
            html.append(": ")
        }
        html.append(escapingHTML: message)
    }

    /// The page's file name inside the output folder, derived from the path alone: letters,
    /// digits, `.`, `-` and `_` only, so that no path in an export can place a page outside the
    /// folder, plus a hash of the full path so that different paths never share a page.
    package static func pageName(for path: String, folder: String = "files", identity: String? = nil) -> String {
        var name = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": name.unicodeScalars.append(scalar)
            case ".": name += name.isEmpty || name.hasSuffix("_") ? "_" : "."
            default: if !name.hasSuffix("_") { name += "_" }
            }
        }
        if name.count > 80 { name = String(name.suffix(80)) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (identity ?? path).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return folder + "/" + name + "-" + String(repeating: "0", count: 16 - digits.count) + digits + ".html"
    }

    /// The `id` of a folder's row in the index's tree.
    static func folderID(_ path: String) -> String { "d-" + anchor(path) }

    /// A module's name as an id: letters and digits as they are, every other byte as `-` and
    /// two hex digits, so that two names never share an id (`A.B` and `A-B` would, with `-` alone).
    static func anchor(_ name: String) -> String {
        var result = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "-" + String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
            }
        }
        return result
    }

    /// Execution counts as Xcode and `llvm-cov show` print them beside code: exact below 1000,
    /// then 1.2k, 12k, 123k, 1.2M…, never rounded up (the exact count is in the title).
    package static func compactCount(_ count: UInt64) -> String {
        guard count >= 1000 else { return String(count) }
        let units = ["k", "M", "G", "T", "P", "E"]
        var value = Double(count)
        var unit = -1
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if value < 10 {
            let tenths = Int((value * 10).rounded(.down))
            return "\(tenths / 10).\(tenths % 10)\(units[unit])"
        }
        return "\(Int(value.rounded(.down)))\(units[unit])"
    }

    static func header(_ html: inout OutputBuffer, title: String, assetPrefix: StaticString) {
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        html.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
        html.append(escapingHTML: title)
        html.append(" · swiftcov</title>\n<link rel=\"stylesheet\" href=\"")
        html.append(assetPrefix)
        html.append("swiftcov.css\">\n</head>\n<body>\n<header>\n")
    }

    static func footer(_ html: inout OutputBuffer, options: Options, assetPrefix: StaticString) {
        html.append("<footer>Generated by swiftcov ")
        html.append(escapingHTML: options.version)
        if let generatedAt = options.generatedAt {
            html.append(" on ")
            html.append(escapingHTML: generatedAt)
        }
        html.append(
            options.origin == .xcode
                ? ". Counts and percentages are Xcode&#39;s (xccov).</footer>\n<script src=\""
                : ". Counts and percentages are llvm-cov&#39;s.</footer>\n<script src=\"")
        html.append(assetPrefix)
        html.append("swiftcov.js\"></script>\n</body>\n</html>\n")
    }

    static func summaryList(_ html: inout OutputBuffer, _ summary: CoverageSummary, options: Options) {
        html.append("<dl class=\"summary\">\n")
        var metrics: [(StaticString, Metric, StaticString)] = [
            ("Lines", summary.lines, "lines"), ("Functions", summary.functions, "functions"),
        ]
        if options.showsRegions { metrics.append(("Regions", summary.regions, "regions")) }
        for (label, metric, noun) in metrics {
            html.append("<div><dt>")
            html.append(label)
            html.append("</dt><dd>")
            bar(&html, metric, noun: noun)
            html.append("</dd></div>\n")
        }
        if summary.branches.count > 0 {
            html.append("<div><dt>Branches</dt><dd>")
            bar(&html, summary.branches, noun: "branches")
            html.append("</dd></div>\n")
        }
        html.append("</dl>\n")
    }

    static func metricHeaders(_ html: inout OutputBuffer, options: Options) {
        html.append(
            "<th scope=\"col\" data-sort=\"number\">Lines</th><th scope=\"col\" data-sort=\"number\">Functions</th>")
        if options.showsRegions { html.append("<th scope=\"col\" data-sort=\"number\">Regions</th>") }
    }

    static func metricCells(_ html: inout OutputBuffer, _ summary: CoverageSummary, options: Options) {
        metricCell(&html, summary.lines, noun: "lines")
        metricCell(&html, summary.functions, noun: "functions")
        if options.showsRegions { metricCell(&html, summary.regions, noun: "regions") }
    }

    static func metricCell(_ html: inout OutputBuffer, _ metric: Metric, noun: StaticString) {
        html.append("<td class=\"metric\" data-value=\"")
        if metric.count == 0 {
            html.append("-1")
        } else if metric.covered == metric.count {
            html.append("100.0")
        } else {
            html.append(unescaped: String(metric.percent))
        }
        html.append("\">")
        bar(&html, metric, noun: noun)
        html.append("</td>")
    }

    /// A bar with its percentage and fraction as text; the bar itself is described for screen readers.
    static func bar(_ html: inout OutputBuffer, _ metric: Metric, noun: StaticString) {
        let percent = metric.formattedPercent
        if metric.count > 0 {
            let level: StaticString = metric.percent >= 80 ? "high" : metric.percent >= 50 ? "medium" : "low"
            html.append("<span class=\"bar\" role=\"img\" aria-label=\"")
            html.append(unescaped: percent)
            html.append(" of ")
            html.append(noun)
            html.append(" covered\"><span class=\"")
            html.append(level)
            html.append("\" style=\"width:")
            var number = percent
            number.withUTF8 { html.append(bytes: UnsafeBufferPointer(rebasing: $0.dropLast())) }
            html.append("%\"></span></span> ")
        }
        html.append("<span class=\"pct\">")
        html.append(unescaped: percent)
        html.append("</span> <span class=\"frac\">")
        html.append(decimal: UInt64(metric.covered))
        html.append("/")
        html.append(decimal: UInt64(metric.count))
        html.append("</span>")
    }
}
