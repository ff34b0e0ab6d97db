import Foundation
import TriviaCore

/// A provider that returns canned data or a canned error, and reports each fetch.
struct MockTriviaAPI: TriviaAPIProviding {
    /// What every fetch returns.
    var result: Result<Data, MockAPIError>
    /// Called at the start of every fetch.
    var onFetch: @Sendable () -> Void = {}

    func fetchQuestionsData() async throws -> Data {
        onFetch()
        return try result.get()
    }
}

/// The error a failing ``MockTriviaAPI`` throws.
struct MockAPIError: LocalizedError, Equatable {
    var errorDescription: String? { "the mock API is offline" }
}

/// Questions documents written for these tests: well-formed ones, and malformed ones for the error paths.
enum TestDocuments {
    /// A valid document with two questions whose correct answers are B and C.
    static let twoQuestions = Data(
        """
        {"questions": [
            {"title": "Who directed Alien (1979)?", "answer_a": "James Cameron", "answer_b": "Ridley Scott",
             "answer_c": "David Fincher", "correct_answer": "B"},
            {"title": "Which film is set on the planet Pandora?", "answer_a": "Dune", "answer_b": "Interstellar",
             "answer_c": "Avatar", "correct_answer": "c"}
        ]}
        """.utf8
    )

    /// A document with one valid question and a second whose `correct_answer` is out of range.
    static let letterOutOfRange = Data(
        """
        {"questions": [
            {"title": "Q1", "answer_a": "1", "answer_b": "2", "answer_c": "3", "correct_answer": "A"},
            {"title": "Q2", "answer_a": "1", "answer_b": "2", "answer_c": "3", "correct_answer": "D"}
        ]}
        """.utf8
    )

    /// A document with a single question built from `fields`, a JSON object body without braces.
    static func oneQuestion(_ fields: String) -> Data {
        Data(#"{"questions": [{\#(fields)}]}"#.utf8)
    }
}
