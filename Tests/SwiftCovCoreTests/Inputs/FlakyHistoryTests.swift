import Foundation
import Testing

@testable import SwiftCovCore

/// Tests/Fixtures/FlakyHistory: real recorded runs of Tests/Fixtures/FlakyPackage (see its
/// README), read with the test results reader, keep the properties the flaky verdicts are tested
/// on: each seeded flaky test both failed and passed, the broken tests always failed, the
/// order-dependent test passed in the suite and failed alone, and the infrastructure run died.
@Suite("the flaky fixture's recorded runs")
struct FlakyHistoryTests {
    static let folder = packageRoot + "/Tests/Fixtures/FlakyHistory"

    /// The seeded flaky tests and their probabilities of failing.
    static let flaky = [
        "testFlakyMean": 0.3, "testFlakyMedian": 0.2, "flakyTitleCase()": 0.05, "flakyReversedWords()": 0.1,
    ]
    static let broken = ["testPercentOfAThird", "slugKeepsAccents()"]
    static let orderDependent = "testBReadsDefaults"
    static let steady = [
        "testSum", "testMean", "testMedian", "testPercent", "testARegistersDefaults", "testUnknownSettingIsNil",
        "testRunnerIsHealthy", "splitsWords()", "titleCase()", "slugDropsPunctuation()", "reversesWords()",
        "meanOfNothing()",
    ]

    /// One line of manifest.tsv, and the run its log (and event stream, beside it) hold.
    struct Recording {
        let log: String
        let commit: String
        let time: String
        let status: Int
        let kind: String
        let run: TestRun

        /// Each test's outcome, by test name (the fixture's names are unique).
        var outcomes: [String: TestRun.Status] {
            Dictionary(run.cases.map { ($0.testName, $0.status) }, uniquingKeysWith: { max($0, $1) })
        }

        func failure(of test: String) -> String {
            run.cases.first { $0.testName == test }?.failingIssues.map(\.message).joined(separator: "\n") ?? ""
        }
    }

    static func recordings() throws -> [Recording] {
        let manifest = try String(contentsOfFile: folder + "/manifest.tsv", encoding: .utf8)
        return try manifest.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 7, "\(line)")
            var paths = [folder + "/" + fields[0]]
            let events = folder + "/" + fields[0].replacingOccurrences(of: ".log", with: ".events.jsonl")
            if FileManager.default.fileExists(atPath: events) { paths.append(events) }
            return Recording(
                log: fields[0], commit: fields[1], time: fields[4], status: try #require(Int(fields[5])),
                kind: fields[6], run: try TestResultsReader.read(paths: paths, utcOffset: 0))
        }
    }

    @Test("the manifest: 24 suite runs or more on two commits, one hour apart, an infrastructure run, runs alone")
    func manifest() throws {
        let recordings = try Self.recordings()
        let suites = recordings.filter { $0.kind == "suite" }
        try #require(suites.count >= 24 && suites.count <= 40)
        #expect(recordings.filter { $0.kind == "infra" }.count == 1)
        #expect(recordings.contains { $0.kind == "alone" })
        #expect(Set(recordings.map(\.kind)) == ["suite", "infra", "alone"])
        #expect(Set(recordings.map(\.commit)).count == 2)
        #expect(suites[17].commit != suites[16].commit && Set(suites[17...].map(\.commit)).count == 1)
        let times = recordings.map(\.time)
        #expect(times == times.sorted() && Set(times).count == times.count)
        // Every recording had a failing test, and `swift test` said so.
        #expect(recordings.allSatisfy { $0.status == 1 && $0.run.hasTestOutput })
    }

    @Test("every suite run is complete; steady tests pass, broken ones fail, the order-dependent one passes")
    func suiteRuns() throws {
        for recording in try Self.recordings() where recording.kind == "suite" {
            let outcomes = recording.outcomes
            #expect(recording.run.isComplete, "\(recording.log)")
            #expect(outcomes.count == 19, "\(recording.log)")
            for test in Self.steady + [Self.orderDependent] {
                #expect(outcomes[test] == .passed, "\(recording.log): \(test)")
            }
            for test in Self.broken {
                #expect(outcomes[test] == .failed, "\(recording.log): \(test)")
                #expect(recording.failure(of: test).contains("deterministic failure"), "\(recording.log): \(test)")
            }
        }
    }

    @Test("each seeded flaky test failed in some suite runs and passed in others")
    func flakyTests() throws {
        let suites = try Self.recordings().filter { $0.kind == "suite" }
        for (test, _) in Self.flaky {
            let failed = suites.filter { $0.outcomes[test] == .failed }
            let passed = suites.filter { $0.outcomes[test] == .passed }
            #expect(failed.count + passed.count == suites.count, "\(test)")
            #expect(!failed.isEmpty && !passed.isEmpty, "\(test): failed \(failed.count) of \(suites.count)")
            for recording in failed {
                #expect(recording.failure(of: test).contains("seeded flaky failure"), "\(recording.log): \(test)")
            }
        }
    }

    @Test("the order-dependent test, run alone, fails")
    func alone() throws {
        for recording in try Self.recordings() where recording.kind == "alone" {
            #expect(recording.run.isComplete)
            #expect(recording.outcomes == [Self.orderDependent: .failed], "\(recording.log)")
            #expect(recording.failure(of: Self.orderDependent).contains("order-dependent"), "\(recording.log)")
        }
    }

    @Test("the infrastructure run: the test process crashed part way, the tests after it never ran")
    func infrastructure() throws {
        let recording = try #require(try Self.recordings().first { $0.kind == "infra" })
        #expect(!recording.run.isComplete)
        #expect(recording.outcomes["testRunnerIsHealthy"] == .error)
        #expect(recording.run.cases.contains { $0.issues.contains { $0.kind == .crash } })
        // StatisticsTests, after RunnerTests, never ran.
        #expect(recording.outcomes["testSum"] == nil && recording.outcomes["testPercentOfAThird"] == nil)
        #expect(recording.outcomes.count < 19)
    }
}
