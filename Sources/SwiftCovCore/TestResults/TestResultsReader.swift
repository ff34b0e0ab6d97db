/// Reads test results from what `swift test` leaves behind — console logs and Swift Testing event
/// streams, told apart by their content — and combines them into one `TestRun`.
package enum TestResultsReader {
    /// What one input holds.
    package enum Input: Sendable {
        /// Console output of `swift test`.
        case log(TestRun)
        /// A Swift Testing event stream.
        case eventStream(TestRun)
    }

    /// Reads each file (or standard input for "-") and combines them; see `combine`.
    package static func read(paths: [String], utcOffset: Int) throws(TestResultsError) -> TestRun {
        var inputs: [Input] = []
        for path in paths { inputs.append(try read(path: path, utcOffset: utcOffset)) }
        return combine(inputs)
    }

    /// Reads one file, or all of standard input for "-".
    package static func read(path: String, utcOffset: Int) throws(TestResultsError) -> Input {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw .unreadable(path: path, reason: error.message)
        }
        let result: Result<Input, TestResultsError> = file.withUnsafeBytes { bytes in
            Result { () throws(TestResultsError) -> Input in try read(bytes: bytes, path: path, utcOffset: utcOffset) }
        }
        return try result.get()
    }

    /// Reads `bytes` (from `path`, for messages): an event stream if it looks like one, else a log.
    package static func read(
        bytes: UnsafeRawBufferPointer, path: String, utcOffset: Int
    ) throws(TestResultsError) -> Input {
        if SwiftTestingEventStream.recognizes(bytes) {
            return .eventStream(try SwiftTestingEventStream.read(bytes, path: path, utcOffset: utcOffset))
        }
        var parser = TestLogParser()
        parser.consume(bytes)
        return .log(parser.finish())
    }

    /// One run from inputs; see `combine(logs:eventStreams:)`.
    package static func combine(_ inputs: [Input]) -> TestRun {
        var logs: [TestRun] = []
        var eventStreams: [TestRun] = []
        for input in inputs {
            switch input {
            case .log(let run): logs.append(run)
            case .eventStream(let run): eventStreams.append(run)
            }
        }
        return combine(logs: logs, eventStreams: eventStreams)
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
                guard suitesByName[name]?.count == 1, let console = consoleByName[name],
                    carried.insert(name).inserted
                else { continue }
                stream.suites[suiteIndex].cases[caseIndex].issues += console.flatMap(\.issues).filter {
                    $0.kind == .warning
                }
                stream.suites[suiteIndex].cases[caseIndex].output.appendLines(
                    console.map(\.output).joinedLines)
            }
        }
        if !consoleOutput.isEmpty, !stream.suites.isEmpty {
            stream.suites[0].output = [consoleOutput, stream.suites[0].output].joinedLines
        }
        run.absorb(stream)
        return run
    }

    /// A run for a log in which no test ran at all (the build failed, or it is not `swift test`
    /// output): one error that says so, with the log's last lines, so CI shows red, not an empty pass.
    package static func missingResults(sources: [String], output: [String]) -> TestRun {
        var testCase = TestRun.Case(className: "swift test", testName: "swift test", status: .error)
        testCase.issues = [
            TestRun.Issue(
                kind: .error,
                message:
                    "No test results in \(sources.joined(separator: ", ")): the build may have failed, or this is not the output of `swift test`."
            )
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
    /// Adds `other`'s suites (joining suites of the same name), summaries and state; XCTest
    /// suites stay before Swift Testing ones.
    mutating func absorb(_ other: TestRun) {
        for suite in other.suites {
            if let index = suites.firstIndex(where: { $0.name == suite.name && $0.framework == suite.framework }) {
                suites[index].cases += suite.cases
                suites[index].output.appendLines(suite.output)
                if let duration = suite.reportedDuration {
                    suites[index].reportedDuration = (suites[index].reportedDuration ?? 0) + duration
                }
            } else if suite.framework == .xctest,
                let firstSwiftTesting = suites.firstIndex(where: { $0.framework == .swiftTesting })
            {
                suites.insert(suite, at: firstSwiftTesting)
            } else {
                suites.append(suite)
            }
        }
        summaries += other.summaries
        isComplete = isComplete && other.isComplete
        hasTestOutput = hasTestOutput || other.hasTestOutput
        output += other.output
    }
}

extension String {
    /// Appends `lines` (text of lines joined by line breaks) after a line break.
    mutating func appendLines(_ lines: String) {
        guard !lines.isEmpty else { return }
        if !isEmpty { self += "\n" }
        self += lines
    }
}

extension Sequence<String> {
    /// The non-empty texts joined by line breaks.
    var joinedLines: String { filter { !$0.isEmpty }.joined(separator: "\n") }
}
