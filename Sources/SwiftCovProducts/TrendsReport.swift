import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovModel

/// `swiftcov trends`: the history's coverage, tests and test time over the commits, as a terminal
/// summary with sparklines, Markdown (a pull-request comment) and an HTML page with inline SVG
/// charts (no script, readable on a phone and in dark mode).
package enum TrendsReport {
    // MARK: Sparklines

    /// `values` as a line of block characters, the lowest `▁` and the highest `█` (all `▄` when
    /// they are within 1% of each other); nil values are a space.
    package static func sparkline(_ values: [Double?]) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        let known = values.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else { return String(repeating: " ", count: values.count) }
        return String(
            values.map { value -> Character in
                guard let value else { return " " }
                // Within 1% of each other: flat, not a full-height swing of noise.
                guard high - low > max(abs(high), abs(low)) * 0.01 else { return "▄" }
                let index = Int(((value - low) / (high - low) * Double(blocks.count - 1)).rounded())
                return blocks[min(max(index, 0), blocks.count - 1)]
            })
    }

    private static func lines(_ point: HistoryTrends.Point) -> Double? { point.coverage.map { $0.total.lines.percent } }

    private static func percent(_ value: Double?) -> String {
        guard let value else { return "—" }
        return CoverageFormatting.percent(value)
    }

    private static func signed(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths > 0 ? "+" : hundredths < 0 ? "−" : "±"
        let magnitude = abs(hundredths)
        return sign + "\(magnitude / 100)." + (magnitude % 100 < 10 ? "0" : "") + "\(magnitude % 100)"
    }

    private static func commits(_ count: Int) -> String { count == 1 ? "1 commit" : "\(count) commits" }

    private static func short(_ commit: String) -> String { TestHistory.shortCommit(commit) }

    /// The lines every format shares: what moved from the first point to the newest.
    private static func summary(_ trends: HistoryTrends) -> [(
        label: String, spark: String, first: String, last: String
    )] {
        let points = trends.points
        guard let first = points.first, let last = points.last else { return [] }
        return [
            ("Line coverage", sparkline(points.map(lines)), percent(lines(first)), percent(lines(last))),
            ("Tests", sparkline(points.map { Double($0.tests) }), "\(first.tests)", "\(last.tests)"),
            ("Failed", sparkline(points.map { Double($0.failed) }), "\(first.failed)", "\(last.failed)"),
            ("Flaky", sparkline(points.map { Double($0.flaky) }), "\(first.flaky)", "\(last.flaky)"),
            (
                "Order-dependent", sparkline(points.map { Double($0.orderDependent) }), "\(first.orderDependent)",
                "\(last.orderDependent)"
            ),
            (
                "Runs left out", sparkline(points.map { Double($0.leftOut.count) }), "\(first.leftOut.count)",
                "\(last.leftOut.count)"
            ),
            (
                "Test time (s)", sparkline(points.map(\.seconds)), JUnitReport.seconds(first.seconds),
                JUnitReport.seconds(last.seconds)
            ),
        ]
    }

    /// Each module's line coverage at every point.
    private static func modules(_ trends: HistoryTrends) -> [(name: String, values: [Double?])] {
        var names: [String] = []
        for point in trends.points {
            for module in point.coverage?.modules ?? [] where !names.contains(module.name) { names.append(module.name) }
        }
        return names.sorted().map { name in
            (
                name,
                trends.points.map { point in point.coverage?.modules.first { $0.name == name }?.counts.lines.percent }
            )
        }
    }

    private static func notes(_ trends: HistoryTrends) -> [String] {
        var notes: [String] = []
        // Runs that say nothing about single tests are named, never taken for "no failures".
        let leftOut = trends.points.filter { !$0.leftOut.isEmpty }
        if !leftOut.isEmpty {
            let described = leftOut.map { point in
                short(point.commit) + " ("
                    + point.leftOut.map { reason in
                        switch reason {
                        case .buildFailed: "the build failed"
                        case .didNotEnd: "did not end"
                        case .everythingFailed(let failed, let tests): "everything failed, \(failed) of \(tests) tests"
                        }
                    }.joined(separator: "; ") + ")"
            }
            notes.append(
                "Runs left out of the numbers (no single test's outcome): " + described.joined(separator: ", ") + ".")
        }
        let carried = trends.points.filter { !$0.carriedShards.isEmpty }
        if !carried.isEmpty {
            notes.append(
                "\(carried.count) \(carried.count == 1 ? "commit" : "commits") lacked shards (\(Set(carried.flatMap(\.carriedShards)).sorted().joined(separator: ", "))): their last numbers are carried forward."
            )
        }
        let carriedCoverage = trends.points.filter(\.carriedCoverage).count
        if carriedCoverage > 0 {
            notes.append(
                "\(carriedCoverage) \(carriedCoverage == 1 ? "commit has" : "commits have") no coverage of a whole run: the last known is carried forward."
            )
        }
        return notes
    }

    // MARK: Table

    /// For a terminal.
    package static func table(_ trends: HistoryTrends) -> String {
        guard let last = trends.points.last else { return "No runs in the history yet.\n" }
        var text =
            "\(commits(trends.points.count)), newest \(short(last.commit)) on \(last.branch.isEmpty ? "no branch" : last.branch.terminalSafe)\n\n"
        var table = TextTable(columns: [.init("", .left), .init("Trend", .left), .init("First"), .init("Newest")])
        for row in summary(trends) {
            table.add([.init(row.label), .init(row.spark), .init(row.first), .init(row.last)])
        }
        for module in modules(trends) {
            table.add([
                .init("  " + module.name.terminalSafe), .init(sparkline(module.values)),
                .init(percent(module.values.first ?? nil)), .init(percent(module.values.last ?? nil)),
            ])
        }
        text += table.render()
        if !trends.movers.isEmpty, let since = trends.since {
            text += "\nMoved most since \(short(since)) (line coverage):\n"
            var movers = TextTable(columns: [.init("", .left), .init("Before"), .init("After"), .init("Change")])
            for mover in trends.movers.prefix(10) {
                movers.add([
                    .init("  " + mover.name.terminalSafe), .init(percent(mover.before)), .init(percent(mover.after)),
                    .init(signed(mover.change)),
                ])
            }
            text += movers.render()
        }
        if !trends.slowest.isEmpty {
            text += "\nSlowest tests (median time of the newest runs):\n"
            var slowest = TextTable(columns: [.init("", .left), .init("Seconds")])
            for test in trends.slowest {
                slowest.add([
                    .init("  " + test.test.terminalSafe), .init(JUnitReport.seconds(Double(test.milliseconds) / 1000)),
                ])
            }
            text += slowest.render()
        }
        for note in notes(trends) { text += "\n" + note + "\n" }
        return text
    }

    // MARK: Markdown

    /// GitHub-flavoured Markdown for a pull-request comment or a job summary.
    package static func markdown(_ trends: HistoryTrends) -> String {
        guard let last = trends.points.last else { return "### Trends\n\nNo runs in the history yet.\n" }
        var text = "### Trends over \(commits(trends.points.count)) (newest `\(short(last.commit))`)\n\n"
        text += "| | Trend | First | Newest |\n|:--|:--|--:|--:|\n"
        for row in summary(trends) { text += "| \(row.label) | \(row.spark) | \(row.first) | \(row.last) |\n" }
        for module in modules(trends) {
            text +=
                "| \(CoverageMarkdownReport.escape(module.name)) | \(sparkline(module.values)) | "
                + "\(percent(module.values.first ?? nil)) | \(percent(module.values.last ?? nil)) |\n"
        }
        if !trends.movers.isEmpty, let since = trends.since {
            text += "\n<details><summary>Moved most since <code>\(short(since))</code></summary>\n\n"
            text += "| Module or file | Before | After | Change |\n|:--|--:|--:|--:|\n"
            for mover in trends.movers.prefix(20) {
                text +=
                    "| \(CoverageMarkdownReport.escape(mover.name)) | \(percent(mover.before)) | \(percent(mover.after)) | \(signed(mover.change)) |\n"
            }
            text += "\n</details>\n"
        }
        for note in notes(trends) { text += "\n" + note + "\n" }
        return text
    }

    // MARK: HTML

    /// A page of its own: inline SVG line charts of the line coverage (in total and per module)
    /// and of the tests, with the numbers in tables beside them (for screen readers and for
    /// copying); no script; dark mode by `prefers-color-scheme`.
    package static func html(_ trends: HistoryTrends, title: String = "Trends") -> String {
        var body = ""
        if trends.points.isEmpty {
            body += "<p>No runs in the history yet.</p>\n"
        } else {
            let labels = trends.points.map { short($0.commit) }
            body += "<h2>Line coverage</h2>\n"
            body += chart(
                series: [("Total", trends.points.map(lines))] + modules(trends).map { ($0.name, $0.values) },
                labels: labels, unit: "%", title: "Line coverage per commit")
            body += "<h2>Tests</h2>\n"
            body += chart(
                series: [
                    ("Tests", trends.points.map { Double($0.tests) }),
                    ("Failed", trends.points.map { Double($0.failed) }),
                ], labels: labels, unit: "", title: "Tests and failures per commit")
            body +=
                "<h2>Per commit</h2>\n<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Per commit\"><table>\n<thead><tr><th scope=\"col\">Commit</th>"
            body += "<th scope=\"col\">Lines</th><th scope=\"col\">Tests</th><th scope=\"col\">Failed</th>"
            body += "<th scope=\"col\">Flaky</th><th scope=\"col\">Order-dependent</th>"
            body += "<th scope=\"col\">Runs left out</th><th scope=\"col\">Test time (s)</th></tr></thead>\n<tbody>\n"
            for point in trends.points.reversed() {
                let carried =
                    point.carriedShards.isEmpty
                    ? "" : " (shards \(point.carriedShards.joined(separator: ", ")) carried)"
                body +=
                    "<tr><th scope=\"row\"><code>\(short(point.commit).htmlEscaped)</code>\(carried.htmlEscaped)</th>"
                body += "<td>\(percent(lines(point)))\(point.carriedCoverage ? " (carried)" : "")</td>"
                body += "<td>\(point.tests)</td><td>\(point.failed)</td><td>\(point.flaky)</td>"
                body += "<td>\(point.orderDependent)</td><td>\(point.leftOut.count)</td>"
                body += "<td>\(JUnitReport.seconds(point.seconds))</td></tr>\n"
            }
            body += "</tbody>\n</table></div>\n"
            if !trends.movers.isEmpty, let since = trends.since {
                body +=
                    "<h2>Moved most since <code>\(short(since).htmlEscaped)</code></h2>\n<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Moved most\"><table>\n"
                body += "<thead><tr><th scope=\"col\">Module or file</th><th scope=\"col\">Before</th>"
                body += "<th scope=\"col\">After</th><th scope=\"col\">Change</th></tr></thead>\n<tbody>\n"
                for mover in trends.movers.prefix(20) {
                    body += "<tr><th scope=\"row\">\(mover.name.htmlEscaped)</th><td>\(percent(mover.before))</td>"
                    body += "<td>\(percent(mover.after))</td><td>\(signed(mover.change))</td></tr>\n"
                }
                body += "</tbody>\n</table></div>\n"
            }
            if !trends.slowest.isEmpty {
                body +=
                    "<h2>Slowest tests</h2>\n<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Slowest tests\"><table>\n<thead><tr><th scope=\"col\">Test</th>"
                body += "<th scope=\"col\">Median (s)</th></tr></thead>\n<tbody>\n"
                for test in trends.slowest {
                    body += "<tr><th scope=\"row\">\(test.test.htmlEscaped)</th>"
                    body += "<td>\(JUnitReport.seconds(Double(test.milliseconds) / 1000))</td></tr>\n"
                }
                body += "</tbody>\n</table></div>\n"
            }
            for note in notes(trends) { body += "<p>\(note.htmlEscaped)</p>\n" }
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title.htmlEscaped)</title>
            <style>
            :root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --grid: #d1d9e0;
              --s0: #0550ae; --s1: #9a6700; --s2: #8250df; --s3: #1a7f37; --s4: #bc4c00; --s5: #cf222e; }
            @media (prefers-color-scheme: dark) { :root { --fg: #f0f6fc; --bg: #0d1117; --muted: #9198a1; --grid: #3d444d;
              --s0: #79c0ff; --s1: #e3b341; --s2: #d2a8ff; --s3: #56d364; --s4: #ffa657; --s5: #ff7b72; } }
            body { font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto;
              padding: 1rem; max-width: 60rem; }
            h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
            figure { margin: 0; max-width: 40rem; } svg { width: 100%; height: auto; display: block; }
            .axis { stroke: var(--grid); } .label { fill: var(--muted); font-size: 16px; }
            .legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; list-style: none; margin: .5rem 0; }
            .legend span { display: inline-block; width: 1rem; height: .25rem; vertical-align: middle; margin-right: .25rem; }
            .scroll { overflow-x: auto; }
            table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
            th, td { padding: .25rem .75rem .25rem 0; text-align: right; border-bottom: 1px solid var(--grid); }
            th[scope="row"], thead th:first-child { text-align: left; font-weight: normal; }
            th[scope="row"] { overflow-wrap: anywhere; }
            </style>
            </head>
            <body>
            <main>
            <h1>\(title.htmlEscaped)</h1>
            \(body)</main>
            </body>
            </html>

            """
    }

    /// A line chart of `series` over the points, scaled to their range, with a legend.
    private static func chart(
        series: [(name: String, values: [Double?])], labels: [String], unit: String, title: String
    )
        -> String
    {
        let width = 640.0
        let height = 240.0
        let left = 64.0
        let right = 12.0
        let top = 12.0
        let bottom = 32.0
        let known = series.flatMap { $0.values.compactMap { $0 } }
        var low = known.min() ?? 0
        var high = known.max() ?? 1
        if high - low < 1 {
            low -= 0.5
            high += 0.5
        }
        let count = max(labels.count, 1)
        func x(_ index: Int) -> Double {
            count == 1
                ? left + (width - left - right) / 2 : left + Double(index) / Double(count - 1) * (width - left - right)
        }
        func y(_ value: Double) -> Double { top + (high - value) / (high - low) * (height - top - bottom) }
        func number(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)"
        }
        var svg =
            "<figure>\n<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(title.htmlEscaped)\">\n"
        svg += "<title>\(title.htmlEscaped)</title>\n"
        for value in [low, (low + high) / 2, high] {
            svg +=
                "<line class=\"axis\" x1=\"\(number(left))\" x2=\"\(number(width - right))\" y1=\"\(number(y(value)))\" y2=\"\(number(y(value)))\"/>"
            svg +=
                "<text class=\"label\" x=\"\(number(left - 6))\" y=\"\(number(y(value) + 4))\" text-anchor=\"end\">\(number(value))\(unit)</text>\n"
        }
        for index in [0, count - 1] where index < labels.count {
            svg +=
                "<text class=\"label\" x=\"\(number(x(index)))\" y=\"\(number(height - 8))\" text-anchor=\"\(index == 0 ? "start" : "end")\">\(labels[index].htmlEscaped)</text>\n"
        }
        var legend = "<ul class=\"legend\">"
        for (position, line) in series.prefix(6).enumerated() {
            var path = ""
            var pen = "M"
            for (index, value) in line.values.enumerated() {
                guard let value else {
                    pen = "M"
                    continue
                }
                path += "\(pen)\(number(x(index))) \(number(y(value))) "
                pen = "L"
            }
            let colour = "var(--s\(position))"
            svg +=
                "<path d=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(position == 0 ? 3 : 1.5)\"/>\n"
            if line.values.count == 1, let value = line.values[0] {
                svg += "<circle cx=\"\(number(x(0)))\" cy=\"\(number(y(value)))\" r=\"4\" fill=\"\(colour)\"/>\n"
            }
            legend += "<li><span style=\"background: \(colour)\"></span>\(line.name.htmlEscaped)</li>"
        }
        svg += "</svg>\n" + legend + "</ul>\n</figure>\n"
        return svg
    }
}
