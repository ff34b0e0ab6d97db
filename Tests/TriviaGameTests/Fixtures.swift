import TriviaCore
import TriviaGame

/// Three questions written for these tests, with correct answers B, C and A.
enum Fixtures {
    /// The questions in play order.
    static let questions = [
        Question(
            title: "Who directed Alien (1979)?",
            answerA: "James Cameron",
            answerB: "Ridley Scott",
            answerC: "David Fincher",
            correctAnswer: .b
        ),
        Question(
            title: "Which film is set on the planet Pandora?",
            answerA: "Dune",
            answerB: "Interstellar",
            answerC: "Avatar",
            correctAnswer: .c
        ),
        Question(
            title: "Which film won the first Academy Award for Best Animated Feature?",
            answerA: "Shrek",
            answerB: "Monsters, Inc.",
            answerC: "Jimmy Neutron: Boy Genius",
            correctAnswer: .a
        ),
    ]

    /// A new game over ``questions``.
    static func game() -> Game {
        Game(questions: questions)!
    }
}
