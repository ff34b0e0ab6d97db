import Foundation

/// Reads the questions document from disk: the bundled `TriviaQuestions.json` by default, so the game and its UI
/// tests run without a network and always see the same questions.
public struct OfflineTriviaAPI: TriviaAPIProviding {
    /// Where the document comes from.
    private enum Source: Sendable {
        case bundled
        case file(URL)
    }

    /// The name of the questions file in TriviaCore's resources.
    public static let bundledResourceName = "TriviaQuestions.json"

    private let source: Source

    /// Creates a provider for the questions bundled with TriviaCore.
    public init() {
        source = .bundled
    }

    /// Creates a provider for the questions document at `fileURL`.
    public init(fileURL: URL) {
        source = .file(fileURL)
    }

    /// Reads the whole document.
    public func fetchQuestionsData() async throws -> Data {
        switch source {
        case .bundled:
            guard let url = Bundle.module.url(forResource: "TriviaQuestions", withExtension: "json") else {
                throw TriviaAPIError.missingBundledResource(Self.bundledResourceName)
            }
            return try Data(contentsOf: url)
        case .file(let url):
            return try Data(contentsOf: url)
        }
    }
}
