import Foundation
import Testing

@testable import SwiftCovCore

/// A diff is only right for the sources it was made from: the lines its hunks show must be the
/// current file's lines at those numbers.
@Suite("Checking a diff against the current sources", .removingTemporaryFolders)
struct DiffSourceCheckTests {
    static let diff = """
        diff --git a/Sources/A/a.swift b/Sources/A/a.swift
        --- a/Sources/A/a.swift
        +++ b/Sources/A/a.swift
        @@ -1,4 +1,5 @@
         let a = 1
        -let b = 2
        +let b = 3
        +let c = 4
         \tlet d = 5
        \u{20}
        @@ -9 +10 @@
        -old
        +new

        """

    func source(_ text: String) throws -> SourceText {
        let path = try temporaryDirectory() + "/a.swift"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try #require(SourceText(path: path))
    }

    /// The file the diff was made from: lines 1–5 as the first hunk shows them, line 10 "new".
    static let matching = "let a = 1\nlet b = 3\nlet c = 4\n\tlet d = 5\n\n6\n7\n8\n9\nnew\n"

    @Test("the file the diff was made from matches, with CRLF or trailing white space trimmed by a mailer")
    func matches() throws {
        let file = try #require(try UnifiedDiff.parse(Self.diff).files.first)
        #expect(file.shownLines.map(\.line) == [1, 2, 3, 4, 5, 10])
        #expect(file.firstMismatch(in: try source(Self.matching)) == nil)
        #expect(file.firstMismatch(in: try source(Self.matching.replacing("\n", with: "\r\n"))) == nil)
        #expect(
            file.firstMismatch(in: try source(Self.matching.replacing("let a = 1\n", with: "let a = 1  \n"))) == nil)
    }

    @Test("another revision: the first line that differs, or the end of a shorter file")
    func mismatches() throws {
        let file = try #require(try UnifiedDiff.parse(Self.diff).files.first)
        let changed = try #require(
            file.firstMismatch(in: try source(Self.matching.replacing("let c = 4", with: "let c = 44"))))
        #expect(changed.line == 3)
        #expect(changed.diffText == "let c = 4")
        #expect(changed.fileText == "let c = 44")
        #expect(
            changed.diagnostic.formatted(program: "swiftcov")
                == "Sources/A/a.swift:3: error: the diff shows 'let c = 4' here, but the file has 'let c = 44': "
                + "the diff is not of the current sources (another base revision, or files changed since)")
        let short = try #require(file.firstMismatch(in: try source("let a = 1\nlet b = 3\nlet c = 4\n\tlet d = 5\n\n")))
        #expect(short.line == 10)
        #expect(short.fileText == nil)
        #expect(short.diagnostic.message.contains("but the file has only 5 lines"))
    }

    @Test("unreadable, deleted and binary files are not checked; the first file that differs is named")
    func wholeDiff() throws {
        let diff = try UnifiedDiff.parse(Self.diff)
        try diff.checkApplies(pathPrefix: "") { _ in nil }
        let good = try source(Self.matching)
        try diff.checkApplies(pathPrefix: "") { $0 == "Sources/A/a.swift" ? good : nil }
        // A hunk that claims line 0 (malformed, but read) is not a line to compare.
        let zero = try UnifiedDiff.parse("--- a/x\n+++ b/x\n@@ -1 +0,1 @@\n-a\n+b\n")
        #expect(zero.files.first?.firstMismatch(in: good) == nil)
        let bad = try source("nothing like it\n")
        #expect(throws: DiffSourceMismatch.self) {
            try diff.checkApplies(pathPrefix: "") { _ in bad }
        }
    }

    @Test("a changed file modified after its coverage, beyond the checkout's slack, is named; others are not")
    func changedAfterCoverage() throws {
        let second = 1_000_000_000
        let written = 1_700_000_000 * second
        // a.swift gains lines; b.swift only loses one (nothing of it to judge); c.swift is deleted;
        // d.swift is a test's file, outside the coverage.
        let diff = try UnifiedDiff.parse(
            Self.diff
                + "--- a/Sources/A/b.swift\n+++ b/Sources/A/b.swift\n@@ -3 +2,0 @@\n-gone\n"
                + "--- a/Sources/A/c.swift\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
                + "--- a/Tests/T/d.swift\n+++ b/Tests/T/d.swift\n@@ -1 +1 @@\n-x\n+y\n")
        let covered: Set = ["Sources/A/a.swift", "Sources/A/b.swift", "Sources/A/c.swift"]
        func stale(_ times: [String: Int], written: Int = written) -> [ChangedAfterCoverage] {
            diff.changedAfterCoverage(
                pathPrefix: "", coverage: "export.json", written: written, isCovered: covered.contains
            ) { times[$0] ?? 0 }
        }
        let later = written + 10 * 60 * second
        let found = stale([
            "Sources/A/a.swift": later, "Sources/A/b.swift": later, "Sources/A/c.swift": later,
            "Tests/T/d.swift": later,
        ])
        #expect(found.map(\.path) == ["Sources/A/a.swift"])
        #expect(found.first?.export == "export.json")
        #expect(found.first?.seconds == 600)
        // Within the slack a checkout leaves between an export and the sources: the same version.
        #expect(stale(["Sources/A/a.swift": written + UnifiedDiff.coverageClockSlack]).isEmpty)
        #expect(stale(["Sources/A/a.swift": written + UnifiedDiff.coverageClockSlack + 1]).count == 1)
        #expect(stale(["Sources/A/a.swift": written - 60 * second]).isEmpty)
        // An export of unknown time (standard input) checks nothing.
        #expect(stale(["Sources/A/a.swift": later], written: 0).isEmpty)

        let message = try #require(stale(["Sources/A/a.swift": later]).first).diagnostic(severity: .warning)
            .formatted()
        #expect(
            message.hasPrefix(
                "Sources/A/a.swift: warning: changed 10 min after its coverage was measured (export.json): "))
        let days = stale(["Sources/A/a.swift": written + 3 * 86400 * second])
        #expect(days.first?.diagnostic.formatted().contains("error: changed 3 days after") == true)
    }
}
