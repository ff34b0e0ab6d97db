import SwiftCovCommandLine
import SwiftCovCore

/// The tool's entry point: picks the command, runs it, maps the outcome to an exit code.
enum SwiftCovCommand {
    static let tool = "swiftcov"

    static let commands: [(spec: CommandSpec, run: @Sendable (ParsedArguments, inout Terminal) throws -> ExitCode)] = [
        (ReportCommand.spec, ReportCommand.run),
        (HTMLCommand.spec, HTMLCommand.run),
        (CheckCommand.spec, CheckCommand.run),
        (RunCommand.spec, RunCommand.run),
        (ImpactedCommand.spec, ImpactedCommand.run),
        (ExportCommand.spec, ExportCommand.run),
        (DiffCommand.spec, DiffCommand.run),
        (JUnitCommand.spec, JUnitCommand.run),
        (HistoryCommand.spec, HistoryCommand.run),
        (FlakyCommand.spec, FlakyCommand.run),
        (TrendsCommand.spec, TrendsCommand.run),
        (XCResultCommand.spec, XCResultCommand.run),
    ]

    static func main(_ arguments: [String]) -> Int32 {
        var terminal = Terminal()
        let status = run(arguments, &terminal)
        // As careful Unix tools do: output that could not be written is a failure, even on stderr.
        return status == ExitCode.success.rawValue && terminal.stderrWriteFailed ? ExitCode.usage.rawValue : status
    }

    private static func run(_ arguments: [String], _ terminal: inout Terminal) -> Int32 {
        guard let first = arguments.first else {
            terminal.error(overview())
            return ExitCode.usage.rawValue
        }
        switch first {
        case "--help", "-h", "help":
            let command = first == "help" && arguments.count > 1 ? commands.first { $0.spec.name == arguments[1] } : nil
            return print(command.map { CommandLineParser.help(for: $0.spec, tool: tool) } ?? overview(), &terminal)
        case "--version":
            return print("\(tool) \(SwiftCov.version)\n", &terminal)
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            let names = commands.map(\.spec.name)
            let close = names.min { $0.editDistance(to: first) < $1.editDistance(to: first) }
            let suggestion = close.flatMap { $0.editDistance(to: first) <= 2 ? "; did you mean '\($0)'?" : nil }
            terminal.emit(.usage("unknown command '\(first)'" + (suggestion ?? "; see '\(tool) --help'")))
            return ExitCode.usage.rawValue
        }
        do {
            let parsed = try CommandLineParser.parse(Array(arguments.dropFirst()), spec: command.spec)
            if parsed.wantsHelp { return print(CommandLineParser.help(for: command.spec, tool: tool), &terminal) }
            return try command.run(parsed, &terminal).rawValue
        } catch {
            return report(error, command: command.spec.name, terminal: &terminal).rawValue
        }
    }

    /// Prints help or the version: exit 0, or 2 when standard output cannot take it.
    private static func print(_ text: String, _ terminal: inout Terminal) -> Int32 {
        do {
            try terminal.out(text)
            return ExitCode.success.rawValue
        } catch {
            return report(error, command: "", terminal: &terminal).rawValue
        }
    }

    /// The error that stopped a command, printed as a diagnostic; its exit code.
    static func report(_ error: Error, command: String, terminal: inout Terminal) -> ExitCode {
        let diagnostic = error.asDiagnostic
        terminal.emit(diagnostic, command: command.isEmpty ? nil : command)
        return ExitCode(rawValue: diagnostic.exitCode) ?? .usage
    }

    static func overview() -> String {
        var text = """
            OVERVIEW: Coverage tables and reports from what `swift test --enable-code-coverage` leaves behind.

            USAGE: \(tool) <command> [options]

            COMMANDS:

            """
        for command in commands {
            let name = command.spec.name
            text += "  " + name + String(repeating: " ", count: max(1, 12 - name.count)) + command.spec.abstract + "\n"
        }
        text += """

            Run '\(tool) <command> --help' for a command's options; '\(tool) --version' for the version.

            """
        return text
    }
}

/// Exit codes: CI must tell "coverage dropped" from "the tool could not read its input".
enum ExitCode: Int32 {
    case success = 0
    /// A gate failed: coverage below a threshold, or tests failed.
    case gateFailed = 1
    /// Bad usage, or an input that cannot be read.
    case usage = 2
}
