// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "swiftcov",
    products: [
        .executable(name: "swiftcov", targets: ["swiftcov"]),
        // `swift package swiftcov …` in a package that depends on swiftcov.
        .plugin(name: "SwiftCovPlugin", targets: ["SwiftCovPlugin"]),
    ],
    // swiftcov depends on the Swift toolchain alone: no package resolution, ever.
    dependencies: [],
    targets: [
        // The engine, one target per stage, each depending only on those below it, so that the
        // compiler keeps the direction: Platform (files, processes, clock: the one seam to the
        // system), Formats (bytes and text: JSON, XML, zstd, SQLite), Model (coverage, test results,
        // history), Inputs (readers of every input), Analyses (gate, changes, flaky, shards),
        // Products (every report), Workflow (the runs of `swift test`). Never prints, never exits.
        .target(name: "SwiftCovPlatform"),
        .target(name: "SwiftCovFormats", dependencies: ["SwiftCovPlatform"]),
        .target(name: "SwiftCovModel", dependencies: ["SwiftCovFormats"]),
        .target(name: "SwiftCovInputs", dependencies: ["SwiftCovModel"]),
        .target(name: "SwiftCovAnalyses", dependencies: ["SwiftCovInputs"]),
        .target(name: "SwiftCovProducts", dependencies: ["SwiftCovAnalyses"]),
        .target(name: "SwiftCovWorkflow", dependencies: ["SwiftCovProducts"]),
        // The whole engine in one import, for the command-line tool and the tests.
        .target(name: "SwiftCovCore", dependencies: ["SwiftCovWorkflow"]),
        // The argument parser of the command-line tools, with the help text made from the same spec.
        .target(name: "SwiftCovCommandLine", dependencies: ["SwiftCovFormats"]),
        // The command-line tool: arguments, dispatch, terminal, exit codes.
        .executableTarget(name: "swiftcov", dependencies: ["SwiftCovCore", "SwiftCovCommandLine"]),
        // Runs the command-line tool for a package that depends on swiftcov (README: The SwiftPM plugin).
        .plugin(
            name: "SwiftCovPlugin",
            capability: .command(
                intent: .custom(verb: "swiftcov", description: "Coverage reports, sharded test runs and the CI gate."),
                permissions: [
                    .writeToPackageDirectory(reason: "swiftcov writes its reports into the package (.build/swiftcov).")
                ]),
            dependencies: ["swiftcov"]),
        // Measures the export reader and the reports on a given export (build with -c release).
        .executableTarget(name: "swiftcov-benchmark", dependencies: ["SwiftCovCore", "SwiftCovCommandLine"]),

        // The trivia modules: swiftcov's own demo subject (SampleReports/ holds their test and coverage outputs).
        .target(name: "TriviaCore", resources: [.process("Resources")]),
        .target(name: "TriviaGame", dependencies: ["TriviaCore"]),
        .executableTarget(name: "trivia", dependencies: ["TriviaCore", "TriviaGame"]),

        // What the test targets share: temporary folders removed when each test ends.
        .target(name: "SwiftCovTestSupport", path: "Tests/SwiftCovTestSupport"),
        .testTarget(
            name: "SwiftCovCoreTests", dependencies: ["SwiftCovCore", "SwiftCovCommandLine", "SwiftCovTestSupport"],
            exclude: ["Golden"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "swiftcovTests", dependencies: ["swiftcov", "SwiftCovTestSupport"]),
        .testTarget(name: "swiftcov-benchmarkTests", dependencies: ["swiftcov-benchmark", "SwiftCovTestSupport"]),
        .testTarget(name: "TriviaCoreTests", dependencies: ["TriviaCore"]),
        .testTarget(name: "TriviaGameTests", dependencies: ["TriviaCore", "TriviaGame"]),
        // Black-box: launches the built `trivia` executable, as a UI test would.
        .testTarget(name: "triviaTests"),
    ]
)
