import Foundation
import Testing

/// `swiftcov history` and `swiftcov flaky` as CI runs them: runs recorded into a file or git
/// notes, read back, judged; damage and mix-ups stopped with one line and exit 2.
@Suite("swiftcov history and flaky, end to end", .removingTemporaryFolders)
struct HistoryCommandTests {
    static let failing = packageRoot + "/SampleReports/swift-test-failing.log"
    static let passing = packageRoot + "/SampleReports/swift-test-passing.log"

    /// A git repository with one commit, in a new folder.
    func repository() throws -> String {
        let directory = try temporaryDirectory()
        for arguments in [
            ["init", "-q"],
            ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"],
        ] {
            let git = Process()
            git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            git.arguments = ["git", "-C", directory] + arguments
            try git.run()
            git.waitUntilExit()
            try #require(git.terminationStatus == 0)
        }
        return directory
    }

    @Test("a failure then a pass of the same code: flaky, with both runs named; the history is JSON Lines")
    func fileHistory() throws {
        let directory = try repository()
        let history = directory + "/history/runs.jsonl"
        let first = try swiftcov(
            ["history", "add", Self.failing, "--history", history, "--run-id", "one"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.hasPrefix("swiftcov: recorded run one (73 tests, "))
        let second = try swiftcov(
            ["history", "add", Self.passing, "--history", history, "--run-id", "two"], in: directory)
        #expect(second.status == 0)
        let flaky = try swiftcov(["flaky", "--history", history], in: directory)
        #expect(flaky.status == 0)
        #expect(flaky.stdout.hasPrefix("The newest run had no failures (2 runs considered).\n"))
        #expect(flaky.stdout.contains("\nQuestionsLoaderTests/testBundledQuestionsLoadOffline    "))
        #expect(flaky.stdout.contains("failed in run one and passed in run two, same code"))
        // Every line is one JSON object.
        for line in try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n") {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
        // The same run ID twice is refused: CI's rerun of a job has a new attempt number.
        let again = try swiftcov(
            ["history", "add", Self.passing, "--history", history, "--run-id", "two"], in: directory)
        #expect(again.status == 2)
        #expect(again.stderr.hasPrefix("\(history): error: run two is already recorded"))
    }

    @Test("environments: --environment or SWIFTCOV_ENVIRONMENT names one beyond the automatic key; broken in it")
    func environments() throws {
        let directory = try repository()
        let history = directory + "/runs.jsonl"
        for (index, (log, name)) in [
            (Self.failing, "tokyo"), (Self.passing, "utc"), (Self.failing, "tokyo"), (Self.passing, "utc"),
        ].enumerated() {
            let arguments = ["history", "add", log, "--history", history, "--run-id", "r\(index)"]
            // The option, or the variable.
            let added =
                index < 2
                ? try swiftcov(arguments + ["--environment", name], in: directory)
                : try swiftcov(arguments, environment: ["SWIFTCOV_ENVIRONMENT": name], in: directory)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let lines = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n")
        let runs = try lines.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["run"] != nil }
        #expect(runs.map { $0["environmentName"] as? String } == ["tokyo", "utc", "tokyo", "utc"])
        // The automatic key is kept: system, machine, toolchain, configuration.
        #expect(runs.allSatisfy { ($0["environment"] as? String)?.hasSuffix(" debug") == true })
        let flaky = try swiftcov(["flaky", "--history", history], in: directory)
        #expect(flaky.stdout.contains("broken in tokyo"), "\(flaky.stdout)")
        #expect(!flaky.stdout.contains("flaky   "))
        let json = try swiftcov(["flaky", "--history", history, "--format", "json"], in: directory)
        #expect(json.stdout.contains(#""verdict": "broken in tokyo""#))
        // --environment names a run of the history.
        try "// swift-tools-version:5.9\n".write(
            toFile: directory + "/Package.swift", atomically: true, encoding: .utf8)
        let alone = try swiftcov(["run", "--environment", "x"], in: directory)
        #expect(alone.status == 2 && alone.stderr.contains("--environment goes with --history"), "\(alone.stderr)")
    }

    @Test(
        "a `swiftcov run` output folder: its log and event stream as one run, its export's coverage per module and file"
    )
    func outputFolder() throws {
        let directory = try repository()
        let folder = directory + "/swiftcov-output"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (from, to) in [
            ("swift-test-failing.log", "swift-test.log"), ("swift-testing-events.jsonl", "swift-testing-events.jsonl"),
            ("coverage.json", "llvm-cov-export.json"),
        ] {
            try FileManager.default.copyItem(atPath: packageRoot + "/SampleReports/" + from, toPath: folder + "/" + to)
        }
        let history = directory + "/runs.jsonl"
        let added = try swiftcov(
            ["history", "add", folder, "--history", history, "--run-id", "ci-1"], in: directory)
        #expect(added.status == 0, "\(added.stderr)")
        let lines = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n")
        let run = try #require(
            try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        #expect(run["totals"] as? [Int] == [73, 65, 5, 3, 0, 0])
        let coverage = try #require(run["coverage"] as? [String: Any])
        #expect(coverage["total"] as? [Int] == [325, 352, 46, 50, 175, 192])
        #expect((coverage["modules"] as? [String: Any])?.keys.sorted() == ["TriviaCore", "TriviaGame", "trivia"])
        // Swift Testing's tests by their suites, from the event stream.
        #expect(lines.contains { $0.contains("\"id\":\"TriviaGameTests.GameTests/") })
    }

    @Test(
        "a `swiftcov run --per-test` folder is recorded as it ran: alone, with the tests that ended differently alone")
    func perTestFolder() throws {
        let directory = try repository()
        let folder = directory + "/swiftcov-output"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (from, to) in [("swift-test-failing.log", "swift-test.log"), ("coverage.json", "llvm-cov-export.json")] {
            try FileManager.default.copyItem(atPath: packageRoot + "/SampleReports/" + from, toPath: folder + "/" + to)
        }
        // What `run --per-test` writes beside its log.
        let record = """
            {"scope": "whole", "retried": 0, "alone": true, "orderDependent": [
              {"id": "TriviaCoreTests.QuestionsLoaderTests/testBundledQuestionsLoadOffline", "alone": "failed", "inSuite": "passed"}]}
            """
        try record.write(toFile: folder + "/run.json", atomically: true, encoding: .utf8)
        let history = directory + "/runs.jsonl"
        let added = try swiftcov(
            ["history", "add", folder, "--history", history, "--run-id", "alone-1"], in: directory)
        #expect(added.status == 0, "\(added.stderr)")
        let lines = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        #expect(run["alone"] as? Bool == true)
        #expect((run["environment"] as? String)?.hasSuffix(" debug alone") == true)
        let found = try #require(run["orderDependent"] as? [[Any]])
        #expect(found.count == 1 && found[0].dropFirst().compactMap { $0 as? String } == ["f", "p"])
        // A plain run's folder is a run of the suite.
        try #"{"scope": "whole", "retried": 0}"#.write(toFile: folder + "/run.json", atomically: true, encoding: .utf8)
        _ = try swiftcov(["history", "add", folder, "--history", history, "--run-id", "suite-1"], in: directory)
        let suite = try #require(
            try JSONSerialization.jsonObject(
                with: Data(String(contentsOfFile: history, encoding: .utf8).split(separator: "\n").last!.utf8))
                as? [String: Any])
        #expect(suite["run"] as? String == "suite-1" && suite["alone"] == nil)
    }

