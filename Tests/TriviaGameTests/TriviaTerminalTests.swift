import Testing
import TriviaCore
import TriviaGame

/// What the terminal shows, and what each typed line does. Without display names, so the console shows the
/// function names.
@Suite
struct TriviaTerminalTests {
    @Test("The screen shows the question and the answers labelled A, B and C")
    func screen() {
        let terminal = TriviaTerminal(game: Fixtures.game())

        #expect(
            terminal.screen() == [
                "question: Who directed Alien (1979)?",
                "answer-a: A) James Cameron",
                "answer-b: B) Ridley Scott",
                "answer-c: C) David Fincher",
                "prompt: Type A, B or C to answer, Q to quit.",
            ]
        )
    }

    @Test(arguments: [
        ("A", TerminalCommand.answer(.a)), ("b", .answer(.b)), (" c ", .answer(.c)),
        ("N", .nextQuestion), ("n", .nextQuestion), ("Q", .quit), ("q", .quit),
    ])
    func parsesCommand(line: String, expected: TerminalCommand) {
        #expect(TerminalCommand(line: line) == expected)
    }

    @Test(arguments: ["", "D", "AB", "next", "1"])
    func rejectsInput(line: String) {
        #expect(TerminalCommand(line: line) == nil)
    }

    @Test("A wrong answer says so and does not offer the next question")
    func wrongAnswer() {
        var terminal = TriviaTerminal(game: Fixtures.game())

        let response = terminal.handle(line: "a")

        #expect(
            response.lines == [
                "result: Wrong, A is not the right answer. Try again.",
                "score: 0",
                "prompt: Type A, B or C to answer, Q to quit.",
            ]
        )
        #expect(!response.quits)
    }

    @Test("The correct answer offers the next question, which shows the second question")
    func correctAnswerThenNext() {
        var terminal = TriviaTerminal(game: Fixtures.game())

        let answered = terminal.handle(line: "B")
        let next = terminal.handle(line: "N")

        #expect(answered.lines.contains("result: Correct!"))
        #expect(answered.lines.contains("next-question: N) Next question"))
        #expect(next.lines.first == "question: Which film is set on the planet Pandora?")
        #expect(!next.lines.contains { $0.hasPrefix("next-question: ") })
    }

    @Test("Next before the correct answer is refused", arguments: ["N", "x"])
    func refusedInput(line: String) {
        var terminal = TriviaTerminal(game: Fixtures.game())

        let response = terminal.handle(line: line)

        #expect(response.lines.first?.hasPrefix("error: ") == true)
        #expect(terminal.game.currentIndex == 0)
    }

    @Test
    func quit() {
        var terminal = TriviaTerminal(game: Fixtures.game())
        _ = terminal.handle(line: "B")

        let response = terminal.handle(line: "Q")

        #expect(response == TerminalResponse(lines: ["goodbye: Final score: 1"], quits: true))
    }
}
