import Foundation
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// `run --per-test`'s engine on a real package of XCTest and Swift Testing tests
/// (Tests/Fixtures/TinyPackage, in a temporary git repository), checked against what each test
/// gives alone: `swift test --filter TEST --enable-code-coverage`, then llvm-cov's lcov export.
/// It builds and runs the package, so it takes a while.
@Suite("per-test coverage of a real package", .serialized, .removingTemporaryFolders)
struct PerTestRunTests {
    let package: String

    init() throws {
        package = try temporaryDirectory() + "/TinyPackage"
        try FileManager.default.copyItem(atPath: packageRoot + "/Tests/Fixtures/TinyPackage", toPath: package)
        try git(["init", "-q"])
        try git(["add", "."])
        try git(["-c", "user.name=swiftcov", "-c", "user.email=swiftcov@example.com", "commit", "-qm", "base"])
    }

    @discardableResult
    func git(_ arguments: [String]) throws -> String {
        let result = try Subprocess.capture("git", arguments, in: package)
        try #require(result.status == 0, "git \(arguments): \(result.errorText)")
        return result.outputText
    }

    /// The lines llvm-cov counts as run (lcov `DA:` with a non-zero count) in the package's own files.
    func lcovExecutedLines(profdata: String, binary: String, toolchain: Toolchain) throws -> [String: Set<UInt32>] {
        let result = try Subprocess.capture(
            toolchain.llvmCov, ["export", "-format=lcov", "-instr-profile", profdata, binary])
        try #require(result.status == 0, "\(result.errorText)")
        var lines: [String: Set<UInt32>] = [:]
        var file = ""
        for line in result.outputText.split(separator: "\n") {
            if line.hasPrefix("SF:") {
                file = String(line.dropFirst(3))
                file = file.hasPrefix(package + "/") ? String(file.dropFirst(package.count + 1)) : ""
            } else if line.hasPrefix("DA:"), !file.isEmpty, !file.hasPrefix(".build/") {
                let fields = line.dropFirst(3).split(separator: ",")
                if fields.count >= 2, let number = UInt32(fields[0]), fields[1] != "0" {
                    lines[file, default: []].insert(number)
                }
            }
        }
        return lines
    }

    @Test("each test's lines are exactly those its own run counts; impacted tests of a real change")
    func attribution() throws {
        let toolchain = try Toolchain.locate()
        var run = RunWorkflow(
            root: package, output: package + "/.build/swiftcov", testArguments: [],
            strategy: .eachTestAlone(timeout: RunWorkflow.Strategy.defaultTimeout))
        run.mergeBatch = 2  // profiles merged in batches as tests end, then once
        let sink = CollectingSink()
        let outcome = try run.run(
            toolchain: toolchain, clock: Clock(secondsSince1970: 1_795_392_000, utcOffset: 0), sink: sink)
        let results = sink.results
        let tests = results.map(\.test).sorted { $0.id < $1.id }
        #expect(
            results.map(\.test.id).sorted() == [
                "TinyTests.DescribeTests/testMisbehaving", "TinyTests.DescribeTests/testPositive",
                "TinyTests.DescribeTests/testZero",
                "TinyTests.SignTests/minusOne()", "TinyTests.negative()",
            ])
        let binary = try run.tests.testBinary(in: try run.tests.binPath())
        let recording = run.recording(date: "2026-11-23T00:00:00Z")
        let status = try git(["status", "--porcelain"])
        #expect(recording.commit.count == 40 && !recording.dirty, "\(status)")
        let coverage = try #require(outcome.perTest)
        #expect(coverage.recording.commit == recording.commit)
        #expect(results.allSatisfy { $0.outcome == .passed && $0.problem == nil }, "\(results.map(\.problem))")
        #expect(try PerTestStore.read(path: run.storePath) == coverage)
        // The merged export (from batches) counts every line some test executed, and no other.
        let export = try CoverageInput.readExport(run.exportPath, keepMappings: false)
        var covered: [String: Set<UInt32>] = [:]
        for (path, file) in LineAttribution.ownFiles(of: export, root: package) {
            for line in LineCoverage.lineCounts(of: try #require(try export.segments(of: file))) where line.count > 0 {
                covered[path, default: []].insert(line.line)
            }
        }
        var executedByAny: [String: Set<UInt32>] = [:]
        for test in coverage.tests {
            for (path, lines) in coverage.lines(of: test) { executedByAny[path, default: []].formUnion(lines) }
        }
        #expect(covered == executedByAny)
        let left = try FileManager.default.contentsOfDirectory(atPath: package + "/.build/swiftcov")
        #expect(!left.contains { $0.hasPrefix("per-test-profiles") }, "\(left)")

