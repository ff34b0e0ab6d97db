import Foundation
import Testing

@testable import SwiftCovCore

/// Real `swift test` runs of packages the other fixtures lack (Quick, a pure Swift Testing package,
/// swift-numerics, --parallel with SwiftPM's xUnit files, and a package written to show what real
/// ones rarely do), each checked against `<name>.expected.json` beside it: counts and failing
/// names taken from the log's own summary lines and SwiftPM's xUnit files, never from swiftcov.
@Suite("real logs against their stated results")
struct RealLogTests {
    /// What the parser still gets wrong, per fixture and check; remove an entry once issue 10's fix
    /// covers it (a known issue that no longer occurs fails the test).
    static let knownIssues: [String: Comment] = [:]

    @Test("counts: tests, passed, failed, skipped and cases per framework", arguments: RealLog.all)
    func counts(log: RealLog) throws {
        try Self.check(log, "counts") {
            let run = try log.run()
            let expected = log.expected
            #expect(run.isComplete == expected.complete)
            #expect(run.hasTestOutput)
            if let stated = expected.xctest {
                #expect(RealLog.Counts(xctestOf: run) == stated.counts, "XCTest")
                if let suites = stated.suites {
                    #expect(run.suites.filter { $0.framework == .xctest }.count == suites, "XCTest classes")
                }
            }
            if let stated = expected.swiftTesting {
                #expect(RealLog.Counts(swiftTestingOf: run) == stated.counts, "Swift Testing")
            }
        }
    }

    @Test("failing tests, by name", arguments: RealLog.all)
    func failingNames(log: RealLog) throws {
        try Self.check(log, "failing") {
            let run = try log.run()
            if let stated = log.expected.xctest {
                #expect(RealLog.failing(xctestOf: run) == stated.failing.sorted(), "XCTest")
            }
            if let stated = log.expected.swiftTesting {
                #expect(RealLog.failing(swiftTestingOf: run) == stated.failing.sorted(), "Swift Testing")
            }
            if let crashed = log.expected.crashed, let message = log.expected.crashMessage {
                let charged = run.cases.filter {
                    $0.issues.contains { $0.kind == .crash && $0.message.contains(message) }
                }
                #expect(charged.map(\.testName).sorted() == crashed.sorted(), "tests charged with the crash")
            }
        }
    }

