import Foundation
import XCTest

@testable import Ledger

/// XCTest runs the classes, and each class's methods, in the order of their names.
final class AmountTests: XCTestCase {
    func testTotal() {
        XCTAssertEqual(Ledger.total([100, 250, -50]), 300)
    }

    /// Seeded flaky, p = 0.1.
    func testFlakyAverage() {
        XCTAssertEqual(Ledger.average([100, 200]), 150)
        let draw = seededFailure("LedgerTests.AmountTests/testFlakyAverage", p: 0.1)
        XCTAssertFalse(draw.fails, "seeded flaky failure: p = 0.1 (drew \(draw.drew))")
    }

    /// Seeded flaky, p = 0.3.
    func testFlakyFormat() {
        XCTAssertEqual(Ledger.format(1234), "12.34")
        let draw = seededFailure("LedgerTests.AmountTests/testFlakyFormat", p: 0.3)
        XCTAssertFalse(draw.fails, "seeded flaky failure: p = 0.3 (drew \(draw.drew))")
    }

    /// Always fails: format(5) is "0.05".
    func testFormatSmallAmount() {
        XCTAssertEqual(Ledger.format(5), "0.5", "deterministic failure")
    }
}

/// An order-dependent pair: testBReadsCurrencies passes only after testARegistersCurrencies ran in
/// the same process (the state-setter); alone it fails.
final class CurrencyTests: XCTestCase {
    func testARegistersCurrencies() {
        Ledger.registerCurrencies()
        XCTAssertEqual(Ledger.digits(of: "EUR"), 2)
    }

    func testBReadsCurrencies() {
        XCTAssertEqual(Ledger.digits(of: "JPY"), 0, "order-dependent: the currencies were not registered")
    }

    /// Environment-dependent: fails only with CAMPAIGN_LOCALE=tr (the "turkish" environment).
    func testCurrencyCode() {
        let locale = ProcessInfo.processInfo.environment["CAMPAIGN_LOCALE"]
        XCTAssertEqual(Ledger.currencyCode("chf-bit", locale: locale), "CHF-BIT")
    }
}

/// The killed run: with CAMPAIGN_KILL=1 the test process is killed (SIGKILL) in the middle of the suite.
final class RunnerTests: XCTestCase {
    func testRunnerIsAlive() {
        if ProcessInfo.processInfo.environment["CAMPAIGN_KILL"] == "1" { kill(getpid(), SIGKILL) }
        XCTAssertEqual(Ledger.total([]), 0)
    }
}
