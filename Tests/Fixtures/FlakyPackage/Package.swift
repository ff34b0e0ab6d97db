// swift-tools-version:6.0
// A package whose tests fail now and then, always, or out of order: the recorded runs of
// Tests/Fixtures/FlakyHistory (see README.md). Not part of swiftcov's own build.
import PackageDescription

let package = Package(
    name: "Flaky",
    targets: [
        .target(name: "Flaky"),
        .testTarget(name: "FlakyTests", dependencies: ["Flaky"]),
    ]
)
