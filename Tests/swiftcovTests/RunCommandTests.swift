import Foundation
import Testing

/// `swiftcov run` on a tiny real package (Tests/Fixtures/TinyPackage, copied to a temporary
/// folder): it builds and tests it with coverage, so these tests take a while.
@Suite("swiftcov run, end to end", .serialized, .removingTemporaryFolders)
struct RunCommandTests {
    let package: String

    init() throws {
        package = try temporaryDirectory() + "/TinyPackage"
        try FileManager.default.copyItem(atPath: packageRoot + "/Tests/Fixtures/TinyPackage", toPath: package)
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
        try swiftcov(["run", "--output", "out"] + arguments, environment: environment, in: package)
    }

    @Test("a failing test: coverage all the same, the failure, exit 1, and every file written")
    func failingRun() throws {
        let result = try run([], environment: ["TINY_FAIL": "1"])
        #expect(result.status == 1)
        // The coverage table, made from the raw profiles (SwiftPM writes no export after a failure).
        #expect(result.stderr.contains("made the coverage from"))
        #expect(result.stdout.contains("Sources/Tiny/Tiny.swift"))
        let row = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("TOTAL") })
        // describe() ran (3 of its 4 returns' lines), unused() never: 2 functions, 1 covered.
        #expect(row.split(separator: " ").filter { !$0.isEmpty }.map(String.init)[4...6] == ["2", "1", "50.00%"])
        #expect(result.stdout.contains("testZero"))
        #expect(result.stdout.contains("Gate failed: 1 test failed; no coverage rule configured."))
        for file in ["html/index.html", "junit.xml", "coverage.json", "swift-test.log"] {
            #expect(FileManager.default.fileExists(atPath: package + "/out/" + file), "\(file)")
        }
        let junit = try String(contentsOfFile: package + "/out/junit.xml", encoding: .utf8)
        #expect(junit.contains("<failure"))
        // Swift Testing's event stream is kept beside the log and read: each test is in its suite or module.
        #expect(FileManager.default.fileExists(atPath: package + "/out/swift-testing-events.jsonl"))
        #expect(junit.contains(#"<testsuite name="TinyTests.SignTests""#))
        #expect(junit.contains(#"<testcase classname="TinyTests.SignTests" name="minusOne()""#))
        #expect(junit.contains(#"<testcase classname="TinyTests" name="negative()""#))
        #expect(!junit.contains(#"name="Swift Testing""#))
        // The file minusOne() attached, kept in the output folder and named for GitLab in JUnit.
        #expect(
            (try? String(contentsOfFile: package + "/out/attachments/sign.txt", encoding: .utf8))
                == "describe(-1) = negative")
        #expect(junit.contains("[[ATTACHMENT|attachments/sign.txt]]"))
        // The site gives minusOne() a page; it passed, so its file is listed, not copied.
        let pages = try FileManager.default.contentsOfDirectory(atPath: package + "/out/html/tests")
        #expect(pages.count == 1 && pages[0].hasPrefix("SignTests.minusOne_-"))
        let page = try String(contentsOfFile: package + "/out/html/tests/" + pages[0], encoding: .utf8)
        #expect(page.contains("sign.txt — not copied: its run passed"))
        // The site made again from the run's output, every test's evidence copied: the text shown as it is.
        let rebuilt = try swiftcov(["html", "out", "-o", "site", "--evidence", "all"], in: package)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let full = try String(contentsOfFile: package + "/site/tests/" + pages[0], encoding: .utf8)
        #expect(full.contains("<pre>describe(-1) = negative</pre>"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: package + "/site/evidence").count == 1)
    }

    @Test("a green run with its thresholds met exits 0; below them, 1")
    func greenRun() throws {
        try #"{"thresholds": {"functions": 50}}"#.write(
            toFile: package + "/.swiftcov.json", atomically: true, encoding: .utf8)
        // A file in the per-test data's place that is not per-test data is left as it is, and said so.
        try FileManager.default.createDirectory(atPath: package + "/out", withIntermediateDirectories: true)
        try "stale".write(toFile: package + "/out/per-test.swiftcov", atomically: true, encoding: .utf8)
        let green = try run([])
        #expect(green.status == 0, "\(green.stdout)\n\(green.stderr)")
        #expect(green.stdout.contains("Coverage gate passed"))
        #expect(try String(contentsOfFile: package + "/out/per-test.swiftcov", encoding: .utf8) == "stale")
        #expect(green.stderr.contains("note: left out/per-test.swiftcov as it is: "), "\(green.stderr)")
        // A baseline is ratcheted against as `check` does (tolerance 0 without "ratchet" in the
        // configuration): the sample's 92% of functions is more than this package's 50%. Given by
        // its old name, --baseline, with a warning.
        let baseline = try temporaryDirectory() + "/base.json"
        #expect(try swiftcov(["report", "SampleReports/coverage.json", "-f", "json", "-o", baseline]).status == 0)
        let ratcheted = try run(["--baseline", baseline])
        #expect(ratcheted.status == 1, "\(ratcheted.stdout)")
        #expect(ratcheted.stdout.contains("functions dropped from 92.00% to 50.00%"), "\(ratcheted.stdout)")
        #expect(ratcheted.stderr.hasPrefix("swiftcov run: warning: --baseline is deprecated: use --ratchet FILE\n"))
        try #"{"thresholds": {"functions": 90}}"#.write(
            toFile: package + "/.swiftcov.json", atomically: true, encoding: .utf8)
        // An event stream the user asks for is the one read, and no second one is added.
        let short = try run([
            "--", "--experimental-event-stream-output", "mine.jsonl", "--experimental-event-stream-version", "0",
        ])
        #expect(short.status == 1)
        #expect(short.stdout.contains("FAIL  total  TOTAL  functions 50.00% < 90.00%"))
        #expect(
            short.stderr.contains(
                "--experimental-event-stream-output mine.jsonl --experimental-event-stream-version 0\n"))
        #expect(!short.stderr.contains("swift-testing-events.jsonl"))
        #expect(FileManager.default.fileExists(atPath: package + "/mine.jsonl"))
        let junit = try String(contentsOfFile: package + "/out/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"<testcase classname="TinyTests.SignTests" name="minusOne()""#))

        // From a folder inside the package: it works in the root (its .swiftcov.json too), and a
        // path given is where the user stands.
        let inside = try swiftcov(["run", "--output", "here"], in: package + "/Sources/Tiny")
        #expect(inside.status == 1, "\(inside.stderr)")
        #expect(inside.stderr.contains("note: working in the package root"))
        #expect(inside.stdout.contains("FAIL  total  TOTAL  functions 50.00% < 90.00%"))
        #expect(FileManager.default.fileExists(atPath: package + "/Sources/Tiny/here/junit.xml"))
    }

    @Test(
        "run -- -c release: the user's build options in every swift call, the release build's coverage, no stray profile"
    )
    func release() throws {
        let swift = try FakeSwift(in: try temporaryDirectory())
        let flag = ["-Xswiftc", "-DSWIFTCOV_RECORDED"]
        let result = try run(["--", "-c", "release"] + flag, environment: swift.environment)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let coverage = try String(contentsOfFile: package + "/out/coverage.json", encoding: .utf8)
        #expect(coverage.contains("Sources/Tiny/Tiny.swift"))
        #expect(result.stdout.contains("Tests PASSED: 5 passed"))
        let calls = try swift.calls()
        #expect(calls.contains { $0.starts(with: ["test", "--show-codecov-path"]) }, "\(calls)")
        #expect(calls.contains { $0.starts(with: ["test", "--enable-code-coverage"]) }, "\(calls)")
        // Every call that builds or runs the package (describing its manifest or asking the
        // toolchain's version builds nothing).
        for call in calls where call.first != "package" && call != ["--version"] {
            #expect(call.contains(adjacent: ["-c", "release"]) && call.contains(adjacent: flag), "\(call)")
        }
        #expect(try strayProfiles(in: package) == [])
    }

    @Test(
        "run --shard: its tests gated, not the package's coverage rules (checked where shards merge); the options in every swift call; no stray profile"
    )
    func shards() throws {
        try #"{"thresholds": {"lines": 100}}"#.write(
            toFile: package + "/.swiftcov.json", atomically: true, encoding: .utf8)
        let scratch = try temporaryDirectory()
        let swift = try FakeSwift(in: scratch)
        let build = scratch + "/build"
        let flag = ["-Xswiftc", "-DSWIFTCOV_RECORDED"]
        func shard(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
            try swiftcov(
                ["run"] + arguments, environment: swift.environment.merging(environment) { $1 }, in: package)
        }
        // The build folder given to run, then among swift test's own arguments.
        let first = try shard(["--shard", "1/2", "--output", "s1", "--scratch-path", build, "--"] + flag)
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(
            first.stdout.contains(
                "Shard 1/2 gates its tests only: the coverage rules of .swiftcov.json are checked where the shards are merged"
            ), "\(first.stdout)")
        let second = try shard(["--shard", "2/2", "--output", "s2", "--", "--scratch-path", build] + flag)
        #expect(second.status == 0, "\(second.stdout)\n\(second.stderr)")
        let calls = try swift.calls()
        for kind in [
            ["build", "--build-tests"], ["test", "list"], ["test", "--show-codecov-path"],
            ["test", "--enable-code-coverage"],
        ] {
            #expect(calls.contains { $0.starts(with: kind) }, "\(kind): \(calls)")
        }
        // Every call that builds or runs the package (describing its manifest or asking the
        // toolchain's version builds nothing).
        for call in calls where call.first != "package" && call != ["--version"] {
            #expect(call.contains(adjacent: ["--scratch-path", build]) && call.contains(adjacent: flag), "\(call)")
        }
        #expect(!FileManager.default.fileExists(atPath: package + "/.build"), "built in the package")
        #expect(try strayProfiles(in: package) == [])

        // Where the shards are merged, the package's rules apply.
        let merged = try swiftcov(["check", "-c", "s1", "-c", "s2"], in: package)
        #expect(merged.status == 1, "\(merged.stdout)\n\(merged.stderr)")
        #expect(merged.stdout.contains("FAIL  total  TOTAL  lines"), "\(merged.stdout)")
        // --config gives a shard rules of its own.
        let ruled = try shard(
            ["--shard", "1/2", "--output", "s1", "--scratch-path", build, "--config", ".swiftcov.json", "--"] + flag)
        #expect(ruled.status == 1, "\(ruled.stdout)\n\(ruled.stderr)")
        #expect(ruled.stdout.contains("FAIL  total  TOTAL  lines") && !ruled.stdout.contains("gates its tests only"))
        // A failed test fails its shard.
        let failing = try shard(
            ["--shard", "1/2", "--output", "s1", "--scratch-path", build, "--"] + flag, environment: ["TINY_FAIL": "1"])
        #expect(failing.status == 1, "\(failing.stdout)\n\(failing.stderr)")
        #expect(failing.stdout.contains("Gate failed: 1 test failed"), "\(failing.stdout)")
        #expect(try strayProfiles(in: package) == [])
    }

    @Test("on a terminal the build's progress shows while it builds; piped, the build's output as it is")
    func buildProgress() throws {
        // A `swift` whose build fails after two steps: no real build needed.
        let swift = try FakeSwift(
            in: try temporaryDirectory(),
            body: """
                [ "$1" = test ] || exit 1
                printf '[0/1] Planning build\\n[1/3] Compiling Tiny Tiny.swift\\n'
                printf '%s\\n' 'Sources/Tiny/Tiny.swift:1:1: error: deliberate'
                exit 1
                """)
        let piped = try run([], environment: swift.environment)
        #expect(piped.status == 2)
        #expect(piped.stdout.contains("[1/3] Compiling Tiny Tiny.swift\n"), "\(piped.stdout)")
        #expect(!piped.stderr.contains("Building 1/3"))

        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "script(1) gives swiftcov a terminal")
        let process = swiftcovProcess([], environment: swift.environment, in: package)
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["-q", "-e", "-c", "'\(swiftcovExecutable().path)' run --output out", "/dev/null"]
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(text)")
        #expect(text.contains("\r\u{1B}[KBuilding 1/3: compiling Tiny"), "\(text)")
        #expect(!text.contains("[1/3] Compiling Tiny Tiny.swift"), "\(text)")
        #expect(!text.contains("0 passed, 0 failed"), "\(text)")
        // The build's error, hidden behind the progress line, is shown when it ends.
        #expect(text.contains("error: deliberate"), "\(text)")
    }

    @Test("a build break with --history is a run of the history: flaky's headline names it, never 'no failures'")
    func buildBreakRecorded() throws {
        let swift = try FakeSwift(
            in: try temporaryDirectory(),
            body: """
                [ "$1" = test ] || exit 1
                printf '%s\n' 'Sources/Tiny/Tiny.swift:1:1: error: deliberate'
                exit 1
                """)
        let history = try temporaryDirectory() + "/runs.jsonl"
        let broken = try run(
            ["--history", history, "--environment", "tz-tokyo"],
            environment: swift.environment)
        #expect(broken.status == 2, "\(broken.stdout)\n\(broken.stderr)")
        #expect(broken.stderr.contains("swiftcov: recorded run "), "\(broken.stderr)")
        #expect(broken.stderr.contains("(build failed"), "\(broken.stderr)")
        let text = try String(contentsOfFile: history, encoding: .utf8)
        #expect(text.contains(#""buildFailed":true"#) && text.contains(#""environmentName":"tz-tokyo""#), "\(text)")
        let flaky = try swiftcov(["flaky", "--history", history], in: package)
        #expect(flaky.stdout.hasPrefix("The build failed in the newest run, "), "\(flaky.stdout)")
        #expect(flaky.stdout.contains("left out, the build failed: "), "\(flaky.stdout)")
    }

    @Test("the test log goes to its file as it comes: swiftcov's peak memory far below a 64 MiB log's size")
    func streamedLog() throws {
        // A `swift` that prints 64 MiB of output and no test.
        let swift = try FakeSwift(
            in: try temporaryDirectory(),
            body: """
                [ "$1" = test ] || exit 1
                head -c 67108864 /dev/zero | tr '\\0' x | fold -w 127
                exit 1
                """)
        let time = "/usr/bin/time"
        try #require(FileManager.default.isExecutableFile(atPath: time), "time(1) measures swiftcov's peak memory")
        let process = swiftcovProcess([], environment: swift.environment, in: package)
        process.executableURL = URL(fileURLWithPath: time)
        process.arguments = ["-f", "peak %M", swiftcovExecutable().path, "run", "--output", "out"]
        let error = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        try process.run()
        let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(text)")
        let log = try #require(
            try FileManager.default.attributesOfItem(atPath: package + "/out/swift-test.log")[.size] as? Int)
        #expect(log >= 64 << 20)
        let peak = try #require(
            text.split(separator: "\n").last.flatMap { Int($0.dropFirst("peak ".count)) }, "\(text)")
        #expect(peak * 1024 < log / 2, "peak \(peak) KiB for a log of \(log) bytes")
    }

    @Test(
        "the README's commands in turn: a history in the package changes nothing; run keeps run --per-test's data for impacted and html"
    )
    func perTestDataKept() throws {
        for arguments in [["init", "-q"], ["add", "."], ["commit", "-qm", "one"]] {
            try runGit(arguments, in: package)
        }
        let commit = try runGit(["rev-parse", "--short=12", "HEAD"], in: package)
        let history = ["--history", ".swiftcov-history/runs.jsonl"]
        let store = package + "/.build/swiftcov/per-test.swiftcov"
        // The history file is made in the package, not tracked: every run is of the commit, clean.
        let first = try swiftcov(["run"] + history, in: package)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("(5 tests, \(commit)) in .swiftcov-history/runs.jsonl"), "\(first.stderr)")
        let perTest = try swiftcov(["run", "--per-test"], in: package)
        #expect(perTest.status == 0, "\(perTest.stderr)")
        let again = try swiftcov(["run"] + history, in: package)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("(5 tests, \(commit)) in .swiftcov-history/runs.jsonl"), "\(again.stderr)")
        #expect(
            again.stderr.contains(
                "note: kept the per-test data in .build/swiftcov/per-test.swiftcov: recorded at this commit"),
            "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: store))
        // The run's site shows it.
        let site = try String(contentsOfFile: package + "/.build/swiftcov/html/index.html", encoding: .utf8)
        #expect(site.contains("Per-test data: 5 tests, recorded at commit <code>\(commit)</code>."))
        // impacted reads it as the base's (recorded at it, clean); html shows every file's tests.
        let diff = package + "/../change.diff"
        try tinyRewrite.write(toFile: diff, atomically: true, encoding: .utf8)
        let impacted = try swiftcov(["impacted", "--diff", diff], in: package)
        #expect(impacted.status == 0, "\(impacted.stderr)")
        #expect(
            impacted.stderr.contains("(per-test data of \(commit), read as the diff's base side)"), "\(impacted.stderr)"
        )
        #expect(
            impacted.stdout.split(separator: "\n").sorted() == [
                "TinyTests.SignTests/minusOne()", "TinyTests.negative()",
            ])
        let html = try swiftcov(["html", ".build/swiftcov"], in: package)
        #expect(html.status == 0 && !html.stderr.contains("per-test"), "\(html.stderr)")

        // The code changes, lines move: the data is kept as an earlier run's, and html leaves
        // out the files whose lines moved, saying so.
        let source = package + "/Sources/Tiny/Tiny.swift"
        try ("// A line that moves every line below.\n" + String(contentsOfFile: source, encoding: .utf8))
            .write(toFile: source, atomically: true, encoding: .utf8)
        let changed = try swiftcov(["run"], in: package)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(
            changed.stderr.contains(
                "note: kept .build/swiftcov/per-test.swiftcov of an earlier `run --per-test` (at commit \(commit), "),
            "\(changed.stderr)")
        #expect(FileManager.default.fileExists(atPath: store))
        let moved = try swiftcov(["html", ".build/swiftcov"], in: package)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(
            moved.stderr.contains("have moved since") && moved.stderr.contains("Sources/Tiny/Tiny.swift"),
            "\(moved.stderr)")
        let page = try String(
            contentsOfFile: package + "/.build/swiftcov/html/index.html", encoding: .utf8)
        #expect(page.contains("Per-test data: 5 tests"))
    }

    @Test("outside a package root: a usage error")
    func notAPackage() throws {
        let result = try swiftcov(["run"], in: try temporaryDirectory())
        #expect(result.status == 2)
        #expect(result.stderr.contains("no Package.swift"))
    }
}

