/// Says how a number is, in words: enough branches for partial coverage.
public func describe(_ number: Int) -> String {
    if number < 0 {
        return "negative"
    }
    if number == 0 {
        return "zero"
    }
    return "positive"
}

/// Never called by the tests.
public func unused() -> Int {
    42
}
