// The fuzz targets' code paths (see FuzzTesting/): each takes the raw bytes of one input, runs
// them through a parser and everything that consumes its model, and checks what must hold.
// The fuzzers (FuzzTesting/fuzz) compile this file with a libFuzzer entry point per target;
// FuzzRegressionTests runs the committed crashers through the same paths.

import SwiftCovCore

/// An invariant a fuzz input broke (a crash is not caught here: it ends the process).
struct FuzzInvariantFailure: Error, CustomStringConvertible {
    var description: String
}

enum FuzzTarget: String, CaseIterable, Codable, Sendable {
    case export
    case testLog = "test-log"
    case eventStream = "event-stream"
    case junitXML = "junit-xml"
    case gateConfig = "gate-config"
    case diff
    case glob
    case baseline
    case perTestStore = "per-test-store"
    case highlight
    case rawProfile = "raw-profile"
    case coverageMapping = "coverage-mapping"
    case zstd
    case xcresultObjects = "xcresult-objects"
    case xcresulttoolJSON = "xcresulttool-json"
    case keyedArchive = "keyed-archive"
    case binaryPlist = "binary-plist"
    case xccovJSON = "xccov-json"
    case reportDocument = "report-document"
    case history
    case sqlite

    /// Runs `bytes` through the target. Parse errors are fine; only broken invariants throw.
    /// The gate and diff targets evaluate against `sampleReport` (the trivia package's report).
    func run(_ bytes: [UInt8], sampleReport: CoverageReport?) throws(FuzzInvariantFailure) {
        switch self {
        case .export: try FuzzTarget.export(bytes)
        case .testLog: try FuzzTarget.testLog(bytes)
        case .eventStream: try FuzzTarget.eventStream(bytes)
        case .junitXML: try FuzzTarget.junitXML(bytes)
        case .gateConfig: FuzzTarget.gateConfig(bytes, sampleReport)
        case .diff: try FuzzTarget.diff(bytes, sampleReport)
        case .glob: FuzzTarget.glob(bytes)
        case .baseline: try FuzzTarget.baseline(bytes, sampleReport)
        case .perTestStore: try FuzzTarget.perTestStore(bytes, sampleReport)
        case .highlight: try FuzzTarget.highlight(bytes)
        case .rawProfile: try FuzzTarget.rawProfile(bytes)
        case .coverageMapping: FuzzTarget.coverageMapping(bytes)
        case .zstd: try FuzzTarget.zstd(bytes)
        case .xcresultObjects: try FuzzTarget.xcresultObjects(bytes)
        case .xcresulttoolJSON: try FuzzTarget.xcresulttoolJSON(bytes)
        case .keyedArchive: try FuzzTarget.keyedArchive(bytes)
        case .binaryPlist: try FuzzTarget.binaryPlist(bytes)
        case .xccovJSON: try FuzzTarget.xccovJSON(bytes)
        case .reportDocument: try FuzzTarget.reportDocument(bytes, sampleReport)
        case .history: try FuzzTarget.history(bytes)
        case .sqlite: try FuzzTarget.sqlite(bytes)
        }
    }

    /// The report of the trivia package's export at `path` (SampleReports/coverage.json).
    static func sampleReport(path: String) -> CoverageReport? {
        guard let export = try? CoverageInput.readExport(path, keepMappings: false) else { return nil }
        return try? CoverageReport.build(exports: [export], scope: CoverageScope(root: "/fuzz"))
    }

    // MARK: Targets

    /// An llvm-cov JSON export, read and turned into everything `report`, `export` and `html`
    /// compute from it: summaries, the line view, the merge of two exports, every renderer.
    private static func export(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        let document = MappedFile(bytes: bytes)
        // A report without a function list only checks the records: it must fail exactly where
        // reading them fails, and agree on the file list.
        let kept = Result { () throws(JSONError) in try LLVMCovExportReader.read(document) }
        let checked = Result { () throws(JSONError) in try LLVMCovExportReader.read(document, summariesOnly: true) }
        switch (kept, checked) {
        case (.failure(let a), .failure(let b)) where a == b: break
        case (.success(let a), .success(let b)) where a.files.map(\.filename) == b.files.map(\.filename): break
        default: throw FuzzInvariantFailure(description: "summariesOnly read differs: \(kept) / \(checked)")
        }
        let export: LLVMCovExport
        do {
            export = try LLVMCovExportReader.read(document, keepMappings: true)
        } catch {
            // The CLI names the key path at the error's offset.
            _ = document.withUnsafeBytes { JSONKeyPath.path(at: error.offset, in: $0) }
            return
        }
        let scope = CoverageScope(root: "/fuzz", allFiles: true)
        if let report = try? CoverageReport.build(exports: [export], scope: scope) {
            try render(report)
        }
        // The same export twice: the merge path (records added up, segments rebuilt from them).
        if let merged = try? CoverageReport.build(exports: [export, export], scope: scope) {
            for file in merged.files { _ = try? file.lineCounts() }
            _ = try? CoverageJSONReport.render(merged, options: CoverageReportOptions(showLines: true))
        }
    }

    private static func render(_ report: CoverageReport) throws(FuzzInvariantFailure) {
        let all = CoverageReportOptions(showFunctions: true, showLines: true, sort: .coverage)
        _ = CoverageTableReport.render(report, options: all)
        _ = CoverageMarkdownReport.render(report, options: all)
        if let json = try? CoverageJSONReport.render(report, options: all) {
            try requireWellFormedJSON(json, "report --format json")
        }
        for format in InterchangeFormat.allCases {
            guard let text = try? format.render(report, options: InterchangeOptions(timestamp: 0)) else { continue }
            if format != .lcov { try requireWellFormedXML(text, "export --format \(format.rawValue)") }
        }
        _ = HTMLReport.indexPage(report, options: HTMLReport.Options())
        for file in report.files {
            guard let segments = try? file.segments() else { continue }
            let lines = LineCoverage.lineCounts(of: segments)
            guard zip(lines, lines.dropFirst()).allSatisfy({ $0.line < $1.line }) else {
                throw FuzzInvariantFailure(description: "the line view of \(file.path) is not in line order")
            }
            _ = HTMLReport.filePage(
                file, segments: segments,
                source: .missing(path: file.path), options: HTMLReport.Options())
        }
    }

