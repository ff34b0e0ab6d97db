import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// The tests' evidence in the site: a page per test with evidence (`tests/…html`) showing each
/// of its runs (configuration, destination, argument case, attempt) as a matrix and then run by
/// run: the steps with their times, the failing step marked with its message and source line,
/// screenshots inline at their step, recordings in a `<video>`, other files to download; and in
/// the index's test section, failures first, each linked to its page with its failing step
/// and screenshot, and the matrix of configurations and destinations.
extension HTMLReport {
    /// The evidence a site shows: the runs, the policy that chooses which of their attachments
    /// are copied in, and (once the site copied them) where the copies are.
    package struct Evidence: Sendable {
        package var runs: [TestEvidence]
        package var policy: EvidencePolicy
        package var files = EvidenceFiles()
        /// Each test's runs (positions in `runs`), by `testKey`, in the order tests first came.
        let tests: [(key: String, runs: [Int])]
        private let pageOfTest: [String: String]

        package init(runs: [TestEvidence], policy: EvidencePolicy) {
            self.runs = runs
            self.policy = policy
            var order: [String] = []
            var byKey: [String: [Int]] = [:]
            for (position, run) in runs.enumerated() {
                let key = HTMLReport.testKey(className: run.className, testName: run.testName)
                if byKey[key] == nil { order.append(key) }
                byKey[key, default: []].append(position)
            }
            tests = order.map { ($0, byKey[$0] ?? []) }
            var pages: [String: String] = [:]
            for key in order {
                guard let first = byKey[key]?.first else { continue }
                pages[key] = HTMLReport.testPageName(className: runs[first].className, testName: runs[first].testName)
            }
            pageOfTest = pages
        }

        /// The page of the test of `key` (`testKey`).
        func page(ofKey key: String) -> String? { pageOfTest[key] }

        /// The page of the test, when it has evidence.
        package func page(className: String, testName: String) -> String? {
            pageOfTest[HTMLReport.testKey(className: className, testName: testName)]
        }

        /// The runs of the test.
        package func runs(className: String, testName: String) -> [Int] {
            let key = HTMLReport.testKey(className: className, testName: testName)
            return tests.first { $0.key == key }?.runs ?? []
        }
    }

    /// A test's key: its class or suite and its name.
    static func testKey(className: String, testName: String) -> String { className + " " + testName }

    /// The page of a test: `tests/Class.test-<hash of the module, class and name>.html`.
    package static func testPageName(className: String, testName: String) -> String {
        let shortClass = className.split(separator: ".").last.map(String.init) ?? className
        return pageName(
            for: shortClass + "." + testName, folder: "tests",
            identity: testKey(className: className, testName: testName))
    }

    /// The deepest a step is indented: deeper steps are shown at this depth.
    static let deepestStep = 24

    // MARK: The test's page

    /// The page of one test: its runs as a matrix, then each run's steps and attachments,
    /// failing runs first.
    package static func testPageBuffer(
        _ positions: [Int], evidence: Evidence, linking pages: Set<String>, options: Options
    ) -> OutputBuffer {
        let runs = positions.map { evidence.runs[$0] }
        guard let first = runs.first else { return OutputBuffer() }
        var html = OutputBuffer(reservingCapacity: 8192 + runs.reduce(0) { $0 + $1.activities.count * 160 })
        header(&html, title: first.testName, assetPrefix: "../")
        html.append("<nav aria-label=\"Breadcrumb\"><ol class=\"crumbs\"><li><a href=\"../index.html\">All files</a>")
        html.append("</li><li><a href=\"../index.html#tests\">Tests</a></li><li aria-current=\"page\">")
        html.append(escapingHTML: first.testName)
        html.append("</li></ol></nav>\n<h1>")
        html.append(escapingHTML: first.testName)
        html.append(" <span class=\"aside\">")
        html.append(escapingHTML: first.className)
        html.append("</span></h1>\n")
        let failed = runs.filter(\.hasFailed).count
        html.append("<p class=\"verdict\">")
        if failed > 0 {
            html.append("<strong class=\"failed-tag\">✗ Failed</strong> in ")
        } else {
            html.append("<strong class=\"passed-tag\">✓ Passed</strong>: failed in ")
        }
        html.append(decimal: UInt64(failed))
        html.append(" of ")
        html.append(decimal: UInt64(runs.count))
        html.append(runs.count == 1 ? " run.</p>\n</header>\n<main>\n" : " runs.</p>\n</header>\n<main>\n")
        if runs.count > 1 { runMatrix(&html, runs, positions: positions) }
        let order = positions.indices.filter { runs[$0].hasFailed } + positions.indices.filter { !runs[$0].hasFailed }
        for index in order {
            runSection(&html, runs[index], position: positions[index], evidence: evidence, linking: pages)
        }
        html.append("</main>\n")
        footer(&html, options: options, assetPrefix: "../")
        return html
    }

