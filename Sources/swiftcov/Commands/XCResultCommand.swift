import SwiftCovCore

/// `swiftcov xcresult`: `xcrun xcresulttool`'s commands that scripts use, on any machine.
enum XCResultCommand {
    static let spec = CommandSpec(
        name: "xcresult",
        abstract:
            "Do what `xcrun xcresulttool export attachments` and `get test-results activities` do, without a Mac.",
        positional: "export attachments BUNDLE | get test-results activities BUNDLE",
        positionalHelp:
            "`export attachments`: write each attachment of the result bundle BUNDLE (or --path) and the "
            + "manifest.json xcresulttool writes into --output-path. `get test-results activities`: print the "
            + "JSON of a test's steps (--test-id).",
        options: [path.spec, outputPath.spec, onlyFailures.spec, testID.spec, format.spec],
        examples: [
            "swiftcov xcresult export attachments Tests.xcresult --output-path attachments",
            "swiftcov xcresult export attachments --path Tests.xcresult --output-path failures --only-failures",
            "swiftcov xcresult get test-results activities --test-id 'AppUITests/testLaunch()' Tests.xcresult",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        switch options.action {
        case .exportAttachments(let outputPath, let onlyFailures):
            let written = try XcodeAttachmentExport.write(
                bundle: options.bundle, to: outputPath, onlyFailures: onlyFailures)
            let files = written.attachments == 1 ? "1 attachment" : "\(written.attachments) attachments"
            terminal.status(
                wrote: [outputPath],
                "\(files) of \(written.tests) test\(written.tests == 1 ? "" : "s"), \(written.payloads) distinct")
        case .activities(let testID):
            let evidence = try XCResultBundle.evidence(path: options.bundle)
            for warning in evidence.warnings { terminal.emit(warning, command: "xcresult") }
            guard let text = XcodeActivitiesJSON.render(evidence.evidence, testID: testID) else {
                throw Diagnostic(file: options.bundle, "no test \(testID) in this bundle")
            }
            try terminal.out(text)
        }
        return .success
    }
}