        // Each test alone, as a developer would run it.
        var own: [String: [String: Set<UInt32>]] = [:]
        for test in tests {
            let codecov = package + "/.build/debug/codecov"
            try? FileManager.default.removeItem(atPath: codecov)
            let alone = try Subprocess.capture(
                "swift", ["test", "--skip-build", "--enable-code-coverage", "--filter", test.filterPattern],
                in: package)
            try #require(alone.status == 0, "\(alone.outputText)")
            let executed = try lcovExecutedLines(
                profdata: codecov + "/default.profdata", binary: binary, toolchain: toolchain)
            own[test.id] = executed
            let recorded = try #require(coverage.tests.first { $0.id == test.id })
            var attributed: [String: Set<UInt32>] = [:]
            for (index, file) in coverage.files.enumerated() {
                let lines = coverage.executedLines(of: recorded, inFile: index)
                if !lines.isEmpty { attributed[file.path] = Set(lines) }
            }
            #expect(attributed == executed, "\(test.id)")
            #expect(executed["Sources/Tiny/Tiny.swift"]?.isEmpty == false, "\(test.id) ran describe()")
        }

        // The fallback for mappings the reader does not know, llvm-cov per test, gives the same lines.
        let scratch = package + "/.build/fallback"
        let runner = PerTestRunner(
            toolchain: toolchain, binary: binary, root: package,
            attribution: .llvmCov(sources: try run.ownSources(toolchain: toolchain, binary: binary, scratch: scratch)),
            scratch: scratch, jobs: 2, timeout: 60)
        for result in try runner.run(tests) {
            let recorded = try #require(coverage.tests.first { $0.id == result.test.id })
            #expect(result.problem == nil && result.profile?.hasSuffix(".profdata") == true)
            #expect(result.executed.mapValues(Set.init) == coverage.lines(of: recorded).mapValues(Set.init))
        }

        // A real change: a rewritten line of describe() and one of a test's body.
        let source = package + "/Sources/Tiny/Tiny.swift"
        let text = try String(contentsOfFile: source, encoding: .utf8)
        try text.replacingOccurrences(of: "return \"zero\"", with: "return \"ze\" + \"ro\"")
            .write(toFile: source, atomically: true, encoding: .utf8)
        let testFile = package + "/Tests/TinyTests/TinyTests.swift"
        let tests2 = try String(contentsOfFile: testFile, encoding: .utf8)
        try tests2.replacingOccurrences(
            of: "#expect(describe(-1) == \"negative\")\n    }\n}", with: "#expect(describe(-1) != \"zero\")\n    }\n}"
        )
        .write(toFile: testFile, atomically: true, encoding: .utf8)
        let diff = try UnifiedDiff.parse(try git(["diff", "--relative", "--unified=0"]))
        #expect(diff.files.count == 2)
        let side = TestImpact.side(
            of: coverage, baseCommit: try git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(side == .base)
        let changed = TestImpact.changedLines(of: diff, side: side)
        let impacted = TestImpact.tests(in: coverage, executing: changed)
        // The same question asked of each test's own coverage.
        let expected = tests.map(\.id).filter { id in
            changed.contains { path, lines in !(own[id]?[path] ?? []).isDisjoint(with: lines) }
        }
        #expect(impacted.sorted() == expected.sorted())
        #expect(impacted.sorted() == ["TinyTests.DescribeTests/testZero", "TinyTests.SignTests/minusOne()"])
    }
}
