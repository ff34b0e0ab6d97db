import SwiftCovCore

/// A large history of runs for measuring `swiftcov flaky`: `runs` runs of `tests` tests (XCTest
/// names of the shape real suites have), a few of them failing at random, a run an hour, on a new
/// commit every ten runs. The same arguments give the same file.
struct HistoryGenerator {
    var runs: Int
    var tests: Int

    /// Writes the history to `path`; returns its size in bytes.
    func write(to path: String) throws -> Int {
        var history = TestHistory()
        let names = (0..<tests).map { index in
            history.intern("BenchmarkTests.Suite\(index / 20)Tests/test\(index % 20)ReadsTheInputAndWritesTheReport")
        }
        var random = SplitMix(seed: 2026)
        var text = ""
        var known = Set<String>()
        for index in 0..<runs {
            let commit = String(repeating: "c", count: 30) + String(1_000_000_000 + index / 10)
            var run = TestHistory.Run(
                id: "github-\(1000 + index)-1-test", time: 1_790_000_000 + Int64(index) * 3600, commit: commit,
                tree: commit, branch: "main", environment: "Linux x86_64 swift-6.3.1 debug")
            for (position, test) in names.enumerated() {
                // One test in fifty is flaky (fails 20% of its runs); the rest pass.
                let failed = position % 50 == 7 && random.next() % 5 == 0
                run.executions.append(
                    TestHistory.Execution(
                        test: test, status: failed ? .failed : .passed, milliseconds: UInt32(random.next() % 900)))
                run.totals.tests += 1
                if failed { run.totals.failed += 1 } else { run.totals.passed += 1 }
            }
            text += HistoryFormat.lines(of: [run], in: history, skippingNames: &known)
        }
        try AtomicFile.write(text, to: path)
        return text.utf8.count
    }
}

/// A small, fast random number generator with a seed, so generated inputs repeat.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
