import Core

/// Test support: a streak built from a pattern such as "yyny".
public func streak(_ pattern: String) -> Streak {
    var streak = Streak()
    for answer in pattern {
        streak.record(correct: answer == "y")
    }
    return streak
}

/// Never called: test code no report should count.
public func unusedHelper() -> Int {
    var total = 0
    for value in 1...10 {
        total += value
    }
    return total
}
