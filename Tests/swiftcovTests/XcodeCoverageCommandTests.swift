import Foundation
import Testing

/// Xcode's coverage (xccov's JSON; result bundles in `XcodeBundleCommandTests`) through the
/// commands a team runs on CI.
@Suite("Xcode's coverage on the command line", .removingTemporaryFolders)
struct XcodeCoverageCommandTests {
    static let fixtures = "Tests/SwiftCovCoreTests/Fixtures/xcode/"
    static let report = fixtures + "xccov-report.json"
    static let archive = fixtures + "xccov-archive.json"

    @Test("report prints the golden table, and `check` gates on Xcode's lines")
    func reportAndCheck() throws {
        let table = try swiftcov(["report", Self.report, "--show", "functions"])
        #expect(table.status == 0)
        #expect(table.stdout == (try golden("xccov-report.txt")))
        #expect(
            table.stderr
                == "swiftcov: note: project root /Users/franco/Projects/swift inferred from the paths in Xcode's report; "
                + "give --root DIR to choose another\n")

        // Outside this package, whose .swiftcov.json has rules on regions.
        let directory = try temporaryDirectory()
        let report = packageRoot + "/" + Self.report
        // Danger.framework and RunnerLib.xctest's library files: 419 + 168 lines, 182 + 112 covered.
        let met = try swiftcov(["check", report, "--min-lines", "50", "--min-functions", "50"], in: directory)
        #expect(met.status == 0, "\(met.stderr)")
        let failed = try swiftcov(["check", report, "--min-lines", "51"], in: directory)
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("lines 50.09% < 51.00% (294/587)"))
    }

    @Test("a rule on a metric Xcode does not measure is an input error naming the metric and the input")
    func unmeasuredRule() throws {
        let regions = try swiftcov(["check", Self.report, "--min-regions", "50"])
        #expect(regions.status == 2)
        #expect(regions.stdout.isEmpty)
        #expect(
            regions.stderr.hasSuffix(
                "\(Self.report): error: a total rule on regions, which Xcode's coverage does not measure (it has functions and lines)\n"
            ))

        let directory = try temporaryDirectory()
        try #"{"modules": {"Danger": {"branches": 50}}}"#.write(
            toFile: directory + "/gate.json", atomically: true, encoding: .utf8)
        let branches = try swiftcov(["check", Self.report, "--config", directory + "/gate.json"])
        #expect(branches.status == 2)
        #expect(branches.stderr.contains("a module Danger rule on branches"))
    }

    @Test("html: pages for the files the archive has, the others listed without one")
    func html() throws {
        let directory = try temporaryDirectory()
        let site = try swiftcov(["html", "-c", Self.report, "-c", Self.archive, "-o", directory + "/site"])
        #expect(site.status == 0, "\(site.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: directory + "/site/files").sorted()
        #expect(pages.count == 2)
        #expect(
            pages.allSatisfy {
                $0.hasPrefix("Sources_Danger_BitBucketServerDSL") || $0.hasPrefix("Sources_Danger_DangerResults")
            })
        #expect(site.stderr.contains("warning: no per-line counts for 7 files"))
        let index = try String(contentsOfFile: directory + "/site/index.html", encoding: .utf8)
        #expect(index.contains("Counts and percentages are Xcode&#39;s (xccov)."))
        #expect(!index.contains(">Regions<"))

        // lcov needs every file's lines: without the archive, one error naming what to give.
        let lcov = try swiftcov(["export", Self.report, "--format", "lcov", "-o", directory + "/coverage.lcov"])
        #expect(lcov.status == 2)
        #expect(lcov.stderr.contains("xcrun xccov view --archive --json"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/coverage.lcov"))
    }

    @Test("Xcode's coverage and an llvm-cov export together: exit 2, they count lines differently")
    func mixed() throws {
        let mixed = try swiftcov(["report", "-c", Self.report, "-c", "SampleReports/coverage.json"])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("SampleReports/coverage.json: error: not Xcode's coverage, given with Xcode's"))
        let archiveOnly = try swiftcov(["report", Self.archive])
        #expect(archiveOnly.status == 2)
        #expect(archiveOnly.stderr.contains("per-line counts without Xcode's report"))
        let two = try swiftcov(["report", "-c", Self.report, "-c", Self.fixtures + "xccov-only-targets.json"])
        #expect(two.status == 2)
        #expect(two.stderr.contains("a second Xcode coverage report"))
    }

    @Test("xccov JSON that is wrong: one line naming the file and the key")
    func malformed() throws {
        let directory = try temporaryDirectory()
        try #"{"executableLines": 3, "coveredLines": 1, "targets": [{"name": "A", "executableLines": "3"}]}"#.write(
            toFile: directory + "/bad.json", atomically: true, encoding: .utf8)
        let bad = try swiftcov(["report", "bad.json"], in: directory)
        #expect(bad.status == 2)
        #expect(bad.stderr == "bad.json: error: targets[0].executableLines: expected a whole number from 0\n")
    }
}

