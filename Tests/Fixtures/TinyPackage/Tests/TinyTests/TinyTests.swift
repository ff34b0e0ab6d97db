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

    /// Crashes when TINY_CRASH is set, hangs when TINY_HANG is: `run --per-test` reports it and goes on.
    func testMisbehaving() {
        if ProcessInfo.processInfo.environment["TINY_CRASH"] != nil { fatalError("TINY_CRASH") }
        if ProcessInfo.processInfo.environment["TINY_HANG"] != nil { sleep(600) }
        XCTAssertEqual(describe(1), "positive")
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
