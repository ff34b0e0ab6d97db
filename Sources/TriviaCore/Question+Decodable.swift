import Foundation

/// Decodes one entry of the questions document:
///
/// ```json
/// {"title": "…", "answer_a": "…", "answer_b": "…", "answer_c": "…", "correct_answer": "B"}
/// ```
///
/// `correct_answer` is the *letter* of the correct answer, "A", "B" or "C" (either case), naming the `answer_…`
/// key it points at. A letter was chosen over an integer index because an index invites the 0-based versus
/// 1-based mix-up that silently marks the wrong answer as correct; a letter cannot be misread. Anything else,
/// including a number, is a `DecodingError.dataCorrupted` at that key, never a silently dropped question.
extension Question: Decodable {
    private enum CodingKeys: String, CodingKey {
        case title
        case answerA = "answer_a"
        case answerB = "answer_b"
        case answerC = "answer_c"
        case correctAnswer = "correct_answer"
    }

    /// Decodes and validates a question; see the extension's documentation for the format.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try Self.decodeText(.title, in: container),
            answerA: try Self.decodeText(.answerA, in: container),
            answerB: try Self.decodeText(.answerB, in: container),
            answerC: try Self.decodeText(.answerC, in: container),
            correctAnswer: try Self.decodeCorrectAnswer(in: container)
        )
    }

    /// Decodes a string that must contain more than whitespace.
    private static func decodeText(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws
        -> String
    {
        let text = try container.decode(String.self, forKey: key)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "must not be empty")
        }
        return text
    }

    /// Decodes `correct_answer`, explaining the two likely mistakes: a number, or a letter past C.
    private static func decodeCorrectAnswer(in container: KeyedDecodingContainer<CodingKeys>) throws -> AnswerChoice {
        if let number = try? container.decode(Int.self, forKey: .correctAnswer) {
            throw DecodingError.dataCorruptedError(
                forKey: .correctAnswer,
                in: container,
                debugDescription: "must be the letter \"A\", \"B\" or \"C\", not the number \(number)"
            )
        }
        let letter = try container.decode(String.self, forKey: .correctAnswer)
        guard let choice = AnswerChoice(letter: letter) else {
            throw DecodingError.dataCorruptedError(
                forKey: .correctAnswer,
                in: container,
                debugDescription: "must be \"A\", \"B\" or \"C\", found \"\(letter)\""
            )
        }
        return choice
    }
}

/// The top-level questions document, `{"questions": [...]}`.
struct QuestionsDocument: Decodable {
    /// The questions in the order they are played.
    let questions: [Question]
}
