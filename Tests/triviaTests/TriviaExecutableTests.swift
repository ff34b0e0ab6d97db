import XCTest

/// UI tests of the `trivia` executable in `--ui-testing` mode, which plays the bundled questions in order; the
/// first is "Who directed Jaws (1975)?" with the correct answer A.
final class TriviaExecutableTests: XCTestCase {
    func testShowsFirstQuestionWithAnswersLabelledABC() throws {
        let output = try TriviaProcess.run(input: "")

        XCTAssertEqual(output.elements("question"), ["Who directed Jaws (1975)?"])
        XCTAssertEqual(output.elements("answer-a"), ["A) Steven Spielberg"])
        XCTAssertEqual(output.elements("answer-b"), ["B) George Lucas"])
        XCTAssertEqual(output.elements("answer-c"), ["C) Francis Ford Coppola"])
        XCTAssertEqual(output.elements("next-question"), [])
    }

    func testWrongAnswerDoesNotOfferNextQuestion() throws {
        let output = try TriviaProcess.run(input: "B\nC\n")

        XCTAssertEqual(output.elements("result").count, 2)
        XCTAssertTrue(output.elements("result").allSatisfy { $0.hasPrefix("Wrong") })
        XCTAssertEqual(output.elements("next-question"), [])
    }

    func testCorrectAnswerOffersNextQuestion() throws {
        let output = try TriviaProcess.run(input: "B\nA\nN\n")

        XCTAssertEqual(output.elements("result").last, "Correct!")
        XCTAssertEqual(output.elements("next-question"), ["N) Next question"])
        XCTAssertEqual(
            output.elements("question"),
            ["Who directed Jaws (1975)?", "In The Wizard of Oz (1939), what is the name of Dorothy's dog?"]
        )
    }

    func testQuitStopsReadingAndExitsCleanly() throws {
        let output = try TriviaProcess.run(input: "A\nQ\nB\n")

        XCTAssertEqual(output.status, 0)
        XCTAssertEqual(output.stdout.split(separator: "\n").last, "goodbye: Final score: 1")
        XCTAssertEqual(output.elements("result"), ["Correct!"])
    }

    func testEndOfInputExitsCleanly() throws {
        let output = try TriviaProcess.run(input: "")

        XCTAssertEqual(output.status, 0)
        XCTAssertEqual(output.elements("goodbye"), ["Final score: 0"])
        XCTAssertEqual(output.stderr, "")
    }

    func testUnknownArgumentIsAUsageError() throws {
        let output = try TriviaProcess.run(["--ui-testing", "--fast"], input: "")

        XCTAssertEqual(output.status, 2)
        XCTAssertEqual(output.stdout, "")
        XCTAssertTrue(output.stderr.contains("unknown argument '--fast'"), output.stderr)
    }
}
