/// Points for an answer: ten for a right one, a bonus for a fast one, nothing for a wrong one.
public func points(correct: Bool, seconds: Int) -> Int {
    guard correct else { return 0 }
    if seconds < 5 {
        return 15
    }
    return 10
}

/// The rank a score earns.
public func rank(of score: Int) -> String {
    switch score {
    case ..<0: return "impossible"
    case 0..<50: return "novice"
    case 50..<100: return "fan"
    default: return "cinephile"
    }
}
