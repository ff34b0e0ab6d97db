import Core

var streak = Streak()
for answer in CommandLine.arguments.dropFirst() {
    streak.record(correct: answer == "y")
}
print("best streak \(streak.best), rank \(rank(of: streak.best * 10))")
