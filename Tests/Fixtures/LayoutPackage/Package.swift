// swift-tools-version:6.0
// A small package whose layout is not the usual one, for swiftcov's journey tests (several
// commands in a row, in a temporary copy): the library's folder is `Lib/Core`, its test target's
// `Checks/CoreTests` and a test-support library only the tests use is `Checks/Support` — none
// under `Sources/` or `Tests/` — beside an executable in `Sources/tool`. One test fails its first
// runs when LAYOUT_FLAKY_STATE names a folder (see Checks/CoreTests/CoreTests.swift).
import PackageDescription

let package = Package(
    name: "Layout",
    products: [.library(name: "Core", targets: ["Core"])],
    targets: [
        .target(name: "Core", path: "Lib/Core"),
        .executableTarget(name: "tool", dependencies: ["Core"]),
        .target(name: "CheckSupport", dependencies: ["Core"], path: "Checks/Support"),
        .testTarget(name: "CoreTests", dependencies: ["Core", "CheckSupport"], path: "Checks/CoreTests"),
    ]
)
