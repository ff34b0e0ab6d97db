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
}