    /// The runs of a test, one row each: where it ran, how it ended, how much it recorded.
    private static func runMatrix(_ html: inout OutputBuffer, _ runs: [TestEvidence], positions: [Int]) {
        let configurations = runs.contains { $0.configuration != nil }
        let devices = runs.contains { $0.deviceName != nil }
        let arguments = runs.contains { $0.arguments != nil }
        let attempts = runs.contains { $0.attempt > 1 }
        html.append("<section aria-labelledby=\"runs\">\n<h2 id=\"runs\">Runs</h2>\n<div class=\"wide\"><table>\n")
        html.append("<caption class=\"visually-hidden\">Each run of the test</caption>\n<thead><tr>")
        html.append("<th scope=\"col\">Run</th>")
        if configurations { html.append("<th scope=\"col\">Configuration</th>") }
        if devices { html.append("<th scope=\"col\">Destination</th>") }
        if arguments { html.append("<th scope=\"col\">Arguments</th>") }
        if attempts { html.append("<th scope=\"col\">Attempt</th>") }
        html.append("<th scope=\"col\">Result</th><th scope=\"col\">Steps</th><th scope=\"col\">Attachments</th>")
        html.append("</tr></thead>\n<tbody>\n")
        for (index, run) in runs.enumerated() {
            html.append("<tr><th scope=\"row\"><a href=\"#run-")
            html.append(decimal: UInt64(positions[index]))
            html.append("\">")
            html.append(decimal: UInt64(index + 1))
            html.append("</a></th>")
            for (shown, value) in [
                (configurations, run.configuration), (devices, run.deviceName), (arguments, run.arguments),
            ] where shown {
                html.append("<td>")
                html.append(escapingHTML: value ?? "—")
                html.append("</td>")
            }
            if attempts {
                html.append("<td>")
                html.append(decimal: UInt64(run.attempt))
                html.append("</td>")
            }
            html.append("<td>")
            status(&html, run.status)
            html.append("</td><td>")
            html.append(decimal: UInt64(run.activities.count))
            html.append("</td><td>")
            html.append(decimal: UInt64(run.attachments.count))
            html.append("</td></tr>\n")
        }
        html.append("</tbody>\n</table></div>\n</section>\n")
    }

    /// A run's name: where it ran, else "Run".
    static func runLabel(_ run: TestEvidence) -> String {
        var parts: [String] = []
        if let configuration = run.configuration { parts.append(configuration) }
        if let device = run.deviceName { parts.append(device) }
        if let arguments = run.arguments { parts.append(arguments) }
        if run.attempt > 1 { parts.append("attempt \(run.attempt)") }
        return parts.isEmpty ? "Run" : parts.joined(separator: " · ")
    }

    private static func status(_ html: inout OutputBuffer, _ status: TestRun.Status) {
        switch status {
        case .passed: html.append("<span class=\"passed-tag\">✓ passed</span>")
        case .skipped: html.append("<span class=\"skipped-tag\">− skipped</span>")
        case .failed: html.append("<span class=\"failed-tag\">✗ failed</span>")
        case .error: html.append("<span class=\"failed-tag\">✗ error</span>")
        }
    }

    /// One run: its failures not tied to a step, its steps (a passing run's folded), and its
    /// attachments not tied to a step.
    private static func runSection(
        _ html: inout OutputBuffer, _ run: TestEvidence, position: Int, evidence: Evidence, linking pages: Set<String>
    ) {
        html.append("<section class=\"run\" aria-labelledby=\"run-")
        html.append(decimal: UInt64(position))
        html.append("-h\" id=\"run-")
        html.append(decimal: UInt64(position))
        html.append("\">\n<h2 id=\"run-")
        html.append(decimal: UInt64(position))
        html.append("-h\">")
        html.append(escapingHTML: runLabel(run))
        html.append(" ")
        status(&html, run.status)
        html.append("</h2>\n")
        for failure in run.failures where failure.activity == nil && !failure.isExpected {
            failureNote(&html, failure, linking: pages)
        }
        if let leftOut = run.leftOut {
            html.append("<p class=\"notice\">")
            html.append(escapingHTML: leftOut)
            html.append("</p>\n")
        }
        var attachmentsAt: [Int: [Int]] = [:]
        var loose: [Int] = []
        for (index, attachment) in run.attachments.enumerated() {
            if let step = attachment.activity, run.activities.indices.contains(step) {
                attachmentsAt[step, default: []].append(index)
            } else {
                loose.append(index)
            }
        }
        if !run.activities.isEmpty {
            let folded = !run.hasFailed
            if folded {
                html.append("<details><summary>")
                html.append(decimal: UInt64(run.activities.count))
                html.append(run.activities.count == 1 ? " step" : " steps")
                html.append("</summary>\n")
            } else {
                html.append("<h3>Steps</h3>\n")
            }
            steps(&html, run, position: position, attachmentsAt: attachmentsAt, evidence: evidence, linking: pages)
            if folded { html.append("</details>\n") }
        }
        if !loose.isEmpty {
            html.append("<h3>Attachments</h3>\n<div class=\"attachments\">\n")
            for index in loose {
                attachment(&html, run.attachments[index], key: .init(run: position, attachment: index), evidence)
            }
            html.append("</div>\n")
        }
        html.append("</section>\n")
    }

