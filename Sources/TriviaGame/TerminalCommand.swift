import Foundation
import TriviaCore

/// What one line typed at the trivia prompt asks for.
public enum TerminalCommand: Equatable, Sendable {
    /// Answer the current question with A, B or C.
    case answer(AnswerChoice)
    /// Go to the next question ("N").
    case nextQuestion
    /// Leave the game ("Q").
    case quit

    /// Parses a line, ignoring case and surrounding whitespace; `nil` when the line is not a command.
    public init?(line: String) {
        let input = line.trimmingCharacters(in: .whitespaces).uppercased()
        switch input {
        case "N":
            self = .nextQuestion
        case "Q":
            self = .quit
        default:
            guard let choice = AnswerChoice(rawValue: input) else {
                return nil
            }
            self = .answer(choice)
        }
    }
}
