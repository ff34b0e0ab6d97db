import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// Reads test results from what `swift test` leaves behind — console logs, Swift Testing event
/// streams and JUnit XML — and Xcode's (`xcresulttool`'s JSON, an object of a result bundle),
/// told apart by their content, and combines them into one `TestRun`.
package enum TestResultsReader {
    /// What one input holds.
    package enum Input: Sendable {
        /// Console output of `swift test`.
        case log(TestRun)
        /// A Swift Testing event stream.
        case eventStream(TestRun)
        /// JUnit XML (swiftcov's, or SwiftPM's `--xunit-output`); combined as a log is.
        case junit(TestRun)
        /// Xcode's test results: `xcresulttool get test-results tests` or `summary` JSON,
        /// `xcresulttool get --legacy` JSON, or an object of a result bundle (decompressed).
        case xcode(TestRun)
    }

    /// Reads each file (or standard input for "-") and combines them; see `combine`.
    package static func read(paths: [String], utcOffset: Int) throws(TestResultsError) -> TestRun {
        var inputs: [Input] = []
        for path in paths { inputs.append(try read(path: path, utcOffset: utcOffset)) }
        return combine(inputs)
    }

    /// Reads one file, or all of standard input for "-", in pieces: memory holds the tests, not
    /// the file.
    package static func read(path: String, utcOffset: Int) throws(TestResultsError) -> Input {
        // An Xcode result bundle is a folder of objects.
        if path != "-", XCResultBundle.isBundle(path) { return .xcode(try XCResultBundle.testRun(path: path)) }
        let descriptor: Int32
        do {
            descriptor = path == "-" ? FileDescriptor.standardInput : try FileDescriptor.openForReading(path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        defer { if path != "-" { FileDescriptor.close(descriptor) } }
        let opened = FileDescriptor.status(of: descriptor)
        if opened?.kind == .directory { throw .unreadable(path: path, reason: "is a folder") }
        // A file is mapped and read a window at a time (no copy); standard input, pipes and files
        // that state no size (as in /proc) are read as they come.
        if path != "-", let opened, opened.kind == .file, opened.size > 0 {
            let file: MappedFile
            do { file = try MappedFile(descriptor: descriptor, reading: .inOrder) } catch {
                throw .unreadable(path: path, reason: error.message)
            }
            return try read(file, path: path, utcOffset: utcOffset)
        }
        var stream = TestResultsStream(path: path, utcOffset: utcOffset)
        try read(descriptor: descriptor, path: path, into: &stream)
        return try stream.finish()
    }

    /// Reads `descriptor` (from `path`, for messages: "-" for standard input) to its end into
    /// `stream`, in pieces as they come: standard input, pipes, files that state no size. `piece`
    /// sees each piece before it is parsed (to pass standard input through); `stop` is asked after
    /// each piece and when a signal interrupts a read, and ends the reading when true (what was read
    /// is kept).
    package static func read(
        descriptor: Int32, path: String, into stream: inout TestResultsStream,
        piece: (UnsafeRawBufferPointer) -> Void = { _ in }, stop: () -> Bool = { false }
    ) throws(TestResultsError) {
        // Pieces that stay in a core's cache between being read and being parsed.
        let capacity = 256 << 10
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let read: Int?
            do {
                read = try FileDescriptor.read(descriptor, into: buffer, count: capacity, path: path)
            } catch {
                throw .unreadable(path: path, reason: error.reason)
            }
            guard let count = read else {
                if stop() { return }
                continue
            }
            if count == 0 { return }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
            piece(bytes)
            try stream.consume(bytes)
            if stop() { return }
        }
    }

    /// Reads a file mapped with `MappedFile.Reading.inOrder` (from `path`, for messages); a file
    /// that shrank meanwhile is an error, not the tests read before its new end.
    package static func read(_ file: MappedFile, path: String, utcOffset: Int) throws(TestResultsError) -> Input {
        var stream = TestResultsStream(path: path, utcOffset: utcOffset)
        try file.forEachWindow { (window) throws(TestResultsError) in try stream.consume(window) }
        guard !file.shrankWhileRead else { throw .unreadable(path: path, reason: MappedFile.shrankMessage) }
        return try stream.finish()
    }

    /// Reads `bytes` (from `path`, for messages): an event stream or JUnit XML if it looks like
    /// one, else a log.
    package static func read(
        bytes: UnsafeRawBufferPointer, path: String, utcOffset: Int
    ) throws(TestResultsError) -> Input {
        var stream = TestResultsStream(path: path, utcOffset: utcOffset)
        try stream.consume(bytes)
        return try stream.finish()
    }

    /// One run from inputs; see `combine(logs:eventStreams:)`. JUnit files are complete
    /// results, not console output an event stream would correct: they are added after, so
    /// that no Swift Testing result of one (a shard's) is replaced by another input's stream.
    package static func combine(_ inputs: [Input]) -> TestRun {
        var logs: [TestRun] = []
        var eventStreams: [TestRun] = []
        var junit: [TestRun] = []
        for input in inputs {
            switch input {
            case .log(let run): logs.append(run)
            case .junit(let run), .xcode(let run): junit.append(run)
            case .eventStream(let run): eventStreams.append(run)
            }
        }
        var run = combine(logs: logs, eventStreams: eventStreams)
        for file in junit { run.absorb(file) }
        return run
    }

    /// One run from console logs (in order: shards, or XCTest and Swift Testing run apart) and
    /// event streams. When an event stream is given it is the authority for Swift Testing: the
    /// console's Swift Testing results are replaced, keeping only what the stream lacks (warnings,
    /// which version 0 does not carry, and printed output) for tests it names the same way.
    package static func combine(logs: [TestRun], eventStreams: [TestRun]) -> TestRun {
        var run = TestRun()
        run.hasTestOutput = false
        for log in logs { run.absorb(log) }
        guard !eventStreams.isEmpty else { return run }
        var stream = TestRun()
        for eventStream in eventStreams { stream.absorb(eventStream) }

        let consoleCases = run.suites.filter { $0.framework == .swiftTesting }.flatMap(\.cases)
        let consoleOutput = run.suites.filter { $0.framework == .swiftTesting }.map(\.output).joinedLines
        let consoleSummaries = run.summaries.filter {
            if case .swiftTesting = $0 { return true } else { return false }
        }
        run.suites.removeAll { $0.framework == .swiftTesting }
        if !consoleSummaries.isEmpty {
            stream.summaries.removeAll {
                if case .swiftTesting = $0 { return true } else { return false }
            }
        }
        // Names shared by several tests cannot be matched; the rest carry over.
        var suitesByName: [String: Set<String>] = [:]
        for suite in stream.suites {
            for testCase in suite.cases { suitesByName[testCase.testName, default: []].insert(suite.name) }
        }
        var consoleByName: [String: [TestRun.Case]] = [:]
        for testCase in consoleCases { consoleByName[testCase.testName, default: []].append(testCase) }
        var carried: Set<String> = []
        for suiteIndex in stream.suites.indices {
            for caseIndex in stream.suites[suiteIndex].cases.indices {
                let name = stream.suites[suiteIndex].cases[caseIndex].testName
                guard suitesByName[name]?.count == 1, let console = consoleByName[name] else { continue }
                // The stream only knows that the test did not finish; the console says how it
                // crashed (every case of a parameterized test).
                if let crash = console.lazy.flatMap(\.issues).first(where: { $0.kind == .crash }),
                    let index = stream.suites[suiteIndex].cases[caseIndex].issues.firstIndex(where: {
                        $0.kind == .crash
                    })
                {
                    stream.suites[suiteIndex].cases[caseIndex].issues[index] = crash
                }
                guard carried.insert(name).inserted else { continue }
                stream.suites[suiteIndex].cases[caseIndex].issues += console.flatMap(\.issues).filter {
                    $0.kind == .warning
                }
                stream.suites[suiteIndex].cases[caseIndex].output.appendLines(
                    console.map(\.output).joinedLines)
            }
        }
        // A failing test of a console the streams do not name at all (a shard whose stream is
        // missing) is kept: a failure is never lost.
        let unmatched = consoleCases.filter {
            ($0.status == .failed || $0.status == .error) && suitesByName[$0.testName] == nil
        }
        if !unmatched.isEmpty {
            var suite = TestRun.Suite(name: TestRun.swiftTestingSuiteName, framework: .swiftTesting)
            suite.cases = unmatched
            stream.suites.append(suite)
        }
        if !consoleOutput.isEmpty, !stream.suites.isEmpty {
            stream.suites[0].output = [consoleOutput, stream.suites[0].output].joinedLines
        }
        run.absorb(stream)
        return run
    }

    /// A run for a log in which no test ran at all (the build failed, or it is not `swift test`
    /// output): one error that says so, with the log's last lines, so CI shows red, not an empty pass.
    package static func missingResults(sources: [String], output: [String], interrupted: Bool = false) -> TestRun {
        var testCase = TestRun.Case(className: "swift test", testName: "swift test", status: .error)
        let reason =
            interrupted
            ? TestResultsError.interruptedReason
            : "the build may have failed, or this is not the output of `swift test`"
        testCase.issues = [
            TestRun.Issue(kind: .error, message: "No test results in \(sources.joined(separator: ", ")): \(reason).")
        ]
        testCase.output = output.suffix(50).joined(separator: "\n")
        var suite = TestRun.Suite(name: "swift test", framework: .xctest)
        suite.cases = [testCase]
        var run = TestRun(suites: [suite])
        run.isComplete = false
        return run
    }
}

extension TestRun {
    /// Adds `other`'s suites (joining each to a suite of the same name read before: a class run
    /// in several shards), summaries and state; XCTest suites stay before Swift Testing ones.
    /// Suites of one input are never joined: two classes of the same name in two test modules
    /// are two suites. A test both runs report (the same suite, class and name) is kept once,
    /// with the worse outcome, and noted in `duplicates`.
    mutating func absorb(_ other: TestRun) {
        summaries += other.summaries
        isComplete = isComplete && other.isComplete
        hasTestOutput = hasTestOutput || other.hasTestOutput
        wasInterrupted = wasInterrupted || other.wasInterrupted
        output += other.output
        duplicates += other.duplicates
        warnings += other.warnings
        // By index: a run of many suites is not copied.
        let frameworks = other.suites.indices.lazy.map { other.suites[$0].framework }
        let otherSwiftTesting = frameworks.firstIndex(of: .swiftTesting) ?? other.suites.count
        if suites.isEmpty, !frameworks[otherSwiftTesting...].contains(.xctest) {
            suites = other.suites  // the first input, XCTest first already: shared, not copied
            return
        }
        func key(_ suite: Suite) -> String { suite.framework.rawValue + "\u{0}" + suite.name }
        func caseKey(_ testCase: Case) -> String { testCase.className + "\u{0}" + testCase.name }
        // The suites read before, by name (one input may have several of one name).
        var existing: [String: [Int]] = [:]
        for (index, suite) in suites.enumerated() { existing[key(suite), default: []].append(index) }
        var known: [String: [String: (suite: Int, case: Int)]] = [:]
        var newXCTest: [Suite] = []
        var newSwiftTesting: [Suite] = []
        for suite in other.suites {
            guard let indices = existing[key(suite)], let first = indices.first else {
                if suite.framework == .xctest { newXCTest.append(suite) } else { newSwiftTesting.append(suite) }
                continue
            }
            if known[key(suite)] == nil {
                var places: [String: (suite: Int, case: Int)] = [:]
                for index in indices {
                    for (position, testCase) in suites[index].cases.enumerated() {
                        places[caseKey(testCase)] = (index, position)
                    }
                }
                known[key(suite)] = places
            }
            var added = suite
            added.cases = []
            for testCase in suite.cases {
                guard let place = known[key(suite)]![caseKey(testCase)] else {
                    added.cases.append(testCase)
                    continue
                }
                let earlier = suites[place.suite].cases[place.case].status
                if testCase.status > earlier { suites[place.suite].cases[place.case] = testCase }
                duplicates.append(
                    Duplicate(
                        suite: suite.name, test: testCase.name, outcomes: [earlier, testCase.status],
                        kept: max(earlier, testCase.status)))
            }
            suites[first].join(added)
        }
        let firstSwiftTesting = suites.firstIndex { $0.framework == .swiftTesting } ?? suites.count
        suites.insert(contentsOf: newXCTest, at: firstSwiftTesting)
        suites += newSwiftTesting
    }
}

extension Sequence<String> {
    /// The non-empty texts joined by line breaks.
    var joinedLines: String { filter { !$0.isEmpty }.joined(separator: "\n") }
}

/// Reads one input given in pieces, as a console log or an event stream: the first line tells.
package struct TestResultsStream {
    private enum State {
        case undecided([UInt8])
        case log(TestLogParser)
        case eventStream(SwiftTestingEventStream.Reader)
        /// JUnit XML, read whole at the end.
        case junit([UInt8])
        /// A JSON document that is not an event stream (Xcode's), or an Xcode object in the
        /// typed encoding of result bundles: read whole at the end.
        case xcode([UInt8])
    }

    private var state = State.undecided([])
    private let path: String
    private let utcOffset: Int
    /// The largest JUnit document read: it is held whole (a log or an event stream is read as
    /// it comes, in bounded memory).
    private let junitByteLimit: Int

    /// The default `junitByteLimit`: 1 GiB.
    package static let junitByteLimit = 1 << 30

    /// A reader of the input `path` (named in messages).
    package init(path: String, utcOffset: Int, junitByteLimit: Int = TestResultsStream.junitByteLimit) {
        self.path = path
        self.utcOffset = utcOffset
        self.junitByteLimit = junitByteLimit
    }

    /// Whether the input is JUnit XML (or an Xcode result), which is read only once it has
    /// ended: cut short (by a signal), it cannot be read at all.
    package var isJUnit: Bool {
        switch state {
        case .junit, .xcode: return true
        default: return false
        }
    }

    /// Reads the next bytes.
    package mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(TestResultsError) {
        switch state {
        case .undecided(var head):
            head.append(contentsOf: bytes)
            // The first line decides; wait for it (a log's may be long: not beyond 64 KiB).
            let start = head.firstIndex { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
            guard let start, head[start...].contains(0x0A) || head.count >= 1 << 16 else {
                state = .undecided(head)
                return
            }
            try decide(head)
        case .log(var parser):
            state = .undecided([])
            parser.consume(bytes)
            state = .log(parser)
        case .eventStream(var reader):
            state = .undecided([])
            try reader.consume(bytes)
            state = .eventStream(reader)
        case .junit(var document):
            state = .undecided([])
            try append(bytes, to: &document)
            state = .junit(document)
        case .xcode(var document):
            state = .undecided([])
            try append(bytes, to: &document)
            state = .xcode(document)
        }
    }

    /// Ends the input.
    package mutating func finish() throws(TestResultsError) -> TestResultsReader.Input {
        if case .undecided(let head) = state { try decide(head) }
        switch state {
        case .log(var parser):
            state = .undecided([])  // the parser alone holds its state: the run is not copied
            return .log(parser.finish())
        case .eventStream(var reader): return .eventStream(try reader.finish())
        case .junit(let document): return .junit(try JUnitXMLReader.read(document, path: path))
        case .xcode(let document): return .xcode(try Self.readXcode(document, path: path))
        case .undecided: return .log(TestRun())
        }
    }

    private mutating func decide(_ head: [UInt8]) throws(TestResultsError) {
        if head.withUnsafeBytes({ JUnitXMLReader.recognizes($0) }) {
            try checkSize(head.count)
            state = .junit(head)
            return
        }
        // A log or an event stream is UTF-8 or UTF-16; UTF-32 would read as no test at all.
        if let (encoding, _) = head.withUnsafeBytes({ JUnitXMLReader.WideEncoding.detect($0) }),
            encoding == .utf32LittleEndian || encoding == .utf32BigEndian
        {
            throw .unreadable(
                path: path,
                reason: "\(encoding.name) text that is not JUnit XML; a log or an event stream must be UTF-8 or UTF-16")
        }
        let isStream = head.withUnsafeBytes { SwiftTestingEventStream.recognizes($0) }
        let first = head.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if !isStream, first == UInt8(ascii: "{") || head.withUnsafeBytes(XCResultObject.recognizesTypedEncoding) {
            // A JSON document (a `swift test` log never starts with "{"): Xcode's, read whole.
            try checkSize(head.count)
            state = .xcode(head)
            return
        }
        if isStream {
            var reader = SwiftTestingEventStream.Reader(path: path, utcOffset: utcOffset)
            let result: Result<Void, TestResultsError> = head.withUnsafeBytes { bytes in
                Result { () throws(TestResultsError) in try reader.consume(bytes) }
            }
            try result.get()
            state = .eventStream(reader)
        } else {
            var parser = TestLogParser()
            head.withUnsafeBytes { parser.consume($0) }
            state = .log(parser)
        }
    }
}

extension TestResultsStream {
    /// Appends to a document read whole, within the limit.
    private func append(_ bytes: UnsafeRawBufferPointer, to document: inout [UInt8]) throws(TestResultsError) {
        let needed = document.count + bytes.count
        try checkSize(needed)
        if needed > document.capacity {
            // Doubled, and past half the limit the limit at once: a document near it is
            // never copied again into a larger buffer (2 GB resident for 1 GiB of XML).
            let doubled = max(needed, document.capacity * 2)
            document.reserveCapacity(doubled > junitByteLimit / 2 ? junitByteLimit : doubled)
        }
        document.append(contentsOf: bytes)
    }

    /// An Xcode result read whole: JSON (`xcresulttool`'s, legacy or Xcode 16's) or a result
    /// bundle's object. References to other objects cannot be followed from one file: a legacy
    /// invocation record gives the failures it names, not its tests (give `--id` of its
    /// `testsRef` for those).
    static func readXcode(_ document: [UInt8], path: String) throws(TestResultsError) -> TestRun {
        let skipped = document.starts(with: JSONValue.byteOrderMark) ? JSONValue.byteOrderMark.count : 0
        let result: Result<TestRun, TestResultsError> = document.withUnsafeBytes { buffer in
            Result { () throws(TestResultsError) -> TestRun in
                try readXcode(UnsafeRawBufferPointer(rebasing: buffer[skipped...]), skipped: skipped, path: path)
            }
        }
        return try result.get()
    }

    /// `readXcode` on the bytes after a byte order mark of `skipped` bytes.
    private static func readXcode(
        _ bytes: UnsafeRawBufferPointer, skipped: Int, path: String
    ) throws(TestResultsError) -> TestRun {
        if XCResultObject.recognizesTypedEncoding(bytes) {
            let object = try XCResultObject.parseTypedEncoding(bytes, path: path)
            return try XcodeTestResults.testRun(object: object, load: { _ in nil }, path: path)
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw .malformedXcodeResult(
                path: path, offset: error.offset + skipped, keyPath: JSONKeyPath.path(at: error.offset, in: bytes),
                message: error.message)
        }
        if XCResultObject.isLegacyJSON(json) {
            let object = try XCResultObject.legacyJSON(json, path: path)
            return try XcodeTestResults.testRun(object: object, load: { _ in nil }, path: path)
        }
        if XCResultToolJSON.isTests(json) { return try XCResultToolJSON.testRun(tests: json, path: path) }
        if XCResultToolJSON.isSummary(json) { return try XCResultToolJSON.testRun(summary: json, path: path) }
        throw .malformedXcodeResult(
            path: path, offset: nil, keyPath: nil,
            message:
                "JSON that is not a Swift Testing event stream nor Xcode's test results "
                + "(`xcresulttool get test-results tests|summary`, or `get --legacy`)")
    }

    /// Refuses a JUnit document of `size` bytes past the limit.
    private func checkSize(_ size: Int) throws(TestResultsError) {
        guard size > junitByteLimit else { return }
        throw .unreadable(
            path: path,
            reason:
                "JUnit XML larger than \(TestResultsStream.describe(bytes: junitByteLimit)), which is held whole to be read; "
                + "split it (one file per test target or shard) or give the `swift test` log instead")
    }

    /// "1 GiB", "64 KiB", "100 bytes".
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 30 && bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
