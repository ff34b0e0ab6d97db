import Foundation
import Testing

@testable import SwiftCovCore

/// File names resolved to full paths, and XCTest classes given their module, from the package.
@Suite("package files for test results", .removingTemporaryFolders)
struct TestSourceIndexTests {
    @Test("a file name known once resolves; unknown or ambiguous names stay as they are")
    func fileNames() {
        let index = TestSourceIndex(paths: [
            "/p/Tests/TriviaGameTests/GameTests.swift", "/p/Tests/A/Shared.swift", "/p/Tests/B/Shared.swift",
        ])
        #expect(index.path(forFileName: "GameTests.swift") == "/p/Tests/TriviaGameTests/GameTests.swift")
        #expect(index.path(forFileName: "Shared.swift") == nil)
        #expect(index.path(forFileName: "Other.swift") == nil)
        #expect(index.path(forFileName: "Tests/X/GameTests.swift") == nil)
    }

    @Test("two classes of one name in two modules, run one after the other: each suite gets its own module")
    func sameClassInTwoModules() throws {
        let root = try temporaryDirectory()
        for (module, methods) in [("ModA", ["testA", "testB"]), ("ModB", ["testA"])] {
            try FileManager.default.createDirectory(
                atPath: root + "/Tests/" + module, withIntermediateDirectories: true)
            let body = methods.map { "    func \($0)() {}\n" }.joined()
            try "import XCTest\n\nfinal class FooTests: XCTestCase {\n\(body)}\n".write(
                toFile: root + "/Tests/\(module)/FooTests.swift", atomically: true, encoding: .utf8)
        }
        // Linux XCTest names suites by class alone. The first suite's one test is in both
        // classes; the second suite's two tests are only ModA's, so the first is ModB's.
        func suite(_ methods: [String]) -> String {
            let cases = methods.map {
                "Test Case 'FooTests.\($0)' started at 2026-11-24 05:00:00.000\n"
                    + "Test Case 'FooTests.\($0)' passed (0.001 seconds)\n"
            }
            return "Test Suite 'FooTests' started at 2026-11-24 05:00:00.000\n" + cases.joined()
                + "Test Suite 'FooTests' passed at 2026-11-24 05:00:00.010.\n"
                + "\t Executed \(methods.count) tests, with 0 failures (0 unexpected) in 0.002 (0.002) seconds\n"
        }
        let log =
            "Test Suite 'All tests' started at 2026-11-24 05:00:00.000\n" + suite(["testA"])
            + suite(["testA", "testB"])
        let path = root + "/swift-test.log"
        try log.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try TestResultsReader.read(paths: [path], utcOffset: 0)
            .resolving(with: TestSourceIndex.scanning(root: root))
        #expect(run.suites.map(\.name) == ["ModB.FooTests", "ModA.FooTests"])
        #expect(run.cases.map(\.className) == ["ModB.FooTests", "ModA.FooTests", "ModA.FooTests"])
    }

    @Test("the console's issue locations and Linux XCTest classes are completed from this package's folders")
    func scanning() throws {
        let index = TestSourceIndex.scanning(root: packageRoot)
        #expect(index.module(ofClass: "GameWrappingTests") == "TriviaGameTests")
        #expect(index.module(ofClass: "QuestionsLoaderTests") == "TriviaCoreTests")
        let run = try LogFixture("SampleReports/swift-test-failing.log").run(index: index)
        #expect(
            run.suites.map(\.name).prefix(3) == [
                "TriviaCoreTests.QuestionsLoaderTests", "TriviaGameTests.GameWrappingTests",
                "triviaTests.TriviaExecutableTests",
            ])
        let failure = try #require(
            run.cases.first { $0.testName == "A question scores once, however often it is answered" })
        // Found in the package folder, and shown relative to it like every path a person reads.
        #expect(failure.issues.first?.location?.file == "Tests/TriviaGameTests/GameTests.swift")
    }
}
