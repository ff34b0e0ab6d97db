import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// `run --retry-failed N` and the order check of `run --per-test`: after the run, each test that
/// failed runs again, alone, up to N times, stopping at its first pass, and every attempt is
/// recorded in the results (`TestRun.Case.attempts`: a pass on retry is flaky); with each test
/// alone, tests that still fail run once more in the suite, to tell a test that fails only
/// alone (or only in the suite) from one that fails.
///
/// The coverage is the run's own: the retries and the suite run come after it is made, and
/// their profiles are not merged into it (a retry runs code a second time, which would change
/// the counts but not what the tests cover).
extension RunWorkflow {
    /// What the retries' runs printed, one after the other (the run's own log stays as it was).
    package static let retriesLogName = "swift-test-retries.log"
    /// What the suite run of `run --per-test`'s order check printed.
    package static let suiteLogName = "swift-test-suite.log"
    /// What the runs of `run --per-test`'s search for the test an order-dependent one depends on printed.
    package static let orderSearchLogName = "swift-test-order-search.log"

    /// At most this many retries of a test (`--retry-failed`).
    package static let maximumRetries = 10

    /// Runs each test of `ids` whose cases failed in `results` again, alone (`runAlone`), up to
    /// `retries` times, stopping at its first pass; records each attempt in `results`. Writes
    /// what the attempts printed to `OUTPUT/swift-test-retries.log`.
    func retryFailures(
        in results: inout TestRun, ids: [TestID], sink: some DiagnosticSink,
        runAlone: (TestID) throws -> (run: TestRun, output: [UInt8])
    ) throws {
        guard retries > 0, !results.failingCases.isEmpty else { return }
        let failing = results.failingIDs(among: ids)
        for testCase in results.failingCases where !failing.contains(where: { $0.matches(testCase) }) {
            sink.emit(
                .warning(
                    "cannot retry \(testCase.className) \(testCase.name): no test ID of `swift test list` names it"))
        }
        var log: [UInt8] = []
        for id in failing {
            for attempt in 1...retries {
                sink.stage("retrying \(id) alone (\(attempt) of \(retries))")
                let (run, output) = try runAlone(id)
                log += Array("=== swiftcov run --retry-failed: \(id), retry \(attempt) of \(retries)\n".utf8) + output
                if log.last.map({ $0 != 0x0A }) ?? false { log.append(0x0A) }
                if results.recordRetry(run, of: id) {
                    sink.note("\(id) passed on retry \(attempt): flaky")
                    break
                }
                if attempt == retries { sink.note("\(id) failed every retry (\(retries))") }
            }
        }
        try system.write(log, to: output + "/" + Self.retriesLogName)
    }

    /// One `swift test` of the built tests (coverage on, as they were built), those `selection`
    /// chooses (`--filter` arguments; nil: the user's `--filter` and `--skip`), its output
    /// captured and read with its own event stream.
    /// `timeout`: seconds after which it is ended (and what it reported so far read).
    func captureSwiftTest(
        selection: [String]?, utcOffset: Int, timeout: Double? = nil
    ) throws -> (run: TestRun, output: [UInt8], timedOut: Bool) {
        let ownStream = !eventStream.arguments.isEmpty
        let events = ownStream ? output + "/rerun-events.jsonl" : eventStream.path
        system.remove(events)
        defer { if ownStream { system.remove(events) } }
        let extra =
            ownStream ? ["--experimental-event-stream-output", events, "--experimental-event-stream-version", "0"] : []
        let command = tests.arguments.testCommand(
            selection: selection, skipBuild: true, extra: extra + (attachments?.arguments ?? []))
        let process = try system.capture(
            Command(
                "swift", command, in: root, mergingErrors: true, timeout: timeout,
                outputLimit: PerTestRunner.defaultOutputLimit))
        var inputs = [
            try process.output.withUnsafeBytes { raw in
                try Result { () throws(TestResultsError) in
                    try TestResultsReader.read(bytes: raw, path: logPath, utcOffset: utcOffset)
                }.get()
            }
        ]
        if let size = system.fileSize(events), size > 0 {
            inputs.append(try TestResultsReader.read(path: events, utcOffset: utcOffset))
        }
        return (TestResultsReader.combine(inputs), process.output, process.timedOut)
    }

