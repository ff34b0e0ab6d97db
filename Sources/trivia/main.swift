// `trivia`: a terminal front end for the trivia game, kept thin so the logic stays in the unit-tested libraries.
//
// Usage: trivia [--ui-testing] [--questions-url URL]   (`--ui-testing` plays the bundled questions offline)
//
// Every line on stdout starts with a stable identifier and ": ", like an accessibility identifier, so the
// black-box tests in Tests/triviaTests can find what the player sees (see `ScreenElement` in TriviaGame):
//
//     question: Who directed Jaws (1975)?
//     answer-a: A) Steven Spielberg
//     answer-b: B) George Lucas
//     answer-c: C) Francis Ford Coppola
//     prompt: Type A, B or C to answer, Q to quit.
//     result: Correct!                  after an answer (or "Wrong, …")
//     score: 1
//     next-question: N) Next question   only once the current question is answered correctly
//     error: …                          input that is not A, B, C, N or Q
//     goodbye: Final score: 1           on Q or end of input
//
// Exit status: 0 after Q or end of input, 1 when the questions cannot be loaded, 2 for bad arguments.
// Error messages go to stderr.

import Foundation
import TriviaCore
import TriviaGame

/// Writes lines to stdout unbuffered, so a player at a pipe sees each screen before typing.
func show(_ lines: [String]) {
    FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
}

/// Writes an error message to stderr.
func showError(_ message: String) {
    FileHandle.standardError.write(Data("trivia: error: \(message)\n".utf8))
}

let configuration: LaunchConfiguration
do {
    configuration = try LaunchConfiguration(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    showError(error.description)
    exit(2)
}

if configuration.showsHelp {
    show([LaunchConfiguration.usage])
    exit(0)
}

let questions: [Question]
do {
    questions = try await QuestionsLoader(provider: configuration.makeProvider()).loadQuestions()
} catch {
    showError("\(error.description) (run with --ui-testing to play the bundled questions)")
    exit(1)
}

// The loader never returns an empty list, so the game always starts.
guard let game = Game(questions: questions) else {
    showError(QuestionsLoaderError.noQuestions.description)
    exit(1)
}

var terminal = TriviaTerminal(game: game)
show(terminal.screen())
while let line = readLine() {
    let response = terminal.handle(line: line)
    show(response.lines)
    if response.quits {
        exit(0)
    }
}
show(terminal.farewell())
