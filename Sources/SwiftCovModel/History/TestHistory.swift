/// The runs of a package's tests over time, as `swiftcov run --history` and `swiftcov history add`
/// keep them (in a file a CI cache keeps, or in git notes): per run, where it ran (commit, tree,
/// branch, environment) and, per test, how each attempt ended and how long it took; per run, its
/// totals and its coverage per module and file. Flaky verdicts and trends are functions of it.
///
/// Test names are interned: a run holds indices into `names`, so a thousand runs of a thousand
/// tests hold a million small executions, not a million strings.
package struct TestHistory: Sendable, Equatable {
    /// Every test name the runs use, each once, in the order first seen.
    package private(set) var names: [String] = []
    /// The runs, oldest first (by time, then by run ID).
    package private(set) var runs: [Run] = []
    private var indexByName: [String: Int32] = [:]
    /// The store's reference of each name whose reference is not its own hash (a name whose hash
    /// another name had first: `HistoryFormat`'s collision rule), as read or given when written.
    package var storedReferences: [String: UInt64] = [:]

    /// An empty history.
    package init() {}

    /// One run of the tests: its keys, totals, coverage and executions.
    package struct Run: Sendable, Equatable {
        /// Unique per run: the CI's run and job (`github-123456-1-test`), or made when none.
        package var id: String
        /// Seconds since 1970 (UTC) when the run was recorded.
        package var time: Int64
        /// The repository, as its first commit's hash ("" outside git): histories of two
        /// repositories are never mixed.
        package var repository: String
        /// The commit checked out ("" outside git).
        package var commit: String
        /// The code tested: the tree of the working copy's tracked files, which is the commit's
        /// own tree unless `isDirty`.
        package var tree: String
        /// Whether tracked files differed from the commit.
        package var isDirty: Bool
        /// The branch ("" when detached and the CI does not say).
        package var branch: String
        /// Operating system, architecture, toolchain and build configuration
        /// (`Linux x86_64 swift-6.3.1 debug`): outcomes are compared within one environment.
        package var environment: String
        /// The environment's name beyond that key (`run --environment NAME`,
        /// `SWIFTCOV_ENVIRONMENT`): a CI matrix's entry, a time zone, a database; "" when none.
        package var environmentName = ""
        /// `K/N` for one shard of N machines' run (`run --shard K/N`), "" for a whole run.
        package var shard: String = ""
        /// False when the run did not end (the test process crashed, the log was cut, the build
        /// failed): an infrastructure failure, kept but left out of verdicts.
        package var isComplete: Bool
        /// The run's counts, as its test report gives them.
        package var totals: TestRun.Totals
        /// Its coverage, when the run measured it.
        package var coverage: Coverage?
        /// Every attempt of every test, in the order recorded.
        package var executions: [Execution]
        /// Tests `run --per-test` found to end differently alone than in the whole suite.
        package var orderDependent: [OrderDependent]
        /// Whether each test ran alone, in a process of its own (`run --per-test`), rather than in
        /// the whole suite: outcomes are compared within one kind of run.
        package var isAlone = false

        /// A run from its parts.
        package init(
            id: String, time: Int64, repository: String = "", commit: String = "", tree: String = "",
            isDirty: Bool = false, branch: String = "", environment: String = "", isComplete: Bool = true,
            totals: TestRun.Totals = TestRun.Totals(), coverage: Coverage? = nil, executions: [Execution] = [],
            orderDependent: [OrderDependent] = []
        ) {
            self.id = id
            self.time = time
            self.repository = repository
            self.commit = commit
            self.tree = tree
            self.isDirty = isDirty
            self.branch = branch
            self.environment = environment
            self.isComplete = isComplete
            self.totals = totals
            self.coverage = coverage
            self.executions = executions
            self.orderDependent = orderDependent
        }

        /// Whether its build failed, so that no test ran (`run --history` of a build break).
        package var buildFailed = false

        /// Whether a run says nothing about its tests: it did not end, or most of its tests failed
        /// at once (more than 80% of at least five: a broken machine, not broken tests).
        package var isInfrastructureFailure: Bool { leftOutReason != nil }

        /// Why a run says nothing about single tests: nil when it does.
        package enum LeftOutReason: Sendable, Equatable {
            /// The build failed: no test ran.
            case buildFailed
            /// The run did not end: the test process crashed, the log was cut.
            case didNotEnd
            /// `failed` of its `tests` failed at once: a machine, a build or a change that breaks
            /// every test.
            case everythingFailed(failed: Int, tests: Int)
        }

        /// Why it is left out of verdicts, when it is.
        package var leftOutReason: LeftOutReason? {
            if buildFailed { return .buildFailed }
            guard isComplete else { return .didNotEnd }
            // In Double: counts from a file are never trusted to stay small.
            let failing = Double(totals.failed) + Double(totals.errors)
            guard totals.tests >= 5, failing * 5 > Double(totals.tests) * 4 else { return nil }
            return .everythingFailed(
                failed: Int(clamping: totals.failed) + Int(clamping: totals.errors), tests: Int(clamping: totals.tests))
        }

        /// Whether its tests ran alone: marked so, or (histories written before the mark) with
        /// what only `run --per-test` records: tests that ended differently alone than in the
        /// suite, or the environment `run --per-test` names (`… debug alone`).
        package var ranAlone: Bool {
            isAlone || !orderDependent.isEmpty || environment.hasSuffix(Self.aloneMark)
        }

        /// The environment with its name, without the mark `run --per-test` adds to it: the same
        /// for a run of the suite and a run of each test alone on one machine, so that the two
        /// kinds of run are compared.
        package var environmentOfEitherKind: String {
            let key =
                environment.hasSuffix(Self.aloneMark) ? String(environment.dropLast(Self.aloneMark.count)) : environment
            return environmentName.isEmpty ? key : key + "\u{0}" + environmentName
        }

        /// How a person names its environment: its name when it has one, else its key.
        package var environmentDisplayName: String {
            environmentName.isEmpty ? environmentOfEitherKind : environmentName
        }

        /// What `run --per-test` adds to its runs' environment.
        package static let aloneMark = " alone"
    }

    /// One attempt of one test in a run.
    package struct Execution: Sendable, Equatable {
        /// The test: an index into `TestHistory.names`.
        package var test: Int32
        /// How the attempt ended.
        package var status: TestRun.Status
        /// 0 for the first attempt, 1… for retries.
        package var attempt: UInt8
        /// Milliseconds, when known (0 otherwise).
        package var milliseconds: UInt32

        /// An execution from its parts.
        package init(test: Int32, status: TestRun.Status, attempt: UInt8 = 0, milliseconds: UInt32 = 0) {
            self.test = test
            self.status = status
            self.attempt = attempt
            self.milliseconds = milliseconds
        }

        /// Whether the attempt failed (an assertion, an error, a crash).
        package var isFailing: Bool { status == .failed || status == .error }
    }

    /// A test that ended one way alone and another in the whole suite.
    package struct OrderDependent: Sendable, Equatable {
        /// The test: an index into `TestHistory.names`.
        package var test: Int32
        /// Its outcome run alone, and in the whole suite.
        package var alone: TestRun.Status
        package var inSuite: TestRun.Status
        /// Its runs alone in that run (the first and the re-runs that confirm it), and how many
        /// ended as the first did (`OrderDependence.aloneRuns`).
        package var aloneRuns: UInt8 = 1
        package var aloneAgreeing: UInt8 = 1
        /// The test it depends on (an index into `TestHistory.names`), when `run --per-test` found
        /// it, with the runs of it then this test and how many ended as in the suite.
        package var cause: Int32?
        package var causeRuns: UInt8 = 0
        package var causeAgreeing: UInt8 = 0

        /// A finding from its parts.
        package init(test: Int32, alone: TestRun.Status, inSuite: TestRun.Status) {
            self.test = test
            self.alone = alone
            self.inSuite = inSuite
        }

        /// Whether every run alone ended the same way (else the test is flaky alone).
        package var isConsistent: Bool { aloneAgreeing == aloneRuns }
    }

    /// A run's coverage: in total, per module and per file (lines).
    package struct Coverage: Sendable, Equatable {
        /// Lines, functions and regions of the whole report.
        package var total: Counts
        /// The same per module, by name, sorted.
        package var modules: [(name: String, counts: Counts)]
        /// Lines per file (paths relative to the package root), sorted.
        package var files: [(path: String, lines: Metric)]

        /// Coverage from its parts.
        package init(
            total: Counts, modules: [(name: String, counts: Counts)] = [], files: [(path: String, lines: Metric)] = []
        ) {
            self.total = total
            self.modules = modules
            self.files = files
        }

        /// The numbers kept of one summary (instantiations and branches are left out: Swift has
        /// no branches, and instantiations follow functions).
        package struct Counts: Sendable, Equatable {
            package var lines: Metric
            package var functions: Metric
            package var regions: Metric

            /// Counts from their parts.
            package init(lines: Metric = Metric(), functions: Metric = Metric(), regions: Metric = Metric()) {
                self.lines = lines
                self.functions = functions
                self.regions = regions
            }

            /// The counts of a summary.
            package init(_ summary: CoverageSummary) {
                self.init(lines: summary.lines, functions: summary.functions, regions: summary.regions)
            }
        }

        /// The coverage of a report: its totals, modules and files.
        package init(_ report: CoverageReport) {
            total = Counts(report.totals)
            modules = report.modules.map { ($0.name, Counts($0.summary)) }.sorted { $0.name < $1.name }
            files = report.files.map { ($0.displayPath, $0.summary.lines) }.sorted { $0.path < $1.path }
        }

        package static func == (lhs: Coverage, rhs: Coverage) -> Bool {
            lhs.total == rhs.total
                && lhs.modules.elementsEqual(rhs.modules) { $0.name == $1.name && $0.counts == $1.counts }
                && lhs.files.elementsEqual(rhs.files) { $0.path == $1.path && $0.lines == $1.lines }
        }
    }

    /// The index of `name`, added when new.
    package mutating func intern(_ name: String) -> Int32 {
        if let index = indexByName[name] { return index }
        let index = Int32(names.count)
        names.append(name)
        indexByName[name] = index
        return index
    }

    /// The index of `name`, when a run used it.
    package func index(of name: String) -> Int32? { indexByName[name] }

    /// Adds `run` in time order (after the runs of the same time). Its executions refer to this
    /// history's names.
    package mutating func add(_ run: Run) {
        var position = runs.endIndex
        while position > runs.startIndex, runs[position - 1].time > run.time { position -= 1 }
        runs.insert(run, at: position)
    }

    /// Adds `runs` (in time order) as `add` of each would; an empty history takes the array
    /// itself, with no copy of a million runs.
    package mutating func append(sorted runs: [Run]) {
        if self.runs.isEmpty {
            self.runs = runs
        } else {
            for run in runs { add(run) }
        }
    }

    /// The same history without the runs `keep` rejects, and without the names no run left uses.
    package func filter(_ keep: (Run) -> Bool) -> TestHistory { keeping(runs.filter(keep)) }

    /// A history of `runs` (of this history, in its order), with the names they use.
    package func keeping(_ runs: [Run]) -> TestHistory {
        var kept = TestHistory()
        for run in runs {
            var copy = run
            for index in copy.executions.indices {
                copy.executions[index].test = kept.intern(names[Int(copy.executions[index].test)])
            }
            for index in copy.orderDependent.indices {
                copy.orderDependent[index].test = kept.intern(names[Int(copy.orderDependent[index].test)])
                if let cause = copy.orderDependent[index].cause {
                    copy.orderDependent[index].cause = kept.intern(names[Int(cause)])
                }
            }
            kept.runs.append(copy)
        }
        for name in kept.names { if let stored = storedReferences[name] { kept.storedReferences[name] = stored } }
        return kept
    }

    package static func == (lhs: TestHistory, rhs: TestHistory) -> Bool {
        lhs.names == rhs.names && lhs.runs == rhs.runs
    }
}

