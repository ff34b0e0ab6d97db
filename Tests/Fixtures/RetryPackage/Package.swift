// swift-tools-version:6.0
// A small package for swiftcov's end-to-end tests of retries, quarantine and order-dependent
// tests (`swiftcov run --retry-failed`, `run --per-test`), built in a temporary copy. Every test
// passes unless an environment variable says otherwise (see Tests/FlakyTests/FlakyTests.swift).
import PackageDescription

let package = Package(
    name: "Flaky",
    targets: [
        .target(name: "Flaky"),
        .testTarget(name: "FlakyTests", dependencies: ["Flaky"]),
    ]
)
