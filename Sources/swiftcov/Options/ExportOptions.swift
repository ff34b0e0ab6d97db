import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov export`'s options, declared once: `--help` and the command reference come from them.
extension ExportCommand {
    static let format = ValueOption<InterchangeFormat>(
        ["--format", "-f"], value: "FORMAT", help: "The format to write (required).")
    static let output = ValueOption<String>(
        ["--output", "-o"], value: "FILE", help: "Write to FILE (atomically) instead of stdout.")

    struct Options {
        var coverage: CoverageInputOptions
        var format: InterchangeFormat
        var output: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            guard let format = try arguments.value(ExportCommand.format) else {
                throw UsageError("choose a format with --format cobertura, lcov or sonarqube")
            }
            self.format = format
            coverage = try CoverageInputOptions(arguments)
            output = try arguments.value(ExportCommand.output)
        }
    }
}
