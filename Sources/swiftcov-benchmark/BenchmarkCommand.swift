import SwiftCovCommandLine
import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `swiftcov-benchmark`: builds large exports and measures the report pipeline on them.
/// Build it with `-c release`; a debug build measures the wrong thing.
enum BenchmarkCommand {
    static let tool = "swiftcov-benchmark"

    static let size = ValueOption<String>(
        ["--size"], value: "SIZE",
        help: "Stop once the output reaches SIZE: bytes, or with kB/MB/GB (10^3) or KiB/MiB/GiB.")
    static let copies = ValueOption<Int>.positiveInteger(
        ["--copies"], help: "Write exactly N copies (the original counts as one) instead.")
    static let samePaths = FlagOption(
        ["--same-paths"],
        help: "Copies keep the original's file and function names (exports of the same files put together).")
    static let runs = ValueOption<Int>.positiveInteger(["--runs"], help: "Runs; the best is reported. Default: 5.")
    static let format = ValueOption<PipelineBenchmark.Format>(
        ["--format"], value: "FORMAT", help: "The report format to render. Default: json.")
    static let showLines = FlagOption(
        ["--show-lines"], help: "Render per-line counts too (`swiftcov report --show lines`).")
    static let compareFoundation = FlagOption(
        ["--compare-foundation"], help: "Also time Foundation's JSONSerialization parsing the same bytes.")
    static let json = FlagOption(["--json"], help: "Print the measurement as JSON.")
    static let logSize = ValueOption<String>(
        ["--size"], value: "SIZE",
        help: "About this large: bytes, or with kB/MB/GB (10^3) or KiB/MiB/GiB. Default: 200MB.")
    static let testsPerClass = ValueOption<Int>.positiveInteger(
        ["--tests-per-class"], help: "XCTest methods per class. Default: 6.")

    static let replicateSpec = CommandSpec(
        name: "replicate",
        abstract: "Build a large export from a real one by copying its files and functions under new module names.",
        positional: "INPUT OUTPUT",
        positionalHelp: "The export to copy, and the file to write.",
        options: [size.spec, copies.spec, samePaths.spec],
        examples: ["\(tool) replicate coverage.json /tmp/coverage-256MB.json --size 256MB"])

    static let measureSpec = CommandSpec(
        name: "measure",
        abstract: "Time `swiftcov report` in-process on an export: each stage, MB/s, peak memory.",
        positional: "EXPORT",
        positionalHelp: "The llvm-cov JSON export to read.",
        options: [runs.spec, format.spec, showLines.spec, compareFoundation.spec, json.spec],
        examples: [
            "\(tool) measure .build/debug/codecov/swiftcov.json",
            "\(tool) measure /tmp/coverage-256MB.json --runs 3 --json",
        ])

    static let makeLogSpec = CommandSpec(
        name: "make-log",
        abstract:
            "Write a large `swift test` console log: many XCTest classes with failures and output, then Swift Testing.",
        positional: "OUTPUT",
        positionalHelp: "The log to write.",
        options: [logSize.spec, testsPerClass.spec],
        examples: ["\(tool) make-log /tmp/swift-test-200MB.log --size 200MB"])

    static let historyRuns = ValueOption<Int>.positiveInteger(["--runs"], help: "Runs. Default: 1000.")
    static let historyTests = ValueOption<Int>.positiveInteger(["--tests"], help: "Tests per run. Default: 1000.")

    static let makeHistorySpec = CommandSpec(
        name: "make-history",
        abstract: "Write a history of runs (as `swiftcov run --history` keeps it), for timing `swiftcov flaky`.",
        positional: "OUTPUT",
        positionalHelp: "The history file to write.",
        options: [historyRuns.spec, historyTests.spec],
        examples: ["\(tool) make-history /tmp/history.jsonl --runs 1000 --tests 1000"])

    static let zstdSpec = CommandSpec(
        name: "zstd",
        abstract: "Time the zstd decoder in-process on zstd files: MB/s of output, peak memory.",
        positional: "FILE…",
        positionalHelp: "The zstd files to decode.",
        options: [runs.spec],
        examples: ["\(tool) zstd /tmp/export.json.zst --runs 3"])

    /// Runs the command in `arguments` and returns the exit code: 0, or 2 for bad usage or input.
    static func main(_ arguments: [String]) -> Int32 {
        let specs = [replicateSpec, measureSpec, makeLogSpec, makeHistorySpec, zstdSpec]
        guard let first = arguments.first, first != "--help", first != "-h", first != "help" else {
            print(overview(specs), terminator: "")
            return arguments.isEmpty ? 2 : 0
        }
        guard let spec = specs.first(where: { $0.name == first }) else {
            printError("\(tool): error: unknown command '\(first)'; see '\(tool) --help'\n")
            return 2
        }
        do {
            let parsed = try CommandLineParser.parse(Array(arguments.dropFirst()), spec: spec)
            if parsed.wantsHelp {
                print(CommandLineParser.help(for: spec, tool: tool), terminator: "")
                return 0
            }
            switch spec.name {
            case "replicate": try replicate(parsed)
            case "make-log": try makeLog(parsed)
            case "make-history": try makeHistory(parsed)
            case "zstd": try zstd(parsed)
            default: try measure(parsed)
            }
            return 0
        } catch let error as UsageError {
            printError("\(tool) \(spec.name): error: \(error.message)\nUsage: see '\(tool) \(spec.name) --help'\n")
            return 2
        } catch {
            printError("\(tool): error: \(error)\n")
            return 2
        }
    }

