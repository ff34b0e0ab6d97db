import Foundation
import SwiftCovTestSupport
import Testing

@testable import SwiftCovCore

/// The run workflow with each strategy against a recorded `swift` (and toolchain, and test
/// executable): the trivia modules' real failing run (SampleReports/), answered by `FakeSystem`,
/// so that what the workflow starts, in which order and with which arguments, is checked without
/// building anything; and faults injected through the same seam.
@Suite("the run workflow against a recorded swift", .removingTemporaryFolders)
struct RunWorkflowTests {
    static let sample = packageRoot + "/SampleReports"
    /// The user's `swift test` arguments: each must reach every `swift` command.
    static let userArguments = ["-c", "release", "--scratch-path", "/scratch", "-Xswiftc", "-DRECORDED"]
    static let clock = Clock(secondsSince1970: 1_795_392_000, utcOffset: 0)
    static let toolchainFolder = "/toolchain"

    /// Two XCTest tests (the second fails when run alone) and one Swift Testing test.
    static let listed = [
        "triviaTests.TriviaExecutableTests/testCorrectAnswerOffersNextQuestion",
        "triviaTests.TriviaExecutableTests/testEndOfInputExitsCleanly",
        "TriviaGameTests.answerFlow()",
    ]

    /// A package folder with what SwiftPM leaves after a run: its export.
    let root: String
    let log: [UInt8]
    let events: [UInt8]
    /// The trivia export with the package's paths (the sample has them relative).
    let export: [UInt8]

