import Foundation
import Testing

@testable import SwiftCovCore

/// apple/swift-log run as three shards (`swiftcov run --shard K/3`), each in a folder of its own,
/// merged back: the coverage and test outcomes of one unsharded run of the package, and the same
/// per-line counts except where code runs once per test process (Fixtures/shards/README.md says
/// how the files were made).
@Suite("Three real shards merged equal one unsharded run", .removingTemporaryFolders)
struct ShardMergeProofTests {
    @Test("coverage: every file's line counts, summary and function counts")
    func coverage() throws {
        // As a merge job has them: the shards' artifacts downloaded into a folder of their own.
        let folder = try temporaryDirectory()
        for name in ["shard1.json", "shard2.json", "shard3.json", "unsharded.json"] {
            try FileManager.default.copyItem(atPath: ShardFixture.path(name), toPath: folder + "/" + name)
        }
        let shards = (1...3).map { folder + "/shard\($0).json" }
        let merged = try CoverageRequest(inputs: shards).makeReport(workingDirectory: folder)
        let unsharded = try CoverageRequest(inputs: [folder + "/unsharded.json"]).makeReport(
            workingDirectory: folder)
        // Three folders: the shards' exports name the same file by three different paths.
        let roots = try shards.map {
            try CoverageScope.inferredRoot(
                from: CoverageInput.readExport($0, keepMappings: false).files.map(\.filename))
        }
        #expect(Set(roots).count == 3)
        #expect(merged.files.count == 3)
        #expect(merged.files.map(\.displayPath) == unsharded.files.map(\.displayPath))
        #expect(merged.totals == unsharded.totals)
        for (mine, theirs) in zip(merged.files, unsharded.files) {
            #expect(mine.summary == theirs.summary, "\(mine.displayPath)")
            let (lines, expected) = (try mine.lineCounts(), try theirs.lineCounts())
            #expect(lines.map(\.line) == expected.map(\.line), "\(mine.displayPath)")
            #expect(zip(lines, expected).allSatisfy { ($0.count > 0) == ($1.count > 0) }, "\(mine.displayPath)")
            func functions(_ file: FileCoverage) -> [String] {
                file.functions.map { "\($0.mangledName) \($0.executionCount)" }.sorted()
            }
            if mine.displayPath.hasSuffix("Locks.swift") {
                // Every test process makes the package's global locks: three processes run that
                // code three times where one unsharded process runs it once. The lines are the
                // same, covered alike; 20 of their counts differ.
                #expect(zip(lines, expected).filter { $0.count != $1.count }.count == 20)
            } else {
                #expect(lines == expected, "\(mine.displayPath)")
                #expect(functions(mine) == functions(theirs), "\(mine.displayPath)")
            }
        }
        // No shard alone has it all.
        for shard in shards {
            let alone = try CoverageRequest(inputs: [shard]).makeReport(workingDirectory: folder)
            #expect(alone.totals.lines.covered < merged.totals.lines.covered)
        }
    }

    @Test("tests: every listed test once, with the outcome SwiftPM's xUnit file of an unsharded run gives")
    func tests() throws {
        let merged = try TestResultsReader.read(
            paths: (1...3).map { ShardFixture.path("shard\($0)-junit.xml") }, utcOffset: 0)
        #expect(merged.duplicates.isEmpty)
        // The shards name a test with a display name by it, `swift test list` by its function,
        // and a parameterized test's cases `function (arguments)`: count the tests of each suite.
        func base(_ name: String) -> String {
            name.firstRange(of: ") (").map { String(name[...$0.lowerBound]) } ?? name
        }
        var mergedTests: [String: Set<String>] = [:]
        var outcomes: [String: TestRun.Status] = [:]
        for testCase in merged.cases {
            mergedTests[testCase.className, default: []].insert(base(testCase.testName))
            let key = testCase.className + "/" + base(testCase.testName)
            outcomes[key] = max(outcomes[key] ?? .passed, testCase.status)
        }
        let listed = TestList.parse(
            try String(contentsOfFile: ShardFixture.path("swift-log-list.txt"), encoding: .utf8)
        ).tests.map(\.id)
        var listedTests: [String: Set<String>] = [:]
        for test in listed {
            let slash = test.lastIndex(of: "/")!
            listedTests[String(test[..<slash]), default: []].insert(String(test[test.index(after: slash)...]))
        }
        #expect(mergedTests.mapValues(\.count) == listedTests.mapValues(\.count))
        #expect(outcomes.count == listed.count)
        let unsharded = try SwiftPMXUnit(path: LogFixture("real-swift-log-parallel-xunit-swift-testing.xml").path)
            .outcomes
        #expect(Set(unsharded.keys) == Set(listed))
        #expect(
            outcomes.values.filter { $0 == .passed }.count == unsharded.values.filter { $0 }.count
                && outcomes.count == unsharded.count)
    }
}
