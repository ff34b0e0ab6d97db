import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// The differential reports of the swift-log fixture (Fixtures/differential), whose categories
/// DifferentialCoverageTests checks against lcov and git.
@Suite("Differential coverage reports")
struct DifferentialCoverageReportTests {
    static func coverage() throws -> DifferentialCoverage { try DifferentialCoverageTests.differential() }

    static func options(failOn: Set<DifferentialCategory> = [], url: String? = nil) -> DifferentialCoverageReportOptions
    {
        var options = DifferentialCoverageReportOptions()
        options.baseline = "base.json"
        options.changes.base = "origin/main"
        options.failOn = failOn
        options.urlTemplate = url
        return options
    }

    static let handler = "Sources/InMemoryLogging/InMemoryLogHandler.swift"

    @Test("the headline names new untested lines and lost coverage first, with their numbers")
    func headline() throws {
        let coverage = try Self.coverage()
        let counts = coverage.counts
        #expect(
            coverage.headline
                == "\(counts[.UNC]) new lines no test runs; \(counts[.LBC]) lines lost their coverage")
    }

    @Test("table: categories that occur as columns, touched files only, before → after, the lines to test")
    func table() throws {
        let coverage = try Self.coverage()
        let text = DifferentialCoverageTableReport.render(coverage, options: Self.options(failOn: [.UNC, .LBC]))
        let counts = coverage.counts
        let header = try #require(text.split(separator: "\n").first { $0.hasPrefix("File") })
        #expect(
            header.split(separator: " ").map(String.init) == ["File"] + counts.present.map(\.rawValue) + [
                "Before", "After", "Delta",
            ])
        #expect(text.contains(Self.handler + " "))
        #expect(
            text.contains(
                "Sources/Logging/Logger+MetadataProvider.swift (renamed from Sources/Logging/MetadataProvider.swift)"))
        // LogEvent.swift and Locks.swift are untouched and keep their coverage: not listed.
        #expect(!text.contains("LogEvent.swift"))
        #expect(text.contains("TOTAL (and 2 files the change left alone)"))
        let handler = try #require(coverage.files.first { $0.path == Self.handler })
        for range in handler.ranges(.UNC) { #expect(text.contains("  \(Self.handler):\(range.lineRangeText)\n")) }
        #expect(text.contains("FAILED (\(counts[.UNC] + counts[.LBC]) lines)"))
        #expect(text.contains("Tests/InMemoryLoggingTests/InMemoryLogHandlerTests.swift  test target"))
    }

    @Test("Markdown: headline first, then before → after, a table of touched files, links from the template")
    func markdown() throws {
        let coverage = try Self.coverage()
        let text = DifferentialCoverageMarkdownReport.render(
            coverage, options: Self.options(failOn: [.UNC], url: "https://example.com/r/blob/abc/{path}#L{line}"))
        #expect(text.hasPrefix("### \(coverage.headline.prefix(1).uppercased())"))
        let lines = text.split(separator: "\n")
        #expect(lines[1].hasPrefix("❌ \(coverage.counts[.UNC]) lines in UNC"))
        #expect(lines[2].hasPrefix("Line coverage **"))
        let handler = try #require(coverage.files.first { $0.path == Self.handler })
        let firstUNC = try #require(handler.lines[.UNC].first)
        #expect(
            text.contains(
                "(https://example.com/r/blob/abc/Sources/InMemoryLogging/InMemoryLogHandler.swift#L\(firstUNC))"))
        #expect(text.contains("Logger%2BMetadataProvider.swift") || text.contains("Logger+MetadataProvider.swift#L1"))
        #expect(!text.contains("LogEvent.swift"))
    }

    @Test("JSON: every file's lines by category as the model has them, totals, gate")
    func json() throws {
        let coverage = try Self.coverage()
        let text = DifferentialCoverageJSONReport.render(coverage, options: Self.options(failOn: [.UNC, .LBC, .UIC]))
        let document = try foundationJSON(text)
        #expect(document["schemaVersion"]?.numberValue == 1)
        guard case .array(let files)? = document["files"] else {
            Issue.record("no files")
            return
        }
        #expect(files.count == coverage.files.count)
        for (entry, file) in zip(files, coverage.files) {
            #expect(entry["path"]?.stringValue == file.path)
            for category in DifferentialCategory.allCases {
                let listed: [UInt32]
                if case .array(let numbers)? = entry["categories"]?[category.rawValue] {
                    listed = numbers.compactMap { $0.numberValue.map { UInt32($0) } }
                } else {
                    listed = []
                }
                #expect(listed == file.lines[category], "\(file.path) \(category)")
            }
        }
        let totals = coverage.counts
        #expect(document["totals"]?["categories"]?["UNC"]?.numberValue == Double(totals[.UNC]))
        #expect(document["totals"]?["before"]?["count"]?.numberValue == Double(coverage.totals.before.count))
        #expect(document["gate"]?["passed"] == .bool(false))
        #expect(
            document["gate"]?["failingLines"]?.numberValue == Double(totals[.UNC] + totals[.LBC] + totals[.UIC]))
    }

    @Test("annotations: gate categories as errors first, at most 10 of each severity, the rest for the summary")
    func annotations() throws {
        var file = DifferentialCoverage.File(
            path: "Sources/A/A.swift", basePath: nil, module: "A", status: .modified, lines: CategorizedLines(),
            coverage: CoverageChange())
        // 12 separate UNC lines and 12 LBC lines, a CBC line between each.
        file.lines[.UNC] = (0..<12).map { UInt32($0 * 4 + 1) }
        file.lines[.LBC] = (0..<12).map { UInt32($0 * 4 + 3) }
        file.lines[.CBC] = (0..<24).map { UInt32($0 * 2 + 2) }
        let coverage = DifferentialCoverage(files: [file], modules: [], ignored: [], warnings: [])
        let annotations = GitHubAnnotations.untestedLines(of: coverage, failOn: [.LBC])
        #expect(annotations.count == 24)
        let (commands, leftOut) = GitHubAnnotations.commands(annotations)
        let lines = commands.split(separator: "\n")
        #expect(lines.count == 20)
        #expect(lines.prefix(10).allSatisfy { $0.hasPrefix("::error ") && $0.contains("(LBC)") })
        #expect(lines.suffix(10).allSatisfy { $0.hasPrefix("::warning ") && $0.contains("(UNC)") })
        #expect(
            lines.first.map(String.init)
                == "::error file=Sources/A/A.swift,line=3,endLine=3,title=Lost coverage (LBC)::"
                + "The tests ran this line before this change and no longer do.")
        #expect(leftOut.count == 4)
        #expect(leftOut.map(\.severity) == [.error, .error, .warning, .warning])
        let summary = GitHubAnnotations.markdown(leftOut: leftOut)
        #expect(summary.contains("4 more problems"))
        #expect(summary.contains("| warning | Sources/A/A.swift:41 | New code no test runs (UNC): "))
    }

    @Test("annotations of a range of lines name its first and last line, relative to the workspace")
    func annotationRanges() {
        var file = DifferentialCoverage.File(
            path: "Sources/A/A.swift", basePath: nil, module: "A", status: .modified, lines: CategorizedLines(),
            coverage: CoverageChange())
        file.lines[.UNC] = [4, 5, 6, 9]
        file.lines[.CBC] = [7]
        let coverage = DifferentialCoverage(files: [file], modules: [], ignored: [], warnings: [])
        let annotations = GitHubAnnotations.untestedLines(of: coverage, failOn: [])
        #expect(annotations.map(\.line) == [4, 9])
        #expect(annotations.map(\.endLine) == [6, 9])
        let (commands, _) = GitHubAnnotations.commands(annotations, pathPrefix: "pkg/")
        #expect(
            commands.hasPrefix(
                "::warning file=pkg/Sources/A/A.swift,line=4,endLine=6,title=New code no test runs (UNC)::"
                    + "The tests run none of these 3 lines, which this change adds.\n"))
        #expect(GitHubAnnotations.markdown(leftOut: annotations).contains("| Sources/A/A.swift:4–6 |"))
    }

    @Test("ranges: lines of a category share a range unless a line of another category lies between")
    func ranges() {
        var file = DifferentialCoverage.File(
            path: "a", basePath: nil, module: "A", status: nil, lines: CategorizedLines(), coverage: CoverageChange())
        file.lines[.UNC] = [1, 2, 5, 9, 10]
        file.lines[.GNC] = [7]
        file.lines[.DUB] = [3, 4, 6]
        #expect(file.ranges(.UNC) == [1...5, 9...10])
        #expect(file.ranges(.DUB) == [3...4, 6...6])
    }

    @Test("the gate rule in .swiftcov.json: one line, genhtml's UNC + LBC + UIC == 0")
    func configuration() throws {
        let configuration = try GateConfiguration.parse(
            Array(#"{"failOn": ["UNC", "LBC", "UIC"]}"#.utf8), path: ".swiftcov.json")
        #expect(configuration.failOn == [.UNC, .LBC, .UIC])
        #expect(throws: GateConfigurationError.self) {
            try GateConfiguration.parse(Array(#"{"failOn": ["UNC", "XYZ"]}"#.utf8), path: ".swiftcov.json")
        }
        #expect(throws: GateConfigurationError.self) {
            try GateConfiguration.parse(Array(#"{"failOn": "UNC"}"#.utf8), path: ".swiftcov.json")
        }
    }
}
