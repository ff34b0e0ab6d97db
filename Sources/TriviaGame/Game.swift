import TriviaCore

/// Whether an answer was right.
public enum AnswerResult: Equatable, Sendable {
    /// The answer was the question's correct answer.
    case correct
    /// The answer was one of the other two.
    case wrong
}

/// A trivia game that cycles through a fixed list of questions.
///
/// The player may answer the current question any number of times; only a correct answer unlocks
/// ``advance()``. After the last question the game wraps to the first, so it never ends on its own.
public struct Game: Equatable, Sendable {
    /// The questions in play order; never empty.
    public let questions: [Question]
    /// The position of ``currentQuestion`` in ``questions``.
    public private(set) var currentIndex = 0
    /// One point per question answered correctly, counted once per visit to the question.
    public private(set) var score = 0
    /// The result of the latest answer to the current question, `nil` before the first answer.
    public private(set) var lastResult: AnswerResult?
    /// Whether the current question has been answered correctly, which is what makes "next question" available.
    public private(set) var isNextQuestionAvailable = false

    /// Starts a game at the first question, or returns `nil` when there is nothing to play.
    public init?(questions: [Question]) {
        guard !questions.isEmpty else {
            return nil
        }
        self.questions = questions
    }

    /// The question the player is answering.
    public var currentQuestion: Question { questions[currentIndex] }

    /// Answers the current question. Once it has been answered correctly it stays solved: a later wrong answer
    /// is reported as wrong but neither takes the point back nor hides "next question".
    @discardableResult
    public mutating func answer(_ choice: AnswerChoice) -> AnswerResult {
        let result: AnswerResult = currentQuestion.isCorrect(choice) ? .correct : .wrong
        lastResult = result
        if result == .correct && !isNextQuestionAvailable {
            isNextQuestionAvailable = true
            score += 1
        }
        return result
    }

    /// Moves to the next question, wrapping to the first after the last. Returns `false`, and changes
    /// nothing, while the current question has not been answered correctly.
    @discardableResult
    public mutating func advance() -> Bool {
        guard isNextQuestionAvailable else {
            return false
        }
        currentIndex = (currentIndex + 1) % questions.count
        lastResult = nil
        isNextQuestionAvailable = false
        return true
    }
}
