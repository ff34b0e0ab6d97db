/// A multiple-choice movie-trivia question with exactly three answers, one of them correct.
///
/// Stored as three named answers plus an ``AnswerChoice`` rather than an array and an integer, so a question
/// with two answers or a correct answer at position 3 cannot be built at all.
public struct Question: Hashable, Sendable {
    /// The question as shown to the player.
    public let title: String
    /// The answer labelled A.
    public let answerA: String
    /// The answer labelled B.
    public let answerB: String
    /// The answer labelled C.
    public let answerC: String
    /// The choice that answers the question correctly.
    public let correctAnswer: AnswerChoice

    /// Creates a question from its title, three answers and the correct choice.
    public init(title: String, answerA: String, answerB: String, answerC: String, correctAnswer: AnswerChoice) {
        self.title = title
        self.answerA = answerA
        self.answerB = answerB
        self.answerC = answerC
        self.correctAnswer = correctAnswer
    }

    /// The three answers in display order A, B, C.
    public var answers: [String] { [answerA, answerB, answerC] }

    /// The zero-based index of the correct answer in ``answers``.
    public var correctAnswerIndex: Int { correctAnswer.index }

    /// The text of the answer for `choice`.
    public func answer(for choice: AnswerChoice) -> String {
        switch choice {
        case .a: answerA
        case .b: answerB
        case .c: answerC
        }
    }

    /// Whether `choice` is the correct answer.
    public func isCorrect(_ choice: AnswerChoice) -> Bool {
        choice == correctAnswer
    }
}