    @Test("skip reasons and crash messages are kept", arguments: RealLog.all.filter(\.hasDetails))
    func details(log: RealLog) throws {
        try Self.check(log, "details") {
            let run = try log.run()
            for (name, reason) in log.expected.skipReasons ?? [:] {
                let skipped = run.cases.first { $0.name == name }
                #expect(skipped?.status == .skipped, "\(name)")
                #expect(skipped?.skipReason?.contains(reason) == true, "\(name): \(skipped?.skipReason ?? "no reason")")
            }
            if let message = log.expected.crashMessage {
                let crashes = run.cases.flatMap(\.issues).filter { $0.kind == .crash }
                #expect(crashes.contains { $0.message.contains(message) })
            }
            // Every case of every test that was running beside it names the test that crashed.
            if let crashed = log.expected.crashed, crashed.count == 1 {
                let bystanders = run.cases.filter { $0.status == .error && $0.testName != crashed[0] }
                #expect(!bystanders.isEmpty)
                for bystander in bystanders {
                    #expect(
                        bystander.issues.contains { $0.message.contains("crashed in \(crashed[0])") },
                        "\(bystander.name)")
                }
            }
        }
    }

    @Test("the JUnit XML keeps the schemas' rules, default and --strict, with every test in it", arguments: RealLog.all)
    func junit(log: RealLog) throws {
        try Self.check(log, "junit") {
            let run = try log.run()
            for strict in [false, true] {
                let xml = JUnitReport.render(run, options: JUnitReportTests.options(strict: strict))
                let shape = try XMLShape(xml: xml)
                #expect(shape.problems(strict: strict) == [])
                let cases = shape.elements.indices.filter { shape.elements[$0].name == "testcase" }
                #expect(cases.count == log.expected.totalCases)
                let failing = cases.filter { index in
                    shape.elements.contains { $0.parent == index && ($0.name == "failure" || $0.name == "error") }
                }
                let names = failing.compactMap { shape.elements[$0].attributes["name"] }
                for name in log.expected.xctest?.failing ?? [] {
                    let method = String(name[name.index(after: name.firstIndex(of: ".")!)...])
                    #expect(names.contains(method), "\(name)")
                }
                for name in log.expected.swiftTesting?.failing ?? [] {
                    #expect(names.contains { $0 == name || $0.hasPrefix(name + " (") }, "\(name)")
                }
            }
        }
    }

    @Test("each test's outcome is the one in SwiftPM's xUnit files", arguments: RealLog.all.filter(\.hasXUnit))
    func xunit(log: RealLog) throws {
        try Self.check(log, "xunit") {
            let tests = RealLog.tests(of: try log.run())
            func className(_ name: String) -> Substring { name.split(separator: ".").last ?? "" }
            for file in log.expected.xunit ?? [] {
                let theirs = try SwiftPMXUnit(path: LogFixture(file).path).outcomes
                #expect(!theirs.isEmpty)
                if file.hasSuffix("-swift-testing.xml") {
                    // SwiftPM names Swift Testing tests by function, the console by display name: count them.
                    let ours = tests.filter { $0.framework == .swiftTesting }
                    #expect(ours.count == theirs.count, "\(file)")
                    #expect(ours.filter(\.failing).count == theirs.values.filter { !$0 }.count, "\(file)")
                } else {
                    // Without the module, which the serial console does not name; SwiftPM shows skipped tests as passed.
                    let ours = tests.filter { $0.framework == .xctest }.map {
                        "\(className($0.className))/\($0.name) \($0.failing ? "failed" : "passed")"
                    }
                    let expected = theirs.map { name, passed in
                        let parts = name.split(separator: "/", maxSplits: 1)
                        return "\(className(String(parts[0])))/\(parts[1]) \(passed ? "passed" : "failed")"
                    }
                    #expect(ours.sorted() == expected.sorted(), "\(file)")
                }
            }
        }
    }

    @Test("a line a test prints that looks like a status line changes nothing")
    func lookAlikeLines() throws {
        try Self.check(RealLog("real-oddities"), "look-alike") {
            let log = try LogFixture("real-oddities.log").text
            // The lines as `lookAlikeLines` in make-oddities-logs prints them, and those printed by
            // testPrintsItsOwnLines and printsAndFails.
            let printed: Set<Substring> = [
                "Test Suite 'Fake' started at 2026-11-23 20:00:00.000",
                "Test Case 'Fake.testPhantom' started at 2026-11-23 20:00:00.000",
                "/tmp/Fake.swift:1: error: Fake.testPhantom : XCTAssertTrue failed - phantom",
                "Test Case 'Fake.testPhantom' failed (0.001 seconds)",
                "Test Suite 'Fake' failed at 2026-11-23 20:00:00.001",
                "\t Executed 999 tests, with 999 failures (0 unexpected) in 1.000 (1.000) seconds",
                "◇ Test run started.", "◇ Test phantom() started.",
                "✘ Test phantom() recorded an issue at Fake.swift:1:1: Expectation failed: phantom",
                "✘ Test phantom() failed after 0.001 seconds with 1 issue.",
                "✔ Test run with 999 tests passed after 1 seconds.",
                "Test Case 'PrintingTests.testPrintsItsOwnLines' failed (0.001 seconds)",
                "Test Case 'PrintingTests.testPasses' started at 2026-11-23 20:00:00.000",
                "✔ Test printsAndFails() passed after 0.001 seconds.",
            ]
            let all = log.split(separator: "\n", omittingEmptySubsequences: false)
            // The run's own `◇ Test run started.` is the one the library version follows.
            let lines = all.indices.filter { index in
                !printed.contains(all[index]) || all[index + 1].hasPrefix("↳ Testing Library Version")
            }.map { all[$0] }
            #expect(lines.count == all.count - 2 * 11 - 3)
            func read(_ text: String) -> TestRun {
                var parser = TestLogParser()
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    parser.consume(line: String(line))
                }
                return parser.finish()
            }
            let withPrinted = read(log)
            let without = read(lines.joined(separator: "\n"))
            #expect(withPrinted.totals == without.totals)
            #expect(RealLog.failing(xctestOf: withPrinted) == RealLog.failing(xctestOf: without))
            #expect(RealLog.failing(swiftTestingOf: withPrinted) == RealLog.failing(swiftTestingOf: without))
            #expect(withPrinted.isComplete == without.isComplete)
        }
    }

    /// Runs `body`, as a known issue when `knownIssues` lists this check of this fixture.
    static func check(_ log: RealLog, _ check: String, _ body: () throws -> Void) throws {
        if let comment = knownIssues["\(log.name)/\(check)"] {
            withKnownIssue(comment) { try body() }
        } else {
            try body()
        }
    }
}

/// One fixture: `<name>.expected.json` in `Fixtures/logs/` and the files it names.
struct RealLog: CustomTestStringConvertible, Sendable {
    /// What the run states about itself.
    struct Expected: Decodable, Sendable {
        struct Framework: Decodable, Sendable {
            var tests: Int
            var passed: Int
            var failed: Int
            var skipped: Int
            /// Swift Testing: test cases, each argument of a parameterized test counting once.
            var cases: Int?
            /// XCTest: how many classes ran (two of the same name in two modules are two).
            var suites: Int?
            /// XCTest: `Class.method`; Swift Testing: the test's name as the console shows it.
            var failing: [String]