    /// The steps as nested lists, built from the depth-first list without recursion.
    private static func steps(
        _ html: inout OutputBuffer, _ run: TestEvidence, position: Int, attachmentsAt: [Int: [Int]],
        evidence: Evidence, linking pages: Set<String>
    ) {
        var failuresAt: [Int: [Int]] = [:]
        for (index, failure) in run.failures.enumerated() {
            if let step = failure.activity { failuresAt[step, default: []].append(index) }
        }
        let start = run.activities.lazy.compactMap(\.start).min()
        html.append("<ol class=\"steps\">\n")
        var level = -1
        for (index, step) in run.activities.enumerated() {
            let depth = min(step.depth, deepestStep, level + 1)
            if level < 0 {
                html.append("<li")
            } else if depth > level {
                html.append("\n<ol>\n<li")
            } else {
                html.append("</li>\n")
                for _ in depth..<level { html.append("</ol>\n</li>\n") }
                html.append("<li")
            }
            level = depth
            let failures = failuresAt[index] ?? []
            let failing = failures.contains { !run.failures[$0].isExpected }
            html.append(failing ? " class=\"failing\"><div class=\"step\">" : "><div class=\"step\">")
            if failing { html.append("<strong class=\"failed-tag\">✗ Failed here:</strong> ") }
            html.append("<span class=\"title\">")
            html.append(escapingHTML: step.title.isEmpty ? "(untitled step)" : step.title)
            html.append("</span>")
            if let begin = step.start, let start {
                html.append(" <span class=\"time\">+")
                html.append(unescaped: seconds(begin - start))
                if let end = step.finish, end >= begin {
                    html.append(", ")
                    html.append(unescaped: seconds(end - begin))
                }
                html.append("</span>")
            }
            html.append("</div>")
            for failure in failures { failureNote(&html, run.failures[failure], linking: pages) }
            if let attached = attachmentsAt[index] {
                html.append("<div class=\"attachments\">\n")
                for attachmentIndex in attached {
                    attachment(
                        &html, run.attachments[attachmentIndex], key: .init(run: position, attachment: attachmentIndex),
                        evidence)
                }
                html.append("</div>")
            }
        }
        if level >= 0 {
            html.append("</li>\n")
            for _ in 0..<level { html.append("</ol>\n</li>\n") }
        }
        html.append("</ol>\n")
    }

    /// A failure: its source line (linked when the site has its page) and message.
    private static func failureNote(
        _ html: inout OutputBuffer, _ failure: TestEvidence.Failure, linking pages: Set<String>
    ) {
        html.append("<div class=\"failure\"><pre>")
        failureText(
            &html, location: failure.location, message: failure.message.isEmpty ? "failed" : failure.message,
            linking: pages, prefix: "../")
        html.append("</pre></div>\n")
    }

