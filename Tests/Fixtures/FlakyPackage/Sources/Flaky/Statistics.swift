/// Sums and averages: run by StatisticsTests (XCTest) and `meanOfNothing` (Swift Testing).
public func sum(_ values: [Int]) -> Int {
    var total = 0
    for value in values {
        total += value
    }
    return total
}

/// The mean, or nil for no values.
public func mean(_ values: [Int]) -> Double? {
    guard !values.isEmpty else {
        return nil
    }
    return Double(sum(values)) / Double(values.count)
}

/// The middle value (the mean of the two middle ones for an even count), or nil for no values.
public func median(_ values: [Int]) -> Double? {
    let sorted = values.sorted()
    guard !sorted.isEmpty else {
        return nil
    }
    let middle = sorted.count / 2
    if sorted.count % 2 == 1 {
        return Double(sorted[middle])
    }
    return Double(sorted[middle - 1] + sorted[middle]) / 2
}

/// `part` as a whole percentage of `whole`, rounded down; 0 when `whole` is 0.
public func percent(_ part: Int, of whole: Int) -> Int {
    guard whole != 0 else {
        return 0
    }
    let scaled = part * 100
    return scaled / whole
}
