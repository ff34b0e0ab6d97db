import SwiftCovModel

/// Splits a package's tests (their `swift test list` identifiers, `Module.Class/method` or
/// `Module.Suite/function()`) into shards. Every runner that computes the plan for the same list
/// and timings gets the same plan, whatever order the list came in: each test is in exactly one
/// shard.
///
/// Without timings the sorted list is cut into `count` runs of consecutive tests whose sizes
/// differ by at most one (a class's tests mostly stay together, which keeps the filters short).
/// With timings, tests are placed longest first onto the shard with the least time so far (then
/// the fewest tests, then the lowest number); a test without a timing counts as the median of
/// those with one.
package struct ShardPlan: Sendable, Equatable {
    /// The tests of each shard, sorted; `shards[0]` is shard 1.
    package var shards: [[String]]
    /// The time each shard is expected to take (seconds; with timings only, else zero).
    package var expectedSeconds: [Double]

    package init(tests: [String], count: Int, timings: TestTimings? = nil) {
        precondition(count >= 1, "a plan has at least one shard")
        let sorted = Array(Set(tests)).sorted(by: ShardPlan.precedes)
        guard let timings, !timings.isEmpty else {
            let (quotient, remainder) = sorted.count.quotientAndRemainder(dividingBy: count)
            var shards: [[String]] = []
            var start = 0
            for index in 0..<count {
                let size = quotient + (index < remainder ? 1 : 0)
                shards.append(Array(sorted[start..<start + size]))
                start += size
            }
            self.init(shards: shards, expectedSeconds: Array(repeating: 0, count: count))
            return
        }
        let known = sorted.compactMap { timings.seconds(of: $0) }
        let median = ShardPlan.median(known) ?? 1
        let weighted = sorted.map { (test: $0, seconds: timings.seconds(of: $0) ?? median) }
            .sorted { $0.seconds != $1.seconds ? $0.seconds > $1.seconds : ShardPlan.precedes($0.test, $1.test) }
        var shards = [[String]](repeating: [], count: count)
        var loads = [Double](repeating: 0, count: count)
        for (test, seconds) in weighted {
            var best = 0
            for index in 1..<count
            where loads[index] < loads[best]
                || (loads[index] == loads[best] && shards[index].count < shards[best].count)
            {
                best = index
            }
            shards[best].append(test)
            loads[best] += seconds
        }
        self.init(shards: shards.map { $0.sorted(by: ShardPlan.precedes) }, expectedSeconds: loads)
    }

    private init(shards: [[String]], expectedSeconds: [Double]) {
        self.shards = shards
        self.expectedSeconds = expectedSeconds
    }

    /// The tests of `shard`.
    package func tests(of shard: Shard) -> [String] { shards[shard.index - 1] }

    /// Byte order (the same on every platform and locale).
    private static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `swift test` arguments that run exactly `selected` out of `all` (both `swift test list`
    /// identifiers): one `--filter` whose pattern has a `TestID.filterPattern` per test, or one
    /// per class or suite when all of its tests are selected (checked against swift-log's Swift
    /// Testing tests). With nothing selected, a pattern no test matches (without a filter, `swift
    /// test` would run everything).
    package static func filterArguments(selecting selected: [String], of all: [String]) -> [String] {
        guard !selected.isEmpty else { return ["--filter", "^$"] }
        var sizes: [Substring: Int] = [:]
        for test in Set(all) { if let container = container(of: test) { sizes[container, default: 0] += 1 } }
        var patterns: [String] = []
        var wholeContainers: Set<Substring> = []
        let sorted = Set(selected).sorted(by: precedes)
        var selectedSizes: [Substring: Int] = [:]
        for test in sorted { if let container = container(of: test) { selectedSizes[container, default: 0] += 1 } }
        for test in sorted {
            guard let container = container(of: test), selectedSizes[container] == sizes[container],
                selectedSizes[container]! > 1
            else {
                patterns.append(TestID.filterPattern(of: test))
                continue
            }
            // The container's own tests, not those of a suite nested in it; Swift Testing matches
            // the identifier followed by where the test is declared (`/File.swift:12:5`).
            if wholeContainers.insert(container).inserted {
                patterns.append("^" + TestID.escapedForRegex(String(container)) + "/[^/]*(/[^/]*:[0-9]+:[0-9]+)?$")
            }
        }
        return ["--filter", patterns.joined(separator: "|")]
    }

    /// `Module.Class` of `Module.Class/method`; `Module.Suite/Inner` of `Module.Suite/Inner/test()`;
    /// nil for a test outside any suite (`Module.test()`).
    private static func container(of test: String) -> Substring? {
        test.lastIndex(of: "/").map { test[..<$0] }
    }
}
