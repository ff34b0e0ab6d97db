import Foundation
import Testing
import TriviaCore

/// The questions document format, and every way it can be malformed.
@Suite("Question decoding")
struct QuestionDecodingTests {
    /// The fields of a valid question, for tests that replace one of them.
    static let validFields = #""title": "T", "answer_a": "1", "answer_b": "2", "answer_c": "3""#

    @Test(
        "correct_answer letters map to choices in either case",
        arguments: [
            ("A", AnswerChoice.a), ("b", .b), ("C", .c), ("c", .c),
        ])
    func correctAnswerLetter(letter: String, expected: AnswerChoice) throws {
        let data = TestDocuments.oneQuestion(Self.validFields + #", "correct_answer": "\#(letter)""#)

        let questions = try QuestionsLoader.decodeQuestions(from: data)

        #expect(questions.map(\.correctAnswer) == [expected])
        #expect(questions[0].answers[questions[0].correctAnswerIndex] == questions[0].answer(for: expected))
    }

    @Test(
        "Malformed documents name the offending key",
        arguments: [
            (#""title": "T", "answer_a": "1", "answer_b": "2", "correct_answer": "A""#, "questions[0].answer_c"),
            (validFields + #", "correct_answer": 1"#, "questions[0].correct_answer"),
            (validFields + #", "correct_answer": "D""#, "questions[0].correct_answer"),
            (validFields + #", "correct_answer": "AB""#, "questions[0].correct_answer"),
            (validFields + #", "correct_answer": null"#, "questions[0].correct_answer"),
            (
                #""title": 7, "answer_a": "1", "answer_b": "2", "answer_c": "3", "correct_answer": "A""#,
                "questions[0].title"
            ),
            (
                #""title": " ", "answer_a": "1", "answer_b": "2", "answer_c": "3", "correct_answer": "A""#,
                "questions[0].title"
            ),
        ]
    )
    func malformedQuestion(fields: String, path: String) {
        #expect {
            try QuestionsLoader.decodeQuestions(from: TestDocuments.oneQuestion(fields))
        } throws: { error in
            guard case .malformedData(let errorPath, _) = error as? QuestionsLoaderError else {
                return false
            }
            return errorPath == path
        }
    }

    @Test("A number for correct_answer explains that a letter is expected")
    func numericCorrectAnswer() {
        let data = TestDocuments.oneQuestion(Self.validFields + #", "correct_answer": 0"#)

        #expect(
            throws: QuestionsLoaderError.malformedData(
                path: "questions[0].correct_answer",
                reason: #"must be the letter "A", "B" or "C", not the number 0"#
            )
        ) {
            try QuestionsLoader.decodeQuestions(from: data)
        }
    }

    @Test("Data that is not JSON is malformed at the root")
    func notJSON() throws {
        let error = try #require(throws: QuestionsLoaderError.self) {
            try QuestionsLoader.decodeQuestions(from: Data("<html>".utf8))
        }
        guard case .malformedData(let path, _) = error else {
            Issue.record("expected malformedData, got \(error)")
            return
        }
        #expect(path == "")
    }

    @Test("An empty question list is an error, not an empty game")
    func emptyList() {
        #expect(throws: QuestionsLoaderError.noQuestions) {
            try QuestionsLoader.decodeQuestions(from: Data(#"{"questions": []}"#.utf8))
        }
    }

    @Test("A non-2xx HTTP status is an error", .disabled("needs a URLProtocol stub, unreliable in corelibs Foundation"))
    func httpErrorStatus() async {
        let api = NetworkTriviaAPI(url: URL(string: "https://example.com/missing.json")!)

        await #expect(throws: TriviaAPIError.self) {
            try await api.fetchQuestionsData()
        }
    }
}
