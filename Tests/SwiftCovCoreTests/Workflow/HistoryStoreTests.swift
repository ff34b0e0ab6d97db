import Foundation
import SwiftCovTestSupport
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

@Suite("Where histories live: a file appended to, compacted; git notes; a run's keys", .removingTemporaryFolders)
struct HistoryStoreTests {
    static func run(_ id: String, time: Int64, commit: String = "", into history: inout TestHistory) -> TestHistory.Run
    {
        var run = TestHistory.Run(id: id, time: time, commit: commit, tree: commit)
        run.executions = [TestHistory.Execution(test: history.intern("M.C/test\(time % 3)"), status: .passed)]
        run.totals.tests = 1
        run.totals.passed = 1
        return run
    }

    static func git(_ arguments: [String], in directory: String) throws -> String {
        let result = try Git.run(
            arguments, in: directory,
            environment: [
                "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@t",
            ])
        try #require(result.status == 0, "git \(arguments): \(result.error)")
        return result.trimmedOutput
    }

    @Test(
        "a file: made on first use in a new folder, appended to, a cut last line set apart, compacted by count and age")
    func file() throws {
        let path = try temporaryDirectory() + "/new/history.jsonl"
        let home = HistoryStore.Home(parsing: path)
        #expect(home == .file(path))
        #expect(try HistoryStore.read(home, root: "/", latestTime: .max).history.runs.isEmpty)
        var history = TestHistory()
        let first = Self.run("a", time: 100, into: &history)
        try HistoryStore.append([first], of: history, to: home, known: [], root: "/")
        // A write cut short: the next run starts on a line of its own, the cut line is skipped.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"v\":1,\"run\":\"cut".utf8))
        try handle.close()
        var reading = try HistoryStore.read(home, root: "/", latestTime: .max)
        #expect(reading.warnings.count == 1)
        history = reading.history
        let known = Set(history.names)  // the names the file has: the new run's new name is written
        let second = Self.run("b", time: 200 + 86_400 * 10, into: &history)
        try HistoryStore.append([second], of: history, to: home, known: known, root: "/")
        reading = try HistoryStore.read(home, root: "/", latestTime: .max)
        #expect(reading.history.runs.map(\.id) == ["a", "b"])
        // The cut record, now in the middle, is still set apart, never an error.
        #expect(reading.warnings.map(\.message) == ["record cut short (a write that did not end); skipped"])
        // Compacted: by count, then by age.
        var dropped = try HistoryStore.compact(
            reading.history, at: home, root: "/", keepingRuns: 1, days: nil, now: 300 + 86_400 * 10)
        #expect(dropped == 1)
        let compacted = try HistoryStore.read(home, root: "/", latestTime: .max)
        #expect(compacted.history.runs.map(\.id) == ["b"] && compacted.warnings.isEmpty)
        #expect(compacted.history.names.count == 1)
        dropped = try HistoryStore.compact(
            compacted.history, at: home, root: "/", keepingRuns: nil, days: 1, now: 300 + 86_400 * 20)
        #expect(dropped == 1)
    }

    @Test("a file: adds beside compactions lose no run (they take turns on the history's lock)")
    func concurrentAddsAndCompactions() throws {
        let path = try temporaryDirectory() + "/history.jsonl"
        let home = HistoryStore.Home.file(path)
        let operations = 90
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: operations) { index in
            do {
                // What `history add` and `history compact` do: read, then write.
                var history = try HistoryStore.read(home, root: "/", latestTime: .max).history
                if index % 3 == 0 {
                    _ = try HistoryStore.compact(
                        history, at: home, root: "/", keepingRuns: 10_000, days: nil, now: 1_000_000)
                } else {
                    let known = Set(history.names)
                    let run = Self.run("add-\(index)", time: 1_000 + Int64(index), into: &history)
                    try HistoryStore.append([run], of: history, to: home, known: known, root: "/")
                }
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let reading = try HistoryStore.read(home, root: "/", latestTime: .max)
        #expect(reading.warnings.isEmpty)
        let added = (0..<operations).filter { $0 % 3 != 0 }.map { "add-\($0)" }
        #expect(Set(reading.history.runs.map(\.id)) == Set(added))
    }

    @Test("a history that shrinks while it is read is an error saying so, not damage")
    func shrankWhileRead() throws {
        let path = try temporaryDirectory() + "/history.jsonl"
        var history = TestHistory()
        var runs: [TestHistory.Run] = []
        for index in 0..<2_000 { runs.append(Self.run("r\(index)", time: 100 + Int64(index), into: &history)) }
        try HistoryStore.append(runs, of: history, to: .file(path), known: [], root: "/")
        let file = try MappedFile(path: path)
        #expect(truncate(path, off_t(file.count / 3)) == 0)
        #expect(throws: CoverageInputError.unreadable(path: path, reason: MappedFile.shrankMessage)) {
            try HistoryStore.read(file, path: path, latestTime: .max)
        }
    }