    private static func replicate(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 2 else { throw UsageError("expected INPUT and OUTPUT") }
        let size = try arguments.value(Self.size).map(ByteCount.parse)
        let copies = try arguments.value(Self.copies)
        guard (size == nil) != (copies == nil) else { throw UsageError("give either --size or --copies") }
        var replicator = try ExportReplicator(input: arguments.positionals[0])
        replicator.samePaths = arguments.has(Self.samePaths)
        let start = ResourceSample.now()
        let summary = try replicator.write(to: arguments.positionals[1], targetSize: size, copies: copies)
        let timing = ResourceSample.now().since(start)
        print(
            "\(arguments.positionals[1]): \(summary.bytes) bytes, \(summary.copies) copies, \(summary.files) files, "
                + "\(summary.functions) functions (\(MeasurementReport.fixed(timing.wall, 2)) s)")
        print(
            "function names per copy: \(summary.moduleRenames) renamed in their module, "
                + "\(summary.otherRenames) in another identifier, \(summary.appendedNames) suffixed (not demanglable)")
    }

    private static func makeLog(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1 else { throw UsageError("expected OUTPUT") }
        var generator = LogGenerator(targetSize: try ByteCount.parse(arguments.value(Self.logSize) ?? "200MB"))
        if let value = try arguments.value(Self.testsPerClass) { generator.testsPerClass = value }
        let summary = try generator.write(to: arguments.positionals[0])
        print(
            "\(arguments.positionals[0]): \(summary.bytes) bytes; XCTest: \(summary.xctestClasses) classes, "
                + "\(summary.xctestTests) tests, \(summary.xctestFailures) failed, \(summary.xctestSkipped) skipped; "
                + "Swift Testing: \(summary.swiftTestingTests) tests, \(summary.swiftTestingIssues) issues")
    }

    private static func makeHistory(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1 else { throw UsageError("expected OUTPUT") }
        let generator = HistoryGenerator(
            runs: try arguments.value(Self.historyRuns) ?? 1000, tests: try arguments.value(Self.historyTests) ?? 1000)
        let bytes = try generator.write(to: arguments.positionals[0])
        print("\(arguments.positionals[0]): \(bytes) bytes, \(generator.runs) runs of \(generator.tests) tests")
    }

    private static func zstd(_ arguments: ParsedArguments) throws {
        guard !arguments.positionals.isEmpty else { throw UsageError("expected one or more FILEs") }
        let runs = try arguments.value(Self.runs) ?? 5
        for path in arguments.positionals {
            print(ZstdBenchmark.line(try ZstdBenchmark.run(path: path, runs: runs)))
        }
    }

    private static func measure(_ arguments: ParsedArguments) throws {
        guard arguments.positionals.count == 1 else { throw UsageError("expected one EXPORT") }
        var benchmark = PipelineBenchmark(path: arguments.positionals[0])
        if let runs = try arguments.value(Self.runs) { benchmark.runs = runs }
        benchmark.format = try arguments.value(Self.format) ?? .json
        benchmark.showLines = arguments.has(Self.showLines)
        var measurement = try benchmark.run()
        if arguments.has(Self.compareFoundation) {
            measurement.foundationParse = try FoundationParseBenchmark.run(path: benchmark.path, runs: benchmark.runs)
        }
        print(
            arguments.has(Self.json) ? MeasurementReport.json(measurement) : MeasurementReport.table(measurement),
            terminator: "")
    }

    private static func overview(_ specs: [CommandSpec]) -> String {
        var text = "OVERVIEW: Builds large llvm-cov exports and measures swiftcov's report pipeline on them.\n\n"
        text += "USAGE: \(tool) <command> [options]\n\nCOMMANDS:\n"
        for spec in specs {
            text +=
                "  " + spec.name + String(repeating: " ", count: max(1, 12 - spec.name.count)) + spec.abstract + "\n"
        }
        return text + "\nRun '\(tool) <command> --help' for a command's options.\n"
    }
}

/// A size given on the command line: `256MB`, `1.5GB`, `512KiB`, `1000000`.
package enum ByteCount {
    /// The number of bytes `text` stands for.
    package static func parse(_ text: String) throws(UsageError) -> Int {
        let units: [(String, Double)] = [
            ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("kB", 1e3), ("KB", 1e3), ("MB", 1e6),
            ("GB", 1e9),
            ("B", 1),
        ]
        var number = Substring(text)
        var scale = 1.0
        for (unit, value) in units where text.hasSuffix(unit) {
            number = text.dropLast(unit.count)
            scale = value
            break
        }
        guard let value = Double(number.trimmingSpaces), value > 0, value * scale < 1e15 else {
            throw UsageError("invalid size '\(text)'; e.g. 256MB, 1GB, 512MiB")
        }
        return Int((value * scale).rounded(.up))
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
