import Foundation
import Testing

@testable import SwiftCovCore

/// A `swift test` log in `Fixtures/logs/` or `SampleReports/`, and the counts it states itself.
struct LogFixture: CustomTestStringConvertible, Sendable {
    let name: String
    let path: String

    init(_ name: String) {
        self.name = name
        if name.hasPrefix("SampleReports/") {
            path = packageRoot + "/" + name
        } else {
            path = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/logs/\(name)").path
        }
    }

    var testDescription: String { name }

    var bytes: [UInt8] { get throws { Array(try Data(contentsOf: URL(fileURLWithPath: path))) } }

    var text: String { get throws { String(decoding: try bytes, as: UTF8.self) } }

    /// The log read as the `junit` command reads a file.
    func run(index: TestSourceIndex = TestSourceIndex()) throws -> TestRun {
        try TestResultsReader.read(paths: [path], utcOffset: 0).resolving(with: index)
    }

    /// The log and an event stream read together.
    func run(events: String) throws -> TestRun {
        try TestResultsReader.read(paths: [path, LogFixture(events).path], utcOffset: 0)
    }

    /// Logs of complete runs, from the toolchain (and two invented for the platforms it cannot run here).
    static let complete = [
        "SampleReports/swift-test-passing.log", "SampleReports/swift-test-failing.log",
        "hostile-xctest-and-swift-testing.log", "hostile-with-events.log", "hostile-terminal.log",
        "hostile-build-and-test.log", "swift-algorithms.log", "yams.log", "swift-collections-swift-testing.log",
        "invented-macos.log", "invented-windows.log",
    ].map(LogFixture.init)
}

/// What a log's own summary lines say, read with regular expressions independent of the parser.
struct StatedCounts: Equatable {
    /// Sum over the outermost XCTest suites' `Executed N tests, with K tests skipped and F failures (U unexpected)`.
    var xctest: (tests: Int, skipped: Int, failures: Int, unexpected: Int)?
    /// Sum over `Test run with N tests … with X issues (including W warnings and K known issues)`.
    var swiftTesting: (tests: Int, issues: Int, warnings: Int, knownIssues: Int)?

    static func == (a: StatedCounts, b: StatedCounts) -> Bool {
        a.xctest.map { [$0.tests, $0.skipped, $0.failures, $0.unexpected] }
            == b.xctest.map { [$0.tests, $0.skipped, $0.failures, $0.unexpected] }
            && a.swiftTesting.map { [$0.tests, $0.issues, $0.warnings, $0.knownIssues] }
                == b.swiftTesting.map { [$0.tests, $0.issues, $0.warnings, $0.knownIssues] }
    }

    init(log: String) throws {
        let text = log.replacingOccurrences(of: "\r", with: "").replacing(#/\x1B\[[0-9;]*m/#, with: "")
        let root =
            #/Test Suite '(?:All tests|Selected tests)' (?:passed|failed) at [^\n]*\n\s+Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures? \((\d+) unexpected\)/#
        for match in text.matches(of: root) {
            let old = xctest ?? (0, 0, 0, 0)
            xctest = (
                old.tests + Int(match.1)!, old.skipped + (match.2.map { Int($0)! } ?? 0),
                old.failures + Int(match.3)!, old.unexpected + Int(match.4)!
            )
        }
        let run =
            #/Test run with (\d+) tests?(?: in \d+ suites?)? (?:passed|failed) after [\d.]+ seconds(?: with ([^\n]*))?\./#
        for match in text.matches(of: run) {
            let tail = match.2.map(String.init) ?? ""
            func count(_ pattern: Regex<(Substring, Substring)>) -> Int {
                tail.firstMatch(of: pattern).map { Int($0.1)! } ?? 0
            }
            let warnings = count(#/(\d+) warnings?/#)
            let known = count(#/(\d+) known issues?/#)
            let issues = tail.firstMatch(of: #/^(\d+) issues?/#).map { Int($0.1)! } ?? (warnings + known)
            let old = swiftTesting ?? (0, 0, 0, 0)
            swiftTesting = (
                old.tests + Int(match.1)!, old.issues + issues, old.warnings + warnings, old.knownIssues + known
            )
        }
    }

    /// The same counts taken from what swiftcov read.
    init(run: TestRun) {
        let xctestCases = run.cases.filter { testCase in
            run.suites.contains { $0.framework == .xctest && $0.name == testCase.className }
        }
        let issues = xctestCases.flatMap(\.issues)
        if !xctestCases.isEmpty || run.summaries.contains(where: { if case .xctest = $0 { true } else { false } }) {
            xctest = (
                xctestCases.count, xctestCases.filter { $0.status == .skipped }.count,
                issues.filter { $0.kind == .failure || $0.kind == .error }.count,
                issues.filter { $0.kind == .error }.count
            )
        }
        let swiftCases = run.suites.filter { $0.framework == .swiftTesting }.flatMap(\.cases)
        if !swiftCases.isEmpty
            || run.summaries.contains(where: { if case .swiftTesting = $0 { true } else { false } })
        {
            // One Swift Testing test, however many cases it has.
            let tests = Set(swiftCases.map { [$0.className, $0.testName] }).count
            let all = swiftCases.flatMap(\.issues).filter { $0.kind != .crash }
            swiftTesting = (
                tests, all.count, all.filter { $0.kind == .warning }.count, all.filter { $0.kind == .knownIssue }.count
            )
        }
    }
}
