import Foundation
import Testing

/// `swiftcov diff` run as a pull-request job runs it: with a diff file, from standard input, and
/// with git in a throwaway repository. Expected reports are the library's golden files.
@Suite("swiftcov diff, end to end", .removingTemporaryFolders)
struct DiffCommandTests {
    static let diff = "Tests/SwiftCovCoreTests/Fixtures/diffs/trivia.diff"

    @Test("a diff file: the table, and exit 1 below --fail-under")
    func diffFile() throws {
        let result = try swiftcov(["diff", "SampleReports/coverage.json", "--diff", Self.diff, "--fail-under", "80"])
        #expect(result.status == 1)
        #expect(result.stderr.isEmpty)
        let expected = try golden("diff-trivia.txt")
            .replacing("Coverage of changed lines since origin/main", with: "Coverage of changed lines in \(Self.diff)")
        #expect(result.stdout == expected)
    }

    @Test("a diff of other sources than the coverage's: exit 2, one line naming the file and line, no report")
    func diffOfOtherSources() throws {
        let text = try String(contentsOfFile: packageRoot + "/" + Self.diff, encoding: .utf8)
        // The same change, but one context line of a covered file says something else.
        let stale = text.replacing("     public var answers: [String] {", with: "     public var choices: [String] {")
        #expect(stale != text)
        let result = try swiftcov(["diff", "SampleReports/coverage.json", "--diff", "-"], stdin: Data(stale.utf8))
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(
            lines.first?.hasPrefix(
                "Sources/TriviaCore/Question.swift:27: error: the diff shows '    public var choices: [String] {")
                == true, "\(result.stderr)")
    }

