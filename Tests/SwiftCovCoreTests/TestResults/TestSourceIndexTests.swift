import Foundation
import Testing

@testable import SwiftCovCore

/// File names resolved to full paths, and XCTest classes given their module, from the package.
@Suite("package files for test results")
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

    @Test("the console's issue locations and Linux XCTest classes are completed from this package's folders")
    func scanning() throws {
        let index = TestSourceIndex.scanning(root: packageRoot)
        #expect(index.module(ofClass: "GameWrappingTests") == "TriviaGameTests")
        #expect(index.module(ofClass: "QuestionsLoaderTests") == "TriviaCoreTests")
        let run = try LogFixture("SampleReports/swift-test-failing.log").run(index: index)
        #expect(
            run.suites.map(\.name).prefix(3) == [
                "triviaTests.TriviaExecutableTests", "TriviaGameTests.GameWrappingTests",
                "TriviaCoreTests.QuestionsLoaderTests",
            ])
        let failure = try #require(
            run.cases.first { $0.testName == "A question scores once, however often it is answered" })
        // Found in the package folder, and shown relative to it like every path a person reads.
        #expect(failure.issues.first?.location?.file == "Tests/TriviaGameTests/GameTests.swift")
    }
}
