import Testing

/// The next-question offer as seen from outside the `trivia` process, for each possible first answer.
@Suite("trivia answer flow")
struct TriviaAnswerFlowTests {
    @Test(
        "Next question is offered only after the correct answer",
        arguments: [
            ("A", true), ("B", false), ("C", false),
        ])
    func nextQuestionOffer(answer: String, offered: Bool) throws {
        let output = try TriviaProcess.run(input: answer + "\n")

        #expect(output.status == 0)
        #expect(
            output.elements("result") == [offered ? "Correct!" : "Wrong, \(answer) is not the right answer. Try again."]
        )
        #expect(output.elements("next-question") == (offered ? ["N) Next question"] : []))
    }
}

/// A test outside any suite: `--help` prints the usage and exits successfully without starting a game.
@Test func helpPrintsUsage() throws {
    let output = try TriviaProcess.run(["--help"], input: "")

    #expect(output.status == 0)
    #expect(output.stdout.hasPrefix("usage: trivia"))
    #expect(output.elements("question").isEmpty)
}
