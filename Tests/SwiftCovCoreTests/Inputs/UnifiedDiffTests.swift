import Testing

@testable import SwiftCovCore

/// Reading real `git diff` and `diff -u` output (Fixtures/diffs, made by its make-diffs.sh),
/// and invented broken diffs for the errors.
@Suite("Unified diff parser")
struct UnifiedDiffTests {
    static let diffs = Fixture(name: "diffs")

    func parse(_ name: String) throws -> UnifiedDiff {
        try UnifiedDiff.parse(Self.diffs.text(name))
    }

    @Test("git diff: added, changed, deleted, renamed, binary, mode-only and oddly named files")
    func gitDiff() throws {
        let diff = try parse("trivia.diff")
        let byPath = Dictionary(uniqueKeysWithValues: diff.files.map { ($0.path, $0) })
        #expect(diff.files.count == 18)

        let question = try #require(byPath["Sources/TriviaCore/Question.swift"])
        #expect(question.status == .modified)
        #expect(question.oldPath == "Sources/TriviaCore/Question.swift")
        #expect(question.addedLines == [30, 32, 40, 41, 42, 43, 44])
        #expect(question.removedLines == [30, 32])

        let added = try #require(byPath["Sources/TriviaCore/AnswerChoice.swift"])
        #expect(added.status == .added && added.oldPath == nil)
        #expect(added.addedLines == Array(1...26))

        let deleted = try #require(byPath["Sources/TriviaCore/LegacyScoring.swift"])
        #expect(deleted.status == .deleted && deleted.newPath == nil && deleted.addedLines.isEmpty)

        let renamed = try #require(byPath["Sources/TriviaGame/ScreenElement.swift"])
        #expect(renamed.status == .renamed)
        #expect(renamed.oldPath == "Sources/TriviaGame/Screen.swift")
        #expect(renamed.addedLines.count == 1)

        let pureRename = try #require(byPath["Sources/TriviaGame/TerminalCommand.swift"])
        #expect(pureRename.status == .renamed && pureRename.oldPath == "Sources/TriviaGame/Command.swift")
        #expect(pureRename.addedLines.isEmpty)

        let onlyRemovals = try #require(byPath["Sources/TriviaGame/Game.swift"])
        #expect(onlyRemovals.status == .modified && onlyRemovals.addedLines.isEmpty)

        #expect(byPath["Sources/TriviaCore/Resources/banner.png"]?.isBinary == true)
        #expect(byPath["Sources/TriviaCore/Resources/banner.png"]?.status == .modified)
        #expect(byPath["Sources/TriviaCore/Resources/logo.png"]?.isBinary == true)
        #expect(byPath["Sources/TriviaCore/Resources/logo.png"]?.status == .added)
        #expect(byPath["scripts/tool.sh"]?.status == .modified)
        #expect(byPath["scripts/tool.sh"]?.addedLines == [])

        // Git quotes the non-ASCII name (with octal escapes) and writes a tab after names with spaces.
        #expect(byPath["Docs/Spiel für zwei.md"]?.status == .added)
        #expect(byPath["Docs/Spiel für zwei.md"]?.addedLines == [1, 2, 3])
        #expect(byPath["Docs/release notes.md"]?.addedLines == [1])
    }

