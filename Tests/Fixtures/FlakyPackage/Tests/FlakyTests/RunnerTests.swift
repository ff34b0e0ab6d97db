import XCTest

@testable import Flaky

/// The infrastructure failure switch: with FLAKY_INFRA=1 the test process dies here, part way
/// through the XCTest run (after RegistryTests, before StatisticsTests), as a runner that is killed
/// or runs out of memory would. Otherwise a steady test.
final class RunnerTests: XCTestCase {
    func testRunnerIsHealthy() {
        if ProcessInfo.processInfo.environment["FLAKY_INFRA"] == "1" {
            fatalError("FLAKY_INFRA=1: the test runner dies")
        }
        XCTAssertEqual(sum([percent(1, of: 2), percent(1, of: 2)]), 100)
    }
}
