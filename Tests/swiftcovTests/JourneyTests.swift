import Foundation
import SwiftCovTestSupport
import Testing

/// Journeys: the README's flows run as a user runs them — several commands in a row on one
/// package, in a temporary copy of Tests/Fixtures/LayoutPackage, whose library (`Lib/Core`), test
/// target (`Checks/CoreTests`) and test-support library (`Checks/Support`) are in folders of their
/// own (`path:` in the manifest). After each step, every number swiftcov shares with the
/// toolchain is compared with `llvm-cov export -summary-only` on the same profile and binary, the
/// manifest's test code left out; and what the user would see next is checked.
@Suite("journeys through a package with an unusual layout", .serialized, .removingTemporaryFolders)
struct JourneyTests {
    let package: String
    let state: String

    init() throws {
        let base = try temporaryDirectory()
        package = base + "/LayoutPackage"
        state = base + "/state"
        try FileManager.default.copyItem(atPath: packageRoot + "/Tests/Fixtures/LayoutPackage", toPath: package)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    }

    /// The totals of a `report --format json` (or llvm-cov's `totals`): lines, functions and regions.
    struct Totals: Equatable, CustomStringConvertible {
        var lines: [Int]
        var functions: [Int]
        var regions: [Int]

        init(_ totals: [String: Any]) {
            func pair(_ key: String) -> [Int] {
                let metric = totals[key] as? [String: Any] ?? [:]
                return [metric["count"] as? Int ?? -1, metric["covered"] as? Int ?? -1]
            }
            lines = pair("lines")
            functions = pair("functions")
            regions = pair("regions")
        }

        var description: String { "lines \(lines), functions \(functions), regions \(regions)" }
    }

    /// llvm-cov's totals for the whole run's profile, with the manifest's test code (`Checks/`)
    /// and `.build` left out, as `llvm-cov export -summary-only -ignore-filename-regex` gives them.
    func toolchainTotals(profile: String) throws -> Totals {
        let tools = try shell("dirname \"$(readlink -f \"$(command -v swift)\")\"").trimmingCharacters(
            in: .whitespacesAndNewlines)
        let binary = package + "/.build/debug/LayoutPackageTests.xctest"
        let json = try shell(
            "'\(tools)/llvm-cov' export -summary-only -instr-profile '\(profile)' '\(binary)' "
                + "-ignore-filename-regex '(Checks/|[.]build/)'")
        let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let data = (document?["data"] as? [[String: Any]])?.first
        return Totals(data?["totals"] as? [String: Any] ?? [:])
    }

    /// swiftcov's totals from `report --format json` with `arguments`, run in `folder`.
    func swiftcovTotals(_ arguments: [String] = [], in folder: String? = nil) throws -> (Totals, RunResult) {
        let result = try swiftcov(["report", "--format", "json"] + arguments, in: folder ?? package)
        #expect(result.status == 0, "report \(arguments): \(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (Totals(document?["totals"] as? [String: Any] ?? [:]), result)
    }

    func shell(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("run → report → check → retry → junit → shards → bare report → merge → the package moved → check")
    func everydayJourney() throws {
        // 1. `swiftcov run`: only the library is product code; the suites keep their module.
        let first = try swiftcov(["run"], in: package)
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stdout.contains("Lib/Core/Scoring.swift"))
        let table = first.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") || $0.hasPrefix("TOTAL") }
        #expect(!table.contains { $0.contains("Checks/") }, "test code counted as product code:\n\(first.stdout)")
        #expect(first.stdout.contains("CoreTests.ScoringTests"), "\(first.stdout)")
        // The toolchain's numbers for the whole run, kept before anything else runs.
        let profile = package + "/whole.profdata"
        try FileManager.default.copyItem(atPath: package + "/.build/swiftcov/coverage.profdata", toPath: profile)
        let expected = try toolchainTotals(profile: profile)
        #expect(expected.lines[0] > 0 && expected.lines[1] < expected.lines[0], "\(expected)")

        // 2. report and check read that run, with llvm-cov's numbers and the value beside the rule.
        #expect(try swiftcovTotals().0 == expected)
        let check = try swiftcov(["check", "--min-lines", "80"], in: package)
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        let percent = String(format: "%.2f%%", Double(expected.lines[1]) * 100 / Double(expected.lines[0]))
        #expect(check.stdout.contains("TOTAL  lines \(percent) >= 80.00% (\(expected.lines[1])/\(expected.lines[0]))"))
        // Test code is out of scope by the manifest: a too-high bar fails on the library alone.
        #expect(try swiftcov(["check", "--min-lines", "\(percent.dropLast())1"], in: package).status == 1)

        // 3. A flaky test, retried: the retry's `swift test --filter` leaves SwiftPM's partial export;
        //    the commands after it still read the run's, and say which they read.
        let retried = try swiftcov(
            ["run", "--retry-failed", "2"], environment: ["LAYOUT_FLAKY_STATE": state], in: package)
        #expect(retried.status == 0, "\(retried.stdout)\n\(retried.stderr)")
        #expect(retried.stderr.contains("passed on retry 1: flaky"), "\(retried.stderr)")
        let (afterRetry, afterRetryReport) = try swiftcovTotals()
        #expect(afterRetry == expected, "report read a partial export after the retry")
        #expect(
            afterRetryReport.stderr.contains("note: read .build/swiftcov/llvm-cov-export.json"),
            "\(afterRetryReport.stderr)")
        #expect(afterRetryReport.stderr.contains("written by the retries"), "\(afterRetryReport.stderr)")
        #expect(try swiftcov(["check", "--min-lines", "80"], in: package).status == 0)
        let cobertura = try swiftcov(["export", "--format", "cobertura"], in: package)
        #expect(cobertura.stdout.contains("filename=\"Lib/Core/Streak.swift\""), "\(cobertura.stderr)")
        #expect(!cobertura.stdout.contains("Checks/"))

