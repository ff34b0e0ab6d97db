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

    /// A round as the player sees it, each screen recorded as an attachment (`swift test --attachments-path DIR`
    /// keeps them): swiftcov's reports show them at the test, a failing one first.
    @Test("A round as the player sees it: a wrong answer, the right one, then the next question")
    func playsARound() {
        var terminal = TriviaTerminal(game: Fixtures.game())
        var step = 0
        func recordScreen(_ lines: [String], _ name: String) {
            step += 1
            Attachment.record(lines.joined(separator: "\n") + "\n", named: "\(step)-\(name).txt")
        }
        recordScreen(terminal.screen(), "question")

        let wrong = terminal.handle(line: "A")
        recordScreen(wrong.lines, "wrong-answer")
        let right = terminal.handle(line: "B")
        recordScreen(right.lines, "right-answer")
        let next = terminal.handle(line: "N")
        recordScreen(next.lines, "next-question")

        #expect(wrong.lines.first == "result: Wrong, A is not the right answer. Try again.")
        #expect(right.lines.contains("score: 1"))
        // With TRIVIA_DEMO_FAILURES=1, a UI test failing at its last screen: SampleReports show its screens.
        let expected = DemoFailures.isEnabled ? "Alien" : "Pandora"
        #expect(next.lines.first?.contains(expected) == true)
    }

    @Test
    func quit() {
        var terminal = TriviaTerminal(game: Fixtures.game())
        _ = terminal.handle(line: "B")

        let response = terminal.handle(line: "Q")

        #expect(response == TerminalResponse(lines: ["goodbye: Final score: 1"], quits: true))
    }
}
