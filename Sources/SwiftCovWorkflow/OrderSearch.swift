import SwiftCovModel

/// How `run --per-test` finds the test an order-dependent test depends on, as iDFlakies and
/// iFixFlakies do: the test runs after a subset of the tests that run before it in the suite, in
/// one process and in the suite's order, and the subset is halved while one half still makes it
/// end as it did in the suite, down to one test — a polluter (the test fails after it and passes
/// alone) or a state-setter (the test passes after it and fails alone). The search is bounded:
/// at most `maximumRuns(candidates:)` runs, and a deadline; it says why it named no test.
package enum OrderSearch {
    /// How many more times a test that ended differently alone than in the suite runs alone, to
    /// confirm it before searching.
    package static let confirmations = 3

    /// Seconds the searches of one run may take in all.
    package static let seconds: Double = 600

    /// What a search found.
    package enum Outcome: Sendable, Equatable {
        case found(OrderDependence.Cause)
        /// Why no test was named.
        case notFound(String)
    }

    /// The runs a search among `candidates` tests may take: 2·⌈log2 n⌉ + 4 (all of them once,
    /// both halves at each level, the one found once more).
    package static func maximumRuns(candidates: Int) -> Int {
        var levels = 0
        while (1 << levels) < candidates { levels += 1 }
        return 2 * levels + 4
    }

    /// The test of `candidates` (in the suite's order, all running before the dependent test)
    /// after which the dependent test ends as it did in the suite. `endsAsInSuite` runs the
    /// subset it is given, then the dependent test, in one process, and tells whether it ended as
    /// in the suite; `now` gives the seconds of the clock `deadline` is on.
    package static func find(
        among candidates: [TestID], deadline: Double, now: () -> Double,
        endsAsInSuite: ([TestID]) throws -> Bool
    ) rethrows -> Outcome {
        guard !candidates.isEmpty else { return .notFound("no test runs before it") }
        let limit = maximumRuns(candidates: candidates.count)
        var runs = 0
        // The runs after one test only, and how many ended as in the suite, by test.
        var afterOne: [TestID: (runs: Int, agreeing: Int)] = [:]
        // Nil when the runs or the time are used up.
        func check(_ subset: ArraySlice<TestID>) throws -> Bool? {
            guard runs < limit, now() < deadline else { return nil }
            runs += 1
            let agreed = try endsAsInSuite(Array(subset))
            if subset.count == 1, let test = subset.first {
                let counts = afterOne[test] ?? (0, 0)
                afterOne[test] = (counts.runs + 1, counts.agreeing + (agreed ? 1 : 0))
            }
            return agreed
        }
        func gaveUp() -> Outcome {
            .notFound(
                runs >= limit
                    ? "gave up after \(runs) runs (at most \(limit) for \(candidates.count) tests)"
                    : "gave up after \(runs) runs: the search's \(Int(seconds)) seconds ran out")
        }
        var current = candidates[...]
        guard let all = try check(current) else { return gaveUp() }
        guard all else {
            return .notFound(
                "it did not end as in the suite after the \(candidates.count) tests that run before it either")
        }
        while current.count > 1 {
            let middle = current.startIndex + current.count / 2
            let (first, second) = (current[..<middle], current[middle...])
            guard let inFirst = try check(first) else { return gaveUp() }
            if inFirst {
                current = first
                continue
            }
            guard let inSecond = try check(second) else { return gaveUp() }
            guard inSecond else {
                return .notFound(
                    "neither half of \(current.count) tests makes it end as in the suite: it depends on several "
                        + "tests, or on chance")
            }
            current = second
        }
        // Once more after the one found (the first time, when it was the only candidate).
        guard try check(current) != nil else { return gaveUp() }
        let found = current.first!
        let counts = afterOne[found] ?? (0, 0)
        let cause = OrderDependence.Cause(id: found.id, runs: counts.runs, agreeing: counts.agreeing)
        guard cause.agreeing == cause.runs else {
            return .notFound(
                "it ended as in the suite after \(cause.id) in \(cause.agreeing) of \(cause.runs) runs only")
        }
        return .found(cause)
    }
}
