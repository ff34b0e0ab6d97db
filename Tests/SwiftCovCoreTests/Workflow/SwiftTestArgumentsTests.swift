import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

@Suite("the user's swift test arguments, sorted once for every swift command")
struct SwiftTestArgumentsTests {
    static let given = [
        "-c", "release", "--filter", "Tiny", "--scratch-path", "/scratch", "--parallel", "-Xswiftc", "-DFLAG",
        "--skip=Slow", "--build-path", "/old", "--num-workers", "2", "--disable-xctest",
    ]

    /// Whether `command` holds `part`, in order and adjacent.
    func has(_ command: [String], _ part: [String]) -> Bool {
        command.indices.contains { command[$0...].starts(with: part) }
    }

    @Test("the build options reach the build, the listing, the coverage and products paths and the test run")
    func buildOptionsEverywhere() {
        let arguments = SwiftTestArguments(Self.given)
        let commands = [
            arguments.buildTestsCommand, arguments.listCommand, arguments.codecovPathCommand,
            arguments.binPathCommand, arguments.testCommand(), arguments.testCommand(selection: ["--filter", "^$"]),
        ]
        for command in commands {
            for part in [
                ["-c", "release"], ["--scratch-path", "/scratch"], ["-Xswiftc", "-DFLAG"], ["--build-path", "/old"],
            ] {
                #expect(has(command, part), "\(part) in \(command)")
            }
        }
        // The test run's own options go to the test run alone.
        for command in commands[..<4] {
            #expect(!command.contains("--parallel") && !command.contains("--num-workers"), "\(command)")
            #expect(!command.contains("--filter") && !command.contains("--skip"), "\(command)")
        }
        #expect(has(arguments.testCommand(), ["--num-workers", "2"]) && arguments.testCommand().contains("--parallel"))
        // The libraries chosen: the listing and the test run.
        #expect(
            arguments.listCommand.contains("--disable-xctest") && arguments.testCommand().contains("--disable-xctest"))
        #expect(!arguments.buildTestsCommand.contains("--disable-xctest"))
    }

    @Test("--filter and --skip choose the tests: passed to a plain run, replaced by a shard's selection")
    func selection() {
        let arguments = SwiftTestArguments(Self.given)
        #expect(arguments.filters == ["Tiny"] && arguments.skips == ["Slow"])
        let plain = arguments.testCommand()
        #expect(has(plain, ["--filter", "Tiny"]) && has(plain, ["--skip", "Slow"]))
        let shard = arguments.testCommand(selection: ["--filter", "^A$"], skipBuild: true)
        #expect(!shard.contains("Tiny") && !shard.contains("Slow") && has(shard, ["--filter", "^A$"]))
        #expect(shard.contains("--skip-build") && !plain.contains("--skip-build"))
    }

    @Test("run --scratch-path is a build option like the user's own")
    func scratchPath() {
        let arguments = SwiftTestArguments(["--filter", "A"], scratchPath: "/mine")
        #expect(arguments.build == ["--scratch-path", "/mine"])
        #expect(has(arguments.listCommand, ["--scratch-path", "/mine"]))
    }

    @Test(
        "a build in another configuration than debug is built for @testable import, as swift test builds it",
        arguments: [
            (["-c", "release"], true), (["--configuration=release"], true), (["-crelease"], true),
            (["--configuration", "release"], true), ([], false), (["-c", "debug"], false),
            (["-c", "release", "--disable-testable-imports"], false),
        ])
    func testability(given: [String], enablesTesting: Bool) {
        let command = SwiftTestArguments(given).buildTestsCommand
        #expect(has(command, ["-Xswiftc", "-enable-testing"]) == enablesTesting, "\(command)")
    }

    @Test("a compiler's flag is the compiler's, whatever it looks like; arguments after -- stay with the test run")
    func verbatim() {
        let arguments = SwiftTestArguments(["-Xswiftc", "--parallel", "-Xcc", "-c", "--", "--filter", "x"])
        #expect(arguments.build == ["-Xswiftc", "--parallel", "-Xcc", "-c"])
        #expect(arguments.run == ["--", "--filter", "x"] && arguments.filters.isEmpty)
        #expect(arguments.configuration == "debug")
    }

    @Test("the run's event stream: swiftcov's own, or the user's and no second")
    func eventStream() {
        let own = RunWorkflow(root: "/p", output: "/p/out", testArguments: [])
        #expect(own.eventStream.path == "/p/out/swift-testing-events.jsonl")
        #expect(has(own.swiftTestArguments(), ["--experimental-event-stream-output", own.eventStream.path]))
        for (given, path) in [
            (["--experimental-event-stream-output=a.jsonl"], "a.jsonl"),
            (["--event-stream-output-path", "b.jsonl"], "b.jsonl"),
        ] {
            let user = RunWorkflow(root: "/p", output: "/p/out", testArguments: given)
            #expect(user.eventStream.path == path && user.eventStream.arguments.isEmpty)
            #expect(!user.swiftTestArguments().contains(own.eventStream.path))
            #expect(has(user.swiftTestArguments(), given))
        }
    }

    @Test(
        "the run's attachments folder: its own when swift test takes --attachments-path (6.2 and later), or the user's")
    func attachments() {
        var own = RunWorkflow(root: "/p", output: "/p/out", testArguments: [])
        #expect(own.attachments == nil && !own.swiftTestArguments().contains("--attachments-path"))
        own.takesAttachmentsPath = true
        #expect(own.attachments?.path == "/p/out/attachments")
        #expect(has(own.swiftTestArguments(), ["--attachments-path", "/p/out/attachments"]))
        for (given, path) in [
            (["--attachments-path", "shots"], "shots"), (["--experimental-attachments-path=old"], "old"),
        ] {
            var user = RunWorkflow(root: "/p", output: "/p/out", testArguments: given)
            user.takesAttachmentsPath = true
            #expect(user.attachments?.path == path && user.attachments?.arguments == [])
            #expect(!user.swiftTestArguments().contains("/p/out/attachments"))
        }
        // `swift --version` as toolchains print it.
        for (text, takes) in [
            ("Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x86_64-unknown-linux-gnu", true),
            ("swift-driver version: 1.127.14.1 Apple Swift version 6.2 (swiftlang-6.2.0.19.9 clang-1700.3.19.1)", true),
            ("Swift version 6.1.2 (swift-6.1.2-RELEASE)", false), ("Swift version 5.10 (swift-5.10-RELEASE)", false),
            ("Swift version 10.0-dev (LLVM 1, Swift 2)", true), ("no version here", false),
        ] {
            #expect(RunWorkflow.takesAttachmentsPath(swiftVersion: text) == takes, "\(text)")
        }
        #expect(!RunWorkflow.takesAttachmentsPath(swiftVersion: nil))
    }
}

