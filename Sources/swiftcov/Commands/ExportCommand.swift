import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov export`: the coverage in the formats CI services and other tools read.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write coverage as Cobertura XML, lcov or SonarQube XML for CI services and other tools.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageInputOptions.specs + [format.spec, output.spec],
        examples: [
            "swiftcov export SampleReports/coverage.json --format cobertura -o coverage.xml",
            "swiftcov export --coverage . --format lcov -o coverage.lcov",
            "swiftcov export --coverage . --format sonarqube -o sonarqube-coverage.xml",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        let destination = try terminal.output(options.output)
        let (report, _) = try options.coverage.makeReport(terminal)
        let clock = Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH"))
        let exportOptions = InterchangeOptions(timestamp: clock.milliseconds, version: SwiftCov.version)
        // Streamed: an export of every line can be larger than the llvm-cov export it comes from.
        var buffer = destination.streamingBuffer()
        try options.format.write(report, options: exportOptions, to: &buffer)
        try destination.finish(buffer)
        return .success
    }
}