    @Test("a changed file edited after its coverage: a warning beside the report, exit 2 with a gate")
    func changedAfterCoverage() throws {
        // The sample's coverage, as this package's tests left it in its .build, and one of its
        // changed files, the file as the tests ran it.
        let root = try temporaryDirectory()
        let export = root + "/.build/swiftcov/llvm-cov-export.json"
        let elsewhere = root + "/shard/llvm-cov-export.json"
        for folder in ["/Sources/TriviaCore", "/.build/swiftcov", "/shard"] {
            try FileManager.default.createDirectory(atPath: root + folder, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(
            atPath: packageRoot + "/Sources/TriviaCore/Question.swift",
            toPath: root + "/Sources/TriviaCore/Question.swift")
        for copy in [export, elsewhere] {
            try FileManager.default.copyItem(atPath: packageRoot + "/SampleReports/coverage.json", toPath: copy)
        }
        let now = Date()
        for file in [root + "/Sources/TriviaCore/Question.swift", export] {
            try FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: file)
        }
        let diff = packageRoot + "/" + Self.diff
        func run(_ coverage: String = export, _ extra: [String] = []) throws -> RunResult {
            try swiftcov(["diff", coverage, "--root", root, "--diff", diff] + extra)
        }
        let fresh = try run()
        #expect(fresh.status == 0)
        #expect(fresh.stderr.isEmpty, "\(fresh.stderr)")

        // The coverage written ten minutes before the file was last saved: the tests ran an older one.
        for copy in [export, elsewhere] {
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-630)], ofItemAtPath: copy)
        }
        let warned = try run()
        #expect(warned.status == 0)
        #expect(warned.stdout == fresh.stdout)
        #expect(
            warned.stderr.hasPrefix(
                "Sources/TriviaCore/Question.swift: warning: changed 10 min after its coverage was measured ("),
            "\(warned.stderr)")
        #expect(warned.stderr.split(separator: "\n").count == 1, "\(warned.stderr)")
        let gated = try run(export, ["--fail-under", "0"])
        #expect(gated.status == 2)
        #expect(gated.stdout.isEmpty)
        #expect(
            gated.stderr.hasPrefix("Sources/TriviaCore/Question.swift: error: changed 10 min after"), "\(gated.stderr)")
        #expect(gated.stderr.split(separator: "\n").count == 1, "\(gated.stderr)")

        // An export from elsewhere (a shard's, copied from another machine) keeps another clock.
        let copied = try run(elsewhere, ["--fail-under", "0"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stderr.isEmpty, "\(copied.stderr)")
    }

    @Test("the gate holds at the coverage and fails just above it", arguments: [("51.5", Int32(0)), ("51.6", 1)])
    func gate(minimum: String, status: Int32) throws {
        let result = try swiftcov([
            "diff", "-c", "SampleReports/coverage.json", "--diff", Self.diff, "--fail-under", minimum, "-f", "json",
        ])
        #expect(result.status == status)
        #expect(result.stdout.contains("\"gate\": {\"failUnder\": \(minimum), \"passed\": \(status == 0)}"))
    }

    @Test("the diff from standard input; JSON and Markdown to a file")
    func stdinAndOutput() throws {
        let diff = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/" + Self.diff))
        let directory = try temporaryDirectory()
        let json = try swiftcov(
            ["diff", "SampleReports/coverage.json", "--diff", "-", "-f", "json", "-o", directory + "/diff.json"],
            stdin: diff)
        #expect(json.status == 0)
        #expect(json.stdout.isEmpty)
        let text = try String(contentsOfFile: directory + "/diff.json", encoding: .utf8)
        #expect(text.contains("\"base\": null, \"diffFile\": \"-\""))
        #expect(text.contains("\"totals\": {\"changedLines\": 52, \"lines\": {\"count\": 33, \"covered\": 17"))
        let markdown = try swiftcov(
            ["diff", "SampleReports/coverage.json", "--diff", "-", "-f", "markdown"], stdin: diff)
        #expect(markdown.stdout.hasPrefix("### Coverage of changed lines: 51.52% (17/33)\n"))
        #expect(markdown.stdout.contains("Changed lines in the diff on standard input."))
    }

    @Test("on GitHub Actions the Markdown goes to the job summary")
    func jobSummary() throws {
        let summary = try temporaryDirectory() + "/summary.md"
        let result = try swiftcov(
            ["diff", "SampleReports/coverage.json", "--diff", Self.diff], environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == 0)
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(text.hasPrefix("### Coverage of changed lines: 51.52% (17/33)"))
    }

    @Test(
        "usage and input errors exit 2 with one line on stderr",
        arguments: [
            (["diff", "SampleReports/coverage.json", "--base", "main", "--diff", "x.diff"], "not both"),
            (
                ["diff", "SampleReports/coverage.json", "--diff", "x.diff", "--fail-under", "101"],
                "expected a percentage"
            ),
            (["diff", "SampleReports/coverage.json", "--diff", "missing.diff"], "missing.diff: error: cannot read"),
            (["diff", "-", "--diff", "-"], "standard input ('-') can be read only once"),
            // Not a diff at all: refused, never "no changes" (which --fail-under would pass).
            (
                ["diff", "SampleReports/coverage.json", "--diff", "Package.swift", "--fail-under", "0"],
                "Package.swift:1: error: not a unified diff"
            ),
        ])
    func errors(arguments: [String], message: String) throws {
        let result = try swiftcov(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("a UTF-16 or binary diff is refused with exit 2, an empty one has no changes (invented)")
    func notADiff() throws {
        let directory = try temporaryDirectory()
        let utf16 = directory + "/utf16.diff"
        try "--- a/x\n+++ b/x\n@@ -1 +1 @@\n+y\n".write(toFile: utf16, atomically: true, encoding: .utf16)
        let refused = try swiftcov(["diff", "SampleReports/coverage.json", "--diff", utf16, "--fail-under", "0"])
        #expect(refused.status == 2)
        #expect(
            refused.stderr == utf16
                + ":1: error: not a unified diff: it contains NUL bytes (UTF-16 text or a binary file?)\n")
        let empty = directory + "/empty.diff"
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        let passed = try swiftcov(["diff", "SampleReports/coverage.json", "--diff", empty, "--fail-under", "100"])
        #expect(passed.status == 0)
    }

    @Test("a truncated diff names the file and line")
    func truncated() throws {
        let directory = try temporaryDirectory()
        let text = try String(contentsOfFile: packageRoot + "/" + Self.diff, encoding: .utf8)
        let cut = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(40).joined(separator: "\n")
        try cut.write(toFile: directory + "/cut.diff", atomically: true, encoding: .utf8)
        let result = try swiftcov(["diff", "SampleReports/coverage.json", "--diff", directory + "/cut.diff"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(directory + "/cut.diff:40: error: the diff ends inside the hunk"))
    }

    @Test("--base runs git diff from the merge base in the package root", .enabled(if: Scratch.gitAvailable))
    func base() throws {
        // A throwaway repository at the package root of the sample's relative paths: main has the
        // older Question.swift, feature the current one; main moves on after feature branched.
        let repository = try temporaryDirectory()
        let current = try String(contentsOfFile: packageRoot + "/Sources/TriviaCore/Question.swift", encoding: .utf8)
        let older = current.replacing(
            "\n    /// Whether `choice` is the correct answer.\n    public func isCorrect(_ choice: AnswerChoice) -> Bool {\n        choice == correctAnswer\n    }\n",
            with: "")
        #expect(older != current)
        try FileManager.default.createDirectory(
            atPath: repository + "/Sources/TriviaCore", withIntermediateDirectories: true)
        let file = repository + "/Sources/TriviaCore/Question.swift"
        try Scratch.git(["init", "-q", "-b", "main"], in: repository)
        try older.write(toFile: file, atomically: true, encoding: .utf8)
        try Scratch.git(["add", "-A"], in: repository)
        try Scratch.git(["commit", "-q", "-m", "older"], in: repository)
        try Scratch.git(["checkout", "-q", "-b", "feature"], in: repository)
        try current.write(toFile: file, atomically: true, encoding: .utf8)
        try Scratch.git(["commit", "-q", "-am", "isCorrect"], in: repository)
        try Scratch.git(["checkout", "-q", "main"], in: repository)
        try "later\n".write(toFile: repository + "/README.md", atomically: true, encoding: .utf8)
        try Scratch.git(["add", "-A"], in: repository)
        try Scratch.git(["commit", "-q", "-m", "later on main"], in: repository)
        try Scratch.git(["checkout", "-q", "feature"], in: repository)

        let result = try swiftcov([
            "diff", "SampleReports/coverage.json", "--root", repository, "--base", "main", "-f", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"base\": \"main\""))
        #expect(result.stdout.contains("{\"path\": \"Sources/TriviaCore/Question.swift\""))
        #expect(result.stdout.contains("\"changedLines\": 5, \"lines\": {\"count\": 3, \"covered\": 3"))
        #expect(!result.stdout.contains("README.md"))  // main's later change is not the branch's

        // Without --base: the uncommitted changes, here none.
        let clean = try swiftcov(["diff", "SampleReports/coverage.json", "--root", repository])
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("No changed lines in the files the report covers."))

        let unknown = try swiftcov(["diff", "SampleReports/coverage.json", "--root", repository, "--base", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("git cannot compare with 'nope'"))
    }
}

/// Runs git, for building the throwaway repository of the --base test.
private enum Scratch {
    static let gitAvailable = (try? git(["--version"], in: NSTemporaryDirectory())) != nil

    @discardableResult
    static func git(_ arguments: [String], in directory: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["git", "-c", "user.name=swiftcov", "-c", "user.email=swiftcov@example.invalid"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }
}
