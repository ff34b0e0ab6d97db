import Foundation
import Testing

@testable import SwiftCovCore

/// Logs as real runs leave them in odd shapes: names with any character, other line ends and
/// encodings, lines without end, parameterized cases whose arguments repeat, crashes, corrupt
/// numbers. Small logs here are invented, and say so; the rest are the real fixtures, reshaped.
@Suite("swift test logs in odd shapes", .removingTemporaryFolders)
struct LogEdgeCaseTests {
    static func read(_ bytes: [UInt8]) -> TestRun {
        var parser = TestLogParser()
        bytes.withUnsafeBytes { parser.consume($0) }
        return parser.finish()
    }

    static func read(_ text: String) -> TestRun { read(Array(text.utf8)) }

    /// Invented in XCTest's Linux form, with names as Quick gives its examples.
    static let spacedNames = """
        Test Suite 'All tests' started at 2026-11-23 20:36:03.896
        Test Suite 'debug.xctest' started at 2026-11-23 20:36:03.952
        Test Suite 'CalculatorSpec' started at 2026-11-23 20:36:03.952
        Test Case 'CalculatorSpec.a calculator, adds, 1.5 + 1.5' started at 2026-11-23 20:36:03.952
        Test Case 'CalculatorSpec.a calculator, adds, 1.5 + 1.5' passed (0.001 seconds)
        Test Case 'CalculatorSpec.a calculator, fails, with spaces & <xml> "quotes" it's [x] é' started at 2026-11-23 20:36:03.953
        /tmp/q/Tests/QTests/CalculatorSpec.swift:12: error: CalculatorSpec.a calculator, fails, with spaces & <xml> "quotes" it's [x] é : expected to equal <3>, got <2>
        Test Case 'CalculatorSpec.a calculator, fails, with spaces & <xml> "quotes" it's [x] é' failed (0.002 seconds)
        Test Case 'CalculatorSpec.name with spaces' started at 2026-11-23 20:36:03.955
        /tmp/q/Tests/QTests/CalculatorSpec.swift:20: CalculatorSpec.name with spaces : Test skipped: required true value but got false - not here
        Test Case 'CalculatorSpec.name with spaces' skipped (0.000 seconds)
        Test Suite 'CalculatorSpec' failed at 2026-11-23 20:36:03.960
        \t Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.003 (0.003) seconds
        Test Suite 'debug.xctest' failed at 2026-11-23 20:36:03.960
        \t Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.003 (0.003) seconds
        Test Suite 'All tests' failed at 2026-11-23 20:36:03.960
        \t Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.003 (0.003) seconds

        """

