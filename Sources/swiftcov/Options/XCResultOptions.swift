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
        help: "get test-results activities: the test, by its identifier (Class/test()) or its URL (required).")
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
    }

    struct Options {
        var bundle: String
        var action: Action

        static let usage =
            "say what to do: `swiftcov xcresult export attachments BUNDLE --output-path DIR` or "
            + "`swiftcov xcresult get test-results activities --test-id ID BUNDLE`"

        init(_ arguments: ParsedArguments) throws(UsageError) {
            var words = arguments.positionals
            if words.starts(with: ["export", "attachments"]) {
                words.removeFirst(2)
                guard let outputPath = try arguments.value(XCResultCommand.outputPath) else {
                    throw UsageError("give the folder to write with --output-path DIR")
                }
                action = .exportAttachments(
                    outputPath: outputPath, onlyFailures: arguments.has(XCResultCommand.onlyFailures))
            } else if words.starts(with: ["get", "test-results", "activities"]) {
                words.removeFirst(3)
                guard let testID = try arguments.value(XCResultCommand.testID) else {
                    throw UsageError("give the test with --test-id ID (its identifier, Class/test())")
                }
                _ = try arguments.value(XCResultCommand.format)
                action = .activities(testID: testID)
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