/// `swiftcov run --per-test` on the tiny package: each test alone, a crash and a hang reported
/// and the run going on, the per-test data read back by `report --show tests` and `impacted`.
@Suite("swiftcov run --per-test, end to end", .serialized, .removingTemporaryFolders)
struct PerTestRunCommandTests {
    @Test("a crashing and a hanging test: reported, the rest recorded, every output written")
    func crashAndHang() throws {
        let package = try temporaryDirectory() + "/TinyPackage"
        try FileManager.default.copyItem(atPath: packageRoot + "/Tests/Fixtures/TinyPackage", toPath: package)
        // No test here may race a short --test-timeout: the passing tests run with the default
        // (300 s), and the hanging test alone with a short one.
        let crashing = try swiftcov(
            ["run", "--per-test", "--output", "out", "--", "--skip", "testPositive"],
            environment: ["TINY_CRASH": "1"], in: package)
        #expect(crashing.status == 1, "\(crashing.stderr)")
        #expect(crashing.stderr.contains("TinyTests.DescribeTests/testMisbehaving crashed"), "\(crashing.stderr)")
        #expect(crashing.stderr.contains("recorded the lines of 4 tests"))
        let junit = try String(contentsOfFile: package + "/out/junit.xml", encoding: .utf8)
        #expect(junit.contains("testMisbehaving"))
        #expect(!junit.contains("testPositive"))
        // As one plain run's: each class once with its tests (not a suite per test process), each test once.
        #expect(junit.components(separatedBy: #"<testsuite name="TinyTests.DescribeTests""#).count == 2, "\(junit)")
        #expect(junit.contains(#"<testsuite name="TinyTests.DescribeTests" tests="2""#), "\(junit)")
        #expect(junit.components(separatedBy: #"name="testZero""#).count == 2)
        let rows = crashing.stdout.split(separator: "\n").filter { $0.hasPrefix("TinyTests.DescribeTests ") }
        #expect(rows.count == 1 && rows[0].split(separator: " ")[1] == "2", "\(crashing.stdout)")
        for file in ["html/index.html", "coverage.json", "swift-test.log", "per-test.swiftcov", "llvm-cov-export.json"]
        {
            #expect(FileManager.default.fileExists(atPath: package + "/out/" + file), "\(file)")
        }

        let hanging = try swiftcov(
            ["run", "--per-test", "--test-timeout", "3", "--output", "hang", "--", "--filter", "Misbehaving"],
            environment: ["TINY_HANG": "1"], in: package)
        #expect(hanging.status == 1)
        #expect(hanging.stderr.contains("testMisbehaving timed out"), "\(hanging.stderr)")
        #expect(hanging.stderr.contains("killed after 3 s (--test-timeout)"))
        let hangJUnit = try String(contentsOfFile: package + "/hang/junit.xml", encoding: .utf8)
        #expect(hangJUnit.contains(#"errors="1""#), "\(hangJUnit)")

        // A crash beside a passing test, in the folder the data is read back from.
        let mixed = try swiftcov(
            ["run", "--per-test", "--output", "out", "--", "--filter", "Misbehaving|negative"],
            environment: ["TINY_CRASH": "1"], in: package)
        #expect(mixed.status == 1)

        // The data read back: every executable line with its tests.
        let report = try swiftcov(
            ["report", "out", "--format", "json", "--show", "lines", "--show", "tests"], in: package)
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let tests = try #require(json["tests"] as? [[String: Any]])
        #expect(
            tests.map { $0["id"] as? String } == ["TinyTests.DescribeTests/testMisbehaving", "TinyTests.negative()"])
        #expect(tests.map { $0["outcome"] as? String } == ["crashed", "passed"])
        // The killed process left no profile: its lines are unknown, and the store says so.
        #expect(tests.map { $0["recorded"] as? Bool } == [false, true])
        #expect(tests.map { $0["executedLines"] as? Int }.first == 0)
        let file = try #require((json["files"] as? [[String: Any]])?.first)
        let lineTests = try #require(file["lineTests"] as? [[Any]])
        let lineCounts = try #require(file["lineCounts"] as? [[Int]])
        #expect(lineTests.map { $0[0] as? Int } == lineCounts.map { $0[0] })
        #expect(lineTests.contains { ($0[1] as? [String]) == ["TinyTests.negative()"] })

