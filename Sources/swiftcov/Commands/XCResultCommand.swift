import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov xcresult`: `xcrun xcresulttool`'s commands that scripts use, on any machine.
enum XCResultCommand {
    static let spec = CommandSpec(
        name: "xcresult",
        abstract:
            "Do what `xcrun xcresulttool export attachments` and `get test-results` do, without a Mac.",
        positional: "export attachments BUNDLE | get test-results tests|summary|test-details|activities BUNDLE",
        positionalHelp:
            "`export attachments`: write each attachment of the result bundle BUNDLE (or --path) and the "
            + "manifest.json xcresulttool writes into --output-path. `get test-results`: print the JSON "
            + "xcresulttool prints: `tests` (the tree of the tests), `summary` (counts, failures, devices and "
            + "configurations), `test-details` (a test's runs) and `activities` (a test's steps), the last two "
            + "of the test --test-id.",
        options: [path.spec, outputPath.spec, onlyFailures.spec, testID.spec, format.spec],
        examples: [
            "swiftcov xcresult export attachments Tests.xcresult --output-path attachments",
            "swiftcov xcresult export attachments --path Tests.xcresult --output-path failures --only-failures",
            "swiftcov xcresult get test-results summary --path Tests.xcresult --format json",
            "swiftcov xcresult get test-results tests Tests.xcresult",
            "swiftcov xcresult get test-results test-details --test-id 'AppUITests/testLaunch()' Tests.xcresult",
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
        case .tests, .summary, .testDetails:
            let (results, warnings) = try XCResultBundle.testResults(path: options.bundle)
            for warning in warnings { terminal.emit(warning, command: "xcresult") }
            switch options.action {
            case .testDetails(let testID):
                let evidence = try XCResultBundle.evidence(path: options.bundle).evidence
                guard let text = XcodeTestResultsJSON.testDetails(results, testID: testID, evidence: evidence) else {
                    throw Diagnostic(file: options.bundle, "no test \(testID) in this bundle")
                }
                try terminal.out(text)
            case .summary: try terminal.out(XcodeTestResultsJSON.summary(results))
            default: try terminal.out(XcodeTestResultsJSON.tests(results))
            }
        }
        return .success
    }
}
