// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swiftcov",
    products: [
        .executable(name: "swiftcov", targets: ["swiftcov"]),
        .library(name: "SwiftCovCore", targets: ["SwiftCovCore"]),
    ],
    // swiftcov depends on the Swift toolchain alone: no package resolution, ever.
    dependencies: [],
    targets: [
        // The engine: parses, computes, renders. Never prints, never exits.
        .target(name: "SwiftCovCore"),
        // The command-line tool: arguments, dispatch, terminal, exit codes.
        .executableTarget(name: "swiftcov", dependencies: ["SwiftCovCore"]),
        // Measures the export reader and the reports on a given export (build with -c release).
        .executableTarget(name: "swiftcov-benchmark", dependencies: ["SwiftCovCore"]),

        .testTarget(name: "SwiftCovCoreTests", dependencies: ["SwiftCovCore"], resources: [.copy("Fixtures")]),
        .testTarget(name: "swiftcovTests", dependencies: ["swiftcov"]),
    ]
)
