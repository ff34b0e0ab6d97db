import XCTest

@testable import Flaky

/// Statistics.swift, in XCTest: steady tests, two seeded flaky ones and a deterministic failure.
final class StatisticsTests: XCTestCase {
    func testSum() {
        XCTAssertEqual(sum([1, 2, 3, 4]), 10)
        XCTAssertEqual(sum([]), 0)
    }

    func testMean() {
        XCTAssertEqual(mean([2, 4, 9]), 5)
    }

    func testMedian() {
        XCTAssertEqual(median([5, 1, 3]), 3)
        XCTAssertEqual(median([4, 1, 3, 2]), 2.5)
    }

    func testPercent() {
        XCTAssertEqual(percent(1, of: 4), 25)
        XCTAssertEqual(percent(3, of: 3), 100)
        XCTAssertEqual(percent(5, of: 0), 0)
    }

    /// Always fails: `percent` rounds down, this test wants 1/3 rounded up.
    func testPercentOfAThird() {
        XCTAssertEqual(percent(1, of: 3), 34, "deterministic failure: percent(1, of: 3) is 33, this test wants 34")
    }

    /// Seeded flaky: fails with probability 0.2.
    func testFlakyMedian() {
        XCTAssertEqual(median([7, 1, 4]), 4)
        let draw = flakyDraw("FlakyTests.StatisticsTests/testFlakyMedian")
        XCTAssertGreaterThanOrEqual(draw, 0.2, "seeded flaky failure: fails with probability 0.2 (drew \(draw))")
    }

    /// Seeded flaky: fails with probability 0.3.
    func testFlakyMean() {
        XCTAssertEqual(mean([1, 2, 3]), 2)
        let draw = flakyDraw("FlakyTests.StatisticsTests/testFlakyMean")
        XCTAssertGreaterThanOrEqual(draw, 0.3, "seeded flaky failure: fails with probability 0.3 (drew \(draw))")
    }
}
