import SwiftCovModel

/// What the history says of each quarantined test: still flaky (keep it there), passing long
/// enough to be released, or broken — failing every run, which quarantine only hides.
extension FlakyVerdicts {
    /// A quarantined test and its state.
    package struct QuarantineState: Sendable, Equatable {
        /// The test as the quarantine lists it.
        package var id: String
        package var state: State

        package enum State: Sendable, Equatable {
            /// It passed its last `runs` runs: it can leave the quarantine.
            case release(runs: Int)
            /// It failed every attempt of its last runs: broken, not flaky.
            case broken(since: RunReference, runs: Int)
            /// Flaky, or failing now and then: it stays.
            case stays(verdict: String?)
            /// No run of the history has it.
            case notInHistory
        }
    }

    /// The state of each test `quarantine` lists (IDs as `swift test list` prints them), by the
    /// analysis of `history`: released after `healAfter` passing runs in a row.
    package static func quarantine(
        _ quarantine: [TestID], in history: TestHistory, analysis: Analysis, healAfter: Int
    ) -> [QuarantineState] {
        guard !quarantine.isEmpty else { return [] }
        // Each name's outcome per run (its last attempt), runs that failed as infrastructure left
        // out; by test, the run's last outcome so far (-1: none, 0 passed, 1 failed).
        var lastOutcomes = [[Bool]](repeating: [], count: history.names.count)
        var lastOfRun = [Int8](repeating: -1, count: history.names.count)
        var ran: [Int32] = []
        for run in history.runs where !run.isInfrastructureFailure {
            for execution in run.executions where execution.status != .skipped {
                if lastOfRun[Int(execution.test)] < 0 { ran.append(execution.test) }
                lastOfRun[Int(execution.test)] = execution.isFailing ? 1 : 0
            }
            for test in ran {
                lastOutcomes[Int(test)].append(lastOfRun[Int(test)] == 1)
                lastOfRun[Int(test)] = -1
            }
            ran.removeAll(keepingCapacity: true)
        }
        let verdicts = Dictionary(
            analysis.findings.map { ($0.test, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        return quarantine.map { id in
            let names = history.names.indices.filter { index in
                let name = history.names[index]
                guard let slash = name.lastIndex(of: "/") else { return false }
                let testCase = TestRun.Case(
                    className: String(name[..<slash]), testName: String(name[name.index(after: slash)...]),
                    status: .passed)
                return id.matches(testCase)
            }
            guard let index = names.first else { return QuarantineState(id: id.id, state: .notInHistory) }
            let name = history.names[index]
            if case .broken(let since, let runs)? = verdicts[name] {
                return QuarantineState(id: id.id, state: .broken(since: since, runs: runs))
            }
            let outcomes = lastOutcomes[index]
            let passing = outcomes.reversed().prefix { !$0 }.count
            if passing >= healAfter { return QuarantineState(id: id.id, state: .release(runs: passing)) }
            return QuarantineState(id: id.id, state: .stays(verdict: verdicts[name]?.name))
        }
    }
}