    @Test("XCTest names with spaces, commas, quotes, markup, brackets and accents are read whole")
    func spacedNames() throws {
        let run = Self.read(Self.spacedNames)
        #expect(run.totals.tests == 3)
        #expect(run.totals.passed == 1)
        #expect(run.totals.failed == 1)
        #expect(run.totals.skipped == 1)
        #expect(run.suites.map(\.name) == ["CalculatorSpec"])
        let failed = try #require(run.cases.first { $0.status == .failed })
        #expect(failed.testName == "a calculator, fails, with spaces & <xml> \"quotes\" it's [x] é")
        #expect(failed.issues.first?.message == "expected to equal <3>, got <2>")
        #expect(failed.issues.first?.location?.line == 12)
        let skipped = try #require(run.cases.first { $0.status == .skipped })
        #expect(skipped.testName == "name with spaces")
        #expect(skipped.skipReason == "required true value but got false - not here")
        let xml = JUnitReport.render(run, options: JUnitReport.Options(hostname: "h", timestamp: "2026-01-01T00:00:00"))
        #expect(
            xml.contains(
                "name=\"a calculator, fails, with spaces &amp; &lt;xml&gt; &quot;quotes&quot; it&apos;s [x] é\""))
    }

    /// Invented: two modules with a class and method of the same name, named by `--parallel`
    /// progress lines and a macOS start line in turns, before the failure a Linux line prints
    /// (which names no module).
    @Test(
        "--parallel: a class and method two modules share is the module's named last, also when a line names it again",
        arguments: [
            (["[1/3] Testing A.C/m", "[2/3] Testing B.C/m", "[3/3] Testing A.C/m"], "A.C", "B.C"),
            (["[1/3] Testing A.C/m", "[2/3] Testing B.C/m", "[3/3] Testing B.C/m"], "B.C", "A.C"),
            (
                [
                    "[1/2] Testing A.C/m", "Test Case '-[B.C m]' started.",
                    "Test Case '-[B.C m]' passed (0.001 seconds).",
                    "[2/2] Testing A.C/m",
                ], "A.C", nil
            ),
        ])
    func parallelModuleNamedLast(progress: [String], failingSuite: String, otherSuite: String?) throws {
        let failure = [
            "Test Case 'C.m' started at 2026-11-23 20:36:03.952", "/tmp/T/C.swift:3: error: C.m : XCTFail failed",
            "Test Case 'C.m' failed (0.001 seconds)",
        ]
        let run = Self.read((progress + failure).joined(separator: "\n") + "\n")
        let failed = try #require(run.cases.first { $0.status == .failed })
        #expect(failed.className == failingSuite)
        #expect(run.suites.map(\.name) == ([failingSuite] + (otherSuite.map { [$0] } ?? [])).sorted())
        #expect(run.cases.allSatisfy { $0.testName == "m" })
        #expect(run.totals.tests == 2)
    }

    /// Invented: a class of one name in two modules, its methods split between them (and one the
    /// progress lines never name), its failures printed run after run in the same order and in
    /// others: each case is merged into its own module's suite whatever order came before.
    @Test("--parallel: each case of a class split between two modules lands in its method's module, in any order")
    func parallelModulesByMethodInAnyOrder() throws {
        let modules = ["m1": "A", "m2": "B", "m3": "A", "m4": "B"]
        let progress = modules.keys.sorted().enumerated().map {
            "[\($0.offset + 1)/4] Testing \(modules[$0.element]!).C/\($0.element)"
        }
        let runs = [
            ["m1", "m2", "m3", "m5"], ["m1", "m2", "m3", "m5"], ["m3", "m5", "m2", "m1"], ["m2", "m2", "m1"],
        ]
        var lines = progress
        for run in runs {
            for method in run {
                lines += [
                    "Test Case 'C.\(method)' started at 2026-11-23 20:36:03.952",
                    "/tmp/T/C.swift:3: error: C.\(method) : XCTFail failed",
                    "Test Case 'C.\(method)' failed (0.001 seconds)",
                ]
            }
        }
        let run = Self.read(lines.joined(separator: "\n") + "\n")
        let printed = runs.flatMap { $0 }
        for method in ["m1", "m2", "m3", "m5"] {
            let suite = modules[method].map { "\($0).C" } ?? "C"
            let failed = run.cases.filter { $0.testName == method && $0.status == .failed }
            #expect(failed.count == printed.filter { $0 == method }.count, "\(method)")
            #expect(failed.allSatisfy { $0.className == suite }, "\(method)")
        }
        // m4 was named but printed nothing: it passed, in its module's suite.
        #expect(run.cases.filter { $0.testName == "m4" }.map(\.className) == ["B.C"])
        #expect(run.cases.filter { $0.testName == "m4" }.map(\.status) == [.passed])
        #expect(run.suites.map(\.name) == ["A.C", "B.C", "C"])
    }

    /// Invented: `swift test --parallel` times only the tests it prints (the failed ones), so the
    /// run's time leaves the rest out and says how many; a parameterized test's argument cases,
    /// covered by their test's time, and a skipped test are not counted as untimed.
    @Test("--parallel: the run's time says how many tests it leaves out for want of a time")
    func parallelUntimedTests() {
        let log = """
            [1/3] Testing M.C/a
            [2/3] Testing M.C/b
            [3/3] Testing M.C/c
            Test Case 'C.b' started at 2026-11-23 20:36:03.952
            /tmp/T/C.swift:3: error: C.b : XCTFail failed
            Test Case 'C.b' failed (0.250 seconds)
            ◇ Test run started.
            ◇ Test p(x:) started.
            ◇ Test case passing 1 argument x → 1 to p(x:) started.
            ◇ Test case passing 1 argument x → 2 to p(x:) started.
            ✔ Test p(x:) with 2 test cases passed after 0.004 seconds.
            ➜ Test s() skipped.
            ✔ Test run with 2 tests passed after 0.005 seconds.

            """
        let run = Self.read(log)
        #expect(run.totals.tests == 6)
        #expect(run.untimedTests == 2)
        #expect(run.sentence == "4 passed, 1 failed, 1 skipped (6 tests in 0.255 s; 2 without a time)")
        // A log that times every test says nothing more.
        let timed = Self.read(
            "Test Case 'C.b' started at 2026-11-23 20:36:03.952\nTest Case 'C.b' passed (0.250 seconds)\n")
        #expect(timed.untimedTests == 0)
        #expect(timed.sentence == "1 passed (1 test in 0.250 s)")
    }

    @Test(
        "LF, CR LF and CR line ends, UTF-16 with and without a byte-order mark: the same results",
        arguments: ["yams.log", "hostile-xctest-and-swift-testing.log", "SampleReports/swift-test-failing.log"])
    func lineEndsAndEncodings(name: String) throws {
        let text = try LogFixture(name).text.replacingOccurrences(of: "\r\n", with: "\n")
        let expected = LookAlikeLineTests.Results(Self.read(text))
        #expect(expected.cases.count > 5)
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        let cr = text.replacingOccurrences(of: "\n", with: "\r")
        #expect(LookAlikeLineTests.Results(Self.read(crlf)) == expected)
        #expect(LookAlikeLineTests.Results(Self.read(cr)) == expected)
        let utf16 = Array(text.utf16)
        let littleEndian: [UInt8] = [0xFF, 0xFE] + utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian: [UInt8] = utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(LookAlikeLineTests.Results(Self.read(littleEndian)) == expected)
        #expect(LookAlikeLineTests.Results(Self.read(bigEndian)) == expected)
        // Fed in small pieces, as a pipe gives them: a CR LF or a UTF-16 unit split between two.
        for bytes in [Array(crlf.utf8), littleEndian] {
            var parser = TestLogParser()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + 7)
                bytes[start..<end].withUnsafeBytes { parser.consume($0) }
                start = end
            }
            #expect(LookAlikeLineTests.Results(parser.finish()) == expected)
        }
    }

    @Test("a line without end costs no more than the limit; the results around it stay")
    func hugeLine() throws {
        let text = try LogFixture("SampleReports/swift-test-failing.log").text
        let expected = LookAlikeLineTests.Results(Self.read(text))
        let caseStart = try #require(text.range(of: "Test Case '"))
        let range = try #require(text[caseStart.upperBound...].range(of: "' started at "))
        let lineEnd = try #require(text[range.upperBound...].firstIndex(of: "\n"))
        let huge = String(repeating: "x", count: 5 << 20)
        let withHuge = String(text[...lineEnd]) + huge + "\n" + String(text[text.index(after: lineEnd)...])
        let run = Self.read(withHuge)
        #expect(LookAlikeLineTests.Results(run) == expected)
        let printing = try #require(run.cases.first { $0.output.contains("xxxx") })
        #expect(printing.output.utf8.count < TestLogParser.lineByteLimit + 100)
        #expect(printing.output.hasSuffix("… (line cut)"))
        // And a log that is one endless line: nothing but that line, cut.
        let endless = Self.read(Array(repeating: UInt8(ascii: "y"), count: 3 << 20))
        #expect(endless.output.count == 1)
        #expect((endless.output.first?.utf8.count ?? 0) < TestLogParser.lineByteLimit + 100)
    }

    @Test("a test printing without end keeps a bounded part of its output")
    func boundedOutput() {
        var log = "Test Suite 'All tests' started at 2026-11-23 20:36:03.896\n"
        log += "Test Suite 'P' started at 2026-11-23 20:36:03.896\n"
        log += "Test Case 'P.testLoud' started at 2026-11-23 20:36:03.896\n"
        log += String(repeating: "a line of output that goes on\n", count: 20_000)
        log += "Test Case 'P.testLoud' passed (0.5 seconds)\n"
        let run = Self.read(log)
        #expect(run.totals.passed == 1)
        #expect(run.cases[0].output.utf8.count <= TestLogParser.outputByteLimit + 100)
        #expect(run.cases[0].output.hasSuffix("… (more output left out)"))
    }

    @Test("a parameterized test whose arguments repeat counts every case it ran (real log)")
    func repeatedArguments() {
        // From a real run of `@Test(arguments: [1, 1, 2]) func rep(x:)`, trimmed to the test.
        let log = """
            ◇ Test run started.
            ↳ Testing Library Version: 6.3.1 (937120cbc281cf2)
            ◇ Test rep(x:) started.
            ◇ Test case passing 1 argument x → 1 to rep(x:) started.
            ◇ Test case passing 1 argument x → 1 to rep(x:) started.
            ◇ Test case passing 1 argument x → 2 to rep(x:) started.
            ✘ Test rep(x:) recorded an issue with 1 argument x → 2 at T.swift:15:48: Expectation failed: (x → 2) != 2
            ✘ Test rep(x:) with 3 test cases failed after 0.015 seconds with 1 issue.
            ✘ Test run with 1 test in 0 suites failed after 0.022 seconds with 1 issue.
            """
        let run = Self.read(log)
        #expect(run.cases.map(\.name) == ["rep(x:) (x → 1)", "rep(x:) (x → 1)", "rep(x:) (x → 2)"])
        #expect(run.cases.map(\.status) == [.passed, .passed, .failed])
        #expect(run.isComplete)
    }

    @Test("a Swift Testing crash is charged to the test on the crashed thread, not to all that were running")
    func crashAttribution() throws {
        let run = try LogFixture("hostile-swift-testing-crash.log").run()
        let crashed = try #require(run.cases.first { $0.testName == "crashes()" })
        #expect(crashed.status == .error)
        #expect(crashed.issues.last?.message == "The test crashed: Fatal error: deliberate swift testing crash")
        #expect(crashed.issues.last?.location?.line == 68)
        let bystander = try #require(run.cases.first { $0.testName == "passes()" })
        #expect(bystander.status == .error)
        #expect(bystander.issues.last?.message.contains("crashed in crashes() while this test was running") == true)
        // With the event stream, the stream decides the tests, and the console's message stays.
        let both = try LogFixture("hostile-swift-testing-crash.log").run(
            events: "hostile-swift-testing-crash-events.jsonl")
        let streamed = try #require(both.cases.first { $0.testName == "crashes()" })
        #expect(streamed.className == "HostileSwiftTests.PlainSuite")
        #expect(
            streamed.issues.contains { $0.message == "The test crashed: Fatal error: deliberate swift testing crash" })
    }

    @Test("two XCTest classes of one name in two test modules stay two suites, each with its module")
    func sameClassInTwoModules() throws {
        // Invented in the shape swift-numerics' run has (two ApproximateEqualityTests).
        let log = """
            Test Suite 'All tests' started at 2026-11-23 20:36:03.896
            Test Suite 'debug.xctest' started at 2026-11-23 20:36:03.896
            Test Suite 'ApproximateEqualityTests' started at 2026-11-23 20:36:03.896
            Test Case 'ApproximateEqualityTests.testFloat' started at 2026-11-23 20:36:03.896
            Test Case 'ApproximateEqualityTests.testFloat' passed (0.001 seconds)
            Test Suite 'ApproximateEqualityTests' passed at 2026-11-23 20:36:03.897
            \t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds
            Test Suite 'ApproximateEqualityTests' started at 2026-11-23 20:36:03.897
            Test Case 'ApproximateEqualityTests.testComplex' started at 2026-11-23 20:36:03.897
            Test Case 'ApproximateEqualityTests.testComplex' passed (0.001 seconds)
            Test Suite 'ApproximateEqualityTests' passed at 2026-11-23 20:36:03.898
            \t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds
            Test Suite 'debug.xctest' passed at 2026-11-23 20:36:03.898
            \t Executed 2 tests, with 0 failures (0 unexpected) in 0.002 (0.002) seconds
            Test Suite 'All tests' passed at 2026-11-23 20:36:03.898
            \t Executed 2 tests, with 0 failures (0 unexpected) in 0.002 (0.002) seconds
            """
        let root = try temporaryDirectory()
        for (module, method) in [("RealTests", "testFloat"), ("ComplexTests", "testComplex")] {
            try FileManager.default.createDirectory(
                atPath: "\(root)/Tests/\(module)", withIntermediateDirectories: true)
            try """
            import XCTest

            final class ApproximateEqualityTests: XCTestCase {
                func \(method)() throws {
                    throw CancellationError()
                }
            }
            """.write(
                toFile: "\(root)/Tests/\(module)/ApproximateEqualityTests.swift", atomically: true, encoding: .utf8)
        }
        let index = TestSourceIndex.scanning(root: root)
        let run = Self.read(log).resolving(with: index)
        #expect(
            run.suites.map(\.name) == ["RealTests.ApproximateEqualityTests", "ComplexTests.ApproximateEqualityTests"])
        #expect(
            run.cases.map(\.className) == [
                "RealTests.ApproximateEqualityTests", "ComplexTests.ApproximateEqualityTests",
            ])
        // An error thrown out of a test body (`<EXPR>:0`) points at the test's declaration.
        let thrown = Self.read(
            """
            Test Suite 'All tests' started at 2026-11-23 20:36:03.896
            Test Suite 'ApproximateEqualityTests' started at 2026-11-23 20:36:03.896
            Test Case 'ApproximateEqualityTests.testFloat' started at 2026-11-23 20:36:03.896
            <EXPR>:0: error: ApproximateEqualityTests.testFloat : threw error "CancellationError()"
            Test Case 'ApproximateEqualityTests.testFloat' failed (0.001 seconds)
            """
        ).resolving(with: index)
        #expect(thrown.cases.first?.status == .error)
        #expect(
            thrown.cases.first?.primaryLocation
                == TestRun.SourceLocation(file: "Tests/RealTests/ApproximateEqualityTests.swift", line: 4))
    }

    @Test("#fileID paths (Module/File.swift) resolve to the package's file")
    func fileIDs() {
        let index = TestSourceIndex(paths: ["/p/Sources/Synth/Synth.swift", "/p/Sources/Other/Synth.swift"])
        #expect(index.path(forFileName: "Synth/Synth.swift") == "/p/Sources/Synth/Synth.swift")
        #expect(index.path(forFileName: "Synth.swift") == nil)
        #expect(index.path(forFileName: "Missing/Synth.swift") == nil)
    }

    @Test("event-stream numbers out of any range leave a location or time out, never trap")
    func eventStreamNumbers() throws {
        let lines = [
            #"{"kind":"test","payload":{"id":"M.t()/A.swift:1:1","kind":"function","name":"t()","sourceLocation":{"_filePath":"/p/A.swift","line":1e19,"column":1e999}},"version":0}"#,
            #"{"kind":"event","payload":{"instant":{"absolute":1e308,"since1970":1e300},"kind":"testStarted","testID":"M.t()/A.swift:1:1"},"version":0}"#,
            #"{"kind":"event","payload":{"instant":{"absolute":-1e308,"since1970":9.2e18},"kind":"issueRecorded","issue":{"sourceLocation":{"_filePath":"/p/A.swift","line":-5,"column":2}},"messages":[{"symbol":"fail","text":"boom"}],"testID":"M.t()/A.swift:1:1"},"version":0}"#,
            #"{"kind":"event","payload":{"instant":{"absolute":1e308,"since1970":9.2e18},"kind":"testEnded","testID":"M.t()/A.swift:1:1"},"version":0}"#,
        ]
        let text = lines.joined(separator: "\n") + "\n"
        let run = try Array(text.utf8).withUnsafeBytes {
            try SwiftTestingEventStream.read($0, path: "events.jsonl", utcOffset: 14 * 3600)
        }
        let testCase = try #require(run.cases.first)
        #expect(testCase.status == .failed)
        #expect(testCase.location == nil)
        #expect(testCase.issues.first?.location == nil)
        #expect(run.suites.first?.timestamp == nil)
        let xml = JUnitReport.render(run, options: JUnitReport.Options(hostname: "h", timestamp: "2026-01-01T00:00:00"))
        #expect(xml.contains("time=\"0.000\""))
        #expect(Clock.timestamp(9.2e18, utcOffset: 14 * 3600) == nil)
        #expect(Clock.timestamp(0, utcOffset: 3600) == "1970-01-01T01:00:00")
    }

    @Test("an interrupted read, and a log without results, say which")
    func missingResults() {
        let interrupted = TestResultsReader.missingResults(sources: ["standard input"], output: [], interrupted: true)
        #expect(interrupted.cases.first?.issues.first?.message.contains("interrupted") == true)
        #expect(
            TestResultsError.noResults(paths: ["build.log"], interrupted: false).description
                == "build.log: error: no test results (did the build fail? or it is not the output of `swift test`)")
    }
}
