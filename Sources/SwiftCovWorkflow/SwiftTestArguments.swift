/// The arguments a user gives `swift test` (`swiftcov run -- ARGUMENTS`), sorted once into what
/// decides the build and what decides which tests run and how; and every `swift` command line a
/// run starts, made from them. `run`, `run --per-test` and `run --shard` all take their `swift`
/// commands from here, so that `-c release`, `--scratch-path DIR`, `-Xswiftc FLAG` reach the
/// build, the listing, `--show-codecov-path`, `--show-bin-path` and the test run alike.
///
/// `swift test`'s own options (those `swift build` does not take) are known by name; every other
/// argument is one of SwiftPM's global options, which decide the build and which every `swift`
/// command takes (`-c release`, `--scratch-path`, `--build-path`, `--triple`, `-Xswiftc -DFLAG`, …).
package struct SwiftTestArguments: Equatable, Sendable {
    /// SwiftPM's global options (and their values), in the order given: every `swift` call gets them.
    package var build: [String]
    /// Whether tests may `@testable import` the package's modules (`--disable-testable-imports`
    /// turns it off): `swift test` then builds with `-enable-testing` in every configuration,
    /// `swift build` only in debug.
    package var testableImports = true
    /// Which test libraries run (`--disable-xctest`, `--enable-swift-testing`, …): the listing and
    /// the test run get them.
    package var libraries: [String] = []
    /// The `--filter` patterns (`-s`, `--specifier` too): a test runs when one matches, or when there is none.
    package var filters: [String] = []
    /// The `--skip` patterns: a test matched by one does not run.
    package var skips: [String] = []
    /// The options of the test run alone (`--parallel`, `--num-workers N`, `--xunit-output FILE`,
    /// Swift Testing's event stream, …), in the order given.
    package var run: [String] = []

    /// `swift test` options that take a value and concern the test run alone.
    static let runOptionsWithValue: Set<String> = [
        "--num-workers", "--xunit-output", "--attachments-path", "--experimental-attachments-path",
        "--experimental-event-stream-output", "--experimental-event-stream-version", "--event-stream-output-path",
        "--event-stream-version", "--configuration-path", "--experimental-configuration-path",
    ]
    /// `swift test` flags that concern the test run alone (coverage is always on in a run).
    static let runFlags: Set<String> = [
        "--parallel", "--no-parallel", "--skip-build", "--enable-experimental-test-output",
        "--disable-experimental-test-output",
    ]
    /// `swift test` flags that choose the test libraries.
    static let libraryFlags: Set<String> = [
        "--enable-xctest", "--disable-xctest", "--enable-swift-testing", "--disable-swift-testing",
    ]

    /// Sorts `arguments` (as given after `run --`); `scratchPath` is `run --scratch-path`'s folder.
    package init(_ arguments: [String], scratchPath: String? = nil) {
        build = scratchPath.map { ["--scratch-path", $0] } ?? []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            // `--name=value` or `--name value`.
            let (name, inlineValue) = Self.split(argument)
            func value() -> String? {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { return nil }
                defer { index += 1 }
                return arguments[index]
            }
            switch name {
            case "--filter", "-s", "--specifier":
                if let pattern = value() { filters.append(pattern) }
            case "--skip":
                if let pattern = value() { skips.append(pattern) }
            case _ where Self.libraryFlags.contains(name):
                libraries.append(argument)
            case "--enable-testable-imports", "--disable-testable-imports":
                testableImports = name == "--enable-testable-imports"
                run.append(argument)
            case "--enable-code-coverage", "--skip-build":
                break  // always so in a run
            case _ where Self.runFlags.contains(name):
                run.append(argument)
            case _ where Self.runOptionsWithValue.contains(name):
                run.append(argument)
                if inlineValue == nil, let value = value() { run.append(value) }
            case "--":
                run += arguments[(index - 1)...]
                index = arguments.count
            case _ where argument.hasPrefix("-X") && inlineValue == nil:
                // -Xswiftc, -Xcc, -Xlinker, -Xcxx, -Xbuild-tools-swiftc, …: the next argument is
                // the compiler's, whatever it looks like.
                build.append(argument)
                if index < arguments.count {
                    build.append(arguments[index])
                    index += 1
                }
            default:
                build.append(argument)
            }
        }
    }

    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// The build configuration (`-c release`), debug when none is given.
    package var configuration: String {
        var result = "debug"
        var index = 0
        while index < build.count {
            let (name, inlineValue) = Self.split(build[index])
            if build[index].hasPrefix("-X") {
                index += 2
                continue
            }
            if name == "-c" || name == "--configuration" {
                if let inlineValue {
                    result = inlineValue
                } else if index + 1 < build.count {
                    result = build[index + 1]
                    index += 1
                }
            } else if name.hasPrefix("-c"), name.count > 2, !name.hasPrefix("--") {
                result = String(name.dropFirst(2))  // -crelease
            }
            index += 1
        }
        return result
    }

    /// `swift build --build-tests` with coverage, built as `swift test` builds them: `swift test`
    /// compiles with `-enable-testing` (for `@testable import`) in every configuration, `swift
    /// build` only in debug, so that `-c release` needs it said.
    package var buildTestsCommand: [String] {
        var command = ["build", "--build-tests", "--enable-code-coverage"] + build
        if testableImports && configuration != "debug" { command += ["-Xswiftc", "-enable-testing"] }
        return command
    }

    /// `swift test list` of what `buildTestsCommand` built.
    package var listCommand: [String] {
        ["test", "list", "--skip-build"] + build + libraries
    }

    /// `swift test --show-codecov-path`: where `swift test` writes the coverage of this build
    /// (`.build/<triple>/release/codecov/…` with `-c release`).
    package var codecovPathCommand: [String] {
        ["test", "--show-codecov-path", "--enable-code-coverage"] + build
    }

    /// `swift build --show-bin-path`: the folder of this build's products (the test executable).
    package var binPathCommand: [String] {
        ["build", "--show-bin-path", "--enable-code-coverage"] + build
    }

    /// `swift test` with coverage. `selection`: `--filter` arguments that choose the tests (a
    /// shard's), instead of the user's `--filter` and `--skip`, which chose them; `skipBuild` when
    /// `buildTestsCommand` built them; `extra`: arguments of swiftcov's own (the event stream).
    package func testCommand(selection: [String]? = nil, skipBuild: Bool = false, extra: [String] = []) -> [String] {
        var command = ["test", "--enable-code-coverage"] + (skipBuild ? ["--skip-build"] : []) + build + libraries
        command += extra + run
        if let selection {
            command += selection
        } else {
            command += filters.flatMap { ["--filter", $0] } + skips.flatMap { ["--skip", $0] }
        }
        return command
    }

    /// The user's arguments of the test run alone (`run`), their value after `option`: the last
    /// given, as SwiftPM reads it.
    package func runValue(of option: String) -> String? {
        var found: String?
        var index = 0
        while index < run.count {
            let (name, inlineValue) = Self.split(run[index])
            if name == option {
                if let inlineValue {
                    found = inlineValue
                } else if index + 1 < run.count {
                    found = run[index + 1]
                    index += 1
                }
            }
            index += 1
        }
        return found
    }
}
