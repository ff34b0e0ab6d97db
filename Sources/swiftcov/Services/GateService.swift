import SwiftCovCore

/// The gate as `check` and `run` apply it: the package's configuration and the ratchet's
/// baseline read, tests judged as the configuration says (quarantined, flaky, order-dependent),
/// the rules evaluated, the result printed and published on the CI.
struct GateService {
    /// The rules: `.swiftcov.json` (or `--config`), with the minimums given on the command line.
    private(set) var configuration: GateConfiguration
    /// The ratchet's baseline, when given.
    let baseline: CoverageBaseline?
    /// Whether the configuration was given (`--config`) rather than found in the package.
    let configurationGiven: Bool

    /// Reads the configuration (`--config`, else `.swiftcov.json` in `root`, if any) and the
    /// baseline; `minimums` override the configuration's totals. A baseline given is ratcheted
    /// against, with the configuration's tolerance, else none.
    init(
        _ options: GateOptions, root: String,
        minimums: [(WritableKeyPath<GateConfiguration.Minimums, Double?>, Double)] = []
    ) throws {
        configuration = try options.loadConfiguration(root: root)
        configurationGiven = options.configPath != nil
        for (keyPath, percent) in minimums { configuration.totals[keyPath: keyPath] = percent }
        baseline = try options.loadBaseline()
        if baseline != nil && configuration.ratchetTolerance == nil { configuration.ratchetTolerance = 0 }
    }

    /// How the gate judges `tests` (`orderDependent`: the tests that failed in the suite and
    /// passed alone); the quarantine's entries that match none of them are warned about.
    func judgement(
        of tests: TestRun?, orderDependent: [OrderDependence] = [], terminal: Terminal
    ) -> TestJudgement {
        if let tests { for warning in configuration.unmatchedQuarantine(in: tests) { terminal.emit(warning) } }
        return TestJudgement(configuration: configuration, orderDependent: orderDependent)
    }

    /// Evaluates the rules on a run's coverage and tests (`run`), as `evaluate` does, after a
    /// blank line. A part of the tests (`record`: a shard, or a filtered run, `-- --filter …`)
    /// gates its tests only: its coverage is a share of the package's, so the package's rules are
    /// checked where the shards are merged, unless `--config` names rules for the part. Coverage
    /// rules checked need the package's code in the run's coverage.
    func evaluate(
        _ run: RunWorkflow.Results, record: RunRecord, judgement: TestJudgement, terminal: Terminal
    ) throws -> Bool {
        var skipped: String?
        if record.isPartial && !configurationGiven && configuration.hasCoverageRules {
            if case .shard(let shard) = record.scope {
                skipped =
                    "Shard \(shard) gates its tests only: the coverage rules of .swiftcov.json are checked where the "
                    + "shards are merged (swiftcov check -c SHARD-1-OUTPUT -c SHARD-2-OUTPUT …)."
            } else {
                skipped =
                    "A filtered run gates its tests only: the coverage rules of .swiftcov.json need the whole suite "
                    + "(swiftcov run without --filter or --skip)."
            }
        }
        if skipped == nil && configuration.hasCoverageRules || baseline != nil {
            try CoverageInputOptions.requireMeasured(run.coverage, inputs: run.request.inputs)
        }
        return try evaluate(
            run.coverage, tests: run.tests, judgement: judgement, coverageRulesSkipped: skipped, separated: true,
            terminal: terminal)
    }

    /// Evaluates the rules on `report` and the failures of `tests` (as `judgement` counts them),
    /// prints the result (after a blank line when `separated`) and publishes it on the CI; true
    /// when the gate passes. `coverageRulesSkipped`: why only the tests are gated (a shard, a
    /// filtered run), printed after the result.
    func evaluate(
        _ report: CoverageReport, tests: TestRun?, judgement: TestJudgement, coverageRulesSkipped: String? = nil,
        separated: Bool = false, terminal: Terminal
    ) throws -> Bool {
        let rules = coverageRulesSkipped == nil ? configuration : configuration.withoutCoverageRules
        let result = Gate.evaluate(
            report, configuration: rules, baseline: baseline, failedTests: tests.map(judgement.failedTests(of:)))
        try terminal.out((separated ? "\n" : "") + GateReport.text(result))
        if let coverageRulesSkipped { try terminal.out(coverageRulesSkipped + "\n") }
        terminal.github.publishGate(report: report, result: result, tests: tests, judgement: judgement)
        return result.passed
    }
}