            var counts: Counts { Counts(tests: tests, passed: passed, failed: failed, skipped: skipped, cases: cases) }
        }

        /// The files read together, as `swiftcov junit --tests A --tests B` reads them.
        var inputs: [String]
        var complete: Bool
        var xctest: Framework?
        var swiftTesting: Framework?
        /// Swift Testing tests that crashed, by name (the backtrace names them), and the crash's message.
        var crashed: [String]?
        var crashMessage: String?
        /// A skipped test's name (XCTest method, Swift Testing name) → the reason the test gave.
        var skipReasons: [String: String]?
        /// SwiftPM's `--xunit-output` files of the same run.
        var xunit: [String]?

        /// Test cases in the JUnit file: every XCTest test and every Swift Testing case.
        var totalCases: Int { (xctest?.tests ?? 0) + (swiftTesting.map { $0.cases ?? $0.tests } ?? 0) }
    }

    /// Counts of tests by outcome; a Swift Testing test fails when any of its cases does.
    struct Counts: Equatable, CustomStringConvertible {
        var tests = 0
        var passed = 0
        var failed = 0
        var skipped = 0
        var cases: Int?

        init(tests: Int, passed: Int, failed: Int, skipped: Int, cases: Int?) {
            (self.tests, self.passed, self.failed, self.skipped, self.cases) = (tests, passed, failed, skipped, cases)
        }

        init(_ tests: [RealLog.Test], cases: Int?) {
            self.cases = cases
            for test in tests {
                self.tests += 1
                if test.failing {
                    failed += 1
                } else if test.skipped {
                    skipped += 1
                } else {
                    passed += 1
                }
            }
        }

        init(xctestOf run: TestRun) {
            self.init(RealLog.tests(of: run).filter { $0.framework == .xctest }, cases: nil)
        }

        init(swiftTestingOf run: TestRun) {
            let cases = run.suites.filter { $0.framework == .swiftTesting }.flatMap(\.cases).count
            self.init(RealLog.tests(of: run).filter { $0.framework == .swiftTesting }, cases: cases)
        }

        var description: String {
            "\(tests) tests: \(passed) passed, \(failed) failed, \(skipped) skipped"
                + (cases.map { ", \($0) cases" } ?? "")
        }
    }

    /// One test: an XCTest method, or a Swift Testing test with all its cases.
    struct Test {
        var framework: TestRun.Framework
        var className: String
        var name: String
        var failing: Bool
        var skipped: Bool
    }

    let name: String
    let expected: Expected

    init(_ name: String) {
        self.name = name
        let path = LogFixture("\(name).expected.json").path
        do {
            expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            fatalError("\(path): \(error)")
        }
    }

    var testDescription: String { name }
    var hasXUnit: Bool { expected.xunit != nil }
    var hasDetails: Bool { expected.skipReasons != nil || expected.crashMessage != nil }

    /// The inputs read as `swiftcov junit` reads them.
    func run() throws -> TestRun {
        try TestResultsReader.read(paths: expected.inputs.map { LogFixture($0).path }, utcOffset: 0)
            .resolving(with: TestSourceIndex())
    }

    /// Every fixture with an expectations file.
    static let all: [RealLog] = {
        let folder = LogFixture("README.md").path.dropLast("README.md".count)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: String(folder))) ?? []
        return files.filter { $0.hasSuffix(".expected.json") }.sorted().map {
            RealLog(String($0.dropLast(".expected.json".count)))
        }
    }()

    /// The run's tests: XCTest cases one by one; Swift Testing cases of one parameterized test together.
    static func tests(of run: TestRun) -> [Test] {
        var tests: [Test] = []
        var parameterized: [String: Int] = [:]
        for suite in run.suites {
            for testCase in suite.cases {
                let failing = testCase.status == .failed || testCase.status == .error
                let skipped = testCase.status == .skipped
                if testCase.arguments != nil {
                    let key = "\(testCase.className)\u{0}\(testCase.testName)"
                    if let index = parameterized[key] {
                        tests[index].failing = tests[index].failing || failing
                        tests[index].skipped = tests[index].skipped && skipped
                        continue
                    }
                    parameterized[key] = tests.count
                }
                tests.append(
                    Test(
                        framework: suite.framework, className: testCase.className, name: testCase.testName,
                        failing: failing, skipped: skipped))
            }
        }
        return tests
    }

    /// Failing XCTest tests as `Class.method`, sorted.
    static func failing(xctestOf run: TestRun) -> [String] {
        tests(of: run).filter { $0.framework == .xctest && $0.failing }.map {
            "\($0.className.split(separator: ".").last ?? "").\($0.name)"
        }.sorted()
    }

    /// Failing Swift Testing tests by name, sorted.
    static func failing(swiftTestingOf run: TestRun) -> [String] {
        tests(of: run).filter { $0.framework == .swiftTesting && $0.failing }.map(\.name).sorted()
    }
}