    @Test("trends: the commits in the order of HEAD's first-parent line, not the order run; those off it said so")
    func trendsFollowCommits() throws {
        let directory = try repository()
        let base = try runGit(["rev-parse", "HEAD"], in: directory)
        try runGit(["commit", "-q", "--allow-empty", "-m", "feature"], in: directory)
        let feature = try runGit(["rev-parse", "HEAD"], in: directory)
        let history = directory + "/runs.jsonl"
        // A commit this clone does not have first, then the feature, then its base.
        for (index, commit) in ["0123456789abcdef0123456789abcdef01234567", feature, base].enumerated() {
            let added = try swiftcov(
                ["history", "add", Self.passing, "--history", history, "--run-id", "r\(index)", "--commit", commit],
                environment: ["SOURCE_DATE_EPOCH": "\(1_800_000_000 + index * 60)"], in: directory)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let trends = try swiftcov(
            ["trends", "--history", history], environment: ["SOURCE_DATE_EPOCH": "1800001000"], in: directory)
        #expect(trends.status == 0, "\(trends.stderr)")
        #expect(trends.stdout.hasPrefix("3 commits, newest \(feature.prefix(10)) on "), "\(trends.stdout)")
        #expect(
            trends.stderr
                == "swiftcov trends: note: 1 commit of the history is not on HEAD's first-parent line (another "
                + "branch's, or not in this clone): placed by when first run\n")
    }

