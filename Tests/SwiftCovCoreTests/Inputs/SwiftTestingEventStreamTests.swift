import Foundation
import Testing

@testable import SwiftCovCore

/// Swift Testing's event stream: suites, modules, parameterized cases and full source locations
/// that the console leaves out, and how it combines with the console log of the same run.
@Suite("Swift Testing event stream")
struct SwiftTestingEventStreamTests {
    static let trivia = "SampleReports/swift-testing-events.jsonl"

    func stream(_ name: String) throws -> TestRun {
        try TestResultsReader.read(paths: [LogFixture(name).path], utcOffset: 0)
    }

    @Test(
        "files attached with Attachment.record: each at its test or argument case, in order, where Swift Testing wrote it"
    )
    func attachments() throws {
        let run = try stream("real-attachments-events.jsonl")
        let shows = try #require(run.cases.first { $0.testName == "shows()" })
        #expect(shows.status == .failed)
        // As the test records them; the second `screen-1.txt` was written under a unique name.
        #expect(shows.attachments.map(\.name) == ["screen-1.txt", "shot.png", "screen-1.txt"])
        #expect(
            shows.attachments.map(\.path) == [
                "/tmp/att/out/screen-1.txt", "/tmp/att/out/shot.png", "/tmp/att/out/screen-1-2vnwqxgq89bln.txt",
            ])
        #expect(shows.attachments.map { $0.location?.line } == [5, 6, 8])
        #expect(shows.attachments.allSatisfy { ($0.time ?? 0) > 1_700_000_000 })
        // Each argument case its own.
        let param = run.cases.filter { $0.testName == "param(x:)" }
        #expect(param.count == 2)
        #expect(
            Set(param.flatMap(\.attachments).map(\.path)) == [
                "/tmp/att/out/arg.txt", "/tmp/att/out/arg-2mxhvascegb87.txt",
            ])
        #expect(param.allSatisfy { $0.attachments.count == 1 })
        // In JUnit, GitLab's lines, relative to the JUnit file's folder.
        var options = JUnitReport.Options(hostname: "h", timestamp: "t")
        options.folder = "/tmp/att/reports"
        let xml = JUnitReport.render(run, options: options)
        for name in ["screen-1.txt", "shot.png", "screen-1-2vnwqxgq89bln.txt", "arg.txt", "arg-2mxhvascegb87.txt"] {
            #expect(xml.contains("[[ATTACHMENT|../out/\(name)]]"), "\(name)")
        }
        options.folder = nil
        #expect(JUnitReport.render(run, options: options).contains("[[ATTACHMENT|/tmp/att/out/shot.png]]"))
    }

    @Test("tests per the run's own summary, each in its suite, parameterized tests one case per argument")
    func trivia() throws {
        let run = try stream(Self.trivia)
        // The runEnded record's console text, read independently.
        let text = try LogFixture(Self.trivia).text
        let summary = try #require(
            text.firstMatch(of: #/"Test run with (\d+) tests in (\d+) suites (?:passed|failed)[^"]*with (\d+) issues?/#)
        )
        #expect(Set(run.cases.map { [$0.className, $0.testName] }).count == Int(summary.1))
        #expect(Set(run.suites.map(\.name).filter { $0.contains(".") }).count == Int(summary.2))
        #expect(run.cases.flatMap(\.failingIssues).count == Int(summary.3))
        #expect(run.isComplete)

        let game = try #require(run.suites.first { $0.name == "TriviaGameTests.GameTests" })
        #expect(game.displayName == "Trivia game")
        #expect(game.framework == .swiftTesting)
        let availability = game.cases.filter { $0.testName == "nextQuestionAvailability(choice:)" }
        #expect(availability.map(\.arguments) == ["choice → .a", "choice → .b", "choice → .c"])
        #expect(availability.map(\.status) == [.passed, .passed, .failed])
        #expect(
            availability.last?.failingIssues.first?.location
                == TestRun.SourceLocation(file: "Tests/TriviaGameTests/GameTests.swift", line: 34, column: 9))
        let skipped = try #require(game.cases.first { $0.testName == "wrongAnswersCostAPoint()" })
        #expect(skipped.status == .skipped)
        #expect(skipped.skipReason == "the scoring rule for wrong answers is not decided yet")
        // A test outside any suite is grouped by its module.
        #expect(run.suites.contains { $0.name == "triviaTests" && $0.cases.map(\.testName) == ["helpPrintsUsage()"] })
    }

    @Test("nested suites, known issues, thrown errors, skipped suites, display names with markup")
    func hostile() throws {
        let run = try stream("hostile-events.jsonl")
        #expect(
            run.suites.map(\.name) == [
                "HostileSwiftTests", "HostileSwiftTests.OuterTests", "HostileSwiftTests.OuterTests.Inner",
                "HostileSwiftTests.PlainSuite", "HostileSwiftTests.SkippedSuite",
            ])
        let cases = run.cases
        #expect(cases.first { $0.testName == "Free <display> & \"name\"" }?.status == .failed)
        #expect(cases.first { $0.testName == "throwsError()" }?.status == .error)
        let known = try #require(cases.first { $0.testName == "knownIssue()" })
        #expect(known.status == .passed)
        #expect(known.issues.map(\.kind) == [.knownIssue])
        #expect(known.issues.first?.message == "Expectation failed: (double(1) → 2) == 3\ntracked in #12")
        #expect(
            cases.filter { $0.className == "HostileSwiftTests.SkippedSuite" }.map(\.skipReason) == [
                "whole suite off", "whole suite off",
            ])
        #expect(
            cases.filter { $0.testName == "Pairs" }.map(\.arguments) == [
                "name → \"a\", value → 1", "name → \"b\", value → 2",
            ])
        let nested = try #require(cases.first { $0.testName == "nestedFails()" })
        #expect(nested.issues.first?.message == "Issue recorded\nnested failure\nsecond line")
        #expect(nested.issues.first?.location?.file == "/tmp/hostile/Tests/HostileSwiftTests/SwiftTests.swift")
    }

    @Test("with the console log of the same run: the stream decides; warnings and output carry over")
    func combined() throws {
        let run = try LogFixture("hostile-with-events.log").run(events: "hostile-events.jsonl")
        #expect(!run.suites.contains { $0.name == TestRun.swiftTestingSuiteName })
        #expect(run.suites.filter { $0.framework == .xctest }.count == 2)
        let stated = try StatedCounts(log: LogFixture("hostile-with-events.log").text)
        #expect(StatedCounts(run: run) == stated)
        #expect(run.summaries.count == 2)
        let printed = run.suites.flatMap { [$0.output] + $0.cases.map(\.output) }.joined(separator: "\n")
        #expect(printed.split(separator: "\n").contains { $0.hasPrefix("output from swift testing") })
        // Version 0 of the stream leaves warnings out; a console that shows them lends them.
        let withWarning = try LogFixture("hostile-xctest-and-swift-testing.log").run(events: "hostile-events.jsonl")
        #expect(withWarning.cases.first { $0.testName == "warns()" }?.issues.map(\.kind) == [.warning])
    }

    @Test("a stream cut by a crash: the tests then running are errors, the run incomplete")
    func crashed() throws {
        let run = try stream("hostile-swift-testing-crash-events.jsonl")
        #expect(!run.isComplete)
        let crashed = run.cases.filter { $0.issues.contains { $0.kind == .crash } }
        #expect(crashed.contains { $0.testName == "crashes()" })
        #expect(crashed.allSatisfy { $0.status == .error })
        #expect(run.cases.first { $0.testName == "freeStanding()" }?.status == .passed)
    }

    @Test("a broken line in the middle is an error naming the line; a cut last line is not")
    func malformed() throws {
        let lines = try LogFixture("hostile-events.jsonl").text.split(separator: "\n").map(String.init)
        var broken = lines
        broken[3] = String(broken[3].prefix(40))
        let bytes = Array(broken.joined(separator: "\n").utf8)
        #expect(
            throws: TestResultsError.malformedEventStream(
                path: "e.jsonl", line: 4, message: "unterminated string at byte offset 40")
        ) {
            _ = try bytes.withUnsafeBytes { try SwiftTestingEventStream.read($0, path: "e.jsonl", utcOffset: 0) }
        }
        let cut = Array((lines.dropLast().joined(separator: "\n") + "\n" + lines.last!.prefix(30)).utf8)
        let run = try cut.withUnsafeBytes { try SwiftTestingEventStream.read($0, path: "e.jsonl", utcOffset: 0) }
        #expect(!run.isComplete)
    }

    @Test("recognised by content, not by name")
    func recognition() throws {
        for (name, isStream) in [
            ("hostile-events.jsonl", true), ("hostile-with-events.log", false), ("yams.log", false),
        ] {
            let bytes = try LogFixture(name).bytes
            #expect(bytes.withUnsafeBytes { SwiftTestingEventStream.recognizes($0) } == isStream, "\(name)")
        }
        let export = Array(try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/SampleReports/coverage.json")))
        #expect(!export.withUnsafeBytes { SwiftTestingEventStream.recognizes($0) })
    }

    @Test("timestamps in a given time zone")
    func timestamps() {
        #expect(Clock.timestamp(1_795_356_233.57, utcOffset: 0) == "2026-11-22T14:03:53")
        #expect(Clock.timestamp(1_795_356_233.57, utcOffset: 3600) == "2026-11-22T15:03:53")
    }

    @Test("calendar dates across leap days, centuries, before 1970 and the limits, as `date -u` gives them")
    func calendarDates() {
        let expected: [(Double, String)] = [
            (951_782_400, "2000-02-29T00:00:00"), (4_107_456_000, "2100-02-28T00:00:00"),
            (4_107_542_400, "2100-03-01T00:00:00"), (-1, "1969-12-31T23:59:59"), (-0.5, "1969-12-31T23:59:59"),
            (-2_208_988_800, "1900-01-01T00:00:00"), (253_402_300_799, "9999-12-31T23:59:59"),
            (-62_135_596_799, "1-01-01T00:00:01"),
        ]
        for (seconds, text) in expected {
            #expect(Clock.timestamp(seconds, utcOffset: 0) == text, "\(seconds)")
        }
        #expect(Clock.timestamp(-1, utcOffset: -3600) == "1969-12-31T22:59:59")
    }
}
