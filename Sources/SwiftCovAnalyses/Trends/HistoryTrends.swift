import SwiftCovModel

/// How a package's tests and coverage moved over the runs of a history: one point per commit (in
/// the order of HEAD's first-parent line when git gives it, else the order the commits were first
/// run), with the tests, failures, flaky tests and test time of
/// its runs and its coverage; the slowest tests; the modules and files that moved most since a
/// commit. A commit's shards add up: a shard that did not run on a commit carries its last numbers
/// forward (and the point says so) rather than showing a drop that did not happen. A commit's
/// tests and failures are its newest runs of the whole suite (runs of each test alone only when
/// it has no other); its flaky and order-dependent tests are `FlakyVerdicts`' on all of its runs;
/// its runs left out of both (a build break, a run that did not end, everything failed) are
/// counted, and a commit with no other run is a point all the same.
package struct HistoryTrends: Sendable, Equatable {
    /// One commit's numbers.
    package struct Point: Sendable, Equatable {
        package var commit: String
        /// The newest of its runs.
        package var time: Int64
        package var branch: String
        package var tests: Int
        package var failed: Int
        /// Tests proven flaky by the commit's runs (a pass and a failure of one kind of run, a
        /// pass on retry), and tests that ended differently alone than in the suite.
        package var flaky: Int
        package var orderDependent = 0
        /// Its runs that say nothing about single tests: they did not end (a build break, a
        /// crash) or everything failed.
        package var leftOut: [TestHistory.Run.LeftOutReason] = []
        /// The tests' time, in seconds (the sum of every attempt's).
        package var seconds: Double
        /// Its coverage: a whole run's (or a merge job's), else nil (shards' coverage cannot be
        /// added up line by line here) — then the last known, carried forward.
        package var coverage: TestHistory.Coverage?
        /// Shards whose numbers are an earlier commit's.
        package var carriedShards: [String]
        /// Whether the coverage is an earlier commit's.
        package var carriedCoverage: Bool
    }

    /// A module or file whose coverage moved.
    package struct Mover: Sendable, Equatable {
        package var name: String
        /// Line coverage before and after, in percent (nil: not there).
        package var before: Double?
        package var after: Double?

        /// The change in points (a file that appeared counts from 0).
        package var change: Double { (after ?? 0) - (before ?? 0) }
    }

    /// The commits' points, oldest first.
    package var points: [Point]
    /// The slowest tests over the newest `window` runs: each test's median time, slowest first.
    package var slowest: [(test: String, milliseconds: UInt32)]
    /// Modules and files whose line coverage moved between `since` (or the first point) and the
    /// newest point, most first.
    package var movers: [Mover]
    /// The commit movers are measured from.
    package var since: String?
    /// The commits placed by when they were first run, not by the first-parent line given (other
    /// branches' commits, or commits this clone does not have): 0 when no line was given.
    package var placedByTime = 0

    package static func == (lhs: HistoryTrends, rhs: HistoryTrends) -> Bool {
        lhs.points == rhs.points && lhs.movers == rhs.movers && lhs.since == rhs.since
            && lhs.placedByTime == rhs.placedByTime
            && lhs.slowest.elementsEqual(rhs.slowest) { $0.test == $1.test && $0.milliseconds == $1.milliseconds }
    }

    /// The trends of `history`, infrastructure failures left out; the commits in the order of
    /// `firstParents` (HEAD's first-parent line, newest first, as `git log --first-parent` lists it)
    /// when given, those not on it by when they were first run; movers since the first point whose
    /// commit starts with `since` (else since the first point); the `slowestCount` slowest tests
    /// of the newest `window` runs.
    package init(
        _ history: TestHistory, firstParents: [String]? = nil, since: String? = nil, slowestCount: Int = 10,
        window: Int = 20
    ) {
        let runs = history.runs.filter { !$0.isInfrastructureFailure }
        var order: [String] = []
        var byCommit: [String: [TestHistory.Run]] = [:]
        var leftOutByCommit: [String: [TestHistory.Run]] = [:]
        var latest: [String: Int64] = [:]
        for run in history.runs {
            let key = run.commit.isEmpty ? run.id : run.commit
            if byCommit[key] == nil { order.append(key) }
            latest[key] = max(latest[key] ?? run.time, run.time)
            byCommit[key, default: []].append(contentsOf: run.isInfrastructureFailure ? [] : [run])
            if run.isInfrastructureFailure { leftOutByCommit[key, default: []].append(run) }
        }
        // The commit's first run, whatever it was.
        let firstRun = Dictionary(history.runs.map { ($0.commit.isEmpty ? $0.id : $0.commit, $0) }) { first, _ in first
        }
        if let firstParents {
            let placed = Self.order(order, firstParents: firstParents) { firstRun[$0]!.time }
            order = placed.order
            // Runs without a commit are keyed by their ID: no line has them, and none is a commit.
            placedByTime = placed.offLine.filter { !firstRun[$0]!.commit.isEmpty }.count
        }
        var lastShard: [String: TestHistory.Run] = [:]
        var lastCoverage: TestHistory.Coverage?
        points = []
        for key in order {
            let commitRuns = byCommit[key]!
            let leftOut = leftOutByCommit[key] ?? []
            // The newest run of each shard ("" for whole runs) on this commit: of the suite, or
            // alone when the commit has no run of the suite, or left out when it has no other
            // (everything failed: its failures count).
            let suiteRuns = commitRuns.filter { !$0.ranAlone }
            var newest: [String: TestHistory.Run] = [:]
            for run in !suiteRuns.isEmpty ? suiteRuns : !commitRuns.isEmpty ? commitRuns : leftOut {
                newest[run.shard] = run
            }
            let first = firstRun[key]!
            var point = Point(
                commit: first.commit, time: latest[key] ?? first.time,
                branch: commitRuns.last?.branch ?? first.branch, tests: 0, failed: 0, flaky: 0, seconds: 0,
                coverage: nil,
                carriedShards: [], carriedCoverage: false)
            point.leftOut = leftOut.compactMap(\.leftOutReason)
            if !commitRuns.isEmpty {
                // Verdicts on the commit's runs alone: flaky when they saw a test pass and fail.
                let analysis = FlakyVerdicts.analyze(history.keeping(commitRuns))
                for finding in analysis.findings {
                    switch finding.verdict {
                    case .flaky, .flakyStatistically, .healed: point.flaky += 1
                    case .orderDependent, .maybeOrderDependent: point.orderDependent += 1
                    case .broken, .brokenIn: break
                    }
                }
            }
            var counted: [TestHistory.Run]
            if let whole = newest[""] {
                counted = [whole]
            } else {
                counted = Array(newest.values)
                // Shards seen before but not on this commit: their last numbers.
                for (shard, run) in lastShard where newest[shard] == nil && !shard.isEmpty {
                    counted.append(run)
                    point.carriedShards.append(shard)
                }
                point.carriedShards.sort()
            }
            for run in counted {
                point.tests += run.totals.tests
                point.failed += run.totals.failed + run.totals.errors
                point.seconds += Double(run.executions.reduce(0) { $0 + UInt64($1.milliseconds) }) / 1000
            }
            for (shard, run) in newest { lastShard[shard] = run }
            if let coverage = commitRuns.last(where: { $0.coverage != nil && $0.shard.isEmpty })?.coverage {
                point.coverage = coverage
                lastCoverage = coverage
            } else if let lastCoverage {
                point.coverage = lastCoverage
                point.carriedCoverage = true
            }
            points.append(point)
        }
        // The slowest tests: median of each test's last attempt time in the newest runs.
        var times: [Int32: [UInt32]] = [:]
        for run in runs.suffix(window) {
            for execution in run.executions where execution.milliseconds > 0 {
                times[execution.test, default: []].append(execution.milliseconds)
            }
        }
        var medians: [(test: String, milliseconds: UInt32)] = []
        for (test, values) in times {
            let sorted = values.sorted()
            medians.append((history.names[Int(test)], sorted[sorted.count / 2]))
        }
        medians.sort { lhs, rhs in
            lhs.milliseconds != rhs.milliseconds ? lhs.milliseconds > rhs.milliseconds : lhs.test < rhs.test
        }
        slowest = Array(medians.prefix(slowestCount))
        // Movers: from the chosen point to the newest, both with coverage of their own.
        let measured = points.filter { $0.coverage != nil && !$0.carriedCoverage }
        var start = measured.first
        if let prefix = since, !prefix.isEmpty, let chosen = measured.first(where: { $0.commit.hasPrefix(prefix) }) {
            start = chosen
        }
        self.since = start?.commit
        movers = []
        if let before = start?.coverage, let after = measured.last?.coverage, measured.count > 1 {
            var moduleNames = Set(before.modules.map(\.name))
            moduleNames.formUnion(after.modules.map(\.name))
            var filePaths = Set(before.files.map(\.path))
            filePaths.formUnion(after.files.map(\.path))
            for name in moduleNames {
                let old = before.modules.first { $0.name == name }?.counts.lines
                let new = after.modules.first { $0.name == name }?.counts.lines
                movers.append(Mover(name: name, before: old?.percent, after: new?.percent))
            }
            for path in filePaths {
                let old = before.files.first { $0.path == path }?.lines
                let new = after.files.first { $0.path == path }?.lines
                movers.append(Mover(name: path, before: old?.percent, after: new?.percent))
            }
            movers.removeAll { abs($0.change) < 0.005 }
            movers.sort { abs($0.change) != abs($1.change) ? abs($0.change) > abs($1.change) : $0.name < $1.name }
        }
    }

    /// `keys` (commits, in the order first run) in the order of `firstParents` (newest first); the
    /// others (`offLine`) by when they were first run, each before the first commit of the line
    /// first run after it.
    static func order(_ keys: [String], firstParents: [String], firstRun: (String) -> Int64) -> (
        order: [String], offLine: [String]
    ) {
        var position: [String: Int] = [:]
        for (index, commit) in firstParents.reversed().enumerated() { position[commit] = index }
        let onLine = keys.filter { position[$0] != nil }.sorted { position[$0]! < position[$1]! }
        let offLine = keys.enumerated().filter { position[$0.element] == nil }
            .sorted { (firstRun($0.element), $0.offset) < (firstRun($1.element), $1.offset) }
            .map(\.element)
        var order: [String] = []
        var (line, off) = (onLine[...], offLine[...])
        while !line.isEmpty || !off.isEmpty {
            if let other = off.first, line.first.map({ firstRun(other) < firstRun($0) }) ?? true {
                order.append(off.removeFirst())
            } else {
                order.append(line.removeFirst())
            }
        }
        return (order, offLine)
    }
}
