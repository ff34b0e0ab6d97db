import Foundation

/// Turns a provider's questions document into validated ``Question`` values.
///
/// The provider is injected so tests can substitute a mock and the app can switch between the network and the
/// bundled file (see ``LaunchConfiguration``). One bad question fails the whole load with its JSON path: a quiz
/// that silently skips questions is harder to notice than one that refuses to start.
public struct QuestionsLoader: Sendable {
    private let provider: any TriviaAPIProviding

    /// Creates a loader that reads from `provider`.
    public init(provider: any TriviaAPIProviding) {
        self.provider = provider
    }

    /// Fetches and decodes the questions, in document order.
    public func loadQuestions() async throws(QuestionsLoaderError) -> [Question] {
        let data: Data
        do {
            data = try await provider.fetchQuestionsData()
        } catch {
            // `localizedDescription` reads well for URLSession's and Foundation's NSErrors and for
            // `TriviaAPIError`, where `String(describing:)` would dump a whole user-info dictionary.
            throw .providerFailed(error.localizedDescription)
        }
        return try Self.decodeQuestions(from: data)
    }

    /// Decodes a questions document; exposed separately so the format can be checked without a provider.
    public static func decodeQuestions(from data: Data) throws(QuestionsLoaderError) -> [Question] {
        let document: QuestionsDocument
        do {
            document = try JSONDecoder().decode(QuestionsDocument.self, from: data)
        } catch let error as DecodingError {
            throw Self.loaderError(for: error)
        } catch {
            throw .malformedData(path: "", reason: String(describing: error))
        }
        guard !document.questions.isEmpty else {
            throw .noQuestions
        }
        return document.questions
    }

    /// Maps Foundation's decoding error to a key path and a one-line reason.
    private static func loaderError(for error: DecodingError) -> QuestionsLoaderError {
        switch error {
        case .keyNotFound(let key, let context):
            return .malformedData(path: keyPath(context.codingPath + [key]), reason: "missing key")
        case .typeMismatch(let type, let context):
            return .malformedData(path: keyPath(context.codingPath), reason: "expected \(type)")
        case .valueNotFound(let type, let context):
            return .malformedData(path: keyPath(context.codingPath), reason: "expected \(type), found null")
        case .dataCorrupted(let context):
            return .malformedData(path: keyPath(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .malformedData(path: "", reason: String(describing: error))
        }
    }

    /// Renders a coding path as `questions[3].correct_answer`.
    private static func keyPath(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return path
    }
}
