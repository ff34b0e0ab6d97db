import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `swiftcov export`: the coverage in the formats CI services and other tools read.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write coverage as Cobertura XML, lcov or SonarQube XML for CI services and other tools.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageOptions.specs + [
            .init(
                ["--format", "-f"], value: "FORMAT", choices: CoverageExportFormat.allCases.map(\.rawValue),
                help: "The format to write (required)."),
            .init(["--output", "-o"], value: "FILE", help: "Write to FILE (atomically) instead of stdout."),
        ],
        examples: [
            "swiftcov export SampleReports/coverage.json --format cobertura -o coverage.xml",
            "swiftcov export --coverage . --format lcov -o coverage.lcov",
            "swiftcov export --coverage . --format sonarqube -o sonarqube-coverage.xml",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        guard let name = arguments.value("--format"), let format = CoverageExportFormat(rawValue: name) else {
            throw UsageError("choose a format with --format cobertura, lcov or sonarqube")
        }
        let destination = try terminal.output(arguments.value("--output"))
        let report = try CoverageOptions.report(from: arguments, terminal: terminal)
        let options = CoverageExportOptions(timestamp: timestamp(terminal), version: SwiftCov.version)
        // Streamed: an export of every line can be larger than the llvm-cov export it comes from.
        var buffer = destination.streamingBuffer()
        try format.write(report, options: options, to: &buffer)
        try destination.finish(buffer)
        return .success
    }

    /// Now in milliseconds, or `SOURCE_DATE_EPOCH` (seconds) when set, for reproducible builds.
    static func timestamp(_ terminal: Terminal) -> Int64 {
        if let epoch = terminal.environment("SOURCE_DATE_EPOCH"), let seconds = Int64(epoch) {
            return seconds * 1000
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