extension TestHistory.Run {
    /// A run of `testRun`'s tests with these keys: each case's earlier attempts and its last,
    /// named `Module.Class/test` (XCTest's ID as `swift test list` prints it; a Swift Testing
    /// test by the name its log shows, with a parameterized case's arguments).
    package static func recording(
        _ testRun: TestRun, keys: TestHistory.Run, coverage: TestHistory.Coverage?,
        orderDependent: [OrderDependence] = [], into history: inout TestHistory
    ) -> TestHistory.Run {
        var run = keys
        run.isComplete = keys.isComplete && testRun.isComplete && !testRun.wasInterrupted
        run.totals = testRun.totals
        run.coverage = coverage
        run.executions = []
        for suite in testRun.suites {
            for testCase in suite.cases {
                let test = history.intern(TestHistory.testName(of: testCase))
                var attempt: UInt8 = 0
                for earlier in testCase.attempts {
                    run.executions.append(
                        TestHistory.Execution(
                            test: test, status: earlier.status, attempt: attempt,
                            milliseconds: TestHistory.milliseconds(earlier.duration)))
                    attempt = attempt == .max ? attempt : attempt + 1
                }
                run.executions.append(
                    TestHistory.Execution(
                        test: test, status: testCase.status, attempt: attempt,
                        milliseconds: TestHistory.milliseconds(testCase.duration)))
            }
        }
        // Named as the run's case of that ID is (so the verdict and the executions are of one
        // test); by the ID when no case matches.
        func named(_ id: String) -> Int32 {
            let testCase = TestID(id).flatMap { id in testRun.suites.lazy.flatMap(\.cases).first { id.matches($0) } }
            return history.intern(testCase.map(TestHistory.testName(of:)) ?? id)
        }
        run.orderDependent = orderDependent.map { finding in
            var recorded = TestHistory.OrderDependent(
                test: named(finding.id), alone: finding.alone, inSuite: finding.inSuite)
            let clamp = { (count: Int) in UInt8(clamping: count) }
            recorded.aloneRuns = clamp(finding.aloneRuns)
            recorded.aloneAgreeing = min(recorded.aloneRuns, clamp(finding.aloneAgreeing))
            if let cause = finding.cause {
                recorded.cause = named(cause.id)
                recorded.causeRuns = clamp(cause.runs)
                recorded.causeAgreeing = min(recorded.causeRuns, clamp(cause.agreeing))
            }
            return recorded
        }
        return run
    }
}

extension TestHistory {
    /// How the history names a test case: `Module.Class/test`, with a parameterized case's
    /// arguments in parentheses.
    package static func testName(of testCase: TestRun.Case) -> String { testCase.className + "/" + testCase.name }

    /// A commit as reports name it: its first ten characters, any that is not an ASCII letter or
    /// digit (a history is input: a commit may be anything) as `?`; "no commit" when empty.
    package static func shortCommit(_ commit: String) -> String {
        guard !commit.isEmpty else { return "no commit" }
        return String(
            String.UnicodeScalarView(
                commit.unicodeScalars.prefix(10).map {
                    $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) ? $0 : "?"
                }))
    }

    /// Seconds as whole milliseconds, within `UInt32` (49 days); 0 when unknown or not a number.
    package static func milliseconds(_ seconds: Double?) -> UInt32 {
        guard let seconds, seconds.isFinite, seconds > 0 else { return 0 }
        let value = (seconds * 1000).rounded()
        return value >= Double(UInt32.max) ? .max : UInt32(value)
    }
}
