import Foundation
import Testing

/// `swiftcov run --retry-failed` and `run --per-test`'s order check on a small real package
/// (Tests/Fixtures/RetryPackage, copied to a temporary folder), whose tests fail, crash, hang or
/// depend on each other's order as environment variables say. Each test builds it once.
@Suite(
    "swiftcov run with retries, quarantine and order-dependent tests, end to end", .serialized,
    .removingTemporaryFolders)
struct RetryRunCommandTests {
    let package: String
    let state: String

    init() throws {
        let base = try temporaryDirectory()
        package = base + "/RetryPackage"
        state = base + "/state"
        try FileManager.default.copyItem(atPath: packageRoot + "/Tests/Fixtures/RetryPackage", toPath: package)
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    }

    /// Runs `swiftcov run --output out` with `arguments`, the tests' state starting afresh.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RunResult {
        for name in try FileManager.default.contentsOfDirectory(atPath: state) {
            try FileManager.default.removeItem(atPath: state + "/" + name)
        }
        return try swiftcov(
            ["run", "--output", "out"] + arguments, environment: environment.merging(["FLAKY_STATE": state]) { $1 },
            in: package)
    }

    func write(_ text: String, to name: String) throws {
        try text.write(toFile: package + "/" + name, atomically: true, encoding: .utf8)
    }

    @Test(
        "--retry-failed: a flaky test passes (or fails with tests.flaky), a broken one fails every retry unless quarantined"
    )
    func retries() throws {
        // Two tests (XCTest, and Swift Testing by a display name) fail their first run.
        let flaky = try run(["--retry-failed", "2"], environment: ["FLAKY_FAILURES": "1"])
        #expect(flaky.status == 0, "\(flaky.stdout)\n\(flaky.stderr)")
        #expect(flaky.stdout.contains("Tests PASSED: 7 passed (2 only on retry: flaky)"), "\(flaky.stdout)")
        #expect(
            flaky.stdout.contains(
                "Flaky (passed on retry):\n  FlakyTests.RetryTests testFlaky (failed 1 of 2 runs)\n  FlakyTests Flaky too (failed 1 of 2 runs)\n"
            ))
        #expect(flaky.stderr.contains("note: FlakyTests.flakyToo() passed on retry 1: flaky"), "\(flaky.stderr)")
        let junit = try String(contentsOfFile: package + "/out/junit.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<flakyFailure ").count == 3, "\(junit)")
        #expect(!junit.contains("<failure"))
        #expect(FileManager.default.fileExists(atPath: package + "/out/swift-test-retries.log"))
        let coverage = try String(contentsOfFile: package + "/out/coverage.json", encoding: .utf8)
        #expect(coverage.contains(#""flaky": 2"#) || coverage.contains(#""flaky":2"#), "\(coverage.prefix(2000))")

        try write(#"{"tests": {"flaky": "fail"}}"#, to: ".swiftcov.json")
        let strict = try run(["--retry-failed", "2"], environment: ["FLAKY_FAILURES": "1"])
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(
            strict.stdout.contains("FAIL  tests  FlakyTests.RetryTests.testFlaky  flaky: failed 1 of 2 runs"),
            "\(strict.stdout)")

        // Broken: the first run and two retries fail, each kept in junit.xml.
        try write(#"{}"#, to: ".swiftcov.json")
        let broken = try run(["--retry-failed", "2"], environment: ["FLAKY_BROKEN": "1"])
        #expect(broken.status == 1, "\(broken.stdout)")
        #expect(
            broken.stdout.contains("FAILED  FlakyTests.RetryTests testBroken (failed 3 of 3 runs)"), "\(broken.stdout)")
        let brokenJUnit = try String(contentsOfFile: package + "/out/junit.xml", encoding: .utf8)
        #expect(brokenJUnit.components(separatedBy: "<rerunFailure ").count == 3 && brokenJUnit.contains("<failure "))

        // Quarantined (a file of IDs): reported, not failing the gate; an entry matching nothing warns.
        try write("# known broken\nFlakyTests.RetryTests/testBroken\nFlakyTests.Gone/testGone\n", to: "quarantine.txt")
        try write(#"{"quarantine": "quarantine.txt"}"#, to: ".swiftcov.json")
        let quarantined = try run([], environment: ["FLAKY_BROKEN": "1"])
        #expect(quarantined.status == 0, "\(quarantined.stdout)\n\(quarantined.stderr)")
        #expect(
            quarantined.stdout.contains(
                "FAILED  FlakyTests.RetryTests testBroken (quarantined: does not fail the gate)"))
        #expect(quarantined.stdout.contains("1 failed test does not fail the gate: 1 quarantined."))
        #expect(
            quarantined.stderr.contains(
                "quarantine.txt:3: warning: quarantined test FlakyTests.Gone/testGone matches no test of the run"))
        // check --tests and junit judge it the same way.
        let check = try swiftcov(["check", "out", "--tests", "out/junit.xml"], in: package)
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        let junitCommand = try swiftcov(["junit", "out/junit.xml", "-o", "again.xml"], in: package)
        #expect(junitCommand.status == 0, "\(junitCommand.stderr)")
        // report's Markdown says it too.
        let markdown = try swiftcov(["report", "out", "--tests", "out/junit.xml", "-f", "md"], in: package)
        #expect(
            markdown.stdout.contains("| FlakyTests.RetryTests › testBroken (quarantined: does not fail the gate) |"),
            "\(markdown.stdout)")
        // A bad line: one error naming the file and the line, exit 2, nothing written.
        try write("FlakyTests.RetryTests/testBroken\nnot a test\n", to: "quarantine.txt")
        try FileManager.default.removeItem(atPath: package + "/out")
        let bad = try run([])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains(#"quarantine.txt:2: error: "not a test": expected a test ID"#), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: package + "/out/junit.xml"))
    }

    @Test(
        "--per-test: order-dependent tests both ways, said so and not failing the gate (unless configured); a crash passing on retry is flaky"
    )
    func orderDependent() throws {
        let environment = ["ORDER_DEPENDENT": "1", "FLAKY_CRASH": "1", "FLAKY_FAILURES": "1"]
        let result = try run(["--per-test", "--retry-failed", "1", "--history", "h.jsonl"], environment: environment)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        // Confirmed (its first run alone, its retry and three more), then the test it depends on
        // found: testA_setsUp, as the package's source says, both ways.
        #expect(
            result.stderr.contains(
                "warning: order-dependent test FlakyTests.OrderTests/testB_needsSetUp: fails alone (5 of 5 runs), "
                    + "passes after FlakyTests.OrderTests/testA_setsUp (2 of 2): testA_setsUp sets up state "
                    + "testB_needsSetUp needs\n"), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "warning: order-dependent test FlakyTests.OrderTests/testC_needsCleanState: passes alone (4 of 4 runs), "
                    + "fails after FlakyTests.OrderTests/testA_setsUp (2 of 2): testA_setsUp leaves state that breaks "
                    + "testC_needsCleanState\n"))
        #expect(
            result.stdout.contains(
                "FAILED  FlakyTests.OrderTests testB_needsSetUp (failed 2 of 2 runs) (order-dependent: fails alone (5 of 5 runs), passes after FlakyTests.OrderTests/testA_setsUp (2 of 2): does not fail the gate)"
            ), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "Order-dependent (passed alone):\n  FlakyTests.OrderTests/testC_needsCleanState: passes alone (4 of 4 runs), fails after FlakyTests.OrderTests/testA_setsUp (2 of 2)\n"
            ))
        let search = try String(contentsOfFile: package + "/out/swift-test-order-search.log", encoding: .utf8)
        #expect(
            search.contains(
                "=== swiftcov run --per-test: FlakyTests.OrderTests/testB_needsSetUp after 1 tests, passed\n"))
        // The history keeps it: flaky names the test each depends on, from this one run.
        let flaky = try swiftcov(["flaky", "--history", "h.jsonl", "--format", "json"], in: package)
        #expect(flaky.status == 0, "\(flaky.stderr)")
        let verdicts = try #require(
            (try JSONSerialization.jsonObject(with: Data(flaky.stdout.utf8)) as? [String: Any])?["tests"]
                as? [[String: Any]])
        for (test, kind) in [("testB_needsSetUp", "state-setter"), ("testC_needsCleanState", "polluter")] {
            let verdict = verdicts.first { ($0["test"] as? String) == "FlakyTests.OrderTests/" + test }
            let dependsOn = verdict?["dependsOn"] as? [String: Any]
            #expect(verdict?["verdict"] as? String == "order-dependent", "\(flaky.stdout)")
            #expect(
                dependsOn?["test"] as? String == "FlakyTests.OrderTests/testA_setsUp"
                    && dependsOn?["kind"] as? String == kind)
        }
        #expect(result.stdout.contains("FlakyTests.RetryTests testCrashing (failed 1 of 2 runs)"))
        #expect(!result.stdout.contains("The log ends before"))
        let coverage = try String(contentsOfFile: package + "/out/coverage.json", encoding: .utf8)
        #expect(coverage.contains(#""orderDependent""#) && coverage.contains(#""inSuite""#))
        #expect(FileManager.default.fileExists(atPath: package + "/out/swift-test-suite.log"))

        try write(#"{"tests": {"orderDependent": "fail"}}"#, to: ".swiftcov.json")
        let strict = try run(["--per-test"], environment: ["ORDER_DEPENDENT": "1"])
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(
            strict.stdout.contains(
                "FAIL  tests  FlakyTests.OrderTests/testC_needsCleanState  order-dependent: passes alone (4 of 4 runs), fails after FlakyTests.OrderTests/testA_setsUp (2 of 2)"
            ), "\(strict.stdout)")
    }

    @Test("SIGINT during the retries: every process swiftcov started ends, and swiftcov with the signal")
    func interrupted() throws {
        let scratch = try temporaryDirectory()
        let background = try BackgroundSwiftcov(
            ["run", "--output", "out", "--retry-failed", "2"],
            environment: ["FLAKY_BROKEN": "1", "FLAKY_HANG_ON_RETRY": "1", "FLAKY_STATE": state], in: package,
            scratch: scratch)
        // The retry hangs: then everything below swiftcov is known.
        #expect(eventually { FileManager.default.fileExists(atPath: state + "/hanging") })
        let started = descendants(of: background.process.processIdentifier)
        kill(background.process.processIdentifier, SIGINT)
        let result = try #require(background.wait(), "SIGINT did not end it")
        #expect(background.process.terminationReason == .uncaughtSignal, "\(result.stderr)")
        #expect(result.status == SIGINT)
        #expect(!result.stdout.contains("passed"), "\(result.stdout)")
        #expect(started.count >= 2, "\(started)")
        #expect(eventually(within: 60) { started.allSatisfy(isGone) }, "\(started.filter { !isGone($0) })")
    }
}