    @Test("git notes: two processes adding at once lose no run")
    func gitNotesConcurrently() throws {
        let directory = try repository()
        let perProcess = 6
        let group = DispatchGroup()
        nonisolated(unsafe) var failures: [String] = []
        let lock = NSLock()
        for writer in 0..<2 {
            DispatchQueue.global().async(group: group) {
                for index in 0..<perProcess {
                    let result = try? swiftcov(
                        ["history", "add", Self.passing, "--history", "git-notes", "--run-id", "w\(writer)-\(index)"],
                        in: directory)
                    if result?.status != 0 {
                        lock.withLock { failures.append(result?.stderr ?? "did not start") }
                    }
                }
            }
        }
        group.wait()
        #expect(failures.isEmpty, "\(failures)")
        let json = try swiftcov(["flaky", "--history", "git-notes", "--format", "json"], in: directory)
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["runs"] as? Int == 2 * perProcess)
    }

    @Test("ci/history-git-notes.sh: jobs of two clones push their runs at once; none is lost; the job keeps its status")
    func gitNotesRecipe() throws {
        let base = try temporaryDirectory()
        @Sendable func shell(_ script: String, in directory: String) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", script]
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] =
                swiftcovExecutable().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        let identity = "-c user.name=t -c user.email=t@t"
        try #require(
            try shell(
                "git init -q --bare origin.git && git clone -q origin.git seed && cd seed && "
                    + "git \(identity) commit -q --allow-empty -m one && git push -q origin HEAD && cd .. && "
                    + "git clone -q origin.git a && git clone -q origin.git b", in: base) == 0)
        let recipe = packageRoot + "/ci/history-git-notes.sh"
        let group = DispatchGroup()
        nonisolated(unsafe) var statuses: [Int32] = []
        let lock = NSLock()
        for clone in ["a", "b"] {
            DispatchQueue.global().async(group: group) {
                for index in 0..<3 {
                    let status =
                        (try? shell(
                            "'\(recipe)' -- swiftcov history add '\(Self.passing)' --history git-notes --run-id \(clone)\(index)",
                            in: base + "/" + clone)) ?? -1
                    lock.withLock { statuses.append(status) }
                }
            }
        }
        group.wait()
        #expect(statuses == [0, 0, 0, 0, 0, 0])
        // A third clone sees all six runs.
        try #require(
            try shell(
                "git clone -q origin.git c && cd c && git fetch -q origin refs/notes/swiftcov:refs/notes/swiftcov",
                in: base)
                == 0)
        let json = try swiftcov(["flaky", "--history", "git-notes", "--format", "json"], in: base + "/c")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["runs"] as? Int == 6, "\(json.stderr)")
        // The command's failure is the job's failure.
        #expect(try shell("'\(recipe)' -- sh -c 'exit 1'", in: base + "/a") == 1)
    }

    @Test("a history of another repository, or a damaged one: one line naming it, exit 2")
    func refused() throws {
        let directory = try repository()
        let history = directory + "/runs.jsonl"
        try "{\"v\":1,\"run\":\"x\",\"time\":5,\"repository\":\"0123456789abcdef\",\"tests\":[]}\n"
            .write(toFile: history, atomically: true, encoding: .utf8)
        let foreign = try swiftcov(["flaky", "--history", history], in: directory)
        #expect(foreign.status == 2)
        #expect(
            foreign.stderr.hasPrefix("\(history): error: run x is of another repository (first commit 0123456789ab"))
        #expect(foreign.stderr.split(separator: "\n").count == 1)
        try "{\"v\":1,\"run\":\"x\",\"time\":5,\"tests\":[[\"q\",\"p\",0,1]]}\n"
            .write(toFile: history, atomically: true, encoding: .utf8)
        let damaged = try swiftcov(["history", "add", Self.passing, "--history", history], in: directory)
        #expect(damaged.status == 2)
        #expect(damaged.stderr == "\(history):1: error: test \"q\" has no name line (byte 40 of the line)\n")
        // Nothing was added.
        #expect(try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n").count == 1)
    }
}
