import SwiftCovCore

/// `swiftcov xcresult`'s options, declared once: `--help` and the command reference come from them.
extension XCResultCommand {
    static let path = ValueOption<String>(
        ["--path"], value: "BUNDLE", help: "The result bundle (.xcresult), as xcresulttool takes it.")
    static let outputPath = ValueOption<String>(
        ["--output-path"], value: "DIR",
        help: "The folder to write (required): replaced whole when it is empty or an earlier export.")
    static let onlyFailures = FlagOption(
        ["--only-failures"], help: "Export only the attachments associated with a failure.")

    struct Options {
        var bundle: String
        var outputPath: String
        var onlyFailures: Bool

        init(_ arguments: ParsedArguments) throws(UsageError) {
            var words = arguments.positionals
            guard words.starts(with: ["export", "attachments"]) else {
                throw UsageError("say what to do: `swiftcov xcresult export attachments BUNDLE --output-path DIR`")
            }
            words.removeFirst(2)
            let given = try arguments.value(XCResultCommand.path)
            guard words.count + (given == nil ? 0 : 1) == 1, let bundle = given ?? words.first else {
                throw UsageError("give one result bundle (BUNDLE or --path BUNDLE)")
            }
            self.bundle = bundle
            guard let outputPath = try arguments.value(XCResultCommand.outputPath) else {
                throw UsageError("give the folder to write with --output-path DIR")
            }
            self.outputPath = outputPath
            onlyFailures = arguments.has(XCResultCommand.onlyFailures)
        }
    }
}