/// Result bundles, read without Xcode, through the commands.
@Suite("Xcode result bundles on the command line", .removingTemporaryFolders)
struct XcodeBundleCommandTests {
    static let fixtures = "Tests/SwiftCovCoreTests/Fixtures/xcode/"

    @Test("report, check and junit on one bundle: Xcode's numbers, the failed test, exit codes")
    func bundle() throws {
        // A copy outside this package, whose .swiftcov.json (found above a bundle) has rules on regions.
        let directory = try temporaryDirectory()
        let bundle = directory + "/test.xcresult"
        try FileManager.default.copyItem(atPath: packageRoot + "/" + Self.fixtures + "test.xcresult", toPath: bundle)
        let report = try swiftcov(["report", bundle, "--show", "functions"], in: directory)
        #expect(report.status == 0)
        #expect(report.stderr.isEmpty)
        #expect(report.stdout == (try golden("xcresult-test.txt")))

        let json = try swiftcov(["report", bundle, "--all-files", "-f", "json"], in: directory)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let totals = document?["totals"] as? [String: Any]
        // xcresultparser's Cobertura of this bundle: lines-covered="1530" lines-valid="3108".
        #expect((totals?["lines"] as? [String: Any])?["count"] as? Int == 3108)
        #expect((totals?["lines"] as? [String: Any])?["covered"] as? Int == 1530)
        #expect(totals?["regions"] is NSNull)

        let gate = try swiftcov(["check", bundle, "--min-lines", "46", "--tests", bundle], in: directory)
        #expect(gate.status == 1)
        #expect(gate.stdout.contains("testCoverageConverter()"))
        #expect(gate.stdout.contains("Gate failed: 1 test failed; coverage: 1 rule met."))

        let junit = try swiftcov(["junit", bundle, "-o", directory + "/junit.xml"], in: directory)
        #expect(junit.status == 1)
        #expect(junit.stderr.hasSuffix("6 passed, 1 failed (7 tests in 4.325 s)\n"))
    }

    @Test("a damaged bundle: one line naming the object, exit 2, nothing written")
    func damaged() throws {
        let directory = try temporaryDirectory()
        let copy = directory + "/R.xcresult"
        try FileManager.default.copyItem(atPath: packageRoot + "/" + Self.fixtures + "test.xcresult", toPath: copy)
        let data = try FileManager.default.contentsOfDirectory(atPath: copy + "/Data")
        for file in data {
            let url = URL(fileURLWithPath: copy + "/Data/" + file)
            let bytes = try Data(contentsOf: url)
            try bytes.prefix(bytes.count - 3).write(to: url)
        }
        let report = try swiftcov(["report", "R.xcresult"], in: directory)
        #expect(report.status == 2)
        #expect(report.stdout.isEmpty)
        #expect(report.stderr.split(separator: "\n").count == 1)
        #expect(report.stderr.hasPrefix("R.xcresult/Data/data.0~"))
        let junit = try swiftcov(["junit", "R.xcresult", "-o", "junit.xml"], in: directory)
        #expect(junit.status == 2)
        #expect(!FileManager.default.fileExists(atPath: directory + "/junit.xml"))
    }
}
