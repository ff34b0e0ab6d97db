import TriviaCore

/// The lines to print in reply to one input line, and whether the program should then stop.
public struct TerminalResponse: Equatable, Sendable {
    /// The lines to print, each starting with a ``ScreenElement`` identifier.
    public var lines: [String]
    /// Whether the player asked to quit.
    public var quits: Bool

    /// Creates a response.
    public init(lines: [String], quits: Bool = false) {
        self.lines = lines
        self.quits = quits
    }
}

/// The text-terminal presentation of a ``Game``: what the player sees, and what one typed line does.
///
/// It never reads or prints itself, so every screen can be checked in a unit test; `trivia`'s `main.swift` only
/// moves lines between this type and the terminal.
public struct TriviaTerminal: Sendable {
    /// The game being played.
    public private(set) var game: Game

    /// Creates a terminal for `game`.
    public init(game: Game) {
        self.game = game
    }

    /// The current question, its three answers, the next-question offer when available, and the prompt.
    public func screen() -> [String] {
        let question = game.currentQuestion
        var lines = [ScreenElement.question.line(question.title)]
        for choice in AnswerChoice.allCases {
            lines.append(ScreenElement.answer(choice).line("\(choice.letter)) \(question.answer(for: choice))"))
        }
        return lines + offerAndPrompt()
    }

    /// Processes one line typed by the player.
    public mutating func handle(line: String) -> TerminalResponse {
        switch TerminalCommand(line: line) {
        case .answer(let choice):
            let result = game.answer(choice)
            let verdict =
                switch result {
                case .correct: "Correct!"
                case .wrong: "Wrong, \(choice.letter) is not the right answer. Try again."
                }
            let lines = [ScreenElement.result.line(verdict), ScreenElement.score.line(String(game.score))]
            return TerminalResponse(lines: lines + offerAndPrompt())
        case .nextQuestion:
            guard game.advance() else {
                let message = "Answer the question correctly before moving on."
                return TerminalResponse(lines: [ScreenElement.error.line(message)] + offerAndPrompt())
            }
            return TerminalResponse(lines: screen())
        case .quit:
            return TerminalResponse(lines: farewell(), quits: true)
        case nil:
            let message = "'\(line)' is not A, B, C, N or Q."
            return TerminalResponse(lines: [ScreenElement.error.line(message)] + offerAndPrompt())
        }
    }

    /// The lines printed when the player quits or input ends.
    public func farewell() -> [String] {
        [ScreenElement.goodbye.line("Final score: \(game.score)")]
    }

    /// "Next question" when available, then the prompt listing what may be typed.
    private func offerAndPrompt() -> [String] {
        if game.isNextQuestionAvailable {
            return [
                ScreenElement.nextQuestion.line("N) Next question"),
                ScreenElement.prompt.line("Type N for the next question, A, B or C to answer again, Q to quit."),
            ]
        }
        return [ScreenElement.prompt.line("Type A, B or C to answer, Q to quit.")]
    }
}
