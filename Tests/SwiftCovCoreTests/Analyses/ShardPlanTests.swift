import Foundation
import Testing

@testable import SwiftCovCore

@Suite("Splitting tests into shards")
struct ShardPlanTests {
    /// `swift test list` of apple/swift-log 1.16.2 (Fixtures/shards/README.md).
    static let listOutput =
        (try? String(contentsOfFile: ShardFixture.path("swift-log-list.txt"), encoding: .utf8)) ?? ""
    static let tests = TestList.parse(listOutput).tests.map(\.id)

    @Test("the real list: 176 tests, each once")
    func realList() {
        #expect(Self.tests.count == 176)
        #expect(Set(Self.tests).count == 176)
    }

    @Test(
        "--shard K/N: 1 ≤ K ≤ N, or one line that says what is wrong",
        arguments: [
            "0/3", "4/3", "1/0", "x", "1/", "/2", "2/3/4", "-1/3", "١/٣", "1/99999999999", "1/10001",
            "1/99999999999999999999999",
        ])
    func invalidShards(text: String) {
        #expect(throws: Shard.InvalidShard.self) { try Shard(parsing: text) }
        do {
            _ = try Shard(parsing: text)
        } catch {
            #expect(error.description.hasPrefix("--shard \(text): "))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("--shard reads K/N")
    func validShards() throws {
        #expect(try Shard(parsing: "1/1") == Shard(index: 1, count: 1))
        #expect(try Shard(parsing: "3/3") == Shard(index: 3, count: 3))
        #expect(try Shard(parsing: "2/32").description == "2/32")
        #expect(try Shard(parsing: "10000/10000") == Shard(index: 10000, count: 10000))
    }

    @Test(
        "by count: every test in exactly one shard, sizes within one, the same plan from any order",
        arguments: [1, 2, 3, 7, 32, 200])
    func byCount(count: Int) {
        let plan = ShardPlan(tests: Self.tests, count: count)
        #expect(plan.shards.count == count)
        let all = plan.shards.flatMap { $0 }
        #expect(all.count == Self.tests.count)
        #expect(Set(all) == Set(Self.tests))
        let sizes = plan.shards.map { $0.count }
        #expect(sizes.max()! - sizes.min()! <= 1)
        var generator = SeededGenerator(seed: UInt64(count))
        #expect(ShardPlan(tests: Self.tests.shuffled(using: &generator), count: count) == plan)
        // A test listed twice (two runners listing the same package) still runs once.
        #expect(ShardPlan(tests: Self.tests + Self.tests.prefix(3), count: count) == plan)
    }

    @Test("with timings: longest first onto the least loaded shard; tests without a timing count as the median")
    func byTime() {
        var timings = TestTimings()
        timings.add(key: "M.C.testA", seconds: 10)
        timings.add(key: "M.C.testB", seconds: 6)
        timings.add(key: "M.C.testC", seconds: 4)
        timings.add(key: "M.D.testD", seconds: 2)
        timings.add(key: "M.Gone.testGone", seconds: 1000)
        // testE and testF have no timing: 5 s each (the median of 10, 6, 4 and 2 among the listed tests).
        let tests = ["M.C/testA", "M.C/testB", "M.C/testC", "M.D/testD", "M.D/testE", "M.D/testF"]
        let plan = ShardPlan(tests: tests.reversed(), count: 2, timings: timings)
        // A 10 → 1; B 6 → 2; E 5 → 2 (11); F 5 → 1 (15); C 4 → 2 (15); D 2 → 1 (15 = 15, fewer tests).
        #expect(plan.shards == [["M.C/testA", "M.D/testD", "M.D/testF"], ["M.C/testB", "M.C/testC", "M.D/testE"]])
        #expect(plan.expectedSeconds == [17, 15])
        #expect(plan.tests(of: Shard(index: 2, count: 2)) == ["M.C/testB", "M.C/testC", "M.D/testE"])
    }

    @Test("with timings of zero seconds, tests still spread by count")
    func zeroTimings() {
        var timings = TestTimings()
        for test in Self.tests { timings.add(key: test.replacing("/", with: "."), seconds: 0) }
        let plan = ShardPlan(tests: Self.tests, count: 5, timings: timings)
        let sizes = plan.shards.map { $0.count }
        #expect(sizes.max()! - sizes.min()! <= 1)
    }

    @Test("timings from a real JUnit file of the same package balance its shards better than counting")
    func realTimings() throws {
        let run = try LogFixture("real-swift-log-parallel-xunit-swift-testing.xml").run()
        let timings = TestTimings(run)
        let known = Self.tests.filter { timings.seconds(of: $0) != nil }
        // SwiftPM names Swift Testing tests by suite and function, as `swift test list` does.
        #expect(known.count == Self.tests.count)
        let seconds = { (shard: [String]) in shard.reduce(0) { $0 + timings.seconds(of: $1)! } }
        let timed = ShardPlan(tests: Self.tests, count: 4, timings: timings).shards.map(seconds)
        let counted = ShardPlan(tests: Self.tests, count: 4).shards.map(seconds)
        #expect(timed.max()! - timed.min()! < counted.max()! - counted.min()!)
        #expect(timed.max()! <= counted.max()!)
    }

    @Test("console names without the module and per-suite summaries give timings too")
    func timingKeys() {
        var run = TestRun()
        var suite = TestRun.Suite(name: "Class", framework: .xctest)
        suite.cases = [TestRun.Case(className: "Class", testName: "testA", status: .passed, duration: 2)]
        run.suites = [suite]
        let timings = TestTimings(run)
        #expect(timings.seconds(of: "Module.Class/testA") == 2)
        #expect(timings.seconds(of: "Module.Class/testB") == nil)
        let suites = TestTimings(suites: [(name: "Module.Suite", tests: 4, seconds: 2)])
        #expect(suites.seconds(of: "Module.Suite/f()") == 0.5)
        #expect(suites.seconds(of: "Module.Other/f()") == nil)
    }

    @Test("filters: anchored and escaped; a whole class in one; nothing selected runs nothing")
    func filters() {
        let all = ["M.C/testA", "M.C/testB", "M.D/f(x:)", "M.D/g()", "M.D/Inner/h()", "M.free()", "M.other()"]
        let location = "(/[^/]*:[0-9]+:[0-9]+)?$"
        #expect(
            ShardPlan.filterArguments(selecting: ["M.C/testB", "M.C/testA", "M.D/f(x:)", "M.free()"], of: all) == [
                "--filter", #"^M\.C/[^/]*"# + location + #"|^M\.D/f\(x:\)(/|$)|^M\.free\(\)(/|$)"#,
            ])
        #expect(
            ShardPlan.filterArguments(selecting: ["M.D/Inner/h()"], of: all) == [
                "--filter", #"^M\.D/Inner/h\(\)(/|$)"#,
            ])
        #expect(ShardPlan.filterArguments(selecting: [], of: all) == ["--filter", "^$"])
    }

    @Test("each shard's filters select exactly its tests from the whole list")
    func filtersSelectTheShard() throws {
        let plan = ShardPlan(tests: Self.tests, count: 3)
        for shard in plan.shards {
            let arguments = ShardPlan.filterArguments(selecting: shard, of: Self.tests)
            #expect(arguments.count == 2)
            let patterns = [try Regex(arguments[1])]
            let selected = Self.tests.filter { test in patterns.contains { test.firstMatch(of: $0) != nil } }
            #expect(selected.sorted() == shard.sorted())
            // Filters search the identifier; Swift Testing has the test's source location after it.
            let located = Self.tests.filter { test in
                patterns.contains { (test + "/LoggingTest.swift:120:6").firstMatch(of: $0) != nil }
            }
            #expect(located.sorted() == shard.sorted())
        }
    }
}

/// The shard fixtures (Fixtures/shards).
enum ShardFixture {
    static func path(_ name: String) -> String {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/shards/\(name)").path
    }
}

/// A reproducible random order.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}
