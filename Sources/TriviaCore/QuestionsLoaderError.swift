/// Why ``QuestionsLoader`` could not produce a list of questions.
public enum QuestionsLoaderError: Error, Equatable, CustomStringConvertible {
    /// The provider failed before any data arrived; carries the provider's error message.
    case providerFailed(String)
    /// The data is not a valid questions document; `path` is the JSON key path such as
    /// `questions[3].correct_answer`, empty when the document itself is not JSON.
    case malformedData(path: String, reason: String)
    /// The document is valid but contains no questions, so there is nothing to play.
    case noQuestions

    /// A short, actionable message.
    public var description: String {
        switch self {
        case .providerFailed(let message):
            "could not fetch the questions: \(message)"
        case .malformedData(let path, let reason) where path.isEmpty:
            "malformed questions data: \(reason)"
        case .malformedData(let path, let reason):
            "malformed questions data at \(path): \(reason)"
        case .noQuestions:
            "the questions document contains no questions"
        }
    }
}
