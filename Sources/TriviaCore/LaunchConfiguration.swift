import Foundation

/// The command-line flags `trivia` understands.
public enum LaunchFlag: String, CaseIterable, Sendable {
    /// Play the bundled questions offline, so UI tests are deterministic and need no network.
    case uiTesting = "--ui-testing"
    /// Fetch the questions document from the URL that follows the flag.
    case questionsURL = "--questions-url"
    /// Print the usage and exit.
    case help = "--help"
}

/// Why the command-line arguments could not be turned into a ``LaunchConfiguration``.
public enum LaunchConfigurationError: Error, Equatable, CustomStringConvertible {
    /// An argument that is not a ``LaunchFlag``.
    case unknownArgument(String)
    /// A flag that takes a value came last.
    case missingValue(LaunchFlag)
    /// The value of `--questions-url` is not an absolute http(s) URL.
    case invalidURL(String)

    /// A short, actionable message.
    public var description: String {
        switch self {
        case .unknownArgument(let argument):
            "unknown argument '\(argument)'; see --help"
        case .missingValue(let flag):
            "\(flag.rawValue) needs a value"
        case .invalidURL(let value):
            "'\(value)' is not an http or https URL"
        }
    }
}

/// How `trivia` was asked to run, parsed from its command-line arguments.
public struct LaunchConfiguration: Equatable, Sendable {
    /// Where questions come from when no flag says otherwise. A placeholder on the reserved example.com domain:
    /// the demo ships no server, so pass `--questions-url` or `--ui-testing`.
    public static let defaultQuestionsURL = URL(string: "https://example.com/trivia/questions.json")!

    /// The usage text printed by `--help`.
    public static let usage = """
        usage: trivia [--ui-testing] [--questions-url URL]
          --ui-testing         play the bundled questions offline (deterministic, for UI tests)
          --questions-url URL  fetch the questions document from URL (default \(defaultQuestionsURL.absoluteString))
          --help               show this help
        """

    /// Whether to use the bundled questions instead of the network; takes precedence over ``questionsURL``.
    public var isUITesting: Bool
    /// The remote questions document used when not UI testing.
    public var questionsURL: URL
    /// Whether the user asked for the usage text.
    public var showsHelp: Bool

    /// Creates a configuration from explicit values; the defaults are what `trivia` does with no arguments.
    public init(isUITesting: Bool = false, questionsURL: URL = Self.defaultQuestionsURL, showsHelp: Bool = false) {
        self.isUITesting = isUITesting
        self.questionsURL = questionsURL
        self.showsHelp = showsHelp
    }

    /// Parses arguments without the program name, e.g. `["--ui-testing"]`.
    public init(arguments: [String]) throws(LaunchConfigurationError) {
        self.init()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard let flag = LaunchFlag(rawValue: argument) else {
                throw .unknownArgument(argument)
            }
            switch flag {
            case .uiTesting:
                isUITesting = true
            case .help:
                showsHelp = true
            case .questionsURL:
                guard let value = remaining.popFirst() else {
                    throw .missingValue(flag)
                }
                guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme) else {
                    throw .invalidURL(value)
                }
                questionsURL = url
            }
        }
    }

    /// The provider this configuration asks for: the bundled file when UI testing, the network otherwise.
    public func makeProvider() -> any TriviaAPIProviding {
        isUITesting ? OfflineTriviaAPI() : NetworkTriviaAPI(url: questionsURL)
    }
}