    @Test(
        "the same change through --unified=0 and --no-prefix reads the same",
        arguments: ["trivia-unified0.diff", "trivia-no-prefix.diff"])
    func variants(name: String) throws {
        // The same files and lines; the lines shown around them differ with the context asked for.
        let lines = { (diff: UnifiedDiff) in
            diff.files.map {
                FileDiff(
                    oldPath: $0.oldPath, newPath: $0.newPath, status: $0.status, isBinary: $0.isBinary,
                    addedLines: $0.addedLines, removedLines: $0.removedLines)
            }
        }
        #expect(lines(try parse(name)) == lines(try parse("trivia.diff")))
        // Every line a hunk shows is the new file's line at that number, in each form.
        let unified0 = try parse("trivia-unified0.diff")
        let full = try parse("trivia.diff")
        for (short, long) in zip(unified0.files, full.files) {
            let shown = Dictionary(long.shownLines.map { ($0.line, $0.text) }, uniquingKeysWith: { first, _ in first })
            #expect(!short.shownLines.isEmpty || short.addedLines.isEmpty, "\(short.path)")
            for line in short.shownLines { #expect(shown[line.line] == line.text, "\(short.path):\(line.line)") }
        }
    }

    @Test("git diff --binary: binary patches are skipped, the text files around them read")
    func binaryPatch() throws {
        let diff = try parse("trivia-binary-patch.diff")
        #expect(
            diff.files.map(\.path) == [
                "Sources/TriviaCore/Question.swift", "Sources/TriviaCore/Resources/TriviaQuestions.json",
                "Sources/TriviaCore/Resources/banner.png", "Sources/TriviaCore/Resources/logo.png",
            ])
        #expect(diff.files[0].addedLines == [30, 32, 40, 41, 42, 43, 44])
        #expect(diff.files[2].isBinary && diff.files[3].isBinary)
        #expect(diff.files[3].status == .added)
    }