    init() throws {
        root = try temporaryDirectory()
        log = Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample + "/swift-test-failing.log")))
        events = Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample + "/swift-testing-events.jsonl")))
        let relative = try String(contentsOfFile: Self.sample + "/coverage.json", encoding: .utf8)
        export = Array(
            relative.replacingOccurrences(of: #""filename":"Sources/"#, with: #""filename":"\#(root)/Sources/"#).utf8)
        try FileManager.default.createDirectory(
            atPath: root + "/.build/debug/codecov", withIntermediateDirectories: true)
        try Data(export).write(to: URL(fileURLWithPath: root + "/.build/debug/codecov/trivia.json"))
        // The test executable (not a real one: its coverage mapping cannot be read).
        try Data().write(to: URL(fileURLWithPath: root + "/.build/debug/triviaPackageTests.xctest"))
    }

    /// `swift`, llvm-profdata, llvm-cov and the test executable, as the recording has them.
    /// `answer`, when given, answers first (nil: as recorded).
    func recordedSwift(
        failingWrites: [String] = [], failing: Set<String> = [],
        answer: (@Sendable (Command) -> FakeSystem.Answer?)? = nil
    ) -> FakeSystem {
        let (root, log, events, export) = (root, log, events, export)
        return FakeSystem(failingWrites: failingWrites) { command in
            if let answered = answer?(command) { return answered }
            let arguments = command.arguments
            switch command.program {
            case "swift" where arguments.starts(with: ["build", "--build-tests"]):
                return .init(output: "[1/2] Compiling TriviaCore Question.swift\nBuild complete! (1.00s)\n")
            case "swift" where arguments.starts(with: ["build", "--show-bin-path"]):
                return .init(output: root + "/.build/debug\n")
            case "swift" where arguments.starts(with: ["test", "list"]):
                return .init(output: Self.listed.joined(separator: "\n") + "\n")
            case "swift" where arguments.starts(with: ["test", "--show-codecov-path"]):
                return .init(output: root + "/.build/debug/codecov/trivia.json\n")
            case "swift" where arguments.first == "test":
                return .init(status: 1, bytes: log) { command in
                    let index = try #require(command.arguments.firstIndex(of: "--experimental-event-stream-output"))
                    try Data(events).write(to: URL(fileURLWithPath: command.arguments[index + 1]))
                }
            case Self.toolchainFolder + "/llvm-profdata":
                return .init { command in
                    let output = try #require(command.arguments.last)
                    try Data("profdata".utf8).write(to: URL(fileURLWithPath: output))
                }
            case Self.toolchainFolder + "/llvm-cov":
                return .init(bytes: export)
            case let program where program.hasSuffix("PackageTests.xctest"):
                return Self.testExecutable(command, failing: failing)
            default:
                return nil
            }
        }
    }

    /// The test executable running one test: its output, and its profile.
    static func testExecutable(_ command: Command, failing: Set<String>) -> FakeSystem.Answer {
        let arguments = command.arguments
        let test = arguments.contains("--filter") ? listed[2] : arguments[2]
        let failed = failing.contains(test)
        let output: String
        if test.hasSuffix(")") {
            output = """
                ◇ Test answerFlow() started.
                ✔ Test answerFlow() passed after 0.001 seconds.
                ✔ Test run with 1 test in 0 suites passed after 0.001 seconds.

                """
        } else {
            let name = test.split(separator: ".", maxSplits: 1)[1].replacingOccurrences(of: "/", with: ".")
            output = """
                Test Case '\(name)' started at 2026-11-22 14:03:55.158
                \(failed ? "/p/Tests/triviaTests/TriviaExecutableTests.swift:20: error: \(name) : XCTAssertTrue failed\n" : "")\
                Test Case '\(name)' \(failed ? "failed" : "passed") (0.071 seconds)

                """
        }
        return .init(status: failed ? 1 : 0, output: output) { command in
            let profile = try #require(command.environment["LLVM_PROFILE_FILE"])
            try Data("raw profile".utf8).write(to: URL(fileURLWithPath: profile))
        }
    }

    func workflow(_ strategy: RunWorkflow.Strategy, shard: Shard? = nil, system: FakeSystem) -> RunWorkflow {
        RunWorkflow(
            root: root, output: root + "/.build/swiftcov", testArguments: Self.userArguments, strategy: strategy,
            shard: shard, system: system)
    }

    func toolchain(_ system: FakeSystem) -> Toolchain {
        Toolchain(
            llvmProfdata: Self.toolchainFolder + "/llvm-profdata", llvmCov: Self.toolchainFolder + "/llvm-cov",
            system: system)
    }

    /// Whether every `swift` command carries each of the user's build options.
    static func carryUserArguments(_ calls: [Command]) -> Bool {
        calls.filter { $0.program == "swift" }.allSatisfy { call in
            stride(from: 0, to: userArguments.count, by: 2).allSatisfy { index in
                call.arguments.indices.dropLast().contains {
                    call.arguments[$0] == userArguments[index] && call.arguments[$0 + 1] == userArguments[index + 1]
                }
            }
        }
    }

    @Test("whole suite: one swift test with the user's options, its log and export kept, results in memory")
    func wholeSuite() throws {
        let system = recordedSwift()
        let run = workflow(.wholeSuite, system: system)
        let sink = CollectingSink()
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: sink)

        #expect(
            system.calls.map { Array($0.arguments.prefix(2)) } == [
                ["test", "--enable-code-coverage"], ["test", "--show-codecov-path"],
            ])
        #expect(system.calls.allSatisfy { $0.directory == root })
        #expect(Self.carryUserArguments(system.calls), "\(system.calls)")
        #expect(!outcome.testsPassed && outcome.perTest == nil)
        // The results of the log and the event stream `swift test` wrote, read together.
        let expected = TestResultsReader.combine([
            try TestResultsReader.read(path: Self.sample + "/swift-test-failing.log", utcOffset: 0),
            try TestResultsReader.read(path: Self.sample + "/swift-testing-events.jsonl", utcOffset: 0),
        ])
        #expect(outcome.results.totals == expected.totals && outcome.results.totals.failed > 0)
        // Read as it came, in the pieces a pipe delivers: the same run as its file read back.
        #expect(outcome.results == expected)
        // The failing run's cases, as SampleReports/README.md describes them.
        #expect(outcome.results.totals.tests == 73)
        let text = String(decoding: log, as: UTF8.self)
        // What CI keeps: the log as `swift test` printed it, the export SwiftPM wrote.
        #expect(try Data(contentsOf: URL(fileURLWithPath: run.logPath)) == Data(log))
        #expect(try Data(contentsOf: URL(fileURLWithPath: outcome.exportPath)) == Data(export))
        #expect(outcome.exportPath == root + "/.build/swiftcov/llvm-cov-export.json")
        #expect(sink.output == text)
        #expect(sink.stages.count == 1 && sink.stages[0].hasPrefix("running swift test --enable-code-coverage"))
    }

    @Test(
        "a run's results: its export's report in the scope asked for and the gate's, its XCTest classes found in the package's tests"
    )
    func results() throws {
        let system = recordedSwift()
        let run = workflow(.wholeSuite, system: system)
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: CollectingSink())
        // The class the log names without its module (XCTest on Linux), declared in the package
        // (written in pieces: this file's own lines must not declare it to a scan of this package).
        try FileManager.default.createDirectory(
            atPath: root + "/Tests/TriviaCoreTests", withIntermediateDirectories: true)
        let declaration = ["final class", "QuestionsLoaderTests: XCTestCase {"].joined(separator: " ")
        try Data("import XCTest\n\n\(declaration)\n    func testBundledQuestionsLoadOffline() {}\n}\n".utf8)
            .write(to: URL(fileURLWithPath: root + "/Tests/TriviaCoreTests/QuestionsLoaderTests.swift"))
        var configuration = GateConfiguration()
        configuration.excludes = [Glob("Sources/trivia/**")]
        let scope = CoverageRequest(inputs: ["elsewhere.json"], excludes: [Glob("Sources/TriviaGame/**")])

        let results = try run.results(of: outcome, scope: scope, configuration: configuration)

        #expect(results.request.inputs == [outcome.exportPath] && results.request.root == root)
        // The run's export, in both scopes: TriviaCore's files only.
        let expected = try CoverageRequest(
            inputs: [outcome.exportPath], root: root,
            excludes: [Glob("Sources/TriviaGame/**"), Glob("Sources/trivia/**")]
        ).makeReport(workingDirectory: root)
        #expect(results.coverage.files.map(\.path) == expected.files.map(\.path))
        #expect(results.coverage.totals == expected.totals)
        #expect(results.coverage.files.count == 9)
        #expect(results.coverage.files.allSatisfy { $0.displayPath.hasPrefix("Sources/TriviaCore/") })
        // The class, in its module as the package declares it.
        let suites = { (run: TestRun) in run.suites.map(\.name).filter { $0.hasSuffix("QuestionsLoaderTests") } }
        #expect(suites(outcome.results) == ["QuestionsLoaderTests"])
        #expect(suites(results.tests) == ["TriviaCoreTests.QuestionsLoaderTests"])
    }

    @Test(
        "the whole suite keeps an earlier run --per-test's data: this run's when at the same code, else said to be an earlier run's"
    )
    func keepsPerTestData() throws {
        let commit = String(repeating: "c", count: 40)
        var stored = PerTestCoverage(
            recording: .init(commit: commit, dirty: false, date: "2026-11-22T10:00:00Z"),
            files: [.init(path: "Sources/TriviaCore/Question.swift", lines: [3, 4, 5])])
        stored.add(
            id: Self.listed[0], outcome: .passed, milliseconds: 5, lines: ["Sources/TriviaCore/Question.swift": [4]])
        let earlier =
            "kept \(root)/.build/swiftcov/per-test.swiftcov of an earlier `run --per-test` (at commit cccccccccccc"
        // git's answers now (HEAD, `git status --porcelain`), and the note expected.
        let cases: [(head: String, status: String, note: String)] = [
            (
                commit, "",
                "kept the per-test data in \(root)/.build/swiftcov/per-test.swiftcov: recorded at this commit"
            ),
            (commit, " M Sources/TriviaCore/Question.swift\n", earlier + ", 2026-11-22T10:00:00Z): "),
            (String(repeating: "d", count: 40), "", earlier + ", 2026-11-22T10:00:00Z): "),
        ]
        for (index, (head, status, note)) in cases.enumerated() {
            let system = recordedSwift { command in
                guard command.program == "git" else { return nil }
                return .init(output: command.arguments.contains("rev-parse") ? head + "\n" : status)
            }
            let run = workflow(.wholeSuite, shard: index == 2 ? try Shard(parsing: "1/2") : nil, system: system)
            try FileManager.default.createDirectory(atPath: run.output, withIntermediateDirectories: true)
            try PerTestStore.write(stored, to: run.storePath)
            let sink = CollectingSink()
            let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: sink)
            // Kept as it was; shown with this run's coverage only when of the same code.
            #expect(try PerTestStore.read(path: run.storePath) == stored)
            #expect(outcome.perTest == (index == 0 ? stored : nil))
            let notes = sink.diagnostics.map(\.message).filter { $0.contains("per-test") }
            #expect(notes.count == 1 && notes[0].hasPrefix(note), "\(notes)")
        }
        // Data swiftcov cannot read is left as it is, and said so.
        let system = recordedSwift()
        let run = workflow(.wholeSuite, system: system)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: run.storePath))
        let sink = CollectingSink()
        _ = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: sink)
        #expect(try Data(contentsOf: URL(fileURLWithPath: run.storePath)) == Data("stale".utf8))
        #expect(sink.diagnostics.contains { $0.message.hasPrefix("left \(run.storePath) as it is: ") })
    }

    @Test("a shard: built and listed once, its share run from that build with a --filter")
    func shard() throws {
        let system = recordedSwift()
        let run = workflow(.wholeSuite, shard: try Shard(parsing: "2/2"), system: system)
        let sink = CollectingSink()
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: sink)

        let calls = system.calls
        #expect(
            calls.map { Array($0.arguments.prefix(2)) } == [
                ["build", "--build-tests"], ["test", "list"], ["test", "--enable-code-coverage"],
                ["test", "--show-codecov-path"],
            ])
        #expect(Self.carryUserArguments(calls), "\(calls)")
        #expect(calls[2].arguments.contains("--skip-build") && calls[2].arguments.contains("--filter"))
        let share = try String(contentsOfFile: root + "/.build/swiftcov/shard-tests.txt", encoding: .utf8)
        let shareTests = share.split(separator: "\n").map(String.init)
        #expect(!shareTests.isEmpty && shareTests.allSatisfy(Self.listed.contains))
        #expect(
            sink.diagnostics.map(\.message) == [
                "shard 2/2: \(shareTests.count) of 3 tests (listed in \(root)/.build/swiftcov/shard-tests.txt)"
            ])
        #expect(!outcome.testsPassed)
    }

    @Test(
        "each test alone: built, listed, each run with its own profile; a failure alone is the run's; the store in memory"
    )
    func eachTestAlone() throws {
        let system = recordedSwift(failing: [Self.listed[1]])
        var run = workflow(.eachTestAlone(timeout: 30), system: system)
        run.jobs = 2
        let sink = CollectingSink()
        let outcome = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: sink)

        let calls = system.calls
        #expect(Self.carryUserArguments(calls), "\(calls)")
        let swiftCalls = calls.filter { $0.program == "swift" }.map { Array($0.arguments.prefix(2)) }
        // The test that failed alone makes the suite run once after the tests (the order check),
        // then twice after the test before it (the search for the test it depends on).
        #expect(
            swiftCalls == [
                ["build", "--build-tests"], ["test", "list"], ["build", "--show-bin-path"],
                ["test", "--enable-code-coverage"], ["test", "--enable-code-coverage"],
                ["test", "--enable-code-coverage"],
            ])
        // Each test by its own selector, with its own profile; the failed one three more times to confirm it.
        let executions = calls.filter { $0.program.hasSuffix("PackageTests.xctest") }
        #expect(executions.count == 6)
        #expect(Set(executions.prefix(3).compactMap { $0.environment["LLVM_PROFILE_FILE"] }).count == 3)
        #expect(executions.contains { $0.arguments == ["--testing-library", "xctest", Self.listed[0]] })
        #expect(executions.contains { $0.arguments.starts(with: ["--testing-library", "swift-testing", "--filter"]) })
        // The mapping of a binary that is not one cannot be read: lines by llvm-cov, said so.
        #expect(
            sink.diagnostics.contains {
                $0.message.hasSuffix("each test's lines come from llvm-profdata and llvm-cov instead (slower)")
            })

        #expect(!outcome.testsPassed)
        #expect(outcome.results.totals.tests == 3 && outcome.results.totals.failed == 1)
        let coverage = try #require(outcome.perTest)
        #expect(coverage.tests.map(\.id).sorted() == Self.listed.sorted())
        #expect(coverage.tests.first { $0.id == Self.listed[1] }?.outcome == .failed)
        // Each test's lines: those its (recorded) export counts.
        let recorded = try LLVMCovExportReader.read(MappedFile(bytes: export), names: false)
        let expected = try LineAttribution.executedLines(of: recorded, root: root)
        #expect(!expected.isEmpty)
        for test in coverage.tests {
            #expect(coverage.lines(of: test).mapValues(Set.init) == expected.mapValues(Set.init), "\(test.id)")
        }
        // What CI keeps: the store (equal to what the run holds), the log in list order, the export.
        #expect(try PerTestStore.read(path: run.storePath) == coverage)
        let kept = try String(contentsOfFile: run.logPath, encoding: .utf8)
        #expect(
            kept.contains("testCorrectAnswerOffersNextQuestion' passed")
                && kept.contains("testEndOfInputExitsCleanly' failed"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: outcome.exportPath)) == Data(export))
        // The export is read once: the report is made from the run's reading, not the file again.
        let read = try #require(outcome.export)
        try Data("not an export".utf8).write(to: URL(fileURLWithPath: outcome.exportPath))
        let report = try CoverageRequest(inputs: [outcome.exportPath], root: root)
            .makeReport(workingDirectory: root, read: read)
        #expect(report.files.count == coverage.files.count && !report.files.isEmpty)
        #expect(throws: CoverageInputError.self) {
            try CoverageRequest(inputs: [outcome.exportPath], root: root).makeReport(workingDirectory: root)
        }
        #expect(sink.results.count == 3)
        #expect(sink.stages.contains { $0.hasPrefix("recorded the lines of 3 tests") })
    }

    @Test("a full disk when the export is written: one error naming the file, nothing half-written")
    func writeError() throws {
        let system = recordedSwift(failingWrites: ["/llvm-cov-export.json"])
        let run = workflow(.wholeSuite, system: system)
        #expect {
            _ = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: CollectingSink())
        } throws: { error in
            let diagnostic = error.asDiagnostic
            return diagnostic.file == root + "/.build/swiftcov/llvm-cov-export.json"
                && diagnostic.message == "cannot write: No space left on device" && diagnostic.exitCode == 2
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/.build/swiftcov/llvm-cov-export.json"))
    }

    @Test("a log that cannot be read as it streams (UTF-32): kept whole for the user, one error naming it")
    func unreadableStreamedLog() throws {
        // UTF-32 text, as a log written by a tool that re-encodes it; longer than a pipe's piece.
        let text = String(repeating: "Test Suite 'All tests' started at 2026-11-22 14:03:53.085\n", count: 200)
        let bytes: [UInt8] =
            [0xFF, 0xFE, 0, 0]
            + text.unicodeScalars.flatMap { scalar in
                withUnsafeBytes(of: scalar.value.littleEndian, Array.init)
            }
        let system = recordedSwift { command in
            command.program == "swift" && command.arguments.starts(with: ["test", "--enable-code-coverage"])
                ? .init(status: 1, bytes: bytes) : nil
        }
        let run = workflow(.wholeSuite, system: system)
        #expect {
            _ = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: CollectingSink())
        } throws: { error in
            let diagnostic = error.asDiagnostic
            return diagnostic.file == run.logPath && diagnostic.message.contains("UTF-32") && diagnostic.exitCode == 2
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: run.logPath)) == Data(bytes))
    }

    @Test("the export SwiftPM names has vanished and no profile is there: one error naming the folder")
    func vanishedExport() throws {
        try FileManager.default.removeItem(atPath: root + "/.build/debug/codecov/trivia.json")
        let system = recordedSwift()
        let run = workflow(.wholeSuite, system: system)
        #expect {
            _ = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: CollectingSink())
        } throws: { error in
            let diagnostic = error.asDiagnostic
            return diagnostic.message.hasPrefix("no llvm-cov export found") && diagnostic.exitCode == 2
                && "\(diagnostic)".contains(root + "/.build/debug/codecov")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/.build/swiftcov/llvm-cov-export.json"))
    }

    @Test("a build that fails: each test alone stops with its status, the errors told to the sink")
    func buildFails() throws {
        let system = FakeSystem { command in
            command.arguments.starts(with: ["build", "--build-tests"])
                ? .init(status: 1, output: "[1/2] Compiling\nSources/A.swift:1:1: error: deliberate\n") : nil
        }
        let run = workflow(.eachTestAlone(timeout: 30), system: system)
        let sink = CollectingSink()
        #expect {
            _ = try run.run(toolchain: toolchain(system), clock: Self.clock, sink: sink)
        } throws: { error in
            error.asDiagnostic.message == "`swift build --build-tests` exited with status 1"
        }
        #expect(sink.ended == ["Sources/A.swift:1:1: error: deliberate\n"])
        #expect(system.calls.count == 1)
    }
}
