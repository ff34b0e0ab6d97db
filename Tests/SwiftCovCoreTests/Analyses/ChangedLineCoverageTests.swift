import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// Coverage of changed lines: the trivia change (Fixtures/diffs/trivia.diff) against the trivia
/// sample's coverage, whose numbers diff-cover reading swiftcov's Cobertura also gives (33
/// executable changed lines, 16 not run), and Yams' own history against the yams fixture.
@Suite("Changed-line coverage")
struct ChangedLineCoverageTests {
    static let diffs = Fixture(name: "diffs")

    func trivia(_ diffName: String = "trivia.diff", scope: CoverageScope = CoverageScope(root: "/checkout")) throws
        -> ChangedLineCoverage
    {
        let report = try CoverageReport.build(exports: [Fixture.sample.export()], scope: scope)
        return try ChangedLineCoverage.compute(diff: UnifiedDiff.parse(Self.diffs.text(diffName)), report: report)
    }

    @Test("per file: changed, executable and covered lines, and the ranges that did not run")
    func perFile() throws {
        let coverage = try trivia()
        let rows = coverage.files.map { [$0.path, "\($0.changedLines)", "\($0.lines.count)", "\($0.lines.covered)"] }
        #expect(
            rows == [
                ["Sources/TriviaCore/AnswerChoice.swift", "26", "11", "11"],
                ["Sources/TriviaCore/NetworkTriviaAPI.swift", "5", "5", "0"],
                ["Sources/TriviaCore/Question.swift", "7", "4", "4"],
                ["Sources/TriviaCore/QuestionsLoader.swift", "4", "4", "2"],
                ["Sources/TriviaCore/TriviaAPIProviding.swift", "5", "5", "0"],
                ["Sources/TriviaGame/ScreenElement.swift", "1", "0", "0"],
                ["Sources/trivia/main.swift", "4", "4", "0"],
            ])
        let uncovered = Dictionary(uniqueKeysWithValues: coverage.files.map { ($0.path, $0.uncoveredText) })
        #expect(uncovered["Sources/TriviaCore/NetworkTriviaAPI.swift"] == "22-26")
        #expect(uncovered["Sources/TriviaCore/QuestionsLoader.swift"] == "37, 57")
        // 28 and 29 are a blank line and a comment: one range. 55 and 58 run between 54 and 59: two.
        #expect(uncovered["Sources/TriviaCore/TriviaAPIProviding.swift"] == "24-30")
        #expect(uncovered["Sources/trivia/main.swift"] == "53-54, 59-60")
        #expect(coverage.totals == Metric(count: 33, covered: 17))
        #expect(coverage.changedLines == 52)
    }

    @Test("a renamed file is measured under its new path and says where it came from")
    func renamed() throws {
        let file = try #require(try trivia().files.first { $0.path == "Sources/TriviaGame/ScreenElement.swift" })
        #expect(file.status == .renamed)
        #expect(file.oldPath == "Sources/TriviaGame/Screen.swift")
        #expect(file.module == "TriviaGame")
    }

    @Test("files not measured, and why")
    func ignored() throws {
        let reasons = Dictionary(uniqueKeysWithValues: try trivia().ignored.map { ($0.path, $0.reason) })
        #expect(
            reasons == [
                "Docs/Spiel für zwei.md": .noCoverageData, "Docs/release notes.md": .noCoverageData,
                "README.md": .noCoverageData, "Sources/TriviaCore/LegacyScoring.swift": .deleted,
                "Sources/TriviaCore/Resources/TriviaQuestions.json": .noCoverageData,
                "Sources/TriviaCore/Resources/banner.png": .binary, "Sources/TriviaCore/Resources/logo.png": .binary,
                "Sources/TriviaGame/Game.swift": .noChangedLines,
                "Sources/TriviaGame/TerminalCommand.swift": .noChangedLines,
                "Tests/TriviaCoreTests/QuestionDecodingTests.swift": .testTarget, "scripts/tool.sh": .noCoverageData,
            ])
    }

    @Test("the report's scope rules decide which files count")
    func scope() throws {
        let excluded = try trivia(
            scope: CoverageScope(
                root: "/checkout", includes: [Glob("Sources/TriviaCore/**")], excludes: [Glob("main.swift")]))
        #expect(excluded.files.allSatisfy { $0.module == "TriviaCore" })
        let reasons = Dictionary(uniqueKeysWithValues: excluded.ignored.map { ($0.path, $0.reason) })
        #expect(reasons["Sources/trivia/main.swift"] == .excluded)
        #expect(reasons["Sources/TriviaGame/ScreenElement.swift"] == .notIncluded)
        #expect(reasons["Sources/TriviaCore/Resources/TriviaQuestions.json"] == .noCoverageData)
    }

    @Test("executable lines are the line view: recounted here from the per-line counts")
    func recount() throws {
        let report = try CoverageReport.build(
            exports: [Fixture.sample.export()], scope: CoverageScope(root: "/checkout"))
        let diff = try UnifiedDiff.parse(Self.diffs.text("trivia.diff"))
        let coverage = try ChangedLineCoverage.compute(diff: diff, report: report)
        for file in coverage.files {
            let counts = try #require(report.files.first { $0.displayPath == file.path }).lineCounts()
            let changed = Set(try #require(diff.files.first { $0.path == file.path }).addedLines)
            let executable = counts.filter { changed.contains($0.line) }
            #expect(file.lines == Metric(count: executable.count, covered: executable.filter { $0.count > 0 }.count))
            let unrun = Set(executable.filter { $0.count == 0 }.map(\.line))
            #expect(Set(file.uncovered.flatMap { Array($0) }).intersection(counts.map(\.line)) == unrun)
        }
    }

    @Test("ranges join uncovered lines only across lines that are not executable")
    func ranges() {
        let counts = [(10, 0), (11, 0), (14, 0), (15, 3), (16, 0), (20, 0)].map {
            LineCount(line: UInt32($0.0), count: UInt64($0.1))
        }
        let (metric, ranges) = ChangedLineCoverage.measure([9, 10, 11, 12, 14, 16, 20], in: counts)
        #expect(metric == Metric(count: 5, covered: 0))
        #expect(ranges == [10...14, 16...20])
        let (_, split) = ChangedLineCoverage.measure([10, 14], in: counts)
        #expect(split == [10...10, 14...14])  // 11 is executable and did not change
    }

    @Test("a diff of the whole repository, for a package in a subfolder; or one relative to the package")
    func monorepo() throws {
        // The trivia change moved into Packages/Trivia/, plus a change next to the package (invented).
        let text =
            try Self.diffs.text("trivia.diff")
            .replacing(" a/", with: " a/Packages/Trivia/").replacing(" b/", with: " b/Packages/Trivia/")
            .replacing("\"a/", with: "\"a/Packages/Trivia/").replacing("\"b/", with: "\"b/Packages/Trivia/")
            .replacing("rename from ", with: "rename from Packages/Trivia/")
            .replacing("rename to ", with: "rename to Packages/Trivia/")
            + "diff --git a/Tools/x.swift b/Tools/x.swift\n--- a/Tools/x.swift\n+++ b/Tools/x.swift\n@@ -1 +1 @@\n-a\n+b\n"
        let report = try CoverageReport.build(
            exports: [Fixture.sample.export()], scope: CoverageScope(root: "/checkout"))
        let wide = try ChangedLineCoverage.compute(
            diff: UnifiedDiff.parse(text), report: report, pathPrefix: "Packages/Trivia")
        let expected = try trivia()
        #expect(wide.files == expected.files)
        #expect(
            wide.ignored == expected.ignored + [
                .init(path: "Tools/x.swift", status: .modified, reason: .outsidePackage)
            ])
        // A diff relative to the package (git diff --relative) reads the same with the prefix known.
        let relative = try ChangedLineCoverage.compute(
            diff: UnifiedDiff.parse(Self.diffs.text("trivia.diff")), report: report, pathPrefix: "Packages/Trivia/")
        #expect(relative == expected)
    }

    @Test("the gate: at least the minimum; nothing to cover passes")
    func gate() throws {
        let coverage = try trivia()
        #expect(coverage.meets(51.5))
        #expect(!coverage.meets(51.6))
        #expect(ChangedLineCoverage(files: [], ignored: []).meets(100))
    }

    @Test("a real package: Yams 5.0.1 to 6.2.2 against the yams fixture")
    func yams() throws {
        let report = try CoverageReport.build(
            exports: [Fixture(name: "yams").export()], scope: CoverageScope(root: "/package"))
        let coverage = try ChangedLineCoverage.compute(
            diff: UnifiedDiff.parse(Self.diffs.text("yams-5.0.1-6.2.2.diff")), report: report)
        #expect(
            coverage.files.map(\.path) == [
                "Sources/Yams/Constructor.swift", "Sources/Yams/Emitter.swift", "Sources/Yams/Resolver.swift",
            ])
        #expect(coverage.ignored.map(\.reason) == [.noCoverageData, .deleted, .testTarget])
        try assertGolden(
            ChangedLineCoverageTableReport.render(coverage, options: ChangedLineCoverageReportOptions(base: "5.0.1")),
            "diff-yams.txt"
        )
    }

    @Test("reports: table, JSON and Markdown", arguments: ["txt", "json", "md"])
    func reports(format: String) throws {
        let coverage = try trivia()
        let options = ChangedLineCoverageReportOptions(base: "origin/main", failUnder: 80)
        let text =
            switch format {
            case "json": ChangedLineCoverageJSONReport.render(coverage, options: options)
            case "md": ChangedLineCoverageMarkdownReport.render(coverage, options: options)
            default: ChangedLineCoverageTableReport.render(coverage, options: options)
            }
        try assertGolden(text, "diff-trivia.\(format)")
        if format == "json" {
            let value = try foundationJSON(text)
            #expect(value["totals"]?["lines"]?["covered"]?.numberValue == 17)
            #expect(value["gate"]?["passed"] == .bool(false))
        }
    }

    @Test("hostile paths stay inert in every format")
    func hostile() {
        let path = "Sources/<img src=x>|`*_\u{1B}[2J\u{0}.swift"
        let coverage = ChangedLineCoverage(
            files: [
                .init(
                    path: path, module: "Evil", status: .renamed, oldPath: "</td>\u{7}", changedLines: 1,
                    lines: Metric(count: 1, covered: 0), uncovered: [3...3])
            ],
            ignored: [.init(path: "<b>\u{1B}]0;title\u{7}", status: .added, reason: .noCoverageData)])
        let options = ChangedLineCoverageReportOptions(diffFile: "x<y>.diff")
        let markdown = ChangedLineCoverageMarkdownReport.render(coverage, options: options)
        #expect(!markdown.contains("<img") && !markdown.contains("</td>") && !markdown.contains("<b>"))
        #expect(!markdown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let table = ChangedLineCoverageTableReport.render(coverage, options: options)
        #expect(!table.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let json = ChangedLineCoverageJSONReport.render(coverage, options: options)
        let value = try? foundationJSON(json)
        guard case .array(let files)? = value?["files"] else {
            Issue.record("not JSON")
            return
        }
        #expect(files.first?["path"]?.stringValue == path)
    }
}
