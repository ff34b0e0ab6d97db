import CheckSupport
import Core
import Foundation
import Testing
import XCTest

final class ScoringTests: XCTestCase {
    func testRightAnswers() {
        XCTAssertEqual(points(correct: true, seconds: 2), 15)
        XCTAssertEqual(points(correct: true, seconds: 9), 10)
    }

    func testWrongAnswer() {
        XCTAssertEqual(points(correct: false, seconds: 1), 0)
    }

    /// Fails its first run when LAYOUT_FLAKY_STATE names a folder (a flaky test), then passes.
    func testFlakyOnce() {
        if let folder = ProcessInfo.processInfo.environment["LAYOUT_FLAKY_STATE"] {
            let marker = folder + "/ran-once"
            let first = !FileManager.default.fileExists(atPath: marker)
            _ = FileManager.default.createFile(atPath: marker, contents: Data())
            XCTAssertFalse(first, "fails its first run")
        }
        XCTAssertEqual(rank(of: 10), "novice")
    }
}

@Suite struct StreakTests {
    @Test func bestStreak() {
        #expect(streak("yyny").best == 2)
        #expect(streak("nyyy").length == 3)
    }

    @Test(arguments: [(60, "fan"), (120, "cinephile")])
    func ranks(score: Int, expected: String) {
        #expect(rank(of: score) == expected)
    }
}