    /// A binary property list taken for an Xcode coverage report (`NSKeyedArchiver`): the list,
    /// the archive's object graph walked along the report's schema (cycles included), the report
    /// and every renderer.
    private static func keyedArchive(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(XcodeInputError) in try XcodeCoverage.readReportArchive(buffer, path: "report") }
        }
        if case .failure(let error) = result {
            _ = error.diagnostic.formatted()
        }
        if let list = try? bytes.withUnsafeBytes({ try BinaryPropertyList($0) }) {
            guard list.top < list.objects.count else {
                throw FuzzInvariantFailure(description: "top object outside the list")
            }
        }
        guard case .success(let coverage) = result else { return }
        try renderChecked(coverage, input: "report")
    }

    /// A binary property list (a bundle's `Info.plist`, a keyed archive): every object read once
    /// however many entries of the offset table name it, every reference inside the list, then
    /// the list taken for a keyed archive and walked from its root.
    private static func binaryPlist(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        let parsed = bytes.withUnsafeBytes { buffer in
            Result { () throws(BinaryPropertyList.DecodeError) in try BinaryPropertyList(buffer) }
        }
        let list: BinaryPropertyList
        switch parsed {
        case .success(let value): list = value
        case .failure(let error):
            guard error.offset <= bytes.count else {
                throw FuzzInvariantFailure(description: "an error offset past the input: \(error)")
            }
            return
        }
        guard list.top < list.objects.count, list.objects.count <= bytes.count else {
            throw FuzzInvariantFailure(description: "\(list.objects.count) objects from \(bytes.count) bytes")
        }
        for object in list.objects {
            let members: [Int]
            switch object {
            case .array(let indices): members = indices
            case .dictionary(let keys, let values): members = keys + values
            default: members = []
            }
            guard members.allSatisfy({ $0 >= 0 && $0 < list.objects.count }) else {
                throw FuzzInvariantFailure(description: "a reference outside the list")
            }
        }
        let walked = bytes.withUnsafeBytes { buffer in
            Result { () throws(KeyedArchive.DecodeError) in
                let archive = try KeyedArchive(buffer)
                let root = try archive.root()
                for key in ["name", "$classname", "NS.string"] { _ = try? archive.string(key, in: root) }
                for member in try archive.objects("NS.objects", in: root) {
                    _ = try archive.data("NS.data", in: member)
                }
            }
        }
        if case .failure(let error) = walked { _ = error.description }
    }

    /// xccov's JSON: a report (`--report`, `--only-targets`) or an archive (`--archive`, given
    /// with a report of its files made from its own lines), and every renderer of the report.
    private static func xccovJSON(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        guard let value = try? JSONValue.parse(bytes) else { return }
        var coverage: XcodeCoverage
        switch XcodeCoverage.jsonKind(of: value) {
        case .report?, .onlyTargets?:
            guard let report = try? XcodeCoverage.readReportJSON(value, path: "report.json") else { return }
            coverage = report
        case .archive?:
            guard let lines = try? XcodeCoverage.readArchiveJSON(value, path: "archive.json") else { return }
            for fileLines in lines.values {
                guard zip(fileLines, fileLines.dropFirst()).allSatisfy({ $0.line < $1.line }) else {
                    throw FuzzInvariantFailure(description: "archive lines out of order were accepted")
                }
            }
            let files = lines.keys.sorted().map { path in
                let executable = lines[path]!.compactMap(\.executionCount)
                return XcodeCoverage.File(
                    name: path, path: path, executableLines: executable.count,
                    coveredLines: executable.filter { $0 > 0 }.count,
                    functions: [.init(name: "", lineNumber: 1, executionCount: 1, executableLines: 2, coveredLines: 1)])
            }
            coverage = XcodeCoverage(
                targets: [
                    .init(name: "Fuzz.framework", productPath: nil, executableLines: 0, coveredLines: 0, files: files)
                ],
                lines: lines)
        case nil:
            return
        }
        try renderChecked(coverage, input: "report.json")
    }

    /// Xcode's coverage, through every renderer when it holds the model's invariants; no number
    /// of a report so built has more covered than executable lines.
    private static func renderChecked(_ coverage: XcodeCoverage, input: String) throws(FuzzInvariantFailure) {
        guard
            let report = try? CoverageReport.build(
                xcode: coverage, scope: CoverageScope(root: "/", allFiles: true), input: input)
        else { return }
        for file in report.files where file.summary.lines.covered > file.summary.lines.count {
            throw FuzzInvariantFailure(description: "\(file.path): more covered than executable lines")
        }
        try render(report)
    }

    /// `swift test` output, parsed whole and in chunks whose sizes come from the input itself (a
    /// line split across reads must parse as if read at once), then JUnit XML and the summaries.
    private static func testLog(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        var whole = TestLogParser()
        bytes.withUnsafeBytes { whole.consume($0) }
        let run = whole.finish()
        var chunked = TestLogParser()
        forEachChunk(of: bytes) { chunked.consume($0) }
        guard chunked.finish() == run else {
            throw FuzzInvariantFailure(description: "reading in chunks changed the run")
        }
        try renderTests(run)
    }

    /// A Swift Testing event stream, read whole and in chunks (the same run or the same error), in
    /// time zones west of, at and east of UTC, then JUnit XML and the summaries.
    private static func eventStream(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        _ = bytes.withUnsafeBytes { SwiftTestingEventStream.recognizes($0) }
        for utcOffset in [-43_200, 0, 50_400] {
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(TestResultsError) -> TestRun in
                    try SwiftTestingEventStream.read(buffer, path: "events.jsonl", utcOffset: utcOffset)
                }
            }
            if utcOffset == 0 {
                var reader = SwiftTestingEventStream.Reader(path: "events.jsonl", utcOffset: utcOffset)
                var chunked: Result<TestRun, TestResultsError>?
                forEachChunk(of: bytes) { chunk in
                    guard chunked == nil else { return }
                    do throws(TestResultsError) { try reader.consume(chunk) } catch { chunked = .failure(error) }
                }
                if chunked == nil { chunked = Result { () throws(TestResultsError) in try reader.finish() } }
                guard chunked == result else {
                    throw FuzzInvariantFailure(
                        description: "reading in chunks changed the result: \(result) vs \(String(describing: chunked))"
                    )
                }
            }
            switch result {
            case .success(let run): try renderTests(run)
            case .failure(let error): _ = error.description
            }
        }
    }

    /// JUnit XML (swiftcov's or SwiftPM's), read as `junit --tests FILE.xml` reads it, then JUnit
    /// XML and the summaries again; what swiftcov writes must read back into the same document,
    /// and the same file given twice must merge into one run with every test a duplicate.
    private static func junitXML(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        _ = bytes.withUnsafeBytes { JUnitXMLReader.recognizes($0) }
        let run: TestRun
        do {
            run = try JUnitXMLReader.read(bytes, path: "junit.xml")
        } catch {
            _ = error.description
            return
        }
        try renderTests(run)
        let options = JUnitReport.Options(hostname: "fuzz", timestamp: "2026-01-01T00:00:00")
        let written = JUnitReport.render(run, options: options)
        let again: TestRun
        do {
            again = try JUnitXMLReader.read(Array(written.utf8), path: "written.xml")
        } catch {
            throw FuzzInvariantFailure(description: "swiftcov's JUnit does not read back (\(error)): \(written)")
        }
        // The run's total time aside (JUnit keeps no summary line), the same document.
        func body(_ xml: String) -> [Substring] { Array(xml.split(separator: "\n").dropFirst(2)) }
        guard body(JUnitReport.render(again, options: options)) == body(written) else {
            throw FuzzInvariantFailure(description: "swiftcov's JUnit reads back differently: \(written)")
        }
        let twice = TestResultsReader.combine([.junit(again), .junit(again)])
        guard twice.cases.count == again.cases.count, twice.duplicates.count == again.cases.count else {
            throw FuzzInvariantFailure(description: "a file merged with itself lost or gained tests: \(written)")
        }
    }

    /// An object of a result bundle in its typed encoding, read into the object graph and then
    /// into a run, with every reference resolving to the object itself (circles, wrong types),
    /// then JUnit XML and the summaries.
    private static func xcresultObjects(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        _ = bytes.withUnsafeBytes { XCResultObject.recognizesTypedEncoding($0) }
        let parsed = bytes.withUnsafeBytes { buffer in
            Result { () throws(TestResultsError) in try XCResultObject.parseTypedEncoding(buffer, path: "data.0~fuzz") }
        }
        let object: XCResultObject
        switch parsed {
        case .success(let value):
            object = value
        case .failure(let error):
            if case .malformedXcodeResult(_, let offset?, _, _) = error, offset > bytes.count {
                throw FuzzInvariantFailure(description: "an error offset past the input: \(error)")
            }
            _ = error.description
            return
        }
        var loads: [String: Int] = [:]
        let load: XcodeTestResults.Loader = { id in
            loads[id, default: 0] += 1
            return object
        }
        let run: TestRun
        do {
            run =
                object.isA("ActionsInvocationRecord")
                ? try XcodeTestResults.testRun(
                    invocationRecord: object, testPlanRunSummaries: [], load: load, path: "b")
                : try XcodeTestResults.testRun(
                    invocationRecord: nil, testPlanRunSummaries: [object], load: load, path: "b")
        } catch {
            _ = error.description
            return
        }
        // An object is loaded where a reference names it, and followed no further: at most once
        // per reference, each of which takes bytes of the input.
        if loads.values.reduce(0, +) > bytes.count {
            throw FuzzInvariantFailure(description: "\(loads.values.reduce(0, +)) loads from \(bytes.count) bytes")
        }
        for testCase in run.cases where testCase.attempts.contains(where: { $0.status >= .failed }) {
            guard testCase.status != .passed || testCase.isFlaky else {
                throw FuzzInvariantFailure(description: "a retried test passed and is not flaky")
            }
        }
        try renderTests(run)
        try xcresultEvidence(object, load: load)
    }

    /// The object read for its evidence (an invocation record's tests' steps, failures and
    /// attachments; a test's summary's alone) and for `xcresulttool get test-results`' documents.
    private static func xcresultEvidence(
        _ object: XCResultObject, load: @escaping XcodeTestResults.Loader
    ) throws(FuzzInvariantFailure) {
        var evidence: [TestEvidence] = []
        if object.isA("ActionTestSummary") {
            evidence.append(XcodeEvidence.evidence(ofSummary: object))
        }
        if object.isA("ActionsInvocationRecord") {
            let results: XcodeTestsDocument.Results
            do throws(TestResultsError) {
                evidence += try XcodeTestResults.evidence(invocationRecord: object, load: load, path: "b").evidence
                results = try XcodeTestResults.testResults(invocationRecord: object, load: load, path: "b").results
            } catch {
                _ = error.description
                return
            }
            // Groups nest as deep as the graph (256): deeper than the JSON reader reads back.
            func wellFormed(_ json: String, _ what: String) throws(FuzzInvariantFailure) {
                do {
                    _ = try JSONValue.parse(Array(json.utf8))
                } catch  where error.message.contains("too deep") {
                } catch {
                    throw FuzzInvariantFailure(description: "\(what) is not well-formed JSON (\(error.message))")
                }
            }
            try wellFormed(XcodeTestResultsJSON.tests(results), "the tests document")
            try wellFormed(XcodeTestResultsJSON.summary(results), "the summary document")
            for (_, testCase) in results.cases.prefix(8) {
                guard let id = testCase.identifier else { continue }
                guard let details = XcodeTestResultsJSON.testDetails(results, testID: id, evidence: evidence) else {
                    throw FuzzInvariantFailure(description: "no test-details for a test of the tree: \(id)")
                }
                try wellFormed(details, "test-details")
            }
        }
        if let problem = evidenceProblem(evidence) { throw FuzzInvariantFailure(description: problem) }
    }

    /// `xcresulttool`'s JSON (legacy objects, `test-results tests`, `summary`), read as `junit
    /// FILE.json` reads it (told by its content), then JUnit XML and the summaries.
    private static func xcresulttoolJSON(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(TestResultsError) in
                try TestResultsReader.read(bytes: buffer, path: "tests.json", utcOffset: 0)
            }
        }
        switch result {
        case .success(let input):
            let run: TestRun
            switch input {
            case .xcode(let value), .log(let value), .eventStream(let value), .junit(let value): run = value
            }
            try renderTests(run)
        case .failure(let error):
            if case .malformedXcodeResult(_, let offset?, _, _) = error, offset > bytes.count {
                throw FuzzInvariantFailure(description: "an error offset past the input: \(error)")
            }
            _ = error.description
        }
    }

    /// Calls `body` with consecutive pieces of `bytes` of 1 to 16 bytes, sizes taken from the bytes.
    private static func forEachChunk(of bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { buffer in
            var start = 0
            var step = 0
            while start < buffer.count {
                let length = min(buffer.count - start, Int(buffer[step % buffer.count] & 0x0F) + 1)
                body(UnsafeRawBufferPointer(rebasing: buffer[start..<start + length]))
                start += length
                step += 1
            }
        }
    }

    private static func renderTests(_ run: TestRun) throws(FuzzInvariantFailure) {
        for strict in [false, true] {
            let options = JUnitReport.Options(strict: strict, hostname: "fuzz", timestamp: "2026-01-01T00:00:00")
            try requireWellFormedXML(JUnitReport.render(run, options: options), "JUnit (strict: \(strict))")
        }
        try requireWellFormedJSON(TestSummaryJSONReport.render(run), "the test summary JSON")
        _ = TestSummaryTableReport.render(run, colors: true)
        _ = TestSummaryMarkdownReport.render(run)
    }

    /// A `.swiftcov.json`, parsed and (when valid) checked against the report as `swiftcov check`
    /// does: its warnings, the evaluation, the gate's text, Markdown and GitHub annotations.
    private static func gateConfig(_ bytes: [UInt8], _ report: CoverageReport?) {
        let configuration: GateConfiguration
        do {
            configuration = try GateConfiguration.parse(bytes, path: ".swiftcov.json")
        } catch {
            _ = error.description
            return
        }
        guard let report else { return }
        _ = configuration.warnings(for: report, path: ".swiftcov.json")
        let result = Gate.evaluate(report, configuration: configuration)
        _ = GateReport.text(result)
        _ = GateReport.markdown(result)
        _ = GitHubAnnotations.commands(GitHubAnnotations.failures(of: result))
    }

    /// A unified diff, parsed and (when valid) intersected with the report as `swiftcov diff`
    /// does, then rendered as a table, Markdown and JSON.
    private static func diff(_ bytes: [UInt8], _ report: CoverageReport?) throws(FuzzInvariantFailure) {
        let diff: UnifiedDiff
        do {
            diff = try UnifiedDiff.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            _ = error.description
            return
        }
        guard let report, let coverage = try? ChangedLineCoverage.compute(diff: diff, report: report) else { return }
        let options = ChangedLineCoverageReportOptions()
        _ = ChangedLineCoverageTableReport.render(coverage, options: options)
        _ = ChangedLineCoverageMarkdownReport.render(coverage, options: options)
        try requireWellFormedJSON(
            ChangedLineCoverageJSONReport.render(coverage, options: options), "diff --format json")
    }

    /// swiftcov's own JSON report, read by its one reader for each of its uses (the ratchet's
    /// baseline, the differential baseline, the tests' times) and for all of them at once; then
    /// the ratchet against the trivia report and the shards balanced by the times. Each part reads
    /// the same alone as with the others; the values are those a report can hold; an error's
    /// offset is inside the input.
    private static func reportDocument(_ bytes: [UInt8], _ report: CoverageReport?) throws(FuzzInvariantFailure) {
        let document = MappedFile(bytes: bytes)
        let recognized = bytes.withUnsafeBytes { SwiftCovReportDocument.recognizes($0) }
        let partsList: [SwiftCovReportDocument.Parts] = [.summaries, .lineCounts, .testSuites]
        var alone: [SwiftCovReportDocument?] = []
        for parts in partsList + [[.summaries, .lineCounts, .testSuites]] {
            do {
                let read = try SwiftCovReportDocument.read(document, path: "fuzz.json", parts: parts)
                guard recognized else {
                    throw FuzzInvariantFailure(description: "read a document it does not recognize")
                }
                try check(read)
                if alone.count < partsList.count {
                    alone.append(read)
                } else {
                    // Read together, each part is what it is alone.
                    if let summaries = alone[0], summaries.totals != read.totals || summaries.modules != read.modules {
                        throw FuzzInvariantFailure(description: "the summaries differ when read with the other parts")
                    }
                    if let lines = alone[1], lines.files != read.files {
                        throw FuzzInvariantFailure(description: "the files differ when read with the other parts")
                    }
                    if let tests = alone[2], tests.testSuites != read.testSuites {
                        throw FuzzInvariantFailure(description: "the suites differ when read with the other parts")
                    }
                }
            } catch let error as FuzzInvariantFailure {
                throw error
            } catch {
                if case .malformed(_, let offset, _, _) = error as? CoverageInputError,
                    offset < 0 || offset > bytes.count
                {
                    throw FuzzInvariantFailure(description: "error offset \(offset) outside the input: \(error)")
                }
                _ = "\(error)"
                if alone.count < partsList.count { alone.append(nil) }
            }
        }
        // The ratchet's own reading of the document, against the trivia report.
        if let report, let baseline = try? CoverageBaseline.parse(bytes, path: "fuzz.json") {
            guard baseline.totals == alone[0]?.totals else {
                throw FuzzInvariantFailure(description: "the ratchet's baseline differs from the document's summaries")
            }
            if let configuration = try? GateConfiguration.parse(
                Array(#"{"ratchet": {"tolerance": 0.5}}"#.utf8), path: "g")
            {
                _ = GateReport.text(Gate.evaluate(report, configuration: configuration, baseline: baseline))
            }
        }
        if let tests = alone[2] {
            let timings = TestTimings(suites: tests.testSuites.map { ($0.name, $0.tests, $0.seconds) })
            let names = Set(tests.testSuites.prefix(8).flatMap { [$0.name + "/a", $0.name + "/b"] } + ["Other/c"])
            let plan = ShardPlan(tests: Array(names), count: 3, timings: timings)
            guard plan.shards.reduce(0, { $0 + $1.count }) == names.count else {
                throw FuzzInvariantFailure(description: "the shard plan lost or doubled a test")
            }
        }
    }

    /// What a report can hold: 0 ≤ covered ≤ count, lines from 1 ascending, suites of no negative size or time.
    private static func check(_ document: SwiftCovReportDocument) throws(FuzzInvariantFailure) {
        let summaries = [document.totals] + document.modules.map(\.summary)
        for summary in summaries {
            for kind in CoverageSummary.Kind.allCases {
                let metric = summary[kind]
                guard metric.covered >= 0, metric.covered <= metric.count else {
                    throw FuzzInvariantFailure(description: "a metric of \(metric.covered) covered of \(metric.count)")
                }
            }
        }
        for file in document.files {
            guard file.lineCounts.first.map({ $0.line >= 1 }) ?? true,
                zip(file.lineCounts, file.lineCounts.dropFirst()).allSatisfy({ $0.line < $1.line })
            else { throw FuzzInvariantFailure(description: "\(file.path): lines not ascending from 1") }
        }
        for suite in document.testSuites where suite.tests < 0 || !(suite.seconds >= 0) || !suite.seconds.isFinite {
            throw FuzzInvariantFailure(description: "suite \(suite.name): \(suite.tests) tests, \(suite.seconds) s")
        }
    }

    /// A differential baseline (a swiftcov JSON report with line counts, or an llvm-cov export),
    /// read and compared with the report through a diff that changes every file, then rendered
    /// in every format. Before and after must add up from the categories.
    private static func baseline(_ bytes: [UInt8], _ report: CoverageReport?) throws(FuzzInvariantFailure) {
        let baseline: DifferentialBaseline
        do {
            baseline = try DifferentialBaseline.read(MappedFile(bytes: bytes), name: "fuzz.json")
        } catch {
            _ = error.description
            return
        }
        guard let report else { return }
        let diff = UnifiedDiff(
            files: report.files.map {
                FileDiff(
                    oldPath: $0.displayPath, newPath: $0.displayPath, status: .modified, addedLines: [3, 4, 9],
                    removedLines: [2, 5])
            })
        let coverage: DifferentialCoverage
        do {
            coverage = try DifferentialCoverage.compute(current: report, baseline: baseline, diff: diff)
        } catch {
            _ = error.description
            return
        }
        for file in coverage.files {
            let counts = file.lines.counts
            let before = counts.total(of: [.LBC, .UBC, .GBC, .CBC, .ECB, .EUB, .DCB, .DUB])
            guard file.coverage.before.count == before,
                file.coverage.after.count == counts.total(of: [.UNC, .GNC, .LBC, .UBC, .GBC, .CBC, .UIC, .GIC])
            else {
                throw FuzzInvariantFailure(description: "\(file.path): before/after do not add up from the categories")
            }
        }
        var options = DifferentialCoverageReportOptions()
        options.failOn = [.UNC, .LBC]
        options.urlTemplate = "https://example.com/{path}#L{line}"
        _ = DifferentialCoverageTableReport.render(coverage, options: options)
        let (commands, leftOut) = GitHubAnnotations.commands(
            GitHubAnnotations.untestedLines(of: coverage, failOn: options.failOn))
        _ = (commands, GitHubAnnotations.markdown(leftOut: leftOut))
        _ = DifferentialCoverageMarkdownReport.render(coverage, options: options)
        // The site: the changed files on the index, every line's category and the deleted lines on the pages.
        let site = HTMLReport.SiteAnnotations(differential: coverage, baselineName: "fuzz.json")
        try requireEscaped(HTMLReport.indexPage(report, annotations: site, options: HTMLReport.Options()), "html index")
        let files = site.differentialFiles()
        for file in report.files.prefix(4) {
            guard let segments = try? file.segments() else { continue }
            let annotations = site.forFile(
                file.displayPath, executableLines: LineCoverage.lineCounts(of: segments).map(\.line),
                differentialFiles: files)
            let page = HTMLReport.filePage(
                file, segments: segments, source: .missing(path: file.displayPath),
                annotations: annotations, options: HTMLReport.Options())
            try requireEscaped(page, "html page with a baseline")
            guard let categories = annotations.categories else { continue }
            let deleted = categories.counts[.DCB] + categories.counts[.DUB]
            guard categories.deleted.reduce(0, { $0 + $1.count }) == deleted,
                occurrences(of: "<tr class=\"deleted\"", in: Array(page.utf8)) == categories.deleted.count
            else {
                throw FuzzInvariantFailure(description: "\(file.path): deleted lines not all shown")
            }
        }
        try requireWellFormedJSON(
            DifferentialCoverageJSONReport.render(coverage, options: options), "diff --base-coverage --format json")
    }

    /// A glob (the input's first line) matched against paths (each further line, up to 8), as
    /// `--include`, `--exclude` and the gate's rules match them.
    private static func glob(_ bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(
            separator: "\n", maxSplits: 8, omittingEmptySubsequences: false)
        let glob = Glob(String(lines[0]))
        let scope = CoverageScope(root: "/fuzz", includes: [glob], excludes: [glob])
        for path in lines.dropFirst() {
            _ = glob.matches(String(path))
            _ = scope.includes("/fuzz/" + path)
        }
    }

    /// A raw profile (`.profraw`), as `run --per-test` reads each test's.
    private static func rawProfile(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(RawProfile.ReadError) in try RawProfile.decode(raw) }
        }
        switch result {
        case .failure(let error):
            guard error.offset >= 0 && error.offset <= bytes.count else {
                throw FuzzInvariantFailure(description: "raw profile: error offset \(error.offset) outside the input")
            }
        case .success(let profile):
            let counters = profile.functions.reduce(0) { $0 + $1.counters.count }
            guard counters * 8 <= bytes.count else {
                throw FuzzInvariantFailure(description: "raw profile: \(counters) counters from \(bytes.count) bytes")
            }
        }
    }

    /// An executable's coverage mapping (ELF or Mach-O), then every function's regions counted
    /// with made-up counters and turned into each file's executed lines, as for a test's profile.
    private static func coverageMapping(_ bytes: [UInt8]) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(CoverageMapping.ReadError) -> CoverageMapping? in
                let sections = try ObjectSections.find(["__llvm_covmap", "__llvm_covfun"], in: raw)
                guard let covmap = sections[0], let covfun = sections[1] else { return nil }
                return try CoverageMapping.decode(
                    covmap: UnsafeRawBufferPointer(rebasing: raw[covmap]),
                    covfun: UnsafeRawBufferPointer(rebasing: raw[covfun]))
            }
        }
        guard case .success(let mapping?) = result else { return }
        let profile = RawProfile(
            functions: mapping.functions.map {
                RawProfile.Function(nameRef: $0.nameRef, hash: $0.hash, counters: (0..<8).map { UInt64($0 % 3) })
            })
        let root = mapping.files.first.map { String($0[..<($0.lastIndex(of: "/") ?? $0.startIndex)]) } ?? "/"
        _ = try? ProfileAttribution(mapping: mapping, root: root).executedLines(of: profile)
    }

    /// Zstandard frames (an Xcode result bundle's objects), decoded within a bound of 1 MiB: the
    /// output never exceeds it, an error points inside the input, and what decodes decodes again
    /// within exactly its own size, and not within one byte less. Frames with a checksum are the
    /// differential check: what decodes matches the XXH64 that the encoder computed.
    private static func zstd(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        func decode(_ maximumSize: Int) -> Result<[UInt8], Zstd.DecodeError> {
            bytes.withUnsafeBytes { raw in
                Result { () throws(Zstd.DecodeError) in try Zstd.decompress(raw, maximumSize: maximumSize) }
            }
        }
        let limit = 1 << 20
        switch decode(limit) {
        case .failure(let error):
            guard error.offset >= 0 && error.offset <= bytes.count else {
                throw FuzzInvariantFailure(description: "zstd: error offset \(error.offset) outside the input")
            }
        case .success(let output):
            guard output.count <= limit else {
                throw FuzzInvariantFailure(description: "zstd: \(output.count) bytes, more than the \(limit) allowed")
            }
            guard case .success(output) = decode(output.count) else {
                throw FuzzInvariantFailure(description: "zstd: does not decode again within its own size")
            }
            if !output.isEmpty, case .success = decode(output.count - 1) {
                throw FuzzInvariantFailure(description: "zstd: decodes within one byte less than its size")
            }
        }
    }

    /// A per-test store (`.build/swiftcov/per-test.swiftcov`), read, written back, and asked what
    /// `report --show tests` and `impacted` ask: the lines of every file with their tests, the
    /// tests that executed lines, the report's `lineTests` against the trivia report.
    private static func perTestStore(_ bytes: [UInt8], _ report: CoverageReport?) throws(FuzzInvariantFailure) {
        let coverage: PerTestCoverage
        do {
            coverage = try PerTestStore.decode(bytes)
        } catch {
            guard error.offset >= 0 && error.offset <= bytes.count else {
                throw FuzzInvariantFailure(
                    description: "per-test store: error offset \(error.offset) outside the input")
            }
            return
        }
        let again = PerTestStore.encode(coverage)
        let reread = try? PerTestStore.decode(again)
        guard reread == coverage else {
            throw FuzzInvariantFailure(description: "per-test store: written back, it reads differently")
        }
        for file in coverage.files {
            guard let lines = coverage.lineTests(ofFile: file.path), lines.map(\.line) == file.lines else {
                throw FuzzInvariantFailure(description: "per-test store: lineTests of \(file.path) lose lines")
            }
            _ = TestImpact.tests(in: coverage, executing: [file.path: Array(file.lines.prefix(3))])
        }
        if let report {
            var json = JSONWriter()
            if (try? CoverageJSONReport.write(report, options: .init(), perTest: coverage, to: &json)) != nil {
                try requireWellFormedJSON(json.output, "report --show tests")
            }
        }
        // The HTML pages of its files: each executable line's count of tests is the size of its set.
        for file in coverage.files.prefix(4) {
            guard let tests = HTMLReport.LineTests(coverage, path: file.path) else {
                throw FuzzInvariantFailure(description: "per-test store: no page data for \(file.path)")
            }
            // Each line a region of its own, ended on the line: no line between two is executable
            // (a store may hold line 1 and line 4,294,967,295).
            let segments = file.lines.prefix(64).flatMap {
                [
                    CoverageSegment(
                        line: $0, column: 1, count: 1, hasCount: true, isRegionEntry: true, isGapRegion: false),
                    CoverageSegment(
                        line: $0, column: 2, count: 0, hasCount: false, isRegionEntry: false, isGapRegion: false),
                ]
            }
            let page = HTMLReport.filePage(
                FileCoverage.forTesting(path: file.path, segments: segments), segments: segments,
                source: .missing(path: file.path), annotations: HTMLReport.Annotations(tests: tests),
                options: HTMLReport.Options())
            try requireEscaped(page, "html page with per-test data")
        }
    }

    /// Markup from the input never reaches a page: no tag swiftcov does not write, no control character.
    private static func requireEscaped(_ html: String, _ what: String) throws(FuzzInvariantFailure) {
        // On bytes: a combining mark after a tag must not hide it from a comparison of characters.
        let bytes = Array(html.utf8)
        guard occurrences(of: "<script>", in: bytes) == 0, occurrences(of: "<img", in: bytes) == 0,
            !bytes.contains(where: { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 })
        else {
            throw FuzzInvariantFailure(description: "\(what): unescaped input")
        }
    }

    /// A Swift source file, its lines coloured as a file page colours them (state carried from
    /// line to line), with never-run column ranges taken from the input: the tokens lie in the
    /// line, in order; the page shows the same text as without colours, and its spans nest.
    private static func highlight(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        var highlighter = SwiftHighlighter()
        var tokens: [SwiftHighlighter.Token] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let seed = Int(line.first ?? 0)
            let unexecuted = [UInt32(seed % 16 + 1)..<UInt32(seed % 16 + 1 + seed / 16), 20..<UInt32.max]
            let lineBytes = [UInt8](line)
            try lineBytes.withUnsafeBufferPointer { (line) throws(FuzzInvariantFailure) in
                highlighter.tokens(of: line, into: &tokens)
                var end = 0
                for token in tokens {
                    guard token.range.lowerBound >= end, token.range.upperBound > token.range.lowerBound,
                        token.range.upperBound <= line.count
                    else { throw FuzzInvariantFailure(description: "tokens out of order or bounds: \(tokens)") }
                    end = token.range.upperBound
                }
                var coloured = OutputBuffer()
                HTMLReport.appendCode(&coloured, line, tokens: tokens, unexecuted: unexecuted)
                var plain = OutputBuffer()
                HTMLReport.appendCode(&plain, line, tokens: [], unexecuted: unexecuted)
                let html = coloured.text
                guard text(ofMarkup: html) == text(ofMarkup: plain.text) else {
                    throw FuzzInvariantFailure(description: "colouring changed the text: \(html)")
                }
                // On bytes: a combining mark after `>` must not hide a tag from a comparison of characters.
                let bytes = Array(html.utf8)
                guard occurrences(of: "<span ", in: bytes) == occurrences(of: "</span>", in: bytes)
                else {
                    throw FuzzInvariantFailure(description: "spans do not pair up: \(html)")
                }
                let rest = html.replacing(
                    /<span class="[a-z]+"( title="never ran")?>/.matchingSemantics(.unicodeScalar), with: ""
                ).replacing(/<\/span>/.matchingSemantics(.unicodeScalar), with: "")
                guard !rest.utf8.contains(UInt8(ascii: "<")) else {
                    throw FuzzInvariantFailure(description: "markup in the code: \(html)")
                }
            }
        }
    }

    /// How many times `needle` occurs in `bytes`, not overlapping. A plain scan: the standard
    /// library's generic search allocates per comparison, which under AddressSanitizer made a
    /// page check take most of a run (22 inputs a second instead of thousands).
    private static func occurrences(of needle: String, in bytes: [UInt8]) -> Int {
        let needle = Array(needle.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return 0 }
        var count = 0
        var index = 0
        while index <= bytes.count - needle.count {
            var length = 0
            while length < needle.count && bytes[index + length] == needle[length] { length += 1 }
            if length == needle.count {
                count += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return count
    }

    /// What markup shows as text: its tags removed.
    private static func text(ofMarkup html: String) -> String {
        // Scalar by scalar: a combining mark after `>` must not hide the tag from the pattern.
        html.replacing(/<[^>]*>/.matchingSemantics(.unicodeScalar), with: "")
    }

    // MARK: Checks

    /// A history of runs: read (errors on a line of the input), written back and read again
    /// the same, compacted, judged, and every verdict and the trends rendered.
    private static func history(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        let lineCount = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let reading: HistoryFormat.Reading
        do {
            reading = try bytes.withUnsafeBytes { raw in
                Result { () throws(HistoryFormat.ReadError) in
                    try HistoryFormat.read(raw, path: "h", latestTime: 4_000_000_000)
                }
            }.get()
        } catch {
            guard error.line >= 1 && error.line <= lineCount else {
                throw FuzzInvariantFailure(description: "history: error on line \(error.line) of \(lineCount)")
            }
            return
        }
        let history = reading.history
        var again = HistoryFormat.encode(history)
        let reread = try? again.withUTF8 { raw in
            Result { () throws(HistoryFormat.ReadError) in
                try HistoryFormat.read(UnsafeRawBufferPointer(raw), path: "h")
            }
        }.get()
        guard let reread, reread.history.runs.count == history.runs.count,
            HistoryFormat.encode(reread.history) == again
        else {
            throw FuzzInvariantFailure(description: "history: written back, it reads differently")
        }
        guard history.runs.allSatisfy({ $0.executions.allSatisfy { Int($0.test) < history.names.count } }) else {
            throw FuzzInvariantFailure(description: "history: an execution names no test")
        }
        let half = history.filter { $0.time % 2 == 0 }
        guard half.runs.allSatisfy({ $0.executions.allSatisfy { Int($0.test) < half.names.count } }) else {
            throw FuzzInvariantFailure(description: "history: compacted, an execution names no test")
        }
        let analysis = FlakyVerdicts.analyze(history, options: .init(minimumRuns: 2, minimumFlips: 1, healAfter: 2))
        for finding in analysis.findings where finding.verdict.name.hasPrefix("broken") && finding.verdict.isFlaky {
            throw FuzzInvariantFailure(description: "history: \(finding.test) is broken and flaky")
        }
        if analysis.newestLeftOut != nil, FlakyReport.headline(analysis).contains("no failures") {
            throw FuzzInvariantFailure(description: "history: a newest run left out reads as no failures")
        }
        let trends = HistoryTrends(history)
        // No format or control character of the input reaches a terminal, Markdown or HTML raw.
        for (output, what) in [
            (FlakyReport.table(analysis), "flaky table"), (FlakyReport.markdown(analysis), "flaky Markdown"),
            (TrendsReport.table(trends), "trends table"), (TrendsReport.markdown(trends), "trends Markdown"),
            (TrendsReport.html(trends), "trends HTML"),
        ] where output.unicodeScalars.contains(where: { $0.isFormat && $0 != "\u{200B}" || $0.value == 0x1B }) {
            throw FuzzInvariantFailure(description: "history: a format or control character in the \(what)")
        }
        try requireWellFormedJSON(FlakyReport.json(analysis), "flaky JSON")
    }

    /// An SQLite database (Xcode's `database.sqlite3`): its schema, then every table scanned
    /// row by row and every index entry by entry, twice. An error points inside the input; a scan
    /// gives the same rows again; each row has a value for each column; no scan yields more
    /// payload bytes than the pages could hold.
    private static func sqlite(_ bytes: [UInt8]) throws(FuzzInvariantFailure) {
        let problem: String? = bytes.withUnsafeBytes { raw in
            func outside(_ error: SQLiteDatabase.DecodeError) -> String? {
                error.offset >= 0 && error.offset <= bytes.count
                    ? nil : "error offset \(error.offset) outside the input"
            }
            let database: SQLiteDatabase
            let schema: [SQLiteSchemaEntry]
            do throws(SQLiteDatabase.DecodeError) {
                database = try SQLiteDatabase(raw)
                schema = try database.schema()
            } catch {
                return outside(error)
            }
            let capacity = database.pageCount * database.usableSize
            for entry in schema.prefix(16) {
                do throws(SQLiteDatabase.DecodeError) {
                    if entry.type == "table",
                        let table = SQLiteTable(name: entry.name, rootPage: entry.rootPage, sql: entry.sql)
                    {
                        let rows = try database.rows(of: table)
                        guard rows.allSatisfy({ $0.values.count == table.columns.count }) else {
                            return "a row without a value for each column of \(entry.name)"
                        }
                        guard try database.rows(of: table) == rows else {
                            return "\(entry.name) reads differently twice"
                        }
                    } else if entry.type == "index" {
                        var payload = 0
                        try database.forEachEntry(inTreeAt: entry.rootPage, table: false) { entry in
                            payload += entry.payload.count
                            _ = try? database.values(ofRecord: entry.payload, at: entry.offset)
                            return true
                        }
                        guard payload <= capacity else { return "\(payload) payload bytes from \(capacity)" }
                    }
                } catch {
                    if let problem = outside(error) { return problem }
                }
            }
            // Read as an Xcode result database: each run's steps, failures and attachments.
            do throws(SQLiteDatabase.DecodeError) {
                if let problem = evidenceProblem(try XcodeResultDatabase.evidence(database)) { return problem }
            } catch {
                if let problem = outside(error) { return problem }
            }
            return nil
        }
        if let problem { throw FuzzInvariantFailure(description: "sqlite: " + problem) }
    }

    /// What is wrong with evidence read from any input, if anything: a step that does not follow
    /// its parent one level deeper, a failure or an attachment at a step that does not exist,
    /// more steps or attachments than the limits, activities JSON or an export manifest that is
    /// not well formed, an exported file name that could leave its folder.
    private static func evidenceProblem(_ evidence: [TestEvidence]) -> String? {
        for run in evidence {
            guard run.activities.count <= TestEvidence.maximumActivities,
                run.attachments.count <= TestEvidence.maximumAttachments
            else { return "\(run.activities.count) steps, \(run.attachments.count) attachments" }
            for (position, step) in run.activities.enumerated() {
                if let parent = step.parent {
                    guard parent < position, run.activities[parent].depth + 1 == step.depth else {
                        return "step \(position) not one level under its parent \(parent)"
                    }
                } else if step.depth != 0 {
                    return "a top-level step at depth \(step.depth)"
                }
            }
            let steps = run.activities.indices
            guard run.failures.allSatisfy({ $0.activity.map(steps.contains) ?? true }),
                run.attachments.allSatisfy({ $0.activity.map(steps.contains) ?? true })
            else { return "a failure or an attachment at a step that does not exist" }
            // JSON nested as deep as the steps: parsed back where the JSON reader's depth allows.
            if run.activities.map(\.depth).max() ?? 0 < 60,
                let json = XcodeActivitiesJSON.render([run], testID: run.testIdentifier),
                (try? JSONValue.parse(Array(json.utf8))) == nil
            {
                return "activities JSON not well formed"
            }
        }
        let items = XcodeAttachmentExport.items(evidence, onlyFailures: false)
        for item in items {
            let name = item.exportedFileName
            if name.contains("/") || name.hasPrefix(".") || name.utf8.contains(0) || name == "manifest.json"
                || name.utf8.count > 100
            {
                return "an exported file name that could leave its folder: \(name)"
            }
        }
        if (try? JSONValue.parse(Array(XcodeAttachmentExport.manifest(items).utf8))) == nil {
            return "the export manifest is not well formed"
        }
        return nil
    }

    private static func requireWellFormedJSON(_ json: String, _ what: String) throws(FuzzInvariantFailure) {
        do {
            _ = try JSONValue.parse(Array(json.utf8))
        } catch {
            throw FuzzInvariantFailure(description: "\(what) is not well-formed JSON (\(error.message)): \(json)")
        }
    }

    private static func requireWellFormedXML(_ xml: String, _ what: String) throws(FuzzInvariantFailure) {
        if let problem = XMLCheck.problem(in: Array(xml.utf8)) {
            throw FuzzInvariantFailure(description: "\(what) is not well-formed XML (\(problem)): \(xml)")
        }
    }
}

/// Whether a renderer's XML is well formed, read by swiftcov's own `XMLReader` (its UTF-8
/// checked first, as the JUnit reader does): enough to catch an escaping mistake.
enum XMLCheck {
    /// What is wrong with `bytes`, or nil when they are well formed.
    static func problem(in bytes: [UInt8]) -> String? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return "not UTF-8" }
        var reader = XMLReader(bytes)
        do {
            while try reader.next() != nil {}
        } catch {
            return "\(error.message) at byte \(error.offset)"
        }
        return nil
    }
}
