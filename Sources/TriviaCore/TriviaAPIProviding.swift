import Foundation

/// A source of the raw questions document (the JSON format described on `Question`'s `Decodable` conformance).
///
/// Providers only deliver bytes; ``QuestionsLoader`` decodes and validates them, so every provider, including a
/// test's mock, goes through the same checks.
public protocol TriviaAPIProviding: Sendable {
    /// Fetches the questions document.
    func fetchQuestionsData() async throws -> Data
}

/// Why a provider could not deliver the questions document.
public enum TriviaAPIError: LocalizedError, Equatable, CustomStringConvertible {
    /// The questions file is missing from the module's resource bundle (a packaging mistake).
    case missingBundledResource(String)
    /// The server answered with a non-2xx HTTP status.
    case unexpectedStatus(code: Int, url: URL)

    /// A short, actionable message.
    public var description: String {
        switch self {
        case .missingBundledResource(let name):
            "the bundled questions file \(name) is missing from the TriviaCore resources"
        case .unexpectedStatus(let code, let url):
            "\(url.absoluteString) answered with HTTP status \(code)"
        }
    }

    /// The same message as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}
