import Foundation
import Testing

@Suite("swiftcov html and check, end to end", .removingTemporaryFolders)
struct HTMLAndCheckCommandTests {
    @Test("html writes the site, with the test summary when given a log")
    func html() throws {
        let output = try temporaryDirectory() + "/site"
        let result = try swiftcov([
            "html", "SampleReports/coverage.json", "--tests", "SampleReports/swift-test-failing.log", "-o", output,
        ])
        #expect(result.status == 0)
        #expect(result.stderr == "swiftcov: wrote \(output)/index.html — 14 files\n")
        let index = try String(contentsOfFile: output + "/index.html", encoding: .utf8)
        #expect(index.contains("73 tests: 65 passed, 5 failed, 3 skipped"))
        #expect(index.contains("Sources/TriviaCore/NetworkTriviaAPI.swift"))
        let pages = try FileManager.default.contentsOfDirectory(atPath: output + "/files")
        #expect(pages.count == 14)
        #expect(FileManager.default.fileExists(atPath: output + "/swiftcov.css"))
    }

    @Test("html never reads outside the package root nor from devices; one warning names what it left out")
    func htmlHostileSources() throws {
        // Invented: an export naming a file above the package root by `..`, and a device.
        let outside = try temporaryDirectory()
        let root = outside + "/pkg"
        try FileManager.default.createDirectory(atPath: root + "/Sources/A", withIntermediateDirectories: true)
        try "TOP SECRET\n".write(toFile: outside + "/secret.swift", atomically: true, encoding: .utf8)
        let entry = #"{"filename":"NAME","segments":[[1,1,1,true,true,false],[1,5,0,false,false,false]]}"#
        let names = ["Sources/../../secret.swift", "/dev/zero", "/dev/stdin"]
        let files = names.map { entry.replacing("NAME", with: $0) }.joined(separator: ",")
        let json = #"{"data":[{"files":[\#(files)]}],"type":"llvm.coverage.json.export","version":"3.0.1"}"#
        try json.write(toFile: root + "/coverage.json", atomically: true, encoding: .utf8)
        let site = outside + "/site"
        let result = try swiftcov(["html", root + "/coverage.json", "--root", root, "--all-files", "-o", site])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stderr)")
        // (Why /dev/stdin is not read depends on what it is here; it is never read.)
        #expect(
            lines.first?.hasPrefix(
                "/dev/stdin: warning: 3 source files not shown (their pages list counts without code), first this one: "
            ) == true)
        let pages = try FileManager.default.contentsOfDirectory(atPath: site + "/files")
        #expect(pages.count == 3)
        for page in pages {
            let html = try String(contentsOfFile: site + "/files/" + page, encoding: .utf8)
            #expect(!html.contains("TOP SECRET"))
        }
        // Without --all-files the file outside the root is not in the report at all.
        let plain = try swiftcov(["report", root + "/coverage.json", "--root", root])
        #expect(!plain.stdout.contains("secret"))
    }

    @Test("html into a path that is a file: exit 2, one line")
    func htmlBadOutput() throws {
        let file = try temporaryDirectory() + "/taken"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try swiftcov(["html", "SampleReports/coverage.json", "-o", file])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("check: exit 0 when the rules hold, 1 when one does not, 2 for a bad configuration")
    func check() throws {
        // Run outside the repository, whose own .swiftcov.json would add its rules.
        let elsewhere = try temporaryDirectory()
        let sample = packageRoot + "/SampleReports/coverage.json"
        func swiftcov(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
            try swiftcovTests.swiftcov(
                arguments.map { $0 == "SampleReports/coverage.json" ? sample : $0 }, environment: environment,
                in: elsewhere)
        }
        let passing = try swiftcov(["check", "SampleReports/coverage.json", "--min-lines", "90"])
        #expect(passing.status == 0)
        // A passing gate shows what it measured beside the rule (352 lines, 325 covered: llvm-cov's).
        #expect(
            passing.stdout == "ok  total  TOTAL  lines 92.33% >= 90.00% (325/352)\nCoverage gate passed: 1 rule met.\n")

        let failing = try swiftcov([
            "check", "SampleReports/coverage.json", "--min-lines", "95", "--min-functions", "95",
        ])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("FAIL  total  TOTAL  lines 92.33% < 95.00% (325/352)"))
        #expect(failing.stdout.hasSuffix("Coverage gate failed: 2 of 2 rules not met.\n"))

        let directory = try temporaryDirectory()
        try #"{"modules": {"TriviaCore": {"functions": 90}}, "files": {"Sources/Nope/**": {"lines": 1}}}"#
            .write(toFile: directory + "/gate.json", atomically: true, encoding: .utf8)
        let configured = try swiftcov(
            ["check", "SampleReports/coverage.json", "--config", directory + "/gate.json"],
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(configured.status == 1)
        #expect(configured.stderr.contains("warning: files.Sources/Nope/**: matches no file in the report"))
        // Annotations go to stderr (stdout may be a report); the configuration's warning is one too.
        #expect(configured.stderr.contains("::error title=Coverage module TriviaCore::functions 86.21%25 < 90.00%25"))
        #expect(
            configured.stderr.contains(
                "::warning file=\(directory)/gate.json,title=swiftcov::files.Sources/Nope/**: matches no file in the report"
            ))
        let strict = try swiftcov([
            "check", "SampleReports/coverage.json", "--config", directory + "/gate.json", "--strict",
        ])
        #expect(strict.status == 2)

        try #"{"thresholds": {"lines": 120}}"#.write(toFile: directory + "/bad.json", atomically: true, encoding: .utf8)
        let bad = try swiftcov(["check", "SampleReports/coverage.json", "--config", directory + "/bad.json"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasSuffix("bad.json: error: thresholds.lines: 120 is not a percentage from 0 to 100\n"))

        let nothing = try swiftcov(["check", "SampleReports/coverage.json"])
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("nothing to check"))
    }

    @Test("check --tests: a failed test fails the gate beside the coverage rules; tests alone need no rules")
    func checkTests() throws {
        let elsewhere = try temporaryDirectory()  // outside the repository and its .swiftcov.json
        let sample = packageRoot + "/SampleReports/"
        func check(_ arguments: [String]) throws -> RunResult {
            try swiftcov(["check", sample + "coverage.json"] + arguments, in: elsewhere)
        }
        // The failing sample run: five tests fail (SampleReports/README.md says which).
        let failed = try check(["--min-lines", "90", "--tests", sample + "swift-test-failing.log"])
        #expect(failed.status == 1)
        #expect(failed.stdout.hasSuffix("Gate failed: 5 tests failed; coverage: 1 rule met.\n"), "\(failed.stdout)")
        let passed = try check(["--tests", sample + "swift-test-passing.log"])
        #expect(passed.status == 0)
        #expect(passed.stderr.contains("only the tests are checked"))
        #expect(try check(["--tests", sample + "swift-test-failing.log"]).status == 1)
        // Shards' JUnit files merged: the failures of either fail the gate.
        let junit = try swiftcov(["junit", sample + "swift-test-failing.log", "-o", elsewhere + "/failing.xml"])
        #expect(junit.status == 1)
        let merged = try check(["-t", sample + "swift-test-passing.log", "-t", elsewhere + "/failing.xml"])
        #expect(merged.status == 1)
        // No results in a --tests input is an input error, never a pass.
        let noResults = try check(["--tests", sample + "README.md"])
        #expect(noResults.status == 2)
        #expect(noResults.stdout.isEmpty)
        let nothing = try check([])
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("--tests LOG"))
    }

    @Test("check --ratchet (or --baseline, its old name): the ratchet")
    func ratchet() throws {
        let directory = try temporaryDirectory()
        let baseline = try swiftcov([
            "report", "SampleReports/coverage.json", "-f", "json", "-o", directory + "/base.json",
        ])
        #expect(baseline.status == 0)
        let same = try swiftcov(["check", "SampleReports/coverage.json", "--ratchet", directory + "/base.json"])
        #expect(same.status == 0)
        // Less of the code in scope: TriviaGame (100% covered) left out, so coverage drops.
        let lower = try swiftcov([
            "check", "SampleReports/coverage.json", "--ratchet", directory + "/base.json", "--exclude",
            "Sources/TriviaGame/**",
        ])
        #expect(lower.status == 1)
        #expect(lower.stdout.contains("FAIL  ratchet  TOTAL"))
        // The old name: the same verdict, and one warning more, naming the new one.
        let old = try swiftcov([
            "check", "SampleReports/coverage.json", "--baseline", directory + "/base.json", "--exclude",
            "Sources/TriviaGame/**",
        ])
        #expect(old.status == 1)
        #expect(old.stdout == lower.stdout)
        #expect(old.stderr == "swiftcov check: warning: --baseline is deprecated: use --ratchet FILE\n" + lower.stderr)
        let both = try swiftcov([
            "check", "SampleReports/coverage.json", "--ratchet", directory + "/base.json", "--baseline",
            directory + "/base.json",
        ])
        #expect(both.status == 2)
        let unreadable = try swiftcov(["check", "SampleReports/coverage.json", "--ratchet", "SampleReports/README.md"])
        #expect(unreadable.status == 2)
    }
}