    /// The order check of `run --per-test`: when tests of `selected` failed alone (after their
    /// retries), the same selection runs once more as one suite, as `swift test` runs it — the
    /// whole selection, since a test that passes only in the suite passes because of what the
    /// others leave behind. A test that ends one way alone and the other way in the suite is
    /// order-dependent (both ways: one that passed alone but fails in the suite is found too).
    /// Tests that ran out of time alone (`timedOut`) are skipped there: they would stall the
    /// suite; and the suite run ends after `timeout` seconds, what it reported so far compared.
    ///
    /// Each test found runs `OrderSearch.confirmations` more times alone (`runAlone`); when every
    /// run alone agrees, the test it depends on is searched for (`OrderSearch`) among the tests
    /// before it, each search run a `swift test` with a filter (its output in
    /// `OUTPUT/swift-test-order-search.log`); when they disagree, it is flaky, and not searched.
    func checkOrder(
        of results: TestRun, selected: [TestID], timedOut: [TestID], selection: [String]?, timeout: Double,
        utcOffset: Int, sink: some DiagnosticSink, runAlone: (TestID) throws -> TestRun.Status?
    ) throws -> [OrderDependence] {
        let failedAlone = selected.filter { !timedOut.contains($0) && (results.status(of: $0) ?? .passed) >= .failed }
        guard !failedAlone.isEmpty else { return [] }
        sink.stage(
            "\(failedAlone.count) test(s) failed alone: running the \(selected.count - timedOut.count) tests together "
                + "once, as swift test runs them, to find tests that depend on the others (\(Self.suiteLogName))")
        var filter = selection
        if !timedOut.isEmpty {
            filter =
                (selection
                    ?? tests.arguments.filters.flatMap { ["--filter", $0] }
                    + tests.arguments.skips.flatMap { ["--skip", $0] })
                + timedOut.flatMap { ["--skip", $0.filterPattern] }
        }
        let (suite, output, ended) = try captureSwiftTest(selection: filter, utcOffset: utcOffset, timeout: timeout)
        try system.write(output, to: self.output + "/" + Self.suiteLogName)
        if ended {
            sink.emit(
                .warning(
                    "the suite run was still running after \(PerTestRunner.seconds(timeout)) s and was ended: "
                        + "the tests it did not report are not compared"))
        }
        var found: [OrderDependence] = []
        let deadline = Subprocess.monotonicSeconds() + OrderSearch.seconds
        var searchLog: [UInt8] = []
        for (index, test) in selected.enumerated() where !timedOut.contains(test) {
            guard let alone = results.status(of: test), let inSuite = suite.status(of: test),
                (alone >= .failed) != (inSuite >= .failed)
            else { continue }
            var dependence = OrderDependence(id: test.id, alone: alone, inSuite: inSuite)
            // Its retries alone (`--retry-failed`) are runs alone too.
            let retried = results.suites.lazy.flatMap(\.cases).first(where: test.matches)?.attempts ?? []
            dependence.aloneRuns += retried.count
            dependence.aloneAgreeing += retried.filter { ($0.status >= .failed) == (alone >= .failed) }.count
            for attempt in 1...OrderSearch.confirmations {
                sink.stage("running \(test) alone again to confirm it (\(attempt) of \(OrderSearch.confirmations))")
                dependence.aloneRuns += 1
                if let again = try runAlone(test), (again >= .failed) == (alone >= .failed) {
                    dependence.aloneAgreeing += 1
                }
            }
            if dependence.isConsistent {
                let candidates = selected[..<index].filter { $0.library == test.library && !timedOut.contains($0) }
                sink.stage("looking for the test \(test) depends on among the \(candidates.count) before it")
                let outcome = try OrderSearch.find(
                    among: candidates, deadline: deadline, now: Subprocess.monotonicSeconds
                ) { subset in
                    let (run, output, _) = try captureSwiftTest(
                        selection: ["--filter", TestList.filterPattern(for: subset + [test])], utcOffset: utcOffset,
                        timeout: timeout)
                    let status = run.status(of: test)
                    searchLog +=
                        Array(
                            "=== swiftcov run --per-test: \(test) after \(subset.count) tests, \(status?.rawValue ?? "not run")\n"
                                .utf8) + output
                    if searchLog.last.map({ $0 != 0x0A }) ?? false { searchLog.append(0x0A) }
                    return status.map { ($0 >= .failed) == (inSuite >= .failed) } ?? false
                }
                switch outcome {
                case .found(let cause): dependence.cause = cause
                case .notFound(let reason): dependence.notFound = reason
                }
            }
            sink.emit(.warning(dependence.isConsistent ? "order-dependent test \(dependence)" : "\(dependence)"))
            found.append(dependence)
        }
        if !searchLog.isEmpty { try system.write(searchLog, to: self.output + "/" + Self.orderSearchLogName) }
        return found
    }
}

extension RunWorkflow {
    /// The header `retryFailures` writes before each attempt in the retries' log.
    static let retryHeader = "=== swiftcov run --retry-failed: "

    /// `results`, the run's own, with the attempts of the retries the run left in `folder`
    /// (`swift-test-retries.log`) recorded as `run --retry-failed` recorded them: what the run
    /// reported reads the same after it (`junit`, `history add` of the folder). Unchanged when
    /// the folder has no retries' log.
    package static func addingRetries(
        in folder: String, to results: TestRun, utcOffset: Int
    ) throws(TestResultsError) -> TestRun {
        let path = folder + "/" + retriesLogName
        guard FileSystem.kind(of: path) == .file else { return results }
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch {
            throw .unreadable(path: path, reason: error.message)
        }
        var results = results
        let header = Array(retryHeader.utf8)
        try file.withUnsafeBytes { (bytes) throws(TestResultsError) in
            // Each attempt: its header line, then what its `swift test` printed up to the next header.
            var starts: [Int] = []
            var lineStart = 0
            while lineStart < bytes.count {
                if bytes.count - lineStart >= header.count,
                    zip(bytes[lineStart..<lineStart + header.count], header).allSatisfy({ $0 == $1 })
                {
                    starts.append(lineStart)
                }
                guard let newline = bytes[lineStart...].firstIndex(of: 0x0A) else { break }
                lineStart = newline + 1
            }
            for (index, start) in starts.enumerated() {
                let end = index + 1 < starts.count ? starts[index + 1] : bytes.count
                let headerEnd = bytes[start..<end].firstIndex(of: 0x0A) ?? end
                let line = String(decoding: bytes[(start + header.count)..<headerEnd], as: UTF8.self)
                guard let comma = line.ranges(of: ", retry ").last, let id = TestID(line[..<comma.lowerBound])
                else {
                    throw .unreadable(path: path, reason: "line \"\(line)\" names no test (byte offset \(start))")
                }
                let body = UnsafeRawBufferPointer(rebasing: bytes[min(headerEnd + 1, end)..<end])
                let attempt = TestResultsReader.combine([
                    try TestResultsReader.read(bytes: body, path: path, utcOffset: utcOffset)
                ])
                _ = results.recordRetry(attempt, of: id)
            }
        }
        guard !file.shrankWhileRead else { throw .unreadable(path: path, reason: MappedFile.shrankMessage) }
        return results
    }
}