    /// An attachment as its kind is shown: an image or a recording inline, text or a download
    /// linked, or why it is not in the report.
    private static func attachment(
        _ html: inout OutputBuffer, _ attachment: TestEvidence.Attachment, key: EvidenceFiles.Key, _ evidence: Evidence
    ) {
        let name = attachment.name.isEmpty ? (attachment.filename ?? "attachment") : attachment.name
        guard let path = evidence.files.copied[key] else {
            html.append("<p class=\"attachment left-out\">")
            html.append(escapingHTML: name)
            html.append(" — ")
            html.append(unescaped: leftOutReason(evidence.files.leftOut[key]))
            html.append("</p>\n")
            return
        }
        let size = evidence.files.sizes[key].map(byteSize) ?? ""
        switch EvidenceFiles.kind(ofCopy: path) {
        case .image:
            html.append("<figure class=\"attachment\"><a href=\"../")
            html.append(escapingHTML: path)
            html.append("\"><img src=\"../")
            html.append(escapingHTML: path)
            html.append("\" alt=\"")
            html.append(escapingHTML: name)
            html.append("\" loading=\"lazy\"></a><figcaption>")
            figureEnd(&html, name: name, size: size)
        case .video:
            html.append("<figure class=\"attachment\"><video controls muted preload=\"metadata\" src=\"../")
            html.append(escapingHTML: path)
            html.append("\"><a href=\"../")
            html.append(escapingHTML: path)
            html.append("\">Download the recording</a></video><figcaption>")
            figureEnd(&html, name: name, size: size)
        case .text where evidence.files.texts[key] != nil:
            html.append("<figure class=\"attachment text\"><pre>")
            html.append(escapingHTML: evidence.files.texts[key] ?? "")
            html.append("</pre><figcaption><a href=\"../")
            html.append(escapingHTML: path)
            html.append("\">")
            html.append(escapingHTML: name)
            html.append("</a> <span class=\"frac\">")
            html.append(unescaped: size)
            html.append("</span></figcaption></figure>\n")
        case .text, .download:
            html.append("<p class=\"attachment\"><a href=\"../")
            html.append(escapingHTML: path)
            html.append("\" download=\"")
            html.append(escapingHTML: downloadName(attachment, fallback: name))
            html.append("\">")
            html.append(escapingHTML: name)
            html.append("</a> <span class=\"frac\">")
            if let type = attachment.uniformTypeIdentifier {
                html.append(escapingHTML: type)
                html.append(", ")
            }
            html.append(unescaped: size)
            html.append("</span></p>\n")
        }
    }

    /// The rest of a figure's caption after its opening tag: the name and the size.
    private static func figureEnd(_ html: inout OutputBuffer, name: String, size: String) {
        html.append(escapingHTML: name)
        html.append(" <span class=\"frac\">")
        html.append(unescaped: size)
        html.append("</span></figcaption></figure>\n")
    }