@Suite("SwiftPM's build progress lines")
struct BuildProgressTests {
    @Test(
        "lines of real builds: the step, the total and the module compiled",
        arguments: [
            (
                "[12/57] Compiling Tiny Tiny.swift",
                BuildProgress(step: 12, total: 57, action: "Compiling Tiny Tiny.swift", module: "Tiny")
            ),
            (
                "[11/13] Compiling TinyPackageTests runner.swift",
                BuildProgress(
                    step: 11, total: 13, action: "Compiling TinyPackageTests runner.swift", module: "TinyPackageTests")
            ),
            (
                "[63/137] Emitting module SwiftCovCore",
                BuildProgress(step: 63, total: 137, action: "Emitting module SwiftCovCore", module: "SwiftCovCore")
            ),
            (
                "[12/13] Linking TinyPackageTests.xctest",
                BuildProgress(step: 12, total: 13, action: "Linking TinyPackageTests.xctest", module: nil)
            ),
            ("[0/1] Planning build", BuildProgress(step: 0, total: 1, action: "Planning build", module: nil)),
            ("[9/12] Write sources\r", BuildProgress(step: 9, total: 12, action: "Write sources", module: nil)),
            (
                "[1/4] Compiling plugin GenerateManual",
                BuildProgress(step: 1, total: 4, action: "Compiling plugin GenerateManual", module: nil)
            ),
        ])
    func progress(line: String, expected: BuildProgress) {
        #expect(BuildProgress.parse(line[...]) == expected)
    }

    @Test(
        "other lines: none",
        arguments: [
            "[3/12] Testing TinyTests.DescribeTests/testZero", "Build complete! (3.20s)", "Building for debugging...",
            "/p/Sources/Tiny/Tiny.swift:3:5: error: cannot find 'x' in scope", "[2/1] Compiling Tiny Tiny.swift",
            "[a/3] Compiling Tiny Tiny.swift", "[1/3]Compiling Tiny", "[1/3] compiling tiny", "",
            "Test Case 'DescribeTests.testZero' started at 2026-11-22 13:30:21.462",
        ])
    func notProgress(line: String) {
        #expect(BuildProgress.parse(line[...]) == nil)
    }

    @Test("what a status line shows: the step of the total and the module, else the action")
    func description() {
        #expect(
            BuildProgress.parse("[12/57] Compiling Tiny Tiny.swift")?.description == "Building 12/57: compiling Tiny")
        #expect(
            BuildProgress.parse("[13/13] Linking TinyPackageTests.xctest")?.description
                == "Building 13/13: Linking TinyPackageTests.xctest")
    }
}

@Suite("the tests the user's --filter and --skip choose")
struct TestSelectionTests {
    static let listed = [
        "TinyTests.DescribeTests/testMisbehaving", "TinyTests.DescribeTests/testPositive",
        "TinyTests.DescribeTests/testZero", "TinyTests.SignTests/minusOne()", "TinyTests.negative()",
    ].compactMap { TestID($0) }

    @Test("as swift test chooses: any filter matches (all when none), no skip matches; a shard shares out those")
    func select() throws {
        func chosen(_ filters: [String], _ skips: [String]) throws -> [String] {
            try SwiftPMPackage.select(Self.listed, filters: filters, skips: skips).map(\.id)
        }
        #expect(try chosen([], []).count == 5)
        #expect(try chosen(["Describe", "negative"], []).count == 4)
        #expect(try chosen(["Describe"], ["Misbehaving|Zero"]) == ["TinyTests.DescribeTests/testPositive"])
        #expect(
            try chosen([], ["^TinyTests\\.DescribeTests/"]) == [
                "TinyTests.SignTests/minusOne()", "TinyTests.negative()",
            ])
        #expect(throws: SwiftPMPackage.BadPattern(pattern: "(")) { try chosen(["("], []) }
    }
}
