import SwiftCovCommandLine
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

    static let testID = ValueOption<String>(
        ["--test-id"], value: "ID",
        help:
            "get test-results activities|test-details: the test, by its identifier (Class/test()) or its URL "
            + "(required).")
    /// What `get test-results` prints: JSON, as xcresulttool does.
    enum Format: String, CaseIterable, Sendable {
        case json
    }

    static let format = ValueOption<Format>(
        ["--format"], value: "FORMAT", help: "json (the only format; accepted as xcresulttool takes it).")

    /// What `xcresult` is asked to do.
    enum Action {
        /// `export attachments`: write them into a folder.
        case exportAttachments(outputPath: String, onlyFailures: Bool)
        /// `get test-results activities`: print a test's steps.
        case activities(testID: String)
        /// `get test-results tests`: print the tree of the tests.
        case tests
        /// `get test-results summary`: print the counts, failures, devices and configurations.
        case summary
        /// `get test-results test-details`: print a test's runs.
        case testDetails(testID: String)
    }

    struct Options {
        var bundle: String
        var action: Action

        static let usage =
            "say what to do: `swiftcov xcresult export attachments BUNDLE --output-path DIR` or "
            + "`swiftcov xcresult get test-results tests|summary|test-details|activities [--test-id ID] BUNDLE`"

        init(_ arguments: ParsedArguments) throws(UsageError) {
            var words = arguments.positionals
            if words.starts(with: ["export", "attachments"]) {
                words.removeFirst(2)
                guard let outputPath = try arguments.value(XCResultCommand.outputPath) else {
                    throw UsageError("give the folder to write with --output-path DIR")
                }
                action = .exportAttachments(
                    outputPath: outputPath, onlyFailures: arguments.has(XCResultCommand.onlyFailures))
            } else if words.starts(with: ["get", "test-results"]), words.count >= 3 {
                let document = words[2]
                words.removeFirst(3)
                _ = try arguments.value(XCResultCommand.format)
                let testID = try arguments.value(XCResultCommand.testID)
                switch document {
                case "tests": action = .tests
                case "summary": action = .summary
                case "activities", "test-details":
                    guard let testID else {
                        throw UsageError("give the test with --test-id ID (its identifier, Class/test())")
                    }
                    action = document == "activities" ? .activities(testID: testID) : .testDetails(testID: testID)
                default:
                    throw UsageError(
                        "`get test-results \(document)`: swiftcov prints tests, summary, test-details and activities")
                }
            } else {
                throw UsageError(Self.usage)
            }
            let given = try arguments.value(XCResultCommand.path)
            guard words.count + (given == nil ? 0 : 1) == 1, let bundle = given ?? words.first else {
                throw UsageError("give one result bundle (BUNDLE or --path BUNDLE)")
            }
            self.bundle = bundle
        }
    }
}
