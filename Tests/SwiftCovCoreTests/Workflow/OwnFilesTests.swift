import Foundation
import SwiftCovTestSupport
import Testing

@testable import SwiftCovCore

/// swiftcov's own files in a package — the history file, the output folder, the folders the CI
/// recipes restore the tool and the history into — are never a change to the code: neither the
/// history's dirty flag and tree nor the per-test data's dirty flag count them. Real git
/// repositories in temporary folders.
@Suite("swiftcov's own files never make a tree dirty", .removingTemporaryFolders)
struct OwnFilesTests {
    /// A repository whose package is `Package` in it (as in a monorepo), with one commit of
    /// `tracked` (paths relative to the package).
    static func repository(tracked: [String]) throws -> (top: String, package: String) {
        let top = try temporaryDirectory()
        let package = top + "/Package"
        for path in ["Sources/A.swift"] + tracked { try write("one", to: package + "/" + path) }
        _ = try git(["init", "-q"], in: top)
        _ = try git(["add", "."], in: top)
        _ = try git(["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"], in: top)
        return (top, package)
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: String(path[..<path.lastIndex(of: "/")!]), withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func git(_ arguments: [String], in directory: String) throws -> String {
        let result = try Git.run(arguments, in: directory)
        try #require(result.status == 0, "git \(arguments): \(result.error)")
        return result.trimmedOutput
    }

    @Test("the pathspecs: the recipes' folders, and the paths given that are inside the root, relative to it")
    func pathspecs() {
        let root = "/work/Package"
        #expect(
            Git.excludingOwnFiles(
                ["/work/Package/out/", "./history.jsonl", "/elsewhere/h.jsonl", "../up", "."], root: root)
                == [
                    ":(exclude,literal).build", ":(exclude,literal).swiftcov-tool",
                    ":(exclude,literal).swiftcov-history", ":(exclude,literal)out", ":(exclude,literal)history.jsonl",
                ])
        // A folder beside the root whose name starts with the root's is outside it.
        #expect(Git.excludingOwnFiles(["/work/Package2/x"], root: root).count == Git.ownFolders.count)
    }

    @Test("the history: a history file and output folder, tracked or not, leave the tree the commit's; code does not")
    func historyKeys() throws {
        let (top, package) = try Self.repository(tracked: [".swiftcov-history/runs.jsonl", "ci/runs.jsonl"])
        let tree = try Self.git(["rev-parse", "HEAD^{tree}"], in: top)
        let given = HistoryKeys.Given(ownFiles: [package + "/ci/runs.jsonl", "out"])
        // The recipes' history and a history file given, both tracked and changed; an output
        // folder and the tool's cache, not tracked.
        try Self.write("two", to: package + "/.swiftcov-history/runs.jsonl")
        try Self.write("two", to: package + "/ci/runs.jsonl")
        try Self.write("report", to: package + "/out/coverage.json")
        try Self.write("tool", to: package + "/.swiftcov-tool/bin/swiftcov")
        var keys = HistoryKeys.keys(root: package, time: 1, given: given, variables: [:])
        #expect(!keys.isDirty && keys.tree == tree)
        // A change to the code is a change.
        try Self.write("two", to: package + "/Sources/A.swift")
        keys = HistoryKeys.keys(root: package, time: 2, given: given, variables: [:])
        #expect(keys.isDirty && keys.tree != tree)
    }

    @Test("the per-test data: the output folder, the history file and the recipes' folders are not changes")
    func perTestRecording() throws {
        let (_, package) = try Self.repository(tracked: [])
        var run = RunWorkflow(root: package, output: "out", testArguments: [])
        run.ownFiles = ["history.jsonl"]
        for path in [
            "out/per-test.swiftcov", "history.jsonl", ".swiftcov-history/runs.jsonl", ".swiftcov-tool/bin/swiftcov",
            ".build/debug/x",
        ] {
            try Self.write("x", to: package + "/" + path)
        }
        var recording = run.recording(date: "2026-11-28T00:00:00Z")
        #expect(recording.commit.count == 40 && !recording.dirty)
        // A new source file, not yet added, is built and tested: a change.
        try Self.write("new", to: package + "/Sources/B.swift")
        recording = run.recording(date: "2026-11-28T00:00:00Z")
        #expect(recording.dirty)
    }
}