    /// The name a download is saved under: the attachment's file name's last component.
    private static func downloadName(_ attachment: TestEvidence.Attachment, fallback: String) -> String {
        let name = attachment.filename ?? attachment.file ?? fallback
        let last = name.split(separator: "/").last.map(String.init) ?? fallback
        return String(last.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\\" }.prefix(200).map(Character.init))
    }

    /// Why an attachment is not in the report, in words.
    static func leftOutReason(_ reason: EvidenceFiles.LeftOut?) -> String {
        switch reason {
        case .passingRun: "not copied: its run passed (<code>--evidence all</code> copies it)"
        case .overLimit(let bytes):
            "not copied: past the evidence limit"
                + (bytes.map { " (" + byteSize($0) + ")" } ?? "") + " (<code>--evidence-limit</code>)"
        case .missingFile: "not copied: its file is missing"
        case .noPayload: "not in the result bundle"
        case .notCopied, nil: "not copied (<code>--evidence none</code>)"
        }
    }

    // MARK: In the index

    /// The image to show beside a failing test: the first of its failing runs' images that
    /// belongs to a failure (the screenshot taken when it failed), else the last they took.
    static func failureImage(_ positions: [Int], evidence: Evidence) -> (path: String, name: String)? {
        var last: (path: String, name: String)?
        for position in positions where evidence.runs[position].hasFailed {
            for (index, attachment) in evidence.runs[position].attachments.enumerated() {
                guard let path = evidence.files.copied[.init(run: position, attachment: index)],
                    EvidenceFiles.kind(ofCopy: path) == .image
                else { continue }
                if attachment.isAssociatedWithFailure { return (path, attachment.name) }
                last = (path, attachment.name)
            }
        }
        return last
    }

    /// The title of the step the test first failed at.
    package static func failingStep(_ positions: [Int], evidence: Evidence) -> String? {
        for position in positions where evidence.runs[position].hasFailed {
            let run = evidence.runs[position]
            if let failure = run.failures.first(where: { !$0.isExpected && $0.activity != nil }),
                let step = failure.activity
            {
                return run.activities[step].title
            }
        }
        return nil
    }

    /// The link to a failing test's page, its failing step and screenshot.
    static func evidenceLink(_ html: inout OutputBuffer, page: String, positions: [Int], evidence: Evidence) {
        html.append("\n<p class=\"evidence\"><a href=\"")
        html.append(escapingHTML: page)
        html.append("\">Steps and attachments</a>")
        if let step = failingStep(positions, evidence: evidence) {
            html.append(" · failed at “")
            html.append(escapingHTML: step)
            html.append("”")
        }
        html.append("</p>")
        if let image = failureImage(positions, evidence: evidence) {
            html.append("<a class=\"thumb\" href=\"")
            html.append(escapingHTML: page)
            html.append("\"><img src=\"")
            html.append(escapingHTML: image.path)
            html.append("\" alt=\"")
            html.append(escapingHTML: "Screenshot: " + image.name)
            html.append("\" loading=\"lazy\"></a>")
        }
    }

    /// Where the tests ran, when that is more than one place: a row per test that failed
    /// anywhere, a column per configuration and destination.
    static func evidenceMatrix(_ html: inout OutputBuffer, _ evidence: Evidence) {
        var columns: [String] = []
        var seen: Set<String> = []
        for run in evidence.runs {
            let column = [run.configuration, run.deviceName].compactMap { $0 }.joined(separator: " · ")
            if seen.insert(column).inserted { columns.append(column) }
        }
        guard columns.count > 1 else { return }
        let failing = evidence.tests.filter { test in test.runs.contains { evidence.runs[$0].hasFailed } }
        guard !failing.isEmpty else { return }
        html.append(
            "<h3>Failures by configuration and destination</h3>\n<div class=\"wide\"><table class=\"matrix\">\n")
        html.append("<caption class=\"visually-hidden\">Each failing test in each configuration and destination")
        html.append("</caption>\n<thead><tr><th scope=\"col\">Test</th>")
        for column in columns {
            html.append("<th scope=\"col\">")
            html.append(escapingHTML: column.isEmpty ? "—" : column)
            html.append("</th>")
        }
        html.append("</tr></thead>\n<tbody>\n")
        for test in failing {
            let first = evidence.runs[test.runs[0]]
            html.append("<tr><th scope=\"row\"><a href=\"")
            html.append(escapingHTML: evidence.page(className: first.className, testName: first.testName) ?? "")
            html.append("\">")
            html.append(escapingHTML: first.testName)
            html.append("</a></th>")
            for column in columns {
                let here = test.runs.map { evidence.runs[$0] }.filter {
                    [$0.configuration, $0.deviceName].compactMap { $0 }.joined(separator: " · ") == column
                }
                html.append("<td>")
                if here.isEmpty {
                    html.append("<span class=\"frac\">not run</span>")
                } else {
                    let failed = here.filter(\.hasFailed).count
                    if failed > 0 {
                        html.append("<span class=\"failed-tag\">✗ ")
                        html.append(decimal: UInt64(failed))
                        html.append(" of ")
                        html.append(decimal: UInt64(here.count))
                        html.append(" failed</span>")
                    } else {
                        status(&html, here[0].status)
                    }
                }
                html.append("</td>")
            }
            html.append("</tr>\n")
        }
        html.append("</tbody>\n</table></div>\n")
    }

    /// The tests whose every run passed but that left evidence: one click away.
    static func passingEvidence(_ html: inout OutputBuffer, _ evidence: Evidence) {
        let passing = evidence.tests.filter { test in !test.runs.contains { evidence.runs[$0].hasFailed } }
        if !passing.isEmpty {
            html.append("<details class=\"passing\"><summary>")
            html.append(decimal: UInt64(passing.count))
            html.append(passing.count == 1 ? " passing test" : " passing tests")
            html.append(" with steps or attachments</summary>\n<ul>\n")
            for test in passing {
                let first = evidence.runs[test.runs[0]]
                html.append("<li><a href=\"")
                html.append(escapingHTML: evidence.page(className: first.className, testName: first.testName) ?? "")
                html.append("\">")
                html.append(escapingHTML: first.className + " › " + first.testName)
                html.append("</a></li>\n")
            }
            html.append("</ul>\n</details>\n")
        }
        let (count, bytes) = evidence.files.overLimit
        if count > 0 {
            html.append("<p class=\"notice\">")
            html.append(decimal: UInt64(count))
            html.append(count == 1 ? " attachment" : " attachments")
            html.append(unescaped: " (" + byteSize(bytes) + ") left out past the evidence limit of ")
            html.append(unescaped: byteSize(evidence.policy.byteLimit) + " (<code>--evidence-limit</code>).</p>\n")
        }
    }

    /// Seconds with two decimals: `1.25 s`.
    static func seconds(_ value: Double) -> String {
        let hundredths = value.isFinite && value > 0 && value < 1e12 ? Int((value * 100).rounded()) : 0
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    /// A size in bytes, kB or MB (10³ and 10⁶ bytes).
    static func byteSize(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return "\((bytes + 500) / 1000) kB" }
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