        // 4. junit with no input: what run left, the retry included, paths relative as run's own.
        let junit = try swiftcov(["junit", "-o", "junit.xml"], in: package)
        #expect(junit.status == 0, "junit without input lost the retry: \(junit.stderr)")
        let xml = try String(contentsOfFile: package + "/junit.xml", encoding: .utf8)
        #expect(xml.contains("<flakyFailure"), "\(xml)")
        #expect(xml.contains("file=\"Checks/CoreTests/CoreTests.swift\""), "\(xml)")
        #expect(!xml.contains("file=\"/"), "absolute paths in junit.xml: \(xml)")

        // 5. Two shards, each to a folder of its own: a bare report still reads the whole run;
        //    a gate on one shard is refused; the two merged give the whole run's numbers.
        for index in 1...2 {
            let shard = try swiftcov(["run", "--shard", "\(index)/2", "--output", "shard\(index)"], in: package)
            #expect(shard.status == 0, "\(shard.stdout)\n\(shard.stderr)")
        }
        #expect(try swiftcovTotals().0 == expected, "a bare report read a shard's partial export")
        let oneShard = try swiftcov(["check", "--min-lines", "10", "shard2"], in: package)
        #expect(oneShard.status == 2, "\(oneShard.stdout)")
        #expect(
            oneShard.stderr.contains("shard 2/2") && oneShard.stderr.contains("merge the shards"), "\(oneShard.stderr)")
        #expect(try swiftcov(["check", "--min-lines", "10", "shard2", "--partial"], in: package).status == 0)
        #expect(try swiftcovTotals(["-c", "shard1", "-c", "shard2"]).0 == expected)
        #expect(try swiftcov(["check", "--min-lines", "80", "-c", "shard1", "-c", "shard2"], in: package).status == 0)

        // A filtered run gates its tests only, and its export alone is refused as a shard's is.
        try #"{"thresholds": {"lines": 99}}"#.write(
            toFile: package + "/.swiftcov.json", atomically: true, encoding: .utf8)
        let filtered = try swiftcov(["run", "--output", "filtered", "--", "--filter", "ScoringTests"], in: package)
        try FileManager.default.removeItem(atPath: package + "/.swiftcov.json")
        #expect(filtered.status == 0, "\(filtered.stdout)\n\(filtered.stderr)")
        #expect(filtered.stdout.contains("A filtered run gates its tests only"), "\(filtered.stdout)")
        #expect(try swiftcovTotals().0 == expected, "a bare report read the filtered run's export")
        let filteredCheck = try swiftcov(["check", "--min-lines", "10", "filtered"], in: package)
        #expect(filteredCheck.status == 2, "\(filteredCheck.stdout)")
        #expect(filteredCheck.stderr.contains("run the whole suite"), "\(filteredCheck.stderr)")

        // 6. An empty scope never passes: everything excluded, or the package moved after its run.
        let excluded = try swiftcov(["check", "--min-lines", "80", "--exclude", "Lib/**"], in: package)
        #expect(excluded.status == 2, "\(excluded.stdout)")
        #expect(excluded.stderr.contains("no source file in scope"), "\(excluded.stderr)")
        let diff = try swiftcov(
            ["diff", "--diff", "-", "--fail-under", "80", "--exclude", "Lib/**"], stdin: Data(), in: package)
        #expect(diff.status == 2, "diff --fail-under passed on nothing: \(diff.stdout)")

        let moved = try temporaryDirectory() + "/Moved"
        try FileManager.default.copyItem(atPath: package, toPath: moved)
        let movedCheck = try swiftcov(["check", "--min-lines", "80"], in: moved)
        #expect(movedCheck.status == 2, "\(movedCheck.stdout)")
        #expect(movedCheck.stderr.contains("--root"), "\(movedCheck.stderr)")
        // One export from the other checkout, re-rooted as several are.
        let (reRooted, _) = try swiftcovTotals(
            ["--root", moved, "-c", moved + "/.build/swiftcov/llvm-cov-export.json"], in: moved)
        #expect(reRooted == expected)

        // 7. A change: a new test file and three changed library lines, one of which a test runs.
        //    Run again, then diff: the test file is test code (not a changed product line).
        let streak = package + "/Lib/Core/Streak.swift"
        let source = try String(contentsOfFile: streak, encoding: .utf8)
        try source.replacingOccurrences(of: "            length += 1\n", with: "            length += 1  // one more\n")
            .replacingOccurrences(
                of: "        length = 0\n        best = 0\n",
                with: "        length = 0  // back to zero\n        best = 0  // and the best too\n"
            )
            .write(toFile: streak, atomically: true, encoding: .utf8)
        try "import Core\n\nfunc newHelper() -> Int { 1 }\n".write(
            toFile: package + "/Checks/CoreTests/NewTests.swift", atomically: true, encoding: .utf8)
        try Self.change.write(toFile: package + "/change.diff", atomically: true, encoding: .utf8)
        //    Before the run, the coverage is of the old Streak.swift (written a while before it was
        //    saved): the gate refuses to judge its lines, and names it.
        let saved = try #require(FileManager.default.attributesOfItem(atPath: streak)[.modificationDate] as? Date)
        try FileManager.default.setAttributes(
            [.modificationDate: saved.addingTimeInterval(-330)],
            ofItemAtPath: package + "/.build/swiftcov/llvm-cov-export.json")
        let stale = try swiftcov(["diff", "--diff", "change.diff", "--fail-under", "50"], in: package)
        #expect(stale.status == 2, "\(stale.stdout)\n\(stale.stderr)")
        #expect(stale.stdout.isEmpty, "\(stale.stdout)")
        #expect(stale.stderr.contains("\nLib/Core/Streak.swift: error: changed 5 min after"), "\(stale.stderr)")
        #expect(try swiftcov(["run"], in: package).status == 0)
        let changed = try swiftcov(["diff", "--diff", "change.diff", "--fail-under", "50"], in: package)
        #expect(changed.status == 1, "\(changed.stdout)\n\(changed.stderr)")
        #expect(changed.stdout.contains("33.33% of the changed executable lines ran (1 of 3)."), "\(changed.stdout)")
        #expect(changed.stdout.contains("Checks/CoreTests/NewTests.swift  test target, outside the report's scope"))
        #expect(try swiftcov(["diff", "--diff", "change.diff", "--fail-under", "33"], in: package).status == 0)
    }

    func git(_ arguments: [String]) throws -> String {
        try shell(
            "cd '\(package)' && git -c user.name=swiftcov -c user.email=swiftcov@example.invalid "
                + arguments.map { "'\($0)'" }.joined(separator: " "))
    }

    @Test("run → run --per-test → impacted → run --history → impacted → html; history on commits out of order → trends")
    func perTestAndHistoryJourney() throws {
        // The package as a git repository: swiftcov's own files (.build, its history) are ignored.
        try ".build/\n".write(toFile: package + "/.gitignore", atomically: true, encoding: .utf8)
        _ = try git(["init", "-q", "-b", "main"])
        _ = try git(["add", "-A"])
        _ = try git(["commit", "-qm", "base"])
        let base = try git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
        // Outside the package: nothing of the journey's own makes its tree "with changes".
        let diffFile = state + "/line-ten.diff"
        try Self.lineTen.write(toFile: diffFile, atomically: true, encoding: .utf8)

        // 1. run, then run --per-test: which tests ran line 10 of Streak.swift.
        #expect(try swiftcov(["run"], in: package).status == 0)
        let perTest = try swiftcov(["run", "--per-test"], in: package)
        #expect(perTest.status == 0, "\(perTest.stdout)\n\(perTest.stderr)")
        let impacted = try swiftcov(["impacted", "--diff", diffFile], in: package)
        #expect(impacted.status == 0, "\(impacted.stderr)")
        #expect(impacted.stdout == "CoreTests.StreakTests/bestStreak()\n", "\(impacted.stdout)")

        // 2. run --history keeps the per-test data: impacted and the site still have it.
        // Where the README once put it: inside the package, untracked.
        let history = ".swiftcov-history/runs.jsonl"
        let recorded = try swiftcov(["run", "--history", history], in: package)
        #expect(recorded.status == 0, "\(recorded.stdout)\n\(recorded.stderr)")
        let again = try swiftcov(["impacted", "--diff", diffFile], in: package)
        #expect(again.stdout == impacted.stdout, "run --history lost the per-test data: \(again.stderr)")
        let site = try swiftcov(["html", "-o", state + "/site"], in: package)
        #expect(site.status == 0, "\(site.stderr)")
        let pages = try FileManager.default.subpathsOfDirectory(atPath: state + "/site")
        let streakPage = try #require(pages.first { $0.hasSuffix(".html") && $0.contains("Streak") }, "\(pages)")
        let page = try String(contentsOfFile: state + "/site/" + streakPage, encoding: .utf8)
        #expect(page.contains("bestStreak"), "the site lost the tests that ran each line")

        // 3. Recorded on a feature commit, then its base, then the feature again: trends follows
        //    the commit graph (the feature, at HEAD, is the newest), not the order of recording.
        _ = try git(["checkout", "-q", "-b", "feature"])
        try "A change on the feature branch.\n".write(toFile: package + "/NOTES.md", atomically: true, encoding: .utf8)
        _ = try git(["add", "NOTES.md"])
        _ = try git(["commit", "-qm", "feature"])
        let feature = try git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
        for commit in ["feature", base, "feature"] {
            _ = try git(["checkout", "-q", commit])
            let added = try swiftcov(["history", "add", ".build/swiftcov", "--history", history], in: package)
            #expect(added.status == 0, "\(added.stderr)")
            // swiftcov's own files never make the tree "with changes".
            #expect(!added.stderr.contains("with changes"), "\(added.stderr)")
        }
        let trends = try swiftcov(["trends", "--history", history, "--format", "markdown"], in: package)
        #expect(trends.status == 0, "\(trends.stderr)")
        #expect(
            trends.stdout.contains("Trends over 2 commits (newest `\(feature.prefix(10))`)"),
            "the feature at HEAD is not the newest (base \(base.prefix(10))):\n\(trends.stdout)")
    }

    /// A change of line 10 of Streak.swift (in `record`, which only `bestStreak()` runs), against
    /// the sources as they are.
    static let lineTen = """
        diff --git a/Lib/Core/Streak.swift b/Lib/Core/Streak.swift
        index 2222222..3333333 100644
        --- a/Lib/Core/Streak.swift
        +++ b/Lib/Core/Streak.swift
        @@ -9,5 +9,5 @@
                 if correct {
        -            length += 1
        +            length += 2
                     best = max(best, length)
                 } else {
                     length = 0

        """

    /// `git diff` of step 7's change (the new test file, and lines 10, 19 and 20 of Streak.swift).
    static let change = """
        diff --git a/Checks/CoreTests/NewTests.swift b/Checks/CoreTests/NewTests.swift
        new file mode 100644
        index 0000000..1111111
        --- /dev/null
        +++ b/Checks/CoreTests/NewTests.swift
        @@ -0,0 +1,3 @@
        +import Core
        +
        +func newHelper() -> Int { 1 }
        diff --git a/Lib/Core/Streak.swift b/Lib/Core/Streak.swift
        index 2222222..3333333 100644
        --- a/Lib/Core/Streak.swift
        +++ b/Lib/Core/Streak.swift
        @@ -9,5 +9,5 @@
                 if correct {
        -            length += 1
        +            length += 1  // one more
                     best = max(best, length)
                 } else {
                     length = 0
        @@ -18,5 +18,5 @@
             public mutating func reset() {
        -        length = 0
        -        best = 0
        +        length = 0  // back to zero
        +        best = 0  // and the best too
             }
         }

        """
}
