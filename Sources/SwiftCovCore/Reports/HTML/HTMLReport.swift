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

        package init(version: String = SwiftCov.version, generatedAt: String? = nil) {
            self.version = version
            self.generatedAt = generatedAt
        }
    }

    // MARK: Index

    /// The index page: totals, modules and files, sortable and filterable.
    package static func indexPage(_ report: CoverageReport, tests: TestRun? = nil, options: Options) -> String {
        indexPageBuffer(report, tests: tests, options: options).text
    }

    /// The index page as UTF-8 bytes; test failures in files of `linking` (default: the
    /// report's) link to their lines.
    package static func indexPageBuffer(
        _ report: CoverageReport, tests: TestRun? = nil, linking: Set<String>? = nil, options: Options
    ) -> OutputBuffer {
        var html = OutputBuffer(reservingCapacity: 4096 + report.files.count * 900)
        header(&html, title: "Coverage report", assetPrefix: "")
        html.append(
            "<nav aria-label=\"Breadcrumb\"><ol class=\"crumbs\"><li aria-current=\"page\">All files</li></ol></nav>\n")
        html.append("<h1>Coverage report</h1>\n</header>\n<main>\n")
        html.append("<section aria-labelledby=\"totals\">\n<h2 id=\"totals\">Totals</h2>\n")
        summaryList(&html, report.totals)
        html.append("</section>\n")
        if let tests { testSummary(&html, tests, linking: linking ?? Set(report.files.map(\.displayPath))) }

        html.append("<section aria-labelledby=\"modules\">\n<h2 id=\"modules\">Modules</h2>\n")
        html.append("<table class=\"sortable\">\n<caption class=\"visually-hidden\">Coverage per module</caption>\n")
        html.append(
            "<thead><tr><th scope=\"col\" data-sort=\"text\">Module</th><th scope=\"col\" data-sort=\"number\">Files</th>"
        )
        metricHeaders(&html)
        html.append("</tr></thead>\n<tbody>\n")
        for module in report.modules {
            html.append("<tr id=\"module-")
            html.append(escapingHTML: anchor(module.name))
            html.append("\"><th scope=\"row\">")
            html.append(escapingHTML: module.name)
            html.append("</th><td data-value=\"")
            html.append(decimal: UInt64(module.fileCount))
            html.append("\">")
            html.append(decimal: UInt64(module.fileCount))
            html.append("</td>")
            metricCells(&html, module.summary)
            html.append("</tr>\n")
        }
        html.append("</tbody>\n</table>\n</section>\n")

        html.append("<section aria-labelledby=\"files\">\n<h2 id=\"files\">Files</h2>\n")
        html.append("<p class=\"filter\"><label for=\"filter\">Filter files </label>")
        html.append("<input id=\"filter\" type=\"search\" placeholder=\"Path or module\" autocomplete=\"off\"></p>\n")
        html.append(
            "<table class=\"sortable\" id=\"file-table\">\n<caption class=\"visually-hidden\">Coverage per file</caption>\n"
        )
        html.append(
            "<thead><tr><th scope=\"col\" data-sort=\"text\">File</th><th scope=\"col\" data-sort=\"text\">Module</th>")
        metricHeaders(&html)
        html.append("</tr></thead>\n<tbody>\n")
        for file in report.files {
            html.append("<tr><th scope=\"row\"><a href=\"")
            html.append(escapingHTML: pageName(for: file.displayPath))
            html.append("\">")
            html.append(escapingHTML: file.displayPath)
            html.append("</a></th><td>")
            html.append(escapingHTML: file.module)
            html.append("</td>")
            metricCells(&html, file.summary)
            html.append("</tr>\n")
        }
        html.append("</tbody>\n</table>\n")
        if report.files.isEmpty {
            html.append("<p>No source files in scope.</p>\n")
        }
        html.append("</section>\n</main>\n")
        footer(&html, options: options, assetPrefix: "")
        return html
    }

    // MARK: File page

    /// What is known about a file's source text.
    package enum Source {
        /// The file as read now.
        case text(SourceText)
        /// The file could not be read at this path, for this reason (when known).
        case missing(path: String, reason: String = "")
    }

    /// A source file's page: its numbers, its functions, and its lines with their counts.
    package static func filePage(
        _ file: FileCoverage, functionNames: [String], segments: [CoverageSegment], source: Source, options: Options
    ) -> String {
        filePageBuffer(file, functionNames: functionNames, segments: segments, source: source, options: options).text
    }

    /// A source file's page as UTF-8 bytes.
    package static func filePageBuffer(
        _ file: FileCoverage, functionNames: [String], segments: [CoverageSegment], source: Source, options: Options
    ) -> OutputBuffer {
        let lineCounts = LineCoverage.lineCounts(of: segments)
        let partial = LineCoverage.unexecutedColumns(in: segments)
        var html = OutputBuffer(reservingCapacity: 8192 + lineCounts.count * 160)
        header(&html, title: file.displayPath, assetPrefix: "../")
        html.append(
            "<nav aria-label=\"Breadcrumb\"><ol class=\"crumbs\"><li><a href=\"../index.html\">All files</a></li>")
        html.append("<li><a href=\"../index.html#module-")
        html.append(escapingHTML: anchor(file.module))
        html.append("\">")
        html.append(escapingHTML: file.module)
        html.append("</a></li><li aria-current=\"page\">")
        html.append(escapingHTML: file.displayPath.split(separator: "/").last.map(String.init) ?? file.displayPath)
        html.append("</li></ol></nav>\n<h1>")
        html.append(escapingHTML: file.displayPath)
        html.append("</h1>\n</header>\n<main>\n")
        summaryList(&html, file.summary)

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

        if !file.functions.isEmpty {
            html.append("<section aria-labelledby=\"functions\">\n<h2 id=\"functions\">Functions</h2>\n")
            html.append(
                "<table class=\"sortable\">\n<caption class=\"visually-hidden\">Functions in this file</caption>\n")
            html.append("<thead><tr><th scope=\"col\" data-sort=\"text\">Function</th>")
            html.append(
                "<th scope=\"col\" data-sort=\"number\">Line</th><th scope=\"col\" data-sort=\"number\">Executions</th>"
            )
            html.append(
                "<th scope=\"col\" data-sort=\"number\">Lines</th><th scope=\"col\" data-sort=\"number\">Regions</th>")
            html.append("</tr></thead>\n<tbody>\n")
            for (index, function) in file.functions.enumerated() {
                html.append("<tr><th scope=\"row\"><a href=\"#L")
                html.append(decimal: UInt64(function.line))
                html.append("\">")
                html.append(escapingHTML: index < functionNames.count ? functionNames[index] : function.mangledName)
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
                metricCell(&html, function.summary.regions, noun: "regions")
                html.append("</tr>\n")
            }
            html.append("</tbody>\n</table>\n</section>\n")
        }

        html.append("<section aria-labelledby=\"source\">\n<h2 id=\"source\">Source</h2>\n")
        html.append(
            "<p class=\"keys\"><button type=\"button\" id=\"previous-uncovered\">Previous line not run</button> ")
        html.append("<button type=\"button\" id=\"next-uncovered\">Next line not run</button> ")
        html.append("or press <kbd>p</kbd> / <kbd>n</kbd>.</p>\n")
        html.append(
            "<table class=\"source\">\n<caption class=\"visually-hidden\">Source with execution counts</caption>\n")
        html.append("<thead class=\"visually-hidden\"><tr><th scope=\"col\">Line</th><th scope=\"col\">Executions</th>")
        html.append("<th scope=\"col\">Code</th></tr></thead>\n<tbody>\n")
        // A row for every line of the source, and for each line with a count past its end (or
        // without the source): as many rows as the file and its counts have, whatever the line numbers.
        let sourceLines = sourceText?.lineCount ?? 0
        var next = 0
        var line = 0
        while true {
            line += 1
            while next < lineCounts.count && Int(lineCounts[next].line) < line { next += 1 }
            if line > sourceLines {
                guard next < lineCounts.count else { break }
                line = Int(lineCounts[next].line)
            }
            var count: UInt64?
            if next < lineCounts.count && Int(lineCounts[next].line) == line {
                count = lineCounts[next].count
                next += 1
            }
            let ranges = partial[UInt32(line)]
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
            if let count {
                html.append(" title=\"")
                html.append(decimal: count)
                html.append(count == 1 ? " execution\">" : " executions\">")
                html.append(unescaped: compactCount(count))
            } else {
                html.append(">")
            }
            html.append("</td><td class=\"src\">")
            if let sourceText, line <= sourceText.lineCount {
                sourceText.withLine(line) { bytes in appendCode(&html, bytes, unexecuted: ranges ?? []) }
            } else if sourceText != nil {
                html.append("(beyond the end of the file)")
            }
            html.append("</td></tr>\n")
        }
        html.append("</tbody>\n</table>\n</section>\n</main>\n")
        footer(&html, options: options, assetPrefix: "../")
        return html
    }

    /// A line's code, with the byte-column ranges that never ran wrapped in `<span class="z">`.
    private static func appendCode(
        _ html: inout OutputBuffer, _ bytes: UnsafeBufferPointer<UInt8>, unexecuted: [Range<UInt32>]
    ) {
        guard !unexecuted.isEmpty else {
            html.append(escapingHTML: bytes)
            return
        }
        var position = 0
        for range in unexecuted {
            let start = min(bytes.count, max(position, Int(range.lowerBound) - 1))
            let end = range.upperBound == UInt32.max ? bytes.count : min(bytes.count, Int(range.upperBound) - 1)
            guard end > start else { continue }
            html.append(escapingHTML: UnsafeBufferPointer(rebasing: bytes[position..<start]))
            html.append("<span class=\"z\" title=\"never ran\">")
            html.append(escapingHTML: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            html.append("</span>")
            position = end
        }
        html.append(escapingHTML: UnsafeBufferPointer(rebasing: bytes[position...]))
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
    private static func testSummary(_ html: inout OutputBuffer, _ run: TestRun, linking pages: Set<String>) {
        let totals = run.totals
        html.append("<section aria-labelledby=\"tests\">\n<h2 id=\"tests\">Tests</h2>\n<p>")
        html.append(unescaped: "\(totals.tests) tests: \(totals.passed) passed, \(totals.failed) failed, ")
        html.append(unescaped: "\(totals.skipped) skipped, \(totals.errors) errors")
        if !run.isComplete { html.append(" — <strong>the run was cut off</strong>") }
        html.append(".</p>\n")
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
                    if let location = issue.location {
                        if pages.contains(location.file) {
                            html.append("<a href=\"")
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
                    html.append(escapingHTML: issue.message)
                    html.append("</pre>")
                }
                html.append("</div>\n")
            }
        }
        html.append("</section>\n")
    }

    // MARK: Pieces

    /// The page's file name inside the output folder, derived from the path alone: letters,
    /// digits, `.`, `-` and `_` only, so that no path in an export can place a page outside the
    /// folder, plus a hash of the full path so that different paths never share a page.
    package static func pageName(for path: String) -> String {
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
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        return "files/" + name + "-" + String(repeating: "0", count: 16 - digits.count) + digits + ".html"
    }

    /// An `id` for a module row.
    /// A module's name as an id: letters and digits as they are, every other byte as `-` and
    /// two hex digits, so that two names never share an id (`A.B` and `A-B` would, with `-` alone).
    private static func anchor(_ name: String) -> String {
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

    private static func header(_ html: inout OutputBuffer, title: String, assetPrefix: StaticString) {
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        html.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
        html.append(escapingHTML: title)
        html.append(" · swiftcov</title>\n<link rel=\"stylesheet\" href=\"")
        html.append(assetPrefix)
        html.append("swiftcov.css\">\n</head>\n<body>\n<header>\n")
    }

    private static func footer(_ html: inout OutputBuffer, options: Options, assetPrefix: StaticString) {
        html.append("<footer>Generated by swiftcov ")
        html.append(escapingHTML: options.version)
        if let generatedAt = options.generatedAt {
            html.append(" on ")
            html.append(escapingHTML: generatedAt)
        }
        html.append(". Counts and percentages are llvm-cov&#39;s.</footer>\n<script src=\"")
        html.append(assetPrefix)
        html.append("swiftcov.js\"></script>\n</body>\n</html>\n")
    }

    private static func summaryList(_ html: inout OutputBuffer, _ summary: CoverageSummary) {
        html.append("<dl class=\"summary\">\n")
        for (label, metric, noun) in [
            ("Lines", summary.lines, "lines"), ("Functions", summary.functions, "functions"),
            ("Regions", summary.regions, "regions"),
        ] {
            html.append("<div><dt>")
            html.append(unescaped: label)
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

    private static func metricHeaders(_ html: inout OutputBuffer) {
        html.append(
            "<th scope=\"col\" data-sort=\"number\">Lines</th><th scope=\"col\" data-sort=\"number\">Functions</th>")
        html.append("<th scope=\"col\" data-sort=\"number\">Regions</th>")
    }

    private static func metricCells(_ html: inout OutputBuffer, _ summary: CoverageSummary) {
        metricCell(&html, summary.lines, noun: "lines")
        metricCell(&html, summary.functions, noun: "functions")
        metricCell(&html, summary.regions, noun: "regions")
    }

    private static func metricCell(_ html: inout OutputBuffer, _ metric: Metric, noun: String) {
        html.append("<td class=\"metric\" data-value=\"")
        html.append(unescaped: metric.count == 0 ? "-1" : String(metric.percent))
        html.append("\">")
        bar(&html, metric, noun: noun)
        html.append("</td>")
    }

    /// A bar with its percentage and fraction as text; the bar itself is described for screen readers.
    private static func bar(_ html: inout OutputBuffer, _ metric: Metric, noun: String) {
        let percent = metric.formattedPercent
        if metric.count > 0 {
            let level = metric.percent >= 80 ? "high" : metric.percent >= 50 ? "medium" : "low"
            html.append("<span class=\"bar\" role=\"img\" aria-label=\"")
            html.append(unescaped: "\(percent) of \(noun) covered")
            html.append("\"><span class=\"")
            html.append(unescaped: level)
            html.append("\" style=\"width:")
            html.append(unescaped: String(percent.dropLast()))
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
