import XCTest

@testable import Flaky

/// Registry.swift, in XCTest: an order-dependent pair. XCTest runs a class's methods in the order
/// of their names, so `testARegistersDefaults` runs before `testBReadsDefaults` in the whole suite;
/// `swift test --filter FlakyTests.RegistryTests/testBReadsDefaults` runs the second alone, and it
/// fails: nobody registered the defaults in that process.
final class RegistryTests: XCTestCase {
    /// Steady; sets the shared state the next test reads.
    func testARegistersDefaults() {
        Registry.registerDefaults()
        XCTAssertEqual(Registry.value("retries"), 3)
    }

    /// Order-dependent: passes only after `testARegistersDefaults` ran in the same process.
    func testBReadsDefaults() {
        XCTAssertEqual(Registry.value("timeout"), 30, "order-dependent: the defaults were not registered before")
    }

    func testUnknownSettingIsNil() {
        XCTAssertNil(Registry.value("colour"))
    }
}
