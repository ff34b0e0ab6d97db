/// Which lines each test executed: what `swiftcov run --per-test` records and `report --show
/// tests` and `impacted` read. Lines are the *line view*'s executable lines (`LineCoverage`) of
/// each file; a test "executed" a line when the line's count in that test's own coverage is
/// not zero.
///
/// Built for thousands of tests and hundreds of files: each file's executable lines are stored
/// once, and each test holds, for the files it reached, the runs of consecutive executable lines
/// it executed (as index ranges into its file's lines). A test that runs one function in one file
/// costs a few bytes; see `PerTestStore` for the file format.
package struct PerTestCoverage: Equatable, Sendable {
    /// Where and when the data was recorded.
    package var recording: Recording
    /// The files, sorted by path, each with its executable lines.
    package var files: [File]
    /// The tests in the order they were listed.
    package var tests: [Test]

    /// Where and when the data was recorded.
    package struct Recording: Equatable, Sendable {
        /// The git commit the package was at (`git rev-parse HEAD`), "" outside git.
        package var commit: String
        /// Whether the working tree had changes not in `commit` (then the data is of those changes).
        package var dirty: Bool
        /// When, as an ISO 8601 UTC timestamp.
        package var date: String

        package init(commit: String, dirty: Bool, date: String) {
            self.commit = commit
            self.dirty = dirty
            self.date = date
        }
    }

    /// A source file and its executable lines.
    package struct File: Equatable, Sendable {
        /// The path relative to the package root (as in a diff made with `git diff --relative`),
        /// or absolute for a file outside the root.
        package var path: String
        /// Its executable lines, ascending.
        package var lines: [UInt32]

        package init(path: String, lines: [UInt32]) {
            self.path = path
            self.lines = lines
        }
    }

    /// A test, how its run ended and what it executed.
    package struct Test: Equatable, Sendable {
        /// The ID as `swift test list` prints it.
        package var id: String
        package var outcome: Outcome
        /// Wall time of its process, in milliseconds.
        package var milliseconds: UInt64
        /// The files it executed lines of, by ascending file index.
        package var executed: [ExecutedLines]
        /// Whether its lines are known: false when its process left no profile (a crash, or a
        /// kill after `--test-timeout`), and then `executed` is empty.
        package var recorded: Bool

        package init(
            id: String, outcome: Outcome, milliseconds: UInt64 = 0, executed: [ExecutedLines] = [],
            recorded: Bool = true
        ) {
            self.id = id
            self.outcome = outcome
            self.milliseconds = milliseconds
            self.executed = executed
            self.recorded = recorded
        }

        /// What it executed in the file at index `file` (a binary search: `executed` ascends).
        func entry(forFile file: Int) -> ExecutedLines? {
            var low = 0
            var high = executed.count
            while low < high {
                let middle = (low + high) / 2
                if executed[middle].file < file { low = middle + 1 } else { high = middle }
            }
            return low < executed.count && executed[low].file == file ? executed[low] : nil
        }
    }

    /// The lines of one file a test executed: runs of indices into the file's `lines`.
    package struct ExecutedLines: Equatable, Sendable {
        package var file: Int
        /// Ascending, disjoint and not adjacent (touching runs are one run).
        package var runs: [Range<UInt32>]

        package init(file: Int, runs: [Range<UInt32>]) {
            self.file = file
            self.runs = runs
        }
    }

    /// How a test's process ended.
    package enum Outcome: UInt8, Sendable, CaseIterable {
        case passed = 0
        case failed = 1
        case skipped = 2
        /// Ended by a signal (a trap, `fatalError`, a crash): its process usually wrote no
        /// profile (see `Test.recorded`).
        case crashed = 3
        /// Killed after `--test-timeout`.
        case timedOut = 4

        /// How bad the outcome is, for keeping the worst of a test recorded twice.
        var severity: Int {
            switch self {
            case .passed: 0
            case .skipped: 1
            case .failed: 2
            case .timedOut: 3
            case .crashed: 4
            }
        }

        package var name: String {
            switch self {
            case .passed: "passed"
            case .failed: "failed"
            case .skipped: "skipped"
            case .crashed: "crashed"
            case .timedOut: "timed out"
            }
        }
    }

    package init(recording: Recording, files: [File], tests: [Test] = []) {
        self.recording = recording
        self.files = files
        self.tests = tests
    }

    /// The index of the file at `path`, if recorded.
    package func fileIndex(of path: String) -> Int? {
        var low = 0
        var high = files.count
        while low < high {
            let middle = (low + high) / 2
            if files[middle].path < path { low = middle + 1 } else { high = middle }
        }
        return low < files.count && files[low].path == path ? low : nil
    }

    /// Adds a test that executed `lines` (per file path, any order; lines that are not executable,
    /// or in files not recorded, are left out: they cannot have run).
    package mutating func add(
        id: String, outcome: Outcome, milliseconds: UInt64, lines: [String: [UInt32]], recorded: Bool = true
    ) {
        var executed: [ExecutedLines] = []
        for (path, fileLines) in lines {
            guard let file = fileIndex(of: path) else { continue }
            let runs = Self.runs(of: fileLines, in: files[file].lines)
            if !runs.isEmpty { executed.append(ExecutedLines(file: file, runs: runs)) }
        }
        executed.sort { $0.file < $1.file }
        tests.append(
            Test(id: id, outcome: outcome, milliseconds: milliseconds, executed: executed, recorded: recorded))
    }

    /// The lines `test` executed, by file path.
    package func lines(of test: Test) -> [String: [UInt32]] {
        var result: [String: [UInt32]] = [:]
        for entry in test.executed { result[files[entry.file].path] = executedLines(of: test, inFile: entry.file) }
        return result
    }

    /// A test that several stores record.
    package struct Duplicate: Equatable, Sendable, CustomStringConvertible {
        package var id: String
        /// Its outcomes, in the order of the stores.
        package var outcomes: [Outcome]
        /// The outcome kept: the worst.
        package var kept: Outcome

        package var description: String {
            "\(id) is recorded more than once (\(outcomes.map(\.name).joined(separator: ", "))); kept \(kept.name)"
        }
    }

    /// The stores of several runs (shards) as one: files by their package-relative path, each
    /// file's executable lines those of any store, every test once (a test in several stores
    /// keeps the record of its worst outcome, and is reported in `duplicates`). The recording is
    /// the first store's commit, dirty when any was, and the latest date.
    package static func merged(_ stores: [PerTestCoverage]) -> (coverage: PerTestCoverage, duplicates: [Duplicate]) {
        guard let first = stores.first else {
            return (PerTestCoverage(recording: Recording(commit: "", dirty: false, date: ""), files: []), [])
        }
        guard stores.count > 1 else { return (first, []) }
        var lines: [String: Set<UInt32>] = [:]
        for store in stores {
            for file in store.files { lines[file.path, default: []].formUnion(file.lines) }
        }
        var recording = first.recording
        recording.dirty = stores.contains { $0.recording.dirty }
        recording.date = stores.map(\.recording.date).max() ?? recording.date
        var merged = PerTestCoverage(
            recording: recording,
            files: lines.keys.sorted().map { File(path: $0, lines: lines[$0]!.sorted()) })
        // Each test's place in the result and the store and test it is taken from.
        var order: [String] = []
        var chosen: [String: (store: Int, test: Int)] = [:]
        var outcomes: [String: [Outcome]] = [:]
        for (storeIndex, store) in stores.enumerated() {
            for (testIndex, test) in store.tests.enumerated() {
                outcomes[test.id, default: []].append(test.outcome)
                guard let earlier = chosen[test.id] else {
                    order.append(test.id)
                    chosen[test.id] = (storeIndex, testIndex)
                    continue
                }
                if test.outcome.severity > stores[earlier.store].tests[earlier.test].outcome.severity {
                    chosen[test.id] = (storeIndex, testIndex)
                }
            }
        }
        var duplicates: [Duplicate] = []
        for id in order {
            let (storeIndex, testIndex) = chosen[id]!
            let store = stores[storeIndex]
            let test = store.tests[testIndex]
            merged.add(
                id: id, outcome: test.outcome, milliseconds: test.milliseconds, lines: store.lines(of: test),
                recorded: test.recorded)
            if let all = outcomes[id], all.count > 1 {
                duplicates.append(Duplicate(id: id, outcomes: all, kept: test.outcome))
            }
        }
        return (merged, duplicates)
    }

    /// `lines` as runs of indices into `executable` (both ascending or not; duplicates fine).
    static func runs(of lines: [UInt32], in executable: [UInt32]) -> [Range<UInt32>] {
        let indices = Set(lines).compactMap { line -> UInt32? in
            let index = lowerBound(of: line, in: executable)
            return index < executable.count && executable[index] == line ? UInt32(index) : nil
        }.sorted()
        var runs: [Range<UInt32>] = []
        for index in indices {
            if let last = runs.last, last.upperBound == index {
                runs[runs.count - 1] = last.lowerBound..<(index + 1)
            } else {
                runs.append(index..<(index + 1))
            }
        }
        return runs
    }

    package static func lowerBound(of line: UInt32, in lines: [UInt32]) -> Int {
        var low = 0
        var high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle] < line { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The lines of the file at index `file` that `test` executed, ascending.
    package func executedLines(of test: Test, inFile file: Int) -> [UInt32] {
        guard let entry = test.entry(forFile: file) else { return [] }
        return entry.runs.flatMap { $0.map { files[file].lines[Int($0)] } }
    }

    /// The executable lines of the file at `path`, ascending; nil when it was not recorded.
    package func executableLines(ofFile path: String) -> [UInt32]? {
        fileIndex(of: path).map { files[$0].lines }
    }

    /// Calls `body` with every executable line of the file at `path` (ascending) and the indices
    /// into `tests` of the tests that executed it (ascending); false when the file was not
    /// recorded. A sweep over where the tests' runs start and end: memory grows with the runs,
    /// never with the file's lines times its tests (a store of 300 tests over 1,000,000 lines).
    @discardableResult
    package func forEachLineTests(ofFile path: String, _ body: (_ line: UInt32, _ tests: [Int]) -> Void) -> Bool {
        guard let file = fileIndex(of: path) else { return false }
        var events: [(index: UInt32, test: Int, starts: Bool)] = []
        for (testIndex, test) in tests.enumerated() {
            guard let entry = test.entry(forFile: file) else { continue }
            for run in entry.runs {
                events.append((run.lowerBound, testIndex, true))
                events.append((run.upperBound, testIndex, false))
            }
        }
        events.sort { $0.index < $1.index }
        var active: [Int] = []
        var next = 0
        for (index, line) in files[file].lines.enumerated() {
            while next < events.count && events[next].index <= index {
                let event = events[next]
                next += 1
                var low = 0
                var high = active.count
                while low < high {
                    let middle = (low + high) / 2
                    if active[middle] < event.test { low = middle + 1 } else { high = middle }
                }
                if event.starts {
                    active.insert(event.test, at: low)
                } else if low < active.count && active[low] == event.test {
                    active.remove(at: low)
                }
            }
            body(line, active)
        }
        return true
    }

    /// The indices of the tests that executed some line of the file at `path`, ascending; nil when
    /// the file was not recorded.
    package func testsExecutingLines(ofFile path: String) -> [Int]? {
        guard let file = fileIndex(of: path) else { return nil }
        return tests.indices.filter { tests[$0].entry(forFile: file).map { !$0.runs.isEmpty } ?? false }
    }

    /// For every executable line of the file at `path` (ascending), the indices into `tests` of
    /// the tests that executed it; nil when the file was not recorded. (Lines times tests: for
    /// small files and tests; reports use `forEachLineTests`.)
    package func lineTests(ofFile path: String) -> [(line: UInt32, tests: [Int])]? {
        var result: [(line: UInt32, tests: [Int])] = []
        guard forEachLineTests(ofFile: path, { result.append(($0, $1)) }) else { return nil }
        return result
    }

    /// The indices of the tests that executed any of `lines` of the file at `path`, ascending.
    package func tests(executing lines: [UInt32], inFile path: String) -> [Int] {
        guard let file = fileIndex(of: path) else { return [] }
        let wanted = Self.runs(of: lines, in: files[file].lines)
        guard !wanted.isEmpty else { return [] }
        var result: [Int] = []
        for (testIndex, test) in tests.enumerated() {
            guard let entry = test.entry(forFile: file) else { continue }
            if Self.intersect(entry.runs, wanted) { result.append(testIndex) }
        }
        return result
    }

    /// Whether two ascending lists of disjoint ranges share an index.
    static func intersect(_ a: [Range<UInt32>], _ b: [Range<UInt32>]) -> Bool {
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i].overlaps(b[j]) { return true }
            if a[i].upperBound <= b[j].lowerBound { i += 1 } else { j += 1 }
        }
        return false
    }
}