    @Test("git notes: each run in its commit's note, read back from every note; a run without a commit refused")
    func gitNotes() throws {
        let repository = try temporaryDirectory()
        _ = try Self.git(["init", "-q"], in: repository)
        _ = try Self.git(["commit", "-q", "--allow-empty", "-m", "one"], in: repository)
        let one = try Self.git(["rev-parse", "HEAD"], in: repository)
        _ = try Self.git(["commit", "-q", "--allow-empty", "-m", "two"], in: repository)
        let two = try Self.git(["rev-parse", "HEAD"], in: repository)
        let home = HistoryStore.Home(parsing: "git-notes")
        #expect(home == .gitNotes(ref: "refs/notes/swiftcov"))
        #expect(HistoryStore.Home(parsing: "git-notes:ci") == .gitNotes(ref: "refs/notes/ci"))
        var history = TestHistory()
        let runs = [
            Self.run("a", time: 1, commit: one, into: &history), Self.run("b", time: 2, commit: two, into: &history),
            Self.run("c", time: 3, commit: one, into: &history),
        ]
        for run in runs {
            try HistoryStore.append([run], of: history, to: home, known: [], root: repository)
        }
        let reading = try HistoryStore.read(home, root: repository, latestTime: .max)
        #expect(reading.history.runs.map(\.id) == ["a", "b", "c"])
        #expect(try Self.git(["notes", "--ref=swiftcov", "show", one], in: repository).contains("\"run\":\"c\""))
        // Compacted to the newest run: the second commit's note goes, the first's keeps c alone.
        let dropped = try HistoryStore.compact(
            reading.history, at: home, root: repository, keepingRuns: 1, days: nil, now: 10)
        #expect(dropped == 2)
        #expect(try HistoryStore.read(home, root: repository, latestTime: .max).history.runs.map(\.id) == ["c"])
        #expect(try Git.run(["notes", "--ref=swiftcov", "show", two], in: repository).status != 0)
        // A run added after: on top of the compacted notes.
        try HistoryStore.append(
            [Self.run("e", time: 5, commit: two, into: &history)], of: history, to: home, known: [], root: repository)
        // Damage is named by the note it is in.
        _ = try Self.git(["notes", "--ref=swiftcov", "append", "-m", "garbage", two], in: repository)
        let error = #expect(throws: HistoryFormat.ReadError.self) {
            try HistoryStore.read(home, root: repository, latestTime: .max)
        }
        #expect(error?.path == "refs/notes/swiftcov (note of \(two.prefix(12)))")
        let orphan = Self.run("d", time: 6, into: &history)
        #expect(throws: HistoryStore.Failure.self) {
            try HistoryStore.append([orphan], of: history, to: home, known: [], root: repository)
        }
    }

    @Test(
        "a run's keys: commit, tree (the working copy's, dirty when it differs), repository, CI's run ID, environment")
    func keys() throws {
        let repository = try temporaryDirectory()
        _ = try Self.git(["init", "-q", "-b", "trunk"], in: repository)
        try "a".write(toFile: repository + "/f.txt", atomically: true, encoding: .utf8)
        _ = try Self.git(["add", "f.txt"], in: repository)
        _ = try Self.git(["commit", "-q", "-m", "one"], in: repository)
        let commit = try Self.git(["rev-parse", "HEAD"], in: repository)
        let tree = try Self.git(["rev-parse", "HEAD^{tree}"], in: repository)
        var keys = HistoryKeys.keys(root: repository, time: 5, given: .init(), variables: [:])
        #expect(keys.commit == commit && keys.tree == tree && !keys.isDirty && keys.repository == commit)
        #expect(keys.branch == "trunk" && keys.id.hasPrefix("local-5-"))
        // A change to a tracked file: another tree, dirty; the index is not touched.
        try "b".write(toFile: repository + "/f.txt", atomically: true, encoding: .utf8)
        keys = HistoryKeys.keys(
            root: repository, time: 6, given: .init(configuration: "release"),
            variables: [
                "GITHUB_RUN_ID": "77", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_JOB": "test", "GITHUB_REF_NAME": "main",
            ])
        #expect(keys.isDirty && keys.tree != tree && keys.commit == commit)
        #expect(try Self.git(["diff", "--cached", "--name-only"], in: repository).isEmpty)
        #expect(keys.id == "github-77-2-test" && keys.branch == "main" && keys.environment.hasSuffix(" release"))
        #expect(HistoryKeys.ciRunID(["CI_JOB_ID": "9"]) == "gitlab-9")
        #expect(HistoryKeys.swiftVersion("Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x86_64") == "swift-6.3.1")
        #expect(HistoryKeys.swiftVersion("no version here") == nil)
        #expect(HistoryKeys.environment(configuration: "debug", toolchain: nil).hasSuffix(" swift debug"))
        // Outside git: no commit, no tree, no repository.
        let plain = HistoryKeys.keys(root: try temporaryDirectory(), time: 7, given: .init(), variables: [:])
        #expect(plain.commit.isEmpty && plain.tree.isEmpty && plain.repository.isEmpty)
    }
}
