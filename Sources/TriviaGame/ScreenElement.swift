import TriviaCore

/// The identifier that starts each line the terminal prints, so a UI test can find an element by its identifier
/// the way XCUITest finds a view by its accessibility identifier. Lines read `identifier: text`.
public enum ScreenElement: String, CaseIterable, Sendable {
    /// The current question's title.
    case question
    /// `A) …`, the first answer.
    case answerA = "answer-a"
    /// `B) …`, the second answer.
    case answerB = "answer-b"
    /// `C) …`, the third answer.
    case answerC = "answer-c"
    /// Whether the latest answer was right or wrong.
    case result
    /// The score so far.
    case score
    /// `N) Next question`, printed only while advancing is allowed.
    case nextQuestion = "next-question"
    /// What the player may type next.
    case prompt
    /// Input the game did not understand.
    case error
    /// The final score, printed when the player quits or input ends.
    case goodbye

    /// The element that shows the answer for `choice`.
    public static func answer(_ choice: AnswerChoice) -> ScreenElement {
        switch choice {
        case .a: .answerA
        case .b: .answerB
        case .c: .answerC
        }
    }

    /// A printable line showing `text` as this element.
    public func line(_ text: String) -> String {
        "\(rawValue): \(text)"
    }
}
