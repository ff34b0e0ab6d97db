import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// swiftcov's own JSON report, read back: what `report --format json` writes and `run` keeps as
/// `coverage.json`. The one reader of it, for every input that takes one: the ratchet's baseline
/// (`check --ratchet`, `CoverageBaseline`), the base revision's coverage (`diff --base-coverage`,
/// `DifferentialBaseline`), the tests' times (`--timings`, `TestTimings`), and finding the export
/// `run` keeps beside it (`CoverageInput.locateExport`).
///
/// Recognized by its content, whatever its formatting: a JSON object with a top-level
/// `schemaVersion` number (`recognizes`). Read in one pass over the mapped bytes that reads the
/// parts the caller asks for and skips the rest, so a large `--show lines` report costs little
/// beyond its line counts. Every error is a `CoverageInputError.malformed`: the file, the byte
/// offset and the key path there.
package struct SwiftCovReportDocument: Sendable {
    /// What to read; what is not asked for is skipped (and need not be there).
    package struct Parts: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// `totals` (required) and `modules`: the ratchet's baseline.
        package static let summaries = Parts(rawValue: 1)
        /// `files` (required), each with its `path` and `lineCounts` (required): the differential baseline.
        package static let lineCounts = Parts(rawValue: 2)
        /// The test summary's `suites` (required), in `tests` or, with per-test data, `testSummary`.
        package static let testSuites = Parts(rawValue: 4)
    }

    /// A module and its numbers.
    package struct Module: Equatable, Sendable {
        package var name: String
        package var summary: CoverageSummary
    }

    /// A file and its executable lines with their counts (the line view).
    package struct File: Equatable, Sendable {
        package var path: String
        package var lineCounts: [LineCount]
    }

    /// A suite of the test summary: how many tests it ran and how long it took.
    package struct TestSuite: Equatable, Sendable {
        package var name: String
        package var tests: Int
        package var seconds: Double
    }

    /// The report's totals (with `.summaries`).
    package var totals = CoverageSummary()
    /// The report's modules, in its order (with `.summaries`).
    package var modules: [Module] = []
    /// The report's files (with `.lineCounts`).
    package var files: [File] = []
    /// The test summary's suites (with `.testSuites`).
    package var testSuites: [TestSuite] = []

    /// The schema version this swiftcov reads and writes (`CoverageJSONReport`): bumped when a
    /// field changes meaning or disappears.
    package static let schemaVersion = 1

    /// Whether `bytes` are swiftcov's report: a JSON object with a top-level `schemaVersion`
    /// number. The members before it are skipped, not read; an llvm-cov export (whose `data`
    /// comes first) is told apart at its first key. A report cut short or broken after its
    /// `schemaVersion` is still recognized (and reading it says where it breaks).
    package static func recognizes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var scanner = JSONScanner(bytes)
        var started = false
        do throws(JSONError) {
            try scanner.beginObject()
            while let key = try scanner.nextMember(&started) {
                if key.equals("schemaVersion") {
                    _ = try scanner.readNumber()
                    return true
                }
                // An llvm-cov export: its `data`, `type` and `version`.
                if key.equals("data") || key.equals("type") { return false }
                try scanner.skipValue()
            }
        } catch {}
        return false
    }

    /// Whether the file at `path` is swiftcov's report (false when it cannot be read).
    package static func recognizes(path: String) -> Bool {
        guard path != "-", let document = try? MappedFile(path: path, reading: .inPlaces) else { return false }
        return document.withUnsafeBytes { recognizes($0) }
    }

    /// Reads the report at `path` ("-" for standard input).
    package static func read(path: String, parts: Parts) throws(CoverageInputError) -> SwiftCovReportDocument {
        try read(CoverageInput.map(path), path: path, parts: parts)
    }

    /// Reads the report held in `document`; `path` names it in errors. A document that is not
    /// swiftcov's report (see `recognizes`) is refused at its start.
    package static func read(_ document: MappedFile, path: String, parts: Parts) throws(CoverageInputError)
        -> SwiftCovReportDocument
    {
        do throws(JSONError) {
            return try document.withUnsafeBytes { bytes throws(JSONError) in
                guard recognizes(bytes) else {
                    throw JSONError(
                        offset: 0,
                        message: "not a swiftcov JSON report (make one with `swiftcov report --format json`)")
                }
                var reader = Reader(JSONScanner(bytes), parts: parts)
                return try reader.read()
            }
        } catch {
            throw CoverageInput.malformed(error, in: document, path: path)
        }
    }
}

/// One pass over the document: the members asked for are read, the others skipped.
private struct Reader {
    var scanner: JSONScanner
    let parts: SwiftCovReportDocument.Parts
    var result = SwiftCovReportDocument()

