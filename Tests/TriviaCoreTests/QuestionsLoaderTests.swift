import Foundation
import TriviaCore
import XCTest

/// XCTest tests for ``QuestionsLoader``, kept in XCTest so the sample reports show XCTest output.
final class QuestionsLoaderTests: XCTestCase {
    func testLoadsQuestionsFromInjectedProvider() {
        let loader = QuestionsLoader(provider: MockTriviaAPI(result: .success(TestDocuments.twoQuestions)))
        let loaded = expectation(description: "questions loaded")

        Task {
            do {
                let questions = try await loader.loadQuestions()
                XCTAssertEqual(
                    questions.map(\.title),
                    ["Who directed Alien (1979)?", "Which film is set on the planet Pandora?"]
                )
                XCTAssertEqual(questions.map(\.correctAnswer), [.b, .c])
                XCTAssertEqual(questions.map(\.correctAnswerIndex), [1, 2])
            } catch {
                XCTFail("unexpected error: \(error)")
            }
            loaded.fulfill()
        }

        wait(for: [loaded], timeout: 10)
    }

    func testFetchesFromProviderExactlyOnce() async throws {
        let fetched = expectation(description: "provider asked for data")
        fetched.assertForOverFulfill = true
        let provider = MockTriviaAPI(result: .success(TestDocuments.twoQuestions), onFetch: { fetched.fulfill() })

        let questions = try await QuestionsLoader(provider: provider).loadQuestions()

        await fulfillment(of: [fetched], timeout: 10)
        XCTAssertEqual(questions.count, 2)
    }

    func testBundledQuestionsLoadOffline() async throws {
        let questions = try await QuestionsLoader(provider: OfflineTriviaAPI()).loadQuestions()

        // TRIVIA_DEMO_FAILURES=1 expects one question too many, to show an XCTAssertEqual failure with a message.
        let expectedCount = DemoFailures.isEnabled ? 13 : 12
        XCTAssertEqual(questions.count, expectedCount, "TriviaQuestions.json holds twelve questions")
        XCTAssertEqual(questions.first?.title, "Who directed Jaws (1975)?")
        XCTAssertEqual(questions.first?.correctAnswer, .a)
    }

    func testOfflineProviderReadsAGivenFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trivia-\(UUID().uuidString).json")
        try TestDocuments.twoQuestions.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let questions = try await QuestionsLoader(provider: OfflineTriviaAPI(fileURL: file)).loadQuestions()

        XCTAssertEqual(questions.map(\.correctAnswer), [.b, .c])
    }

    func testOutOfRangeCorrectAnswerIsAnErrorNotADroppedQuestion() async {
        let loader = QuestionsLoader(provider: MockTriviaAPI(result: .success(TestDocuments.letterOutOfRange)))

        do {
            let questions = try await loader.loadQuestions()
            XCTFail("expected an error, loaded \(questions.count) questions")
        } catch {
            XCTAssertEqual(
                error,
                .malformedData(path: "questions[1].correct_answer", reason: #"must be "A", "B" or "C", found "D""#)
            )
            XCTAssertEqual(
                error.description,
                #"malformed questions data at questions[1].correct_answer: must be "A", "B" or "C", found "D""#
            )
        }
    }

    func testProviderFailureIsWrapped() async {
        let loader = QuestionsLoader(provider: MockTriviaAPI(result: .failure(MockAPIError())))

        do {
            _ = try await loader.loadQuestions()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error, .providerFailed("the mock API is offline"))
        }
    }

    func testLiveNetworkAPI() async throws {
        // The demo ships no server and CI has no network; this test is here to show a skipped XCTest case.
        guard let address = ProcessInfo.processInfo.environment["TRIVIA_LIVE_QUESTIONS_URL"],
            let url = URL(string: address)
        else {
            throw XCTSkip("needs network access: set TRIVIA_LIVE_QUESTIONS_URL to a questions document")
        }

        let questions = try await QuestionsLoader(provider: NetworkTriviaAPI(url: url)).loadQuestions()

        XCTAssertFalse(questions.isEmpty)
    }
}
