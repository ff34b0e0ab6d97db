import Foundation
import SwiftCovCore
import Testing

/// Every command defaults to the package around the working directory, from its root or any
/// folder inside it; the package's `.swiftcov.json` is found whatever the starting folder; `html`
/// keeps the test results of the `swiftcov run` whose output it reads.
@Suite("The package around the working directory", .removingTemporaryFolders)
struct PackageDefaultsCommandTests {
    /// A package with the sample's export where `swift test --enable-code-coverage` leaves it,
    /// and a subfolder to start from: (root, subfolder).
    func samplePackage() throws -> (root: String, subfolder: String) {
        let root = try temporaryDirectory() + "/Sample"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/.build/debug/codecov", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/Sources/TriviaCore", withIntermediateDirectories: true)
        try "// swift-tools-version:6.0\n".write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        try manager.copyItem(
            atPath: packageRoot + "/SampleReports/coverage.json", toPath: root + "/.build/debug/codecov/Sample.json")
        return (root, root + "/Sources/TriviaCore")
    }

    @Test(
        "no input: the package around the working directory, from its root and from a subfolder",
        arguments: [["report"], ["report", "."], ["export", "-f", "lcov"], ["report", "-f", "json"]])
    func defaultsToThePackage(arguments: [String]) throws {
        let (root, subfolder) = try samplePackage()
        let export = root + "/.build/debug/codecov/Sample.json"
        let explicit = try swiftcov(
            arguments.filter { $0 != "." } + ["-c", export], environment: ["SOURCE_DATE_EPOCH": "1"], in: root)
        #expect(explicit.status == 0, "\(explicit.stderr)")
        for directory in [root, subfolder] {
            let result = try swiftcov(arguments, environment: ["SOURCE_DATE_EPOCH": "1"], in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == explicit.stdout)
            // Paths stay relative to the package root.
            #expect(result.stdout.contains("Sources/TriviaCore/Question.swift"))
        }
    }

    @Test("no input and no package: exit 2 with one line that says what to do")
    func noPackage() throws {
        let empty = try temporaryDirectory()
        for command in [["report"], ["html"], ["check"], ["export", "-f", "lcov"], ["diff"]] {
            let result = try swiftcov(command, in: empty)
            #expect(result.status == 2, "\(command)")
            #expect(result.stdout.isEmpty)
            let first = try #require(result.stderr.split(separator: "\n").first)
            #expect(first.contains("no Package.swift here or above") && first.contains("swiftcov run"), "\(first)")
            #expect(first.contains("swift test --enable-code-coverage"))
        }
    }

    @Test("a folder in no package without an export: says so of the folder")
    func noExportOutsideAPackage() throws {
        let empty = try temporaryDirectory()
        let result = try swiftcov(["report", empty])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(empty + ": error: no llvm-cov export found"), "\(result.stderr)")
    }

    @Test("a subfolder of a package without an export says so of the package, not of the subfolder")
    func noExportInThePackage() throws {
        let (root, subfolder) = try samplePackage()
        try FileManager.default.removeItem(atPath: root + "/.build")
        let result = try swiftcov(["report", "."], in: subfolder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(root + ": error: no llvm-cov export found"), "\(result.stderr)")
        #expect(result.stderr.contains("`swiftcov run`"))
    }

    @Test("check finds the package's .swiftcov.json from a subfolder, with --root ., and from outside with --root")
    func configurationInThePackageRoot() throws {
        let (root, subfolder) = try samplePackage()
        // The sample covers 92.33% of its lines (summary view): 99 fails, and says so.
        try #"{"thresholds": {"lines": 99}}"#.write(
            toFile: root + "/.swiftcov.json", atomically: true, encoding: .utf8)
        let export = root + "/.build/debug/codecov/Sample.json"
        let outside = try temporaryDirectory()
        for (arguments, directory) in [
            (["check"], subfolder), (["check", "-c", export, "-c", export, "--root", "."], subfolder),
            (["check", "-c", export, "--root", root], outside), (["check", "-c", export], root),
        ] {
            let result = try swiftcov(arguments, in: directory)
            #expect(result.status == 1, "\(arguments) in \(directory): \(result.stdout) \(result.stderr)")
            #expect(result.stdout.contains("99.00%"), "\(result.stdout)")
        }
        // Without the file there is nothing to check (exit 2): the rule above came from it.
        try FileManager.default.removeItem(atPath: root + "/.swiftcov.json")
        #expect(try swiftcov(["check"], in: subfolder).status == 2)
    }

    /// `swiftcov run`'s output folder as it leaves it: the export, the log, its own report.
    func runOutput(log: String = "swift-test-failing.log") throws -> String {
        let (root, _) = try samplePackage()
        let output = root + "/.build/swiftcov"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        // Run copies SwiftPM's export after the tests: its copy is the newer.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)],
            ofItemAtPath: root + "/.build/debug/codecov/Sample.json")
        try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/SampleReports/coverage.json")).write(
            to: URL(fileURLWithPath: output + "/llvm-cov-export.json"))
        try FileManager.default.copyItem(
            atPath: packageRoot + "/SampleReports/" + log, toPath: output + "/swift-test.log")
        return root
    }

    @Test("html from run's output keeps run's test results, and says where they come from")
    func htmlKeepsRunsTests() throws {
        let root = try runOutput()
        let withTests = try swiftcov(
            ["html", ".build/swiftcov", "--tests", ".build/swiftcov/swift-test.log", "-o", "given"], in: root)
        #expect(withTests.status == 0, "\(withTests.stderr)")
        for input in [[root + "/.build/swiftcov"], ["."], []] {
            let result = try swiftcov(["html"] + input + ["-o", "kept"], in: root + "/Sources")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("with the test results of the `swiftcov run` that wrote the coverage"))
            #expect(result.stderr.contains(root + "/.build/swiftcov/swift-test.log"))
            let kept = try String(contentsOfFile: root + "/Sources/kept/index.html", encoding: .utf8)
            #expect(kept == (try String(contentsOfFile: root + "/given/index.html", encoding: .utf8)))
            #expect(kept.contains("testFailing") || kept.contains("failed"))
        }
        // SwiftPM's export, newer than run's: not run's coverage, so not run's tests.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)],
            ofItemAtPath: root + "/.build/debug/codecov/Sample.json")
        let plain = try swiftcov(["html", "-o", "plain"], in: root)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!plain.stderr.contains("test results"))
        let page = try String(contentsOfFile: root + "/plain/index.html", encoding: .utf8)
        #expect(page != (try String(contentsOfFile: root + "/given/index.html", encoding: .utf8)))
    }

    @Test("report --show tests and html from the package: the per-test data run left beside its export")
    func perTestDataOfThePackage() throws {
        let root = try runOutput()
        let path = "Sources/TriviaCore/Question.swift"
        // The file's executable lines, as a per-test run records them.
        let export = try CoverageInput.readExport(packageRoot + "/SampleReports/coverage.json", keepMappings: false)
        let file = try #require(
            try CoverageReport.build(export: export, scope: CoverageScope(root: root)).files.first { $0.path == path })
        let lines = try file.lineCounts().map(\.line)
        var coverage = PerTestCoverage(
            recording: .init(commit: "", dirty: false, date: "2026-11-27T00:00:00Z"),
            files: [.init(path: path, lines: lines)])
        coverage.add(
            id: "QuestionTests/decoding", outcome: .passed, milliseconds: 1, lines: [path: Array(lines.prefix(2))])
        try PerTestStore.write(coverage, to: root + "/.build/swiftcov/" + PerTestStore.fileName)
        let report = try swiftcov(["report", "--show", "tests"], in: root + "/Sources")
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("QuestionTests/decoding"), "\(report.stdout)")
        let html = try swiftcov(["html", "-o", "site"], in: root)
        #expect(html.status == 0, "\(html.stderr)")
        let pages = try FileManager.default.subpathsOfDirectory(atPath: root + "/site").filter { $0.hasSuffix(".html") }
        let withTests = try pages.filter {
            try String(contentsOfFile: root + "/site/" + $0, encoding: .utf8).contains("1 test ran this file")
        }
        #expect(withTests.count == 1, "\(pages)")
    }

    @Test("html's site goes to the package's .build/swiftcov/html from a subfolder")
    func htmlDefaultOutput() throws {
        let (root, subfolder) = try samplePackage()
        let result = try swiftcov(["html"], in: subfolder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/.build/swiftcov/html/index.html"))
        #expect(!FileManager.default.fileExists(atPath: subfolder + "/.build"))
    }

    @Test("junit without input: the test results run left in the package")
    func junitDefaultsToRunsLog() throws {
        let root = try runOutput()
        let given = try swiftcov(
            ["junit", ".build/swiftcov/swift-test.log"], environment: ["SOURCE_DATE_EPOCH": "1"], in: root)
        let result = try swiftcov(["junit"], environment: ["SOURCE_DATE_EPOCH": "1"], in: root + "/Sources")
        #expect(result.status == given.status && given.status == 1, "\(result.stderr)")
        #expect(result.stdout == given.stdout && result.stdout.contains("<testsuites"))
    }

    @Test("run's coverage.json without the export beside it: says what is missing")
    func reportWithoutItsExport() throws {
        let directory = try temporaryDirectory()
        let made = try swiftcov(
            ["report", "SampleReports/coverage.json", "-f", "json", "-o", directory + "/coverage.json"])
        #expect(made.status == 0)
        let result = try swiftcov(["report", "-c", directory + "/coverage.json"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == directory + "/coverage.json: error: swiftcov's own JSON report, and the llvm-cov export it was "
                + "made from is missing: expected " + directory + "/llvm-cov-export.json beside it (`swiftcov run` "
                + "writes both; keep them together), or give the export itself\n", "\(result.stderr)")
        #expect(!result.stderr.contains("not an llvm-cov export"))
        try FileManager.default.copyItem(
            atPath: directory + "/coverage.json", toPath: directory + "/mine.json")
        let other = try swiftcov(["report", directory + "/mine.json"])
        #expect(other.status == 2)
        #expect(other.stderr.contains("swiftcov's own JSON report, not an llvm-cov export: give the export"))
        // With the export beside it, run's report stands for it.
        try FileManager.default.copyItem(
            atPath: packageRoot + "/SampleReports/coverage.json", toPath: directory + "/llvm-cov-export.json")
        #expect(try swiftcov(["report", "-c", directory + "/coverage.json"]).status == 0)
    }

    @Test(
        "format aliases: md is markdown, txt and text are table",
        arguments: [("md", "markdown"), ("txt", "table"), ("text", "table")])
    func formatAliases(alias: String, format: String) throws {
        for command in ["report", "diff"] {
            var arguments = [command, "SampleReports/coverage.json"]
            if command == "diff" { arguments += ["--diff", "Tests/SwiftCovCoreTests/Fixtures/diffs/trivia.diff"] }
            let named = try swiftcov(arguments + ["-f", format])
            let aliased = try swiftcov(arguments + ["--format", alias])
            #expect(named.status == aliased.status, "\(aliased.stderr)")
            #expect(aliased.stdout == named.stdout && !named.stdout.isEmpty)
        }
        // Help lists the formats, not the aliases.
        let help = try swiftcov(["report", "--help"]).stdout
        #expect(help.contains("table|json|markdown") && !help.contains("|md"))
    }
}
