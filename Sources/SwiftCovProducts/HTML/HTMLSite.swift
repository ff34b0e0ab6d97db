import Dispatch
import SwiftCovFormats
import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// Writes the HTML report into a folder: `index.html`, one page per file under `files/`, the
/// stylesheet and script, and `.swiftcov-site`, the mark of a folder swiftcov may replace.
///
/// The site is built in a temporary folder beside the output folder (`.NAME.XXXXXX`) and
/// swapped in when complete: the old folder is renamed aside, the new one renamed in, the old
/// one deleted. A crash or a bad input never leaves half a site, and no page of an earlier run
/// stays behind. A folder that is neither empty nor marked as a swiftcov site is never
/// replaced (`-o ~` must not delete anyone's files). Pages are rendered on all cores.
package final class HTMLSite {
    /// Why the site could not be written.
    package enum Failure: DiagnosticConvertible, Equatable {
        case cannotWrite(SystemCallError)
        case malformedSegments(CoverageInputError)
        /// A test's attachment could not be read from its result bundle.
        case badEvidence(Diagnostic)
        /// The output folder holds files and no `.swiftcov-site`.
        case notASite(String)

        init(_ failure: StagedFolder.Failure) {
            switch failure {
            case .cannotWrite(let error): self = .cannotWrite(error)
            case .refused(let path): self = .notASite(path)
            }
        }

        package var diagnostic: Diagnostic {
            switch self {
            case .cannotWrite(let error): error.diagnostic
            case .malformedSegments(let error): error.diagnostic
            case .badEvidence(let diagnostic): diagnostic
            case .notASite(let path):
                Diagnostic(
                    file: path,
                    "not replacing a folder that is not empty and holds no site of swiftcov's "
                        + "(no \(HTMLSite.markerName) in it); remove it or choose another folder")
            }
        }
    }

    /// The file that marks a folder as a site swiftcov wrote, and so may replace.
    package static let markerName = ".swiftcov-site"

    /// The folder the site is built in, swapped in when complete.
    private let folder: StagedFolder

    /// Checks that `directory` may be replaced (it does not exist, is empty, or is a site
    /// swiftcov wrote) and makes the folder the site is built in, beside it.
    package init(directory: String) throws(Failure) {
        do throws(StagedFolder.Failure) {
            folder = try StagedFolder(directory: directory, mayReplace: Self.isEmptyOrSite)
        } catch {
            throw Failure(error)
        }
    }

    /// What writing the site found: the files whose source could not be shown.
    package struct Written: Sendable {
        /// Display paths and why, in page order.
        package var missingSources: [(path: String, problem: SourceText.Problem)] = []
        /// Display paths of the files whose per-test data has other executable lines than their
        /// coverage (data of another run), in page order: their pages show no tests.
        package var mismatchedTests: [String] = []
        /// Display paths of the files the inputs have no per-line counts for (Xcode's report
        /// without its archive): listed in the index, without a page.
        package var withoutLineData: [String] = []
        /// What the evidence left out (past its limit, files gone), said once each.
        package var evidenceWarnings: [Diagnostic] = []

        /// What the user should hear about: one warning naming the first missing source, one
        /// naming the first file whose per-test data does not match.
        package var warnings: [Diagnostic] {
            var warnings: [Diagnostic] = []
            if let first = missingSources.first {
                let count = missingSources.count
                warnings.append(
                    .warning(
                        file: first.path,
                        "\(count) source file\(count == 1 ? "" : "s") not shown (their pages list counts without code), "
                            + "first this one: \(first.problem.description)"))
            }
            if let first = mismatchedTests.first {
                let count = mismatchedTests.count
                warnings.append(
                    .warning(
                        file: first,
                        "the per-test data has other executable lines than the coverage for \(count) "
                            + "file\(count == 1 ? "" : "s") (recorded in another run?); their pages show no tests, "
                            + "first this one"))
            }
            if let first = withoutLineData.first {
                let count = withoutLineData.count
                warnings.append(
                    .warning(
                        file: first,
                        "no per-line counts for \(count) file\(count == 1 ? "" : "s") (Xcode's report has totals only): "
                            + "listed without a page; give `xcrun xccov view --archive --json` output for the pages"))
            }
            return warnings + evidenceWarnings
        }
    }

    /// Writes the site for `report` into `directory`, replacing what is there (see `init`).
    @discardableResult
    package static func write(
        _ report: CoverageReport, tests: TestRun? = nil, extraFiles: [FileCoverage] = [], to directory: String,
        annotations: HTMLReport.SiteAnnotations = HTMLReport.SiteAnnotations(), options: HTMLReport.Options
    ) throws(Failure) -> Written {
        try HTMLSite(directory: directory).write(
            report, tests: tests, extraFiles: extraFiles, annotations: annotations, options: options)
    }

    /// Builds the site for `report` and swaps it in. Source files are read from the package root
    /// (`report.scope.root`) when the export's paths are relative. `extraFiles` get pages too,
    /// without counting in the tables (the test files that failures point at, so that a
    /// failure links to its line). `annotations` add a baseline's categories and per-test data.
    @discardableResult
    package func write(
        _ report: CoverageReport, tests: TestRun? = nil, extraFiles: [FileCoverage] = [],
        annotations: HTMLReport.SiteAnnotations = HTMLReport.SiteAnnotations(), options: HTMLReport.Options
    ) throws(Failure) -> Written {
        let written: Written
        do throws(Failure) {
            written = try Self.build(
                report, tests: tests, extraFiles: extraFiles, annotations: annotations, in: folder.path,
                options: options)
            try Self.write(Self.markerText, to: folder.path + "/" + Self.markerName)
        } catch .cannotWrite(let error) {
            throw .cannotWrite(folder.naming(error))
        }
        do throws(StagedFolder.Failure) {
            try folder.swapIn()
        } catch {
            throw Failure(error)
        }
        return written
    }

    private static let markerText =
        "This folder is an HTML coverage report written by swiftcov. The next `swiftcov html` into it replaces it "
        + "whole; swiftcov replaces no folder without this file unless it is empty.\n"

    /// What a site written before sites were marked holds, and nothing else.
    private static let unmarkedSiteEntries: Set<String> = ["index.html", "swiftcov.css", "swiftcov.js", "files"]
    // (Sites with `tests/` and `evidence/` are marked: they came after the marker.)

    /// Whether `path` is an empty folder, one holding `markerName`, or a site an earlier swiftcov
    /// wrote (exactly its files, `index.html` and `swiftcov.css` among them).
    private static func isEmptyOrSite(_ path: String) -> Bool {
        if FileSystem.kind(of: path + "/" + markerName, followingLinks: false) == .file { return true }
        guard let entries = FileSystem.entries(of: path) else { return false }
        let names = Set(entries)
        guard names.isSubset(of: unmarkedSiteEntries) else { return false }
        return names.isEmpty || (names.contains("index.html") && names.contains("swiftcov.css"))
    }

    /// Writes every page of the site into `directory`.
    private static func build(
        _ report: CoverageReport, tests: TestRun?, extraFiles: [FileCoverage],
        annotations: HTMLReport.SiteAnnotations, in directory: String, options: HTMLReport.Options
    ) throws(Failure) -> Written {
        let listed = report.files.filter(\.hasLineData)
        let pageFiles = listed + extraFiles
        var named = options
        if named.packageName == nil { named.packageName = PackageManifest.name(inPackageAt: report.scope.root ?? ".") }
        named.showsRegions = report.measured.contains(.regions)
        named.origin = report.origin
        let options = named
        let notes = tests.map { lineNotes(of: $0) } ?? [:]
        try makeDirectory(directory + "/files")
        try write(HTMLAssets.stylesheet + "\n", to: directory + "/" + HTMLAssets.stylesheetName)
        try write(HTMLAssets.script + "\n", to: directory + "/" + HTMLAssets.scriptName)

        // Each page works out its file's function names (unless the report has them) and lets them go.
        let differentialFiles = annotations.differentialFiles()
        let failures = FailureBox()
        let sources = SourceFiles(root: report.scope.root)
        let missing = PageList<(path: String, problem: SourceText.Problem)>()
        let mismatched = PageList<String>()
        let workers = min(CurrentProcess.cores, 8)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var index = worker
            while index < pageFiles.count && !failures.hasFailed {
                let file = pageFiles[index]
                do throws(Failure) {
                    let segments: [CoverageSegment]
                    do throws(CoverageInputError) {
                        segments = try file.segments()
                    } catch {
                        throw .malformedSegments(error)
                    }
                    let source: HTMLReport.Source
                    switch sources.read(file.path) {
                    case .success(let text): source = .text(text)
                    case .failure(let problem):
                        missing.record(index, (file.displayPath, problem))
                        source = .missing(path: file.displayPath, reason: problem.description)
                    }
                    // Per-test data is checked against the page's lines before it is read for the page.
                    let executableLines =
                        annotations.perTest == nil ? [] : LineCoverage.lineCounts(of: segments).map(\.line)
                    let fileAnnotations = annotations.forFile(
                        file.displayPath, executableLines: executableLines, differentialFiles: differentialFiles)
                    if fileAnnotations.tests == nil
                        && annotations.perTest?.executableLines(ofFile: file.displayPath) != nil
                    {
                        mismatched.record(index, file.displayPath)
                    }
                    try write(to: directory + "/" + HTMLReport.pageName(for: file.displayPath), durable: false) {
                        HTMLReport.writeFilePage(
                            file, segments: segments, source: source,
                            notes: notes[file.displayPath] ?? [], listedInIndex: index < listed.count,
                            annotations: fileAnnotations, options: options, into: &$0)
                    }
                } catch {
                    failures.record(error)
                }
                index += workers
            }
        }
        if let failure = failures.first { throw failure }
        var annotations = annotations
        let linking = Set(pageFiles.map(\.displayPath))
        var evidenceWarnings: [Diagnostic] = []
        if var evidence = annotations.evidence, evidence.policy.scope != .none, !evidence.runs.isEmpty {
            do throws(Diagnostic) {
                evidence.files = try EvidenceFiles.copy(
                    evidence.runs, policy: evidence.policy, into: directory + "/evidence", prefix: "evidence/")
            } catch {
                throw .badEvidence(error)
            }
            try makeDirectory(directory + "/tests")
            for test in evidence.tests {
                try write(
                    HTMLReport.testPageBuffer(test.runs, evidence: evidence, linking: linking, options: options),
                    to: directory + "/" + (evidence.page(ofKey: test.key) ?? ""), durable: false)
            }
            evidenceWarnings = evidence.files.warnings(policy: evidence.policy)
            annotations.evidence = evidence
        } else {
            annotations.evidence = nil
        }
        try write(to: directory + "/index.html", durable: true) { html in
            HTMLReport.writeIndexPage(
                report, tests: tests, linking: linking, annotations: annotations, options: options, into: &html)
        }
        return Written(
            missingSources: missing.inPageOrder, mismatchedTests: mismatched.inPageOrder,
            withoutLineData: report.files.filter { !$0.hasLineData }.map(\.displayPath),
            evidenceWarnings: evidenceWarnings)
    }

    /// The test run's failures by the file (as the log names it) and line they were recorded at.
    private static func lineNotes(of run: TestRun) -> [String: [HTMLReport.LineNote]] {
        var notes: [String: [HTMLReport.LineNote]] = [:]
        for suite in run.suites {
            for test in suite.cases where test.status == .failed || test.status == .error {
                for issue in test.failingIssues {
                    guard let location = issue.location else { continue }
                    let title = (suite.displayName ?? suite.name) + " › " + test.name
                    notes[location.file, default: []].append(
                        HTMLReport.LineNote(line: location.line, title: title, message: issue.message))
                }
            }
        }
        return notes
    }

    private static func write(_ text: String, to path: String) throws(Failure) {
        do {
            try AtomicFile.write(text, to: path)
        } catch {
            throw .cannotWrite(error)
        }
    }

    private static func write(_ buffer: borrowing OutputBuffer, to path: String, durable: Bool) throws(Failure) {
        let result: Result<Void, SystemCallError> = buffer.withBytes { bytes in
            Result { () throws(SystemCallError) in try AtomicFile.write(bytes: bytes, to: path, durable: durable)
            }
        }
        do {
            try result.get()
        } catch {
            throw .cannotWrite(error)
        }
    }

    /// Writes the page `page` appends to a buffer that streams into the file, 64 KiB at a time.
    private static func write(to path: String, durable: Bool, _ page: (inout OutputBuffer) -> Void) throws(Failure) {
        do {
            let destination = try AtomicFile.Destination(path, durable: durable)
            var buffer = destination.streamingBuffer(chunkSize: 64 << 10)
            page(&buffer)
            try destination.finish(buffer)
        } catch {
            throw .cannotWrite(error)
        }
    }

    private static func makeDirectory(_ path: String) throws(Failure) {
        do {
            try AtomicFile.makeDirectory(path)
        } catch {
            throw .cannotWrite(error)
        }
    }

    /// What the workers found about some pages (sources they could not read), by page index.
    private final class PageList<Element>: @unchecked Sendable {
        private let found = Locked<[(index: Int, element: Element)]>([])

        func record(_ index: Int, _ element: Element) {
            found.withLock { $0.append((index, element)) }
        }

        var inPageOrder: [Element] {
            found.withLock { $0.sorted { $0.index < $1.index }.map(\.element) }
        }
    }

    /// The first failure among the workers.
    private final class FailureBox: Sendable {
        private let failure = Locked<Failure?>(nil)

        var hasFailed: Bool { failure.withLock { $0 != nil } }
        var first: Failure? { failure.withLock { $0 } }

        func record(_ error: Failure) {
            failure.withLock { if $0 == nil { $0 = error } }
        }
    }
}