        // The site of the run, and html on its folder: each line's tests, each file's tests.
        for site in ["out/html", "site"] {
            if site == "site" {
                let html = try swiftcov(["html", "out", "-o", "site"], in: package)
                #expect(html.status == 0, "\(html.stderr)")
            }
            let pages = try FileManager.default.contentsOfDirectory(atPath: package + "/" + site + "/files")
            let page = try #require(pages.first { $0.hasPrefix("Sources_Tiny_Tiny.swift") })
            let text = try String(contentsOfFile: package + "/" + site + "/files/" + page, encoding: .utf8)
            #expect(text.contains("<h2 id=\"tests\">Tests that ran this file"), "\(site)")
            #expect(text.contains("TinyTests.<wbr>negative()"), "\(site)")
            #expect(text.contains(" ran line "), "\(site)")
        }

        // impacted: a rewritten line only negative() ran; --format filter; no data: exit 2.
        let diff = tinyRewrite
        try diff.write(toFile: package + "/change.diff", atomically: true, encoding: .utf8)
        let impacted = try swiftcov(["impacted", "out", "--diff", "change.diff"], in: package)
        #expect(impacted.status == 0, "\(impacted.stderr)")
        #expect(impacted.stdout == "TinyTests.negative()\n")
        let filter = try swiftcov(["impacted", "out", "--diff", "change.diff", "--format", "filter"], in: package)
        #expect(filter.stdout == "^TinyTests\\.negative\\(\\)(/|$)\n")
        let missing = try swiftcov(["impacted", "--diff", "change.diff"], in: package)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no per-test data; record it with `swiftcov run --per-test`"))
    }

    @Test("run --per-test -- -c release: built for @testable import, the options in every swift call, no stray profile")
    func release() throws {
        let base = try temporaryDirectory()
        let package = base + "/TinyPackage"
        try FileManager.default.copyItem(atPath: packageRoot + "/Tests/Fixtures/TinyPackage", toPath: package)
        let swift = try FakeSwift(in: base)
        let flag = ["-Xswiftc", "-DSWIFTCOV_RECORDED"]
        let result = try swiftcov(
            ["run", "--per-test", "--output", "out", "--", "-c", "release"] + flag, environment: swift.environment,
            in: package)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("recorded the lines of 5 tests"), "\(result.stderr)")
        for file in ["per-test.swiftcov", "coverage.json", "junit.xml", "llvm-cov-export.json"] {
            #expect(FileManager.default.fileExists(atPath: package + "/out/" + file), "\(file)")
        }
        let calls = try swift.calls()
        for kind in [["build", "--build-tests"], ["test", "list"], ["build", "--show-bin-path"]] {
            #expect(calls.contains { $0.starts(with: kind) }, "\(kind): \(calls)")
        }
        // Every call that builds or runs the package (describing its manifest or asking the
        // toolchain's version builds nothing).
        for call in calls where call.first != "package" && call != ["--version"] {
            #expect(call.contains(adjacent: ["-c", "release"]) && call.contains(adjacent: flag), "\(call)")
        }
        #expect(try strayProfiles(in: package) == [])
    }

    @Test("--per-test shards in two folders (one with --scratch-path): report and impacted merge their stores")
    func shards() throws {
        let base = try temporaryDirectory()
        var outputs: [String] = []
        var packages: [String] = []
        for index in 1...2 {
            let package = base + "/runner\(index)/TinyPackage"
            try FileManager.default.createDirectory(atPath: base + "/runner\(index)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: packageRoot + "/Tests/Fixtures/TinyPackage", toPath: package)
            var arguments = ["run", "--per-test", "--shard", "\(index)/2", "--output", "out"]
            if index == 2 { arguments += ["--scratch-path", base + "/scratch"] }
            let result = try swiftcov(arguments, in: package)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("shard \(index)/2: \(index == 1 ? 3 : 2) of 5 tests"), "\(result.stderr)")
            let listed = try String(contentsOfFile: package + "/out/shard-tests.txt", encoding: .utf8)
            #expect(listed.split(separator: "\n").count == (index == 1 ? 3 : 2))
            packages.append(package)
            outputs.append(package + "/out")
        }
        // The second shard built in its scratch path, not in the package.
        #expect(FileManager.default.fileExists(atPath: base + "/scratch/debug/TinyPackageTests.xctest"))
        #expect(!FileManager.default.fileExists(atPath: packages[1] + "/.build/debug"))

        // Merged in the first runner's checkout: every test once; a line has tests exactly when
        // the merged coverage counts it.
        let report = try swiftcov(
            ["report", "-c", outputs[0], "-c", outputs[1], "--format", "json", "--show", "lines", "--show", "tests"],
            in: packages[0])
        #expect(report.status == 0, "\(report.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let tests = try #require(json["tests"] as? [[String: Any]])
        #expect(
            tests.compactMap { $0["id"] as? String }.sorted() == [
                "TinyTests.DescribeTests/testMisbehaving", "TinyTests.DescribeTests/testPositive",
                "TinyTests.DescribeTests/testZero", "TinyTests.SignTests/minusOne()", "TinyTests.negative()",
            ])
        let file = try #require(
            (json["files"] as? [[String: Any]])?.first {
                ($0["path"] as? String)?.hasSuffix("/Sources/Tiny/Tiny.swift") == true
            })
        let lineTests = try #require(file["lineTests"] as? [[Any]])
        let lineCounts = try #require(file["lineCounts"] as? [[Int]])
        #expect(lineTests.map { $0[0] as? Int } == lineCounts.map { $0[0] })
        #expect(lineTests.map { !(($0[1] as? [String]) ?? []).isEmpty } == lineCounts.map { $0[1] > 0 })
        #expect(lineCounts.contains { $0[1] == 0 } && lineCounts.contains { $0[1] > 0 })

        // impacted over both shards; the same shard given twice is a warning, each test once.
        let diff = tinyRewrite
        try diff.write(toFile: base + "/change.diff", atomically: true, encoding: .utf8)
        let impacted = try swiftcov(["impacted", outputs[0], outputs[1], "--diff", base + "/change.diff"], in: base)
        #expect(impacted.status == 0, "\(impacted.stderr)")
        #expect(
            impacted.stdout.split(separator: "\n").sorted() == [
                "TinyTests.SignTests/minusOne()", "TinyTests.negative()",
            ])
        let twice = try swiftcov(["impacted", outputs[1], outputs[1], "--diff", base + "/change.diff"], in: base)
        #expect(twice.stderr.contains("is recorded more than once (passed, passed); kept passed"), "\(twice.stderr)")
        #expect(twice.stdout.split(separator: "\n").count == Set(twice.stdout.split(separator: "\n")).count)

        // More shards than tests: a shard with no share passes with every output written, all
        // counts zero, and merging it changes nothing.
        let empty = try swiftcov(["run", "--per-test", "--shard", "6/6", "--output", "empty"], in: packages[0])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stderr.contains("shard 6/6: 0 of 5 tests"))
        for file in ["coverage.json", "junit.xml", "html/index.html", "per-test.swiftcov"] {
            #expect(FileManager.default.fileExists(atPath: packages[0] + "/empty/" + file), "\(file)")
        }
        let withEmpty = try swiftcov(
            [
                "report", "-c", outputs[0], "-c", outputs[1], "-c", packages[0] + "/empty", "--format", "json",
                "--show", "lines", "--show", "tests",
            ], in: packages[0])
        #expect(withEmpty.status == 0, "\(withEmpty.stderr)")
        let merged = try #require(
            try JSONSerialization.jsonObject(with: Data(withEmpty.stdout.utf8)) as? [String: Any])
        #expect(
            (merged["files"] as? [[String: Any]])?.map { $0["lineCounts"] as? [[Int]] }
                == (json["files"] as? [[String: Any]])?.map { $0["lineCounts"] as? [[Int]] })
        #expect((merged["tests"] as? [[String: Any]])?.count == 5)
    }
}

