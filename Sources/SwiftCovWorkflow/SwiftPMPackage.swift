import SwiftCovAnalyses
import SwiftCovModel
import SwiftCovPlatform

/// A package's tests as SwiftPM builds, lists and finds them, with the user's `swift test`
/// arguments: the steps `run`, `run --per-test` and `run --shard` share (build, then select:
/// list, filter, shard). Every `swift` command line comes from `SwiftTestArguments`.
package struct SwiftPMPackage: Sendable {
    /// The package root (absolute): every `swift` command runs there.
    package var root: String
    /// The user's arguments, sorted.
    package var arguments: SwiftTestArguments
    /// A folder of swiftcov's where the listing's profile goes (listing runs the instrumented
    /// test executable, which would otherwise leave a `default.profraw` in the package root).
    package var scratch: String
    /// What starts the `swift` commands and lists the build's folder.
    package var system: any System

    package init(root: String, arguments: SwiftTestArguments, scratch: String, system: any System = LiveSystem()) {
        self.root = root
        self.arguments = arguments
        self.scratch = scratch
        self.system = system
    }

    /// A bad `--filter` or `--skip` pattern.
    package struct BadPattern: DiagnosticConvertible, Equatable {
        package var pattern: String
        package var diagnostic: Diagnostic { .usage("invalid regular expression in --filter or --skip: \(pattern)") }
    }

    /// Builds the tests with coverage, as `swift test` builds them (`SwiftTestArguments.buildTestsCommand`),
    /// its output handed to `body` as it comes; returns the exit status.
    package func build(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Int32 {
        try system.stream(Command("swift", arguments.buildTestsCommand, in: root), body)
    }

    /// The tests of the build (`swift test list`): every one, and those the user's `--filter`
    /// and `--skip` choose, as `swift test` would.
    package func list() throws -> (all: [TestID], chosen: [TestID]) {
        try system.makeDirectory(scratch)
        let profile = scratch + "/list-tests.profraw"
        defer { system.remove(profile) }
        let listed = try system.capture(
            Command("swift", arguments.listCommand, in: root, environment: ["LLVM_PROFILE_FILE": profile]))
        guard listed.status == 0 else {
            throw Diagnostic(
                "`swift test list` exited with status \(listed.status): \(String(listed.errorText.suffix(2000)).terminalSafe)"
            )
        }
        let all = TestList.parse(listed.outputText).tests
        return (all, try Self.select(all, filters: arguments.filters, skips: arguments.skips))
    }

    /// `shard`'s share of `tests` (balanced by `timings` when given), written one a line to
    /// `OUTPUT/shard-tests.txt`; with the plan.
    package func selectShard(
        _ shard: Shard, of tests: [TestID], timings: TestTimings?, output: String
    ) throws -> (tests: [TestID], plan: ShardPlan) {
        let plan = ShardPlan(tests: tests.map(\.id), count: shard.count, timings: timings)
        let chosen = Set(plan.tests(of: shard))
        let selected = tests.filter { chosen.contains($0.id) }
        try system.makeDirectory(output)
        try system.write(selected.map { $0.id + "\n" }.joined(), to: output + "/shard-tests.txt")
        return (selected, plan)
    }

    /// `tests` matched by any of `filters` (all when none) and by none of `skips`.
    package static func select(_ tests: [TestID], filters: [String], skips: [String]) throws -> [TestID] {
        guard !filters.isEmpty || !skips.isEmpty else { return tests }
        if #available(macOS 13, *) {
            func compile(_ pattern: String) throws -> Regex<AnyRegexOutput> {
                do { return try Regex(pattern) } catch { throw BadPattern(pattern: pattern) }
            }
            let chosen = try filters.map(compile)
            let skipped = try skips.map(compile)
            return tests.filter { test in
                (chosen.isEmpty || chosen.contains { test.id.contains($0) })
                    && !skipped.contains { test.id.contains($0) }
            }
        }
        return tests
    }

    /// The folder of the build's products (`.build/<triple>/release` with `-c release`).
    package func binPath() throws -> String {
        try lastLine(of: arguments.binPathCommand)
    }

    /// Where `swift test` writes this build's coverage export (its folder holds the raw profiles).
    package func codecovPath() throws -> String {
        try lastLine(of: arguments.codecovPathCommand)
    }

    private func lastLine(of command: [String]) throws -> String {
        let result = try system.capture(Command("swift", command, in: root))
        guard result.status == 0, let line = result.outputText.split(separator: "\n").last else {
            throw Diagnostic(
                "`swift \(command.joined(separator: " "))` exited with status \(result.status): "
                    + String(result.errorText.suffix(2000)).terminalSafe)
        }
        return String(line)
    }

    /// The test executable SwiftPM built in `binPath` (`NAMEPackageTests.xctest`; on macOS the
    /// binary inside that bundle).
    package func testBinary(in binPath: String) throws -> String {
        guard let entries = system.entries(of: binPath) else { throw CoverageInputError.notFound(path: binPath) }
        guard let name = entries.filter({ $0.hasSuffix("PackageTests.xctest") }).sorted().first else {
            throw CoverageInputError.notFound(path: binPath + "/*PackageTests.xctest")
        }
        let bundle = binPath + "/" + name
        let inner = bundle + "/Contents/MacOS/" + String(name.dropLast(".xctest".count))
        return system.isExecutable(inner) ? inner : bundle
    }
}