    init(_ scanner: JSONScanner, parts: SwiftCovReportDocument.Parts) {
        self.scanner = scanner
        self.parts = parts
    }

    mutating func read() throws(JSONError) -> SwiftCovReportDocument {
        try scanner.beginObject()
        var started = false
        var sawTotals = false
        var sawFiles = false
        var sawSuites = false
        var testSummaryOffset: Int?
        while let key = try scanner.nextMember(&started) {
            if key.equals("schemaVersion") {
                let offset = valueOffset()
                let version = try scanner.readNumber()
                guard version == Double(SwiftCovReportDocument.schemaVersion) else {
                    throw JSONError(
                        offset: offset,
                        message: "schema version \(version.formatted) of a swiftcov JSON report; this swiftcov reads "
                            + "version \(SwiftCovReportDocument.schemaVersion)")
                }
            } else if parts.contains(.summaries) && key.equals("totals") {
                result.totals = try summary()
                sawTotals = true
            } else if parts.contains(.summaries) && key.equals("modules") {
                try modules()
            } else if parts.contains(.lineCounts) && key.equals("files") {
                try files()
                sawFiles = true
            } else if parts.contains(.testSuites) && (key.equals("tests") || key.equals("testSummary")) {
                // With per-test data, `tests` lists the tests and the summary is `testSummary`.
                if key.equals("tests") && scanner.peek() == UInt8(ascii: "[") {
                    try scanner.skipValue()
                    continue
                }
                testSummaryOffset = scanner.offset
                sawSuites = try testSummary() || sawSuites
            } else {
                try scanner.skipValue()
            }
        }
        guard scanner.isAtEnd() else { throw scanner.error("unexpected data after the document") }
        if parts.contains(.summaries) && !sawTotals {
            throw JSONError(
                offset: 0,
                message: "a swiftcov JSON report without \"totals\" (make one with `swiftcov report --format json`)")
        }
        if parts.contains(.lineCounts) && !sawFiles {
            throw JSONError(offset: 0, message: "not a swiftcov JSON report: it has no \"files\"")
        }
        if parts.contains(.testSuites) && !sawSuites {
            throw JSONError(
                offset: testSummaryOffset ?? 0,
                message: "no \"tests\" with \"suites\" (give a junit.xml or the coverage.json of run)")
        }
        return result
    }

    /// Where the next value starts (past white space): errors about it point there.
    private mutating func valueOffset() -> Int {
        _ = scanner.peek()
        return scanner.offset
    }

    // MARK: Summaries

    /// `{"lines": METRIC, "functions": …, "instantiations": …, "regions": …, "branches": …}`;
    /// a metric the report does not measure (Xcode's) is null and reads as zero.
    private mutating func summary() throws(JSONError) -> CoverageSummary {
        let start = valueOffset()
        try scanner.beginObject()
        var started = false
        var summary = CoverageSummary()
        var seen: Set<CoverageSummary.Kind> = []
        while let key = try scanner.nextMember(&started) {
            guard let kind = CoverageSummary.Kind.allCases.first(where: { key.equals($0.staticName) }) else {
                try scanner.skipValue()
                continue
            }
            seen.insert(kind)
            let metric = try metric()
            switch kind {
            case .lines: summary.lines = metric
            case .functions: summary.functions = metric
            case .instantiations: summary.instantiations = metric
            case .regions: summary.regions = metric
            case .branches: summary.branches = metric
            }
        }
        for kind in [CoverageSummary.Kind.lines, .functions, .regions] where !seen.contains(kind) {
            throw JSONError(offset: start, message: "a summary without \"\(kind.rawValue)\"")
        }
        return summary
    }

    /// `{"count": N, "covered": N, "percent": …}` with 0 ≤ covered ≤ count, or null.
    private mutating func metric() throws(JSONError) -> Metric {
        if try scanner.readNullIfPresent() { return Metric() }
        let start = valueOffset()
        try scanner.beginObject()
        var started = false
        var count: Int64?
        var covered: Int64?
        while let key = try scanner.nextMember(&started) {
            if key.equals("count") {
                count = try scanner.readInt()
            } else if key.equals("covered") {
                covered = try scanner.readInt()
            } else {
                try scanner.skipValue()
            }
        }
        guard let count, let covered else {
            throw JSONError(offset: start, message: "a metric without \"count\" and \"covered\"")
        }
        guard covered >= 0, covered <= count else {
            throw JSONError(
                offset: start, message: "a metric with \(covered) covered of \(count): expected 0 ≤ covered ≤ count")
        }
        return Metric(count: Int(count), covered: Int(covered))
    }