/// `swiftcov run` with tests that misbehave (Tests/Fixtures/TinyPackage's `testMisbehaving`
/// with TINY_MISBEHAVE): nothing they start outlives the run, every run ends, every result is
/// written. Hangs are on `sleep 600`; the deadlines here only catch a run that never ends.
@Suite("swiftcov run with misbehaving tests", .serialized, .removingTemporaryFolders)
struct MisbehavingTestsRunCommandTests {
    let package: String
    let scratch: String

    init() throws {
        scratch = try temporaryDirectory()
        package = scratch + "/TinyPackage"
        try FileManager.default.copyItem(atPath: packageRoot + "/Tests/Fixtures/TinyPackage", toPath: package)
    }

    /// Runs `swiftcov run --per-test` on testMisbehaving alone, misbehaving as `mode`; with the
    /// process IDs the test wrote.
    func misbehave(_ mode: String, _ options: [String] = [], output: String) throws -> (RunResult?, [Int32]) {
        let pids = scratch + "/pids-" + output
        let run = try BackgroundSwiftcov(
            ["run", "--per-test", "--output", output] + options + ["--", "--filter", "Misbehaving"],
            environment: ["TINY_MISBEHAVE": mode, "TINY_PIDS": pids], in: package, scratch: scratch)
        let result = run.wait()
        let written = (try? String(contentsOfFile: pids, encoding: .utf8)) ?? ""
        return (result, written.split(separator: " ").compactMap { Int32($0) })
    }

