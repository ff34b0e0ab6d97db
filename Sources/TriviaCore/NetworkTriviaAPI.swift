import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches the questions document over HTTP(S) with `URLSession`.
public struct NetworkTriviaAPI: TriviaAPIProviding {
    /// The address of the questions document.
    public let url: URL
    /// The session requests go through; injectable so callers can configure caching and timeouts.
    private let session: URLSession

    /// Creates a provider that downloads `url` through `session`.
    public init(url: URL, session: URLSession = .shared) {
        self.url = url
        self.session = session
    }

    /// Downloads the document, treating any non-2xx HTTP status as an error rather than as questions data.
    public func fetchQuestionsData() async throws -> Data {
        let (data, response) = try await session.data(from: url)
        if let response = response as? HTTPURLResponse, !(200..<300).contains(response.statusCode) {
            throw TriviaAPIError.unexpectedStatus(code: response.statusCode, url: url)
        }
        return data
    }
}
