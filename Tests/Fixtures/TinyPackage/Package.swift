// swift-tools-version:6.0
// A tiny package for swiftcov's end-to-end tests of `swiftcov run` (built in a temporary copy).
import PackageDescription

let package = Package(
    name: "Tiny",
    targets: [
        .target(name: "Tiny"),
        .testTarget(name: "TinyTests", dependencies: ["Tiny"]),
    ]
)