    /// `[{"name": …, "summary": …}, …]`.
    private mutating func modules() throws(JSONError) {
        try scanner.beginArray()
        var more = false
        while try scanner.nextElement(&more) {
            let start = valueOffset()
            try scanner.beginObject()
            var started = false
            var name: String?
            var summary: CoverageSummary?
            while let key = try scanner.nextMember(&started) {
                if key.equals("name") {
                    name = try scanner.readString()
                } else if key.equals("summary") {
                    summary = try self.summary()
                } else {
                    try scanner.skipValue()
                }
            }
            guard let name, let summary else {
                throw JSONError(offset: start, message: "a module without \"name\" and \"summary\"")
            }
            result.modules.append(.init(name: name, summary: summary))
        }
    }

    // MARK: Files

    private mutating func files() throws(JSONError) {
        try scanner.beginArray()
        var more = false
        while try scanner.nextElement(&more) { result.files.append(try file()) }
    }

    private mutating func file() throws(JSONError) -> SwiftCovReportDocument.File {
        let start = valueOffset()
        try scanner.beginObject()
        var started = false
        var path: String?
        var counts: [LineCount]?
        while let key = try scanner.nextMember(&started) {
            if key.equals("path") {
                path = try scanner.readString()
            } else if key.equals("lineCounts") {
                counts = try lineCounts()
            } else {
                try scanner.skipValue()
            }
        }
        guard let path else { throw JSONError(offset: start, message: "a file without \"path\"") }
        guard let counts else {
            throw JSONError(
                offset: start,
                message: "a file without \"lineCounts\": make the baseline with "
                    + "`swiftcov report --format json --show lines`")
        }
        return .init(path: path, lineCounts: counts)
    }

    /// `[[line, count], …]`, lines ascending.
    private mutating func lineCounts() throws(JSONError) -> [LineCount] {
        try scanner.beginArray()
        var counts: [LineCount] = []
        var more = false
        while try scanner.nextElement(&more) {
            let offset = valueOffset()
            try scanner.beginArray()
            var pair = false
            guard try scanner.nextElement(&pair) else {
                throw JSONError(offset: offset, message: "expected [line, count]")
            }
            let line = try scanner.readInt()
            guard try scanner.nextElement(&pair) else {
                throw JSONError(offset: offset, message: "expected [line, count]")
            }
            let count = try scanner.readInt()
            guard !(try scanner.nextElement(&pair)) else {
                throw JSONError(offset: offset, message: "expected [line, count]")
            }
            guard line >= 1, line <= Int64(UInt32.max), count >= 0 else {
                throw JSONError(
                    offset: offset, message: "expected a line number and a count, found [\(line), \(count)]")
            }
            if let last = counts.last, last.line >= UInt32(line) {
                throw JSONError(offset: offset, message: "line \(line) after line \(last.line): lines must ascend")
            }
            guard counts.count < LineCoverage.maximumExecutableLines else {
                throw JSONError(offset: offset, message: "more than \(LineCoverage.maximumExecutableLines) lines")
            }
            counts.append(LineCount(line: UInt32(line), count: UInt64(count)))
        }
        return counts
    }

    // MARK: Tests

    /// The test summary's object; reads its `suites`, reporting whether it had them.
    private mutating func testSummary() throws(JSONError) -> Bool {
        try scanner.beginObject()
        var started = false
        var sawSuites = false
        while let key = try scanner.nextMember(&started) {
            guard key.equals("suites") else {
                try scanner.skipValue()
                continue
            }
            sawSuites = true
            try scanner.beginArray()
            var more = false
            while try scanner.nextElement(&more) { result.testSuites.append(try testSuite()) }
        }
        return sawSuites
    }

    /// `{"name": …, "tests": N, "time": SECONDS, …}`.
    private mutating func testSuite() throws(JSONError) -> SwiftCovReportDocument.TestSuite {
        let start = valueOffset()
        try scanner.beginObject()
        var started = false
        var name: String?
        var tests: Int64?
        var seconds: Double?
        while let key = try scanner.nextMember(&started) {
            if key.equals("name") {
                name = try scanner.readString()
            } else if key.equals("tests") {
                tests = try scanner.readInt()
            } else if key.equals("time") {
                seconds = try scanner.readNumber()
            } else {
                try scanner.skipValue()
            }
        }
        guard let name, let tests, let seconds else {
            throw JSONError(offset: start, message: "a suite without \"name\", \"tests\" and \"time\"")
        }
        guard tests >= 0, seconds >= 0, seconds.isFinite else {
            throw JSONError(
                offset: start, message: "a suite of \(tests) tests in \(seconds) seconds: expected neither below zero")
        }
        return .init(name: name, tests: Int(tests), seconds: seconds)
    }
}

extension Double {
    /// `2` for 2.0, else the number as Swift prints it.
    fileprivate var formatted: String {
        if let whole = Int64(exactly: self) { return String(whole) }
        return String(self)
    }
}