    @Test("diff -u with a/ b/ folders and timestamps")
    func plainDiff() throws {
        let diff = try parse("trivia-diff-u.diff")
        #expect(
            diff.files == [
                FileDiff(
                    oldPath: "Sources/TriviaCore/Question.swift", newPath: "Sources/TriviaCore/Question.swift",
                    status: .modified, addedLines: [30, 32, 40, 41, 42, 43, 44], removedLines: [30, 32],
                    shownLines: diff.files.first?.shownLines ?? [])
            ])
        // Three lines of context around each change, and the added lines.
        #expect(diff.files.first?.shownLines.map(\.line) == Array(27...35) + Array(37...45))
    }

    @Test("a real package's history: Yams 5.0.1 to 6.2.2")
    func yams() throws {
        let diff = try parse("yams-5.0.1-6.2.2.diff")
        #expect(
            diff.files.map(\.path).sorted() == [
                "Sources/Yams/Anchor.swift", "Sources/Yams/Constructor.swift", "Sources/Yams/Emitter.swift",
                "Sources/Yams/Resolver.swift", "Tests/LinuxMain.swift", "Tests/YamsTests/TestHelper.swift",
            ])
        let text = try Self.diffs.text("yams-5.0.1-6.2.2.diff")
        #expect(
            diff.files.map(\.addedLines.count).reduce(0, +)
                == text.split(separator: "\n").filter {
                    $0.hasPrefix("+") && !$0.hasPrefix("+++")
                }.count)
        #expect(
            diff.files.map(\.removedLines.count).reduce(0, +)
                == text.split(separator: "\n").filter {
                    $0.hasPrefix("-") && !$0.hasPrefix("---")
                }.count)
        #expect(diff.files.first { $0.path == "Tests/LinuxMain.swift" }?.status == .deleted)
        #expect(diff.files.first { $0.path == "Sources/Yams/Anchor.swift" }?.status == .added)
    }

    @Test("CRLF line ends, colours and a commit message around the diff do not matter")
    func tolerated() throws {
        let plain = try Self.diffs.text("trivia-diff-u.diff")
        let crlf = plain.replacing("\n", with: "\r\n")
        #expect(try UnifiedDiff.parse(crlf) == UnifiedDiff.parse(plain))
        let coloured = plain.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("+") ? "\u{1B}[32m\(line)\u{1B}[m" : String(line)
        }.joined(separator: "\n")
        #expect(try UnifiedDiff.parse(coloured) == UnifiedDiff.parse(plain))
        // `git format-patch` output (invented around the real diff): headers, message, diffstat.
        let patch = """
            From 1234 Mon Sep 17 00:00:00 2001
            Subject: [PATCH] Add isCorrect

            ---
             Sources/TriviaCore/Question.swift | 9 +++++++--

            """ + plain + "-- \n2.39.5\n"
        #expect(try UnifiedDiff.parse(patch) == UnifiedDiff.parse(plain))
    }

    @Test("an empty diff has no files; so has an empty commit from git show or git format-patch")
    func empty() throws {
        #expect(try UnifiedDiff.parse("").files.isEmpty)
        #expect(try UnifiedDiff.parse("\n\n").files.isEmpty)
        let show = "commit 0123456789abcdef0123456789abcdef01234567\nAuthor: A <a@b>\n\n    Empty\n"
        #expect(try UnifiedDiff.parse(show).files.isEmpty)
        #expect(try UnifiedDiff.parse("From 0123456789abcdef Mon Sep 17 00:00:00 2001\nSubject: x\n").files.isEmpty)
    }

    @Test("a diff of only a binary file or only a rename is a diff (invented)")
    func binaryOrRenameOnly() throws {
        let binary = "diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n"
        #expect(try UnifiedDiff.parse(binary).files.map(\.isBinary) == [true])
        let rename = "diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n"
        #expect(try UnifiedDiff.parse(rename).files.map(\.status) == [.renamed])
    }

    @Test("UTF-16 text is refused naming the line of its first NUL (invented)")
    func utf16() {
        let diff = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n+y\n"
        let utf16 = String(decoding: Array(diff.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, as: UTF8.self)
        #expect(
            throws: DiffParseError(
                line: 1, message: "not a unified diff: it contains NUL bytes (UTF-16 text or a binary file?)")
        ) { try UnifiedDiff.parse(utf16) }
    }

    @Test("CRLF and CR-only line endings are read like LF (invented)")
    func lineEndings() throws {
        let diff = "--- a/x.swift\n+++ b/x.swift\n@@ -1,2 +1,3 @@\n a\n+b\n c\n"
        let lf = try UnifiedDiff.parse(diff)
        #expect(lf.files.map(\.addedLines) == [[2]])
        #expect(try UnifiedDiff.parse(diff.replacing("\n", with: "\r\n")) == lf)
        #expect(try UnifiedDiff.parse(diff.replacing("\n", with: "\r")) == lf)
    }

    @Test("a hunk that ends on line 4294967295 is read; its line is the last there is (invented)")
    func lastLine() throws {
        let diff = try UnifiedDiff.parse("--- a/x.swift\n+++ b/x.swift\n@@ -1 +4294967294,2 @@\n-a\n+b\n+c\n")
        #expect(diff.files.map(\.addedLines) == [[4_294_967_294, 4_294_967_295]])
    }

    @Test(
        "broken diffs are errors naming the line",
        arguments: [
            (
                "--- a/x.swift\n+++ b/x.swift\n@@ -1,2 +1,3 @@\n a\n+b\n", 5,
                "the diff ends inside the hunk that starts on line 3 (truncated?)"
            ),
            (
                "--- a/x.swift\n+++ b/x.swift\n@@ -1,2 +1,2 @@\n a\ndiff --git a/y b/y\n", 5,
                "the hunk that starts on line 3 ends early: 'diff --git a/y b/y'"
            ),
            ("--- a/x.swift\n+++ b/x.swift\n@@ -1 +one @@\n", 3, "malformed hunk header: '@@ -1 +one @@'"),
            ("@@ -1 +1 @@\n+x\n", 1, "a hunk before any file header ('diff --git' or '---')"),
            (
                "diff --cc x.swift\n", 1,
                "combined diffs of a merge are not supported; diff against one parent"
            ),
            // Invented hostile inputs.
            (
                "--- a/x.swift\n+++ b/x.swift\n@@ -1 +4294967295,2 @@\n+a\n+b\n", 3,
                "hunk header out of range (lines past 4294967295): '@@ -1 +4294967295,2 @@'"
            ),
            (
                "--- a/x.swift\n+++ b/x.swift\n@@ -1 +1,4294967296 @@\n", 3,
                "malformed hunk header: '@@ -1 +1,4294967296 @@'"
            ),
            (
                "random words\nand no diff at all\n", 1,
                "not a unified diff: no 'diff --git', '---' and '+++', or '@@' line in it"
            ),
            (
                "\u{1}\u{FFFD}\u{FFFD}binary", 1,
                "not a unified diff: no 'diff --git', '---' and '+++', or '@@' line in it"
            ),
        ])
    func errors(text: String, line: Int, message: String) {
        #expect(throws: DiffParseError(line: line, message: message)) { try UnifiedDiff.parse(text) }
    }
}
