import TriviaCore
import TriviaGame
import XCTest

/// XCTest tests for playing through the whole list, kept in XCTest so the sample reports show XCTest output.
final class GameWrappingTests: XCTestCase {
    func testWrapsToFirstQuestionAfterLast() {
        var game = Fixtures.game()

        for question in Fixtures.questions {
            game.answer(question.correctAnswer)
            XCTAssertTrue(game.advance(), "advance after answering \"\(question.title)\" correctly")
        }

        // TRIVIA_DEMO_FAILURES=1 expects the game to stop after the last question, to show one test failing twice.
        let expectedIndex = DemoFailures.isEnabled ? Fixtures.questions.count - 1 : 0
        XCTAssertEqual(game.currentIndex, expectedIndex, "wraps to the first question")
        XCTAssertEqual(game.currentQuestion.title, Fixtures.questions[expectedIndex].title, "shows it again")
        XCTAssertEqual(game.score, 3)
    }

    func testLaterWrongAnswerKeepsQuestionSolved() {
        var game = Fixtures.game()

        let first = game.answer(.b)
        let second = game.answer(.a)

        XCTAssertEqual(first, .correct)
        XCTAssertEqual(second, .wrong)

        XCTAssertTrue(game.isNextQuestionAvailable)
        XCTAssertEqual(game.lastResult, AnswerResult.wrong)
        XCTAssertEqual(game.score, 1)
    }
}