    @Test("a test that closes its output, or hangs with a child in a group of its own: killed at the deadline")
    func hangs() throws {
        for mode in ["close", "detach"] {
            let (ended, pids) = try misbehave(mode, ["--test-timeout", "3"], output: mode)
            let result = try #require(ended, "\(mode): the run did not end")
            #expect(result.status == 1, "\(mode): \(result.stderr)")
            #expect(result.stderr.contains("testMisbehaving timed out"), "\(mode): \(result.stderr)")
            #expect(pids.count == (mode == "close" ? 1 : 2) && pids.allSatisfy(isGone), "\(mode): \(pids)")
            let junit = try String(contentsOfFile: package + "/\(mode)/junit.xml", encoding: .utf8)
            #expect(junit.contains(#"errors="1""#), "\(junit)")
        }
    }

    @Test("a test that passes but leaves a child holding its output: passed, and the child killed")
    func leftChild() throws {
        let (ended, pids) = try misbehave("leave", output: "leave")
        let result = try #require(ended)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("testMisbehaving passed"), "\(result.stderr)")
        #expect(pids.count == 2 && pids.allSatisfy(isGone), "\(pids)")
    }

    @Test("every selected test crashes: the crash in junit.xml and the summary, every output written, exit 1")
    func everyTestCrashes() throws {
        let result = try swiftcov(
            ["run", "--per-test", "--output", "out", "--", "--filter", "Misbehaving"],
            environment: ["TINY_CRASH": "1"], in: package)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("no llvm-cov export"))
        let junit = try String(contentsOfFile: package + "/out/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"name="testMisbehaving""#) && junit.contains(#"errors="1""#), "\(junit)")
        #expect(result.stdout.contains("testMisbehaving"), "\(result.stdout)")
        for file in ["html/index.html", "coverage.json", "swift-test.log", "per-test.swiftcov", "llvm-cov-export.json"]
        {
            #expect(FileManager.default.fileExists(atPath: package + "/out/" + file), "\(file)")
        }
        let report = try swiftcov(["report", "out", "--format", "json", "--show", "tests"], in: package)
        #expect(report.stdout.contains(#""outcome":"crashed""#) || report.stdout.contains(#""outcome": "crashed""#))
    }

