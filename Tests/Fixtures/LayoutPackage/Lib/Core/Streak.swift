/// A run of right answers in a row.
public struct Streak: Sendable {
    public private(set) var length = 0
    public private(set) var best = 0

    public init() {}

    public mutating func record(correct: Bool) {
        if correct {
            length += 1
            best = max(best, length)
        } else {
            length = 0
        }
    }

    /// Never called by the tests: lines no test runs.
    public mutating func reset() {
        length = 0
        best = 0
    }
}
