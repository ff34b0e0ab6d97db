import Testing
import XCTest

@testable import Tiny

final class DescribeTests: XCTestCase {
    func testPositive() {
        XCTAssertEqual(describe(3), "positive")
    }

    /// Fails when TINY_FAIL is set: `swiftcov run` must still produce the coverage.
    func testZero() {
        let expected = ProcessInfo.processInfo.environment["TINY_FAIL"] == nil ? "zero" : "nothing"
        XCTAssertEqual(describe(0), expected)
    }
}

@Test func negative() {
    #expect(describe(-1) == "negative")
}

/// A suite: `swiftcov run` reads the event stream, so this lands in `TinyTests.SignTests`.
@Suite struct SignTests {
    @Test func minusOne() {
        #expect(describe(-1) == "negative")
    }
}
