import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// The index page of the HTML report: totals, the test run, a treemap of the package, the
/// files as a folder tree with each folder's totals, the modules, and every file in one
/// sortable table.
extension HTMLReport {
    /// The index page.
    package static func indexPage(
        _ report: CoverageReport, tests: TestRun? = nil, annotations: SiteAnnotations = SiteAnnotations(),
        options: Options
    ) -> String {
        indexPageBuffer(report, tests: tests, annotations: annotations, options: options).text
    }

    /// The index page as UTF-8 bytes; test failures in files of `linking` (default: the
    /// report's) link to their lines.
    /// With `annotations`, the changed files against a baseline, and a note on per-test data.
    package static func indexPageBuffer(
        _ report: CoverageReport, tests: TestRun? = nil, linking: Set<String>? = nil,
        annotations: SiteAnnotations = SiteAnnotations(), options: Options
    ) -> OutputBuffer {
        var html = OutputBuffer(reservingCapacity: 8192 + report.files.count * 1800)
        writeIndexPage(report, tests: tests, linking: linking, annotations: annotations, options: options, into: &html)
        return html
    }

    /// The index page, appended to `html`: a streaming buffer writes it as it is made (the
    /// index of thousands of files is megabytes).
    package static func writeIndexPage(
        _ report: CoverageReport, tests: TestRun? = nil, linking: Set<String>? = nil,
        annotations: SiteAnnotations = SiteAnnotations(), options: Options, into html: inout OutputBuffer
    ) {
        let title = options.packageName.map { "Coverage of " + $0 } ?? "Coverage report"
        header(&html, title: title, assetPrefix: "")
        html.append(
            "<nav aria-label=\"Breadcrumb\"><ol class=\"crumbs\"><li aria-current=\"page\">All files</li></ol></nav>\n")
        html.append("<h1>")
        html.append(escapingHTML: title)
        html.append("</h1>\n</header>\n<main>\n")
        html.append("<section aria-labelledby=\"totals\">\n<h2 id=\"totals\">Totals</h2>\n")
        summaryList(&html, report.totals, options: options)
        if let perTest = annotations.perTest { perTestNote(&html, perTest) }
        html.append("</section>\n")
        let pages = linking ?? Set(report.files.map(\.displayPath))
        if let differential = annotations.differential {
            changedFiles(&html, annotations, differential, linking: pages)
        }
        if let tests { testSummary(&html, tests, evidence: annotations.evidence, linking: pages) }

        let tree = FolderTree(report.files)
        html.append("<section aria-labelledby=\"files\">\n<h2 id=\"files\">Files</h2>\n")
        if report.files.isEmpty {
            html.append("<p>No source files in scope.</p>\n")
        } else {
            html.append("<p class=\"filter\"><label for=\"filter\">Filter files </label>")
            html.append(
                "<input id=\"filter\" type=\"search\" placeholder=\"Path or module\" autocomplete=\"off\"></p>\n")
            if options.showsRegions {
                html.append("<div class=\"tree-head\" aria-hidden=\"true\"><span>Folder or file</span>")
                html.append("<span>Lines</span><span>Functions</span><span>Regions</span></div>\n")
                html.append("<ul class=\"tree\" id=\"tree\">\n")
            } else {
                html.append("<div class=\"tree-head two-metrics\" aria-hidden=\"true\"><span>Folder or file</span>")
                html.append("<span>Lines</span><span>Functions</span></div>\n")
                html.append("<ul class=\"tree two-metrics\" id=\"tree\">\n")
            }
            appendFolder(&html, tree.root, tree: tree, depth: 0, regions: options.showsRegions)
            html.append("</ul>\n")
            let note = report.origin == .xcode ? LineView.htmlXcodeNote : LineView.htmlSummaryNote
            html.append(unescaped: "<p><small>" + note + "</small></p>\n")
        }
        html.append("</section>\n")
        if !report.files.isEmpty { treemap(&html, tree) }

        html.append("<section aria-labelledby=\"modules\">\n<h2 id=\"modules\">Modules</h2>\n")
        html.append("<div class=\"wide\"><table class=\"sortable\">\n")
        html.append("<caption class=\"visually-hidden\">Coverage per module</caption>\n")
        html.append(
            "<thead><tr><th scope=\"col\" data-sort=\"text\">Module</th><th scope=\"col\" data-sort=\"number\">Files</th>"
        )
        metricHeaders(&html, options: options)
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
            metricCells(&html, module.summary, options: options)
            html.append("</tr>\n")
        }
        html.append("</tbody>\n</table></div>\n</section>\n")

