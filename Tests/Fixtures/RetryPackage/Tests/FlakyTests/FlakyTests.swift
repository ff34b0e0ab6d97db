import Foundation
import Testing
import XCTest

@testable import Flaky

/// Counts the runs of `name` in the folder FLAKY_STATE; true while the count is at most
/// FLAKY_FAILURES (the first runs fail, the later pass). False without FLAKY_STATE.
func failsThisRun(_ name: String) -> Bool {
    let environment = ProcessInfo.processInfo.environment
    guard let folder = environment["FLAKY_STATE"], let failures = environment["FLAKY_FAILURES"].flatMap(Int.init)
    else { return false }
    let path = folder + "/" + name
    let runs = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0) } ?? 0
    try? String(runs + 1).write(toFile: path, atomically: true, encoding: .utf8)
    return runs < failures
}

final class RetryTests: XCTestCase {
    /// Fails its first FLAKY_FAILURES runs.
    func testFlaky() {
        XCTAssertFalse(failsThisRun("testFlaky"), "flaky: fails its first runs")
        XCTAssertTrue(isEven(2))
    }

    /// Fails every run when FLAKY_BROKEN is set; with FLAKY_HANG_ON_RETRY too, its runs after the
    /// first write their process ID to FLAKY_STATE/hanging and hang.
    func testBroken() throws {
        let environment = ProcessInfo.processInfo.environment
        if environment["FLAKY_HANG_ON_RETRY"] != nil, let folder = environment["FLAKY_STATE"],
            !failsThisRun("testBroken-hang")
        {
            try String(getpid()).write(toFile: folder + "/hanging", atomically: true, encoding: .utf8)
            sleep(600)
        }
        XCTAssertNil(environment["FLAKY_BROKEN"], "broken")
    }

    /// Crashes its first FLAKY_FAILURES runs when FLAKY_CRASH is set.
    func testCrashing() {
        if ProcessInfo.processInfo.environment["FLAKY_CRASH"] != nil && failsThisRun("testCrashing") {
            fatalError("FLAKY_CRASH")
        }
        XCTAssertFalse(isEven(3))
    }
}

/// With ORDER_DEPENDENT set, the order of these tests matters (XCTest runs them in this order,
/// which is also their names' order): testB passes only after testA, testC only without it.
final class OrderTests: XCTestCase {
    var dependent: Bool { ProcessInfo.processInfo.environment["ORDER_DEPENDENT"] != nil }

    func testA_setsUp() {
        Shared.ready = true
    }

    /// Fails alone, passes in the suite.
    func testB_needsSetUp() {
        if dependent { XCTAssertTrue(Shared.ready, "needs testA_setsUp to have run") }
    }

    /// Passes alone, fails in the suite.
    func testC_needsCleanState() {
        if dependent { XCTAssertFalse(Shared.ready, "needs a process where testA_setsUp has not run") }
    }
}

/// A Swift Testing test with a display name: retried by its function's name.
@Test("Flaky too") func flakyToo() {
    #expect(!failsThisRun("flakyToo"))
}
