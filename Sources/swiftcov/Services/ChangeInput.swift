import SwiftCovCommandLine
import SwiftCovCore

/// The change a command measures or looks things up by (`diff`, `html --base-coverage`, `impacted`):
/// `--base REF` or `--diff FILE` read into a unified diff checked against the sources, and the
/// base revision's coverage (`--base-coverage`) compared with the current one through it.
enum ChangeInput {
    static let base = ValueOption<String>(
        ["--base"], value: "REF",
        help:
            "Measure the changes since the working tree left git ref REF (git diff from the merge base of REF and HEAD). Default: HEAD, the uncommitted changes."
    )
    static let diff = ValueOption<String>(
        ["--diff"], value: "FILE",
        help: "Read a unified diff (git diff, diff -u) from FILE, '-' for stdin, instead of running git.")
    static let baseCoverage = RenamedOption(
        "--base-coverage", formerly: "--baseline", value: "FILE",
        help:
            "Differential coverage: compare with the base revision's coverage (an llvm-cov export, or `swiftcov report --format json --show lines`) and put every line in genhtml's categories (UNC, LBC, GNC, …)."
    )

    /// Where the change comes from.
    enum Source {
        /// `git diff` against this ref (HEAD: the uncommitted changes).
        case git(base: String)
        /// A unified diff in a file, "-" for standard input.
        case file(String)

        /// `--base REF` or `--diff FILE` (not both), HEAD when neither is given.
        init(_ arguments: ParsedArguments, base: ValueOption<String>, diff: ValueOption<String>) throws(UsageError) {
            switch (try arguments.value(base), try arguments.value(diff)) {
            case (_?, _?): throw UsageError("give either --base REF or --diff FILE, not both")
            case (nil, let file?): self = .file(file)
            case (let ref, nil): self = .git(base: ref ?? "HEAD")
            }
        }

        /// Where the changes come from, as the reports say it.
        var reportOptions: ChangedLineCoverageReportOptions {
            switch self {
            case .file(let path): ChangedLineCoverageReportOptions(diffFile: path)
            case .git(let base): ChangedLineCoverageReportOptions(base: base)
            }
        }
    }

    /// The change as a parsed diff, and the package's folder in the repository when the diff
    /// is a file (a diff from the repository's top folder names files by their path there).
    /// With the coverage `report` the change is measured against, a diff that is not of its
    /// sources is an error: its line numbers would put the changes on the wrong lines.
    static func read(
        _ change: Source, root: String, of report: CoverageReport? = nil, gating: Bool = false, terminal: Terminal
    ) throws -> (diff: UnifiedDiff, pathPrefix: String) {
        let text: String
        let name: String
        var prefix = ""
        switch change {
        case .file(let path):
            text = try readDiff(path)
            name = path == "-" ? "<stdin>" : path
            prefix = Git.prefix(of: root)
        case .git(let base):
            let (diffText, note) = try Git.diff(against: base, root: root)
            if let note { terminal.emit(.note(note)) }
            text = diffText
            name = "git diff \(base)"
        }
        let diff: UnifiedDiff
        do {
            diff = try UnifiedDiff.parse(text)
        } catch {
            throw Diagnostic(file: name, at: .line(error.line), error.message)
        }
        if let report {
            try checkApplies(diff, pathPrefix: prefix, to: report, root: root, gating: gating, terminal: terminal)
        }
        return (diff, prefix)
    }

    /// Refuses a diff whose new side is not the current sources of the files `report` covers, and
    /// names the changed files saved after their coverage was measured.
    private static func checkApplies(
        _ diff: UnifiedDiff, pathPrefix: String, to report: CoverageReport, root: String, gating: Bool,
        terminal: Terminal
    ) throws {
        let covered = Set(report.files.map(\.displayPath))
        let sources = SourceFiles(root: root)
        try diff.checkApplies(pathPrefix: pathPrefix) { path in
            covered.contains(path) ? try? sources.read(path).get() : nil
        }
        try checkMeasured(
            diff, pathPrefix: pathPrefix, covered: covered, report: report, root: root, gating: gating,
            terminal: terminal)
    }

    /// Changed files modified after the coverage was written (the oldest export's time) are
    /// warned about, or refused when the command gates on them: only for exports in the package's
    /// own `.build`, made by its tests on this machine (a shard's export copied from another
    /// machine keeps that machine's time, or gets the copy's, and says nothing of this checkout).
    private static func checkMeasured(
        _ diff: UnifiedDiff, pathPrefix: String, covered: Set<String>, report: CoverageReport, root: String,
        gating: Bool, terminal: Terminal
    ) throws {
        let build = CoverageScope.normalized(terminal.absolutePath(root)) + "/.build/"
        let exports = report.inputs.compactMap { input -> (path: String, written: Int)? in
            let path = CoverageScope.normalized(terminal.absolutePath(input.path))
            guard path.hasPrefix(build) else { return nil }
            let written = FileSystem.modificationTime(of: path)
            return written > 0 ? (path, written) : nil
        }
        guard let oldest = exports.min(by: { $0.written < $1.written }) else { return }
        let stale = diff.changedAfterCoverage(
            pathPrefix: pathPrefix, coverage: terminal.displayPath(oldest.path), written: oldest.written,
            isCovered: covered.contains
        ) { path in FileSystem.modificationTime(of: root + "/" + path) }
        if gating, let first = stale.first { throw first.diagnostic }
        for file in stale { terminal.emit(file.diagnostic(severity: .warning)) }
    }

    private static func readDiff(_ path: String) throws -> String {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw Diagnostic(file: path, "cannot read: \(error.message)")
        }
        let text = file.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        guard !file.shrankWhileRead else { throw Diagnostic(file: path, "cannot read: \(MappedFile.shrankMessage)") }
        return text
    }

    /// The baseline at `path` read and compared with `report` through `diff` (`diff --base-coverage`,
    /// `html --base-coverage`); warnings that leave the comparison right are printed.
    static func differentialCoverage(
        baseline path: String, report: CoverageReport, diff: UnifiedDiff, pathPrefix: String, root: String,
        terminal: Terminal
    ) throws -> DifferentialCoverage {
        let baseline = try DifferentialBaseline.read(path: path)
        let sources = SourceFiles(root: root)
        let coverage = try DifferentialCoverage.compute(
            current: report, baseline: baseline, diff: diff, pathPrefix: pathPrefix
        ) { file in try? sources.read(file).get().lineCount }
        for warning in coverage.warnings { terminal.emit(warning) }
        return coverage
    }
}