        if !report.files.isEmpty {
            html.append("<section aria-labelledby=\"all-files\">\n<details>\n<summary><h2 id=\"all-files\">")
            html.append("All files in one sortable table</h2></summary>\n")
            html.append("<div class=\"wide\"><table class=\"sortable\" id=\"file-table\">\n")
            html.append("<caption class=\"visually-hidden\">Coverage per file</caption>\n")
            html.append(
                "<thead><tr><th scope=\"col\" data-sort=\"text\">File</th><th scope=\"col\" data-sort=\"text\">Module</th>"
            )
            metricHeaders(&html, options: options)
            html.append("</tr></thead>\n<tbody>\n")
            for file in report.files {
                html.append("<tr><th scope=\"row\">")
                if file.hasLineData {
                    html.append("<a href=\"")
                    html.append(escapingHTML: pageName(for: file.displayPath))
                    html.append("\">")
                    html.append(escapingHTML: file.displayPath)
                    html.append("</a>")
                } else {
                    html.append(escapingHTML: file.displayPath)
                }
                html.append("</th><td>")
                html.append(escapingHTML: file.module)
                html.append("</td>")
                metricCells(&html, file.summary, options: options)
                html.append("</tr>\n")
            }
            html.append("</tbody>\n</table></div>\n</details>\n</section>\n")
        }
        html.append("</main>\n")
        footer(&html, options: options, assetPrefix: "")
    }

    /// A folder of the tree: a `<details>` whose summary is the folder with its totals, open
    /// for the two top levels; its folders, then its files.
    private static func appendFolder(
        _ html: inout OutputBuffer, _ index: Int, tree: FolderTree, depth: Int, regions: Bool
    ) {
        let folder = tree.folders[index]
        for child in folder.folders {
            let node = tree.folders[child]
            html.append("<li id=\"")
            html.append(escapingHTML: folderID(node.path))
            html.append(depth < 2 ? "\"><details open>" : "\"><details>")
            html.append("<summary class=\"row\"><span class=\"name\">")
            html.append(escapingHTML: node.name)
            html.append("/</span>")
            treeMetrics(&html, node.summary, regions: regions)
            html.append("</summary>\n<ul>\n")
            appendFolder(&html, child, tree: tree, depth: depth + 1, regions: regions)
            html.append("</ul></details></li>\n")
        }
        for file in folder.files {
            let coverage = tree.files[file]
            // A file without per-line counts (Xcode's totals only) has no page to link.
            if coverage.hasLineData {
                html.append("<li class=\"file\"><div class=\"row\"><a class=\"name\" href=\"")
                html.append(escapingHTML: pageName(for: coverage.displayPath))
                html.append("\" title=\"")
            } else {
                html.append("<li class=\"file\"><div class=\"row\"><span class=\"name\" title=\"")
            }
            html.append(escapingHTML: coverage.displayPath)
            html.append(" (")
            html.append(escapingHTML: coverage.module)
            html.append(")\">")
            html.append(escapingHTML: coverage.displayPath.split(separator: "/").last.map(String.init) ?? "")
            html.append(coverage.hasLineData ? "</a>" : "</span>")
            treeMetrics(&html, coverage.summary, regions: regions)
            html.append("</div></li>\n")
        }
    }

    private static func treeMetrics(_ html: inout OutputBuffer, _ summary: CoverageSummary, regions: Bool) {
        var metrics: [(Metric, StaticString)] = [(summary.lines, "lines"), (summary.functions, "functions")]
        if regions { metrics.append((summary.regions, "regions")) }
        for (metric, noun) in metrics {
            html.append("<span class=\"metric\">")
            bar(&html, metric, noun: noun)
            html.append("</span>")
        }
    }

    // MARK: Treemap

    /// The package as an inline SVG treemap: one tile per file, its area the file's executable
    /// lines, its colour the file's line coverage, each a link to its page; folders nest.
    /// A picture of the tree below it (which has the same links and numbers for screen readers).
    private static func treemap(_ html: inout OutputBuffer, _ tree: FolderTree) {
        let width = 1000.0
        let height = 420.0
        var tiles: [TreemapTile] = []
        layOut(folder: tree.root, in: TreemapRect(x: 0, y: 0, width: width, height: height), tree: tree, into: &tiles)
        guard !tiles.isEmpty else { return }
        html.append("<section aria-labelledby=\"map\">\n<h2 id=\"map\">Map</h2>\n<figure class=\"treemap\">")
        html.append("<svg viewBox=\"0 0 1000 420\" aria-hidden=\"true\" focusable=\"false\">\n")
        for tile in tiles {
            let rect = tile.rect
            if let file = tile.file {
                let coverage = tree.files[file]
                if coverage.hasLineData {
                    html.append("<a href=\"")
                    html.append(escapingHTML: pageName(for: coverage.displayPath))
                    html.append("\" tabindex=\"-1\"><title>")
                } else {
                    html.append("<g><title>")
                }
                html.append(escapingHTML: coverage.displayPath)
                html.append(": ")
                html.append(unescaped: coverage.summary.lines.formattedPercent)
                html.append(" of ")
                html.append(decimal: UInt64(coverage.summary.lines.count))
                html.append(" lines</title><rect x=\"")
                appendCoordinates(&html, rect)
                html.append("\" fill=\"")
                html.append(unescaped: treemapColor(coverage.summary.lines.percent))
                html.append("\"/>")
                let name = coverage.displayPath.split(separator: "/").last.map(String.init) ?? ""
                if rect.height >= 16 && Double(name.count) * 6.6 + 8 <= rect.width {
                    html.append("<text x=\"")
                    html.append(unescaped: coordinate(rect.x + 4))
                    html.append("\" y=\"")
                    html.append(unescaped: coordinate(rect.y + 13))
                    html.append("\">")
                    html.append(escapingHTML: name)
                    html.append("</text>")
                }
                html.append(coverage.hasLineData ? "</a>\n" : "</g>\n")
            } else {
                html.append("<rect class=\"folder\" x=\"")
                appendCoordinates(&html, rect)
                html.append("\"/>\n")
            }
        }
        html.append("</svg>\n<figcaption>Each file is a tile: its area is the file's executable lines, its colour ")
        html.append("its line coverage (<span class=\"scale\" aria-hidden=\"true\"></span> 0% to 100%); ")
        html.append("folders are outlined. The tree above has the same files and numbers.</figcaption>")
        html.append("</figure>\n</section>\n")
    }

    private static func appendCoordinates(_ html: inout OutputBuffer, _ rect: TreemapRect) {
        html.append(unescaped: coordinate(rect.x))
        html.append("\" y=\"")
        html.append(unescaped: coordinate(rect.y))
        html.append("\" width=\"")
        html.append(unescaped: coordinate(rect.width))
        html.append("\" height=\"")
        html.append(unescaped: coordinate(rect.height))
    }

    /// A coordinate with one decimal, the same on every machine.
    private static func coordinate(_ value: Double) -> String {
        let tenths = Int((max(0, value) * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }

    /// Red (0%) through yellow to green (100%), light enough for dark text in both themes.
    package static func treemapColor(_ percent: Double) -> String {
        let hue = Int((min(100, max(0, percent)) * 1.2).rounded())
        return "hsl(\(hue),65%,62%)"
    }

    struct TreemapRect {
        var x, y, width, height: Double
    }

    struct TreemapTile {
        var rect: TreemapRect
        /// The file's index in the tree, or nil for a folder's outline.
        var file: Int?
    }

    /// Squarified layout (Bruls, Huizing and van Wijk): a folder's folders and files, largest
    /// first, in rows along the shorter side, each as close to a square as the row allows.
    private static func layOut(folder: Int, in rect: TreemapRect, tree: FolderTree, into tiles: inout [TreemapTile]) {
        let node = tree.folders[folder]
        var items: [(weight: Double, folder: Int?, file: Int?)] = []
        for child in node.folders where tree.folders[child].summary.lines.count > 0 {
            items.append((Double(tree.folders[child].summary.lines.count), child, nil))
        }
        for file in node.files where tree.files[file].summary.lines.count > 0 {
            items.append((Double(tree.files[file].summary.lines.count), nil, file))
        }
        // Ties broken by position, so that the layout is the same on every run.
        let ordered = items.enumerated().sorted {
            $0.element.weight != $1.element.weight ? $0.element.weight > $1.element.weight : $0.offset < $1.offset
        }.map(\.element)
        let total = ordered.reduce(0) { $0 + $1.weight }
        guard total > 0, rect.width >= 1, rect.height >= 1 else { return }
        let scale = rect.width * rect.height / total
        var free = rect
        var start = 0
        while start < ordered.count {
            let side = min(free.width, free.height)
            var end = start + 1
            var rowArea = ordered[start].weight * scale
            var worst = worstRatio(rowArea, largest: rowArea, smallest: rowArea, side: side)
            while end < ordered.count {
                let area = ordered[end].weight * scale
                let candidate = worstRatio(
                    rowArea + area, largest: ordered[start].weight * scale, smallest: area, side: side)
                guard candidate <= worst else { break }
                worst = candidate
                rowArea += area
                end += 1
            }
            let thickness = side > 0 ? rowArea / side : 0
            var offset = 0.0
            for item in ordered[start..<end] {
                let length = thickness > 0 ? item.weight * scale / thickness : 0
                let tile =
                    free.width >= free.height
                    ? TreemapRect(x: free.x, y: free.y + offset, width: thickness, height: length)
                    : TreemapRect(x: free.x + offset, y: free.y, width: length, height: thickness)
                offset += length
                if let file = item.file {
                    tiles.append(TreemapTile(rect: inset(tile, by: 0.5), file: file))
                } else if let child = item.folder {
                    tiles.append(TreemapTile(rect: inset(tile, by: 0.5), file: nil))
                    layOut(folder: child, in: inset(tile, by: 2), tree: tree, into: &tiles)
                }
            }
            if free.width >= free.height {
                free.x += thickness
                free.width = max(0, free.width - thickness)
            } else {
                free.y += thickness
                free.height = max(0, free.height - thickness)
            }
            start = end
        }
    }

    private static func worstRatio(_ total: Double, largest: Double, smallest: Double, side: Double) -> Double {
        guard total > 0, smallest > 0, side > 0 else { return .infinity }
        let sideSquared = side * side
        let totalSquared = total * total
        return max(sideSquared * largest / totalSquared, totalSquared / (sideSquared * smallest))
    }

    private static func inset(_ rect: TreemapRect, by amount: Double) -> TreemapRect {
        let dx = min(amount, rect.width / 4)
        let dy = min(amount, rect.height / 4)
        return TreemapRect(x: rect.x + dx, y: rect.y + dy, width: rect.width - 2 * dx, height: rect.height - 2 * dy)
    }
}

/// The report's files by folder (the components of their display paths), each folder with
/// the sum of its files' numbers. Folders and files keep the report's order.
package struct FolderTree {
    package struct Folder {
        package var name: String
        /// The path from the top (`Sources/DequeModule`), the folder's id in the index.
        package var path: String
        package var summary = CoverageSummary()
        package var folders: [Int] = []
        package var files: [Int] = []
    }

    /// Folders; the first is the top, with no name.
    package private(set) var folders: [Folder] = [Folder(name: "", path: "")]
    package let files: [FileCoverage]

    package var root: Int { 0 }

    package init(_ files: [FileCoverage]) {
        self.files = files
        var children: [Int: [String: Int]] = [:]
        for (fileIndex, file) in files.enumerated() {
            var current = 0
            folders[0].summary += file.summary
            for component in file.displayPath.split(separator: "/").dropLast() {
                let name = String(component)
                if let existing = children[current]?[name] {
                    current = existing
                } else {
                    let path = current == 0 ? name : folders[current].path + "/" + name
                    folders.append(Folder(name: name, path: path))
                    let created = folders.count - 1
                    folders[current].folders.append(created)
                    children[current, default: [:]][name] = created
                    current = created
                }
                folders[current].summary += file.summary
            }
            folders[current].files.append(fileIndex)
        }
    }
}
