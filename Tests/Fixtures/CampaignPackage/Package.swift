// swift-tools-version:6.0
// A seeded campaign's package: tests that fail at random at known rates, always, out of order, in
// one environment, or kill their process (README.md). Not part of swiftcov's own build.
import PackageDescription

let package = Package(
    name: "Campaign",
    targets: [
        .target(name: "Ledger"),
        .target(name: "Phrases"),
        .testTarget(name: "LedgerTests", dependencies: ["Ledger"]),
        .testTarget(name: "PhrasesTests", dependencies: ["Phrases"]),
    ]
)
