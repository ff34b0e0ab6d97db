import SwiftCovCore

/// `swiftcov xcresult`: `xcrun xcresulttool`'s commands that scripts use, on any machine.
enum XCResultCommand {
    static let spec = CommandSpec(
        name: "xcresult",
        abstract: "Do what `xcrun xcresulttool export attachments` does, without a Mac.",
        positional: "export attachments BUNDLE",
        positionalHelp:
            "`export attachments`: write each attachment of the result bundle BUNDLE (or --path) and the "
            + "manifest.json xcresulttool writes into --output-path.",
        options: [path.spec, outputPath.spec, onlyFailures.spec],
        examples: [
            "swiftcov xcresult export attachments Tests.xcresult --output-path attachments",
            "swiftcov xcresult export attachments --path Tests.xcresult --output-path failures --only-failures",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        let written = try XcodeAttachmentExport.write(
            bundle: options.bundle, to: options.outputPath, onlyFailures: options.onlyFailures)
        let files = written.attachments == 1 ? "1 attachment" : "\(written.attachments) attachments"
        terminal.status(
            wrote: [options.outputPath],
            "\(files) of \(written.tests) test\(written.tests == 1 ? "" : "s"), \(written.payloads) distinct")
        return .success
    }
}