    @Test("a test printing 12 MB: its output kept bounded, its start and end, with what was dropped")
    func flood() throws {
        let (ended, _) = try misbehave("flood", output: "flood")
        let result = try #require(ended)
        #expect(result.status == 0, "\(result.stderr)")
        let log = try String(contentsOfFile: package + "/flood/swift-test.log", encoding: .utf8)
        #expect(log.utf8.count < 5 << 20)
        #expect(log.contains(" bytes of output dropped here]"))
        #expect(log.contains("testMisbehaving' passed"))
    }

    @Test("SIGTERM during run --per-test and run: every process they started ended, the profiles' folder removed")
    func terminated() throws {
        for perTest in [true, false] {
            let pids = scratch + "/pids-term-\(perTest)"
            let run = try BackgroundSwiftcov(
                ["run", "--output", "out"] + (perTest ? ["--per-test", "--", "--filter", "Misbehaving"] : []),
                environment: ["TINY_MISBEHAVE": "detach", "TINY_PIDS": pids], in: package, scratch: scratch)
            // The test and its child run (then everything below swiftcov is known): end swiftcov.
            #expect(eventually { FileManager.default.fileExists(atPath: pids) })
            let started = descendants(of: run.process.processIdentifier)
            run.process.terminate()
            let result = try #require(run.wait(), "SIGTERM did not end it")
            #expect(run.process.terminationReason == .uncaughtSignal, "\(result.stderr)")
            #expect(result.status == SIGTERM)
            let written = try String(contentsOfFile: pids, encoding: .utf8).split(separator: " ")
            #expect(written.count == 2)
            #expect(started.count >= (perTest ? 2 : 3), "\(started)")
            #expect(eventually(within: 60) { started.allSatisfy(isGone) }, "\(started.filter { !isGone($0) })")
            let left = try FileManager.default.contentsOfDirectory(atPath: package + "/out")
            #expect(!left.contains { $0.hasPrefix("per-test-profiles") }, "\(left)")
            try FileManager.default.removeItem(atPath: pids)
        }
    }

    @Test("two run --per-test at once in one package and folder: the second waits, both succeed")
    func concurrentRuns() throws {
        // Built once first, so that both runs mostly run tests.
        let first = try swiftcov(["run", "--per-test", "--output", "out"], in: package)
        #expect(first.status == 0, "\(first.stderr)")
        let runs = try (0..<2).map { _ in
            try BackgroundSwiftcov(["run", "--per-test", "--output", "out"], in: package, scratch: scratch)
        }
        let results = runs.map { $0.wait() }
        for result in results {
            #expect(result?.status == 0, "\(result?.stderr ?? "did not end")")
            #expect(result?.stderr.contains("recorded the lines of 5 tests") == true)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: package + "/out")
        #expect(!left.contains { $0.hasPrefix("per-test-profiles") }, "\(left)")
    }
}

/// A change to the tiny package's line 4, which only the tests of negative numbers run.
let tinyRewrite = """
    diff --git a/Sources/Tiny/Tiny.swift b/Sources/Tiny/Tiny.swift
    --- a/Sources/Tiny/Tiny.swift
    +++ b/Sources/Tiny/Tiny.swift
    @@ -4 +4 @@
    -        return "negative"
    +        return "minus"

    """
