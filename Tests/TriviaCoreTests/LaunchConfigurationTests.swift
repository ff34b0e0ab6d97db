import Foundation
import Testing
import TriviaCore

/// Parsing `trivia`'s command line and choosing the questions provider.
@Suite("Launch configuration")
struct LaunchConfigurationTests {
    @Test(
        "Flags parse into a configuration",
        arguments: [
            ([], LaunchConfiguration()),
            (["--ui-testing"], LaunchConfiguration(isUITesting: true)),
            (["--help"], LaunchConfiguration(showsHelp: true)),
            (
                ["--questions-url", "https://trivia.test/q.json", "--ui-testing"],
                LaunchConfiguration(isUITesting: true, questionsURL: URL(string: "https://trivia.test/q.json")!)
            ),
        ])
    func parses(arguments: [String], expected: LaunchConfiguration) throws {
        #expect(try LaunchConfiguration(arguments: arguments) == expected)
    }

    @Test(
        "Bad arguments are reported",
        arguments: [
            (["--ui"], LaunchConfigurationError.unknownArgument("--ui")),
            (["--questions-url"], .missingValue(.questionsURL)),
            (["--questions-url", "ftp://trivia.test/q.json"], .invalidURL("ftp://trivia.test/q.json")),
        ])
    func rejects(arguments: [String], expected: LaunchConfigurationError) {
        #expect(throws: expected) {
            try LaunchConfiguration(arguments: arguments)
        }
    }

    @Test("--ui-testing switches to the offline provider")
    func uiTestingUsesOfflineProvider() {
        #expect(LaunchConfiguration(isUITesting: true).makeProvider() is OfflineTriviaAPI)
        #expect(LaunchConfiguration().makeProvider() is NetworkTriviaAPI)
    }

    @Test("Every flag is in the usage text", arguments: LaunchFlag.allCases)
    func usageListsFlag(flag: LaunchFlag) {
        #expect(LaunchConfiguration.usage.contains(flag.rawValue))
    }
}
