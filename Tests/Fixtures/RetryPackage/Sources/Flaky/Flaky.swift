/// Whether a number is even: the code the tests cover.
public func isEven(_ number: Int) -> Bool {
    number % 2 == 0
}

/// State the order tests share: set by one test, read by others.
public enum Shared {
    nonisolated(unsafe) public static var ready = false
}
