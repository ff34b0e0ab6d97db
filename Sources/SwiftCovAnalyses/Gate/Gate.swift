import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// The outcome of a coverage gate: a value, not an error. Every rule checked, and those not met.
package struct GateResult: Equatable, Sendable {
    /// A rule that was not met.
    package struct Failure: Equatable, Sendable {
        /// Where the rule applies.
        package enum Level: String, Equatable, Sendable {
            case total, module, file, ratchet, tests
        }

        package var level: Level
        /// "TOTAL", a module name, a file path (relative to the package root) or a test name.
        package var name: String
        /// The metric, for threshold and ratchet rules.
        package var metric: CoverageSummary.Kind?
        /// The measured percentage.
        package var actual: Double?
        /// The required percentage.
        package var required: Double?
        /// What a person should read, without the level and name.
        package var detail: String
        /// A source location to annotate (a file rule's file, a failed test's issue).
        package var file: String?
        package var line: Int?
    }

    package var failures: [Failure] = []
    /// The rules on totals and modules that were met, with what was measured (`detail`: "lines
    /// 92.33% >= 80.00% (325/352)"); file rules met are counted only.
    package var met: [Failure] = []
    /// How many rules were checked, met or not.
    package var rulesChecked = 0
    /// Whose numbers were checked (the note under failures on lines says which lines they count).
    package var origin: CoverageReport.Origin = .llvmCov

    /// Whether every rule was met.
    package var passed: Bool { failures.isEmpty }
}

/// The coverage of an earlier run, to ratchet against: the totals and modules of a
/// `swiftcov report --format json` document (read by `SwiftCovReportDocument`).
package struct CoverageBaseline: Equatable, Sendable {
    package var totals: CoverageSummary
    package var modules: [String: CoverageSummary]

    /// Reads the `--format json` report at `path` ("-" for standard input).
    package static func read(path: String) throws(CoverageInputError) -> CoverageBaseline {
        try read(CoverageInput.map(path), path: path)
    }

    /// Reads a `--format json` report; `path` names it in errors.
    package static func parse(_ bytes: [UInt8], path: String) throws(CoverageInputError) -> CoverageBaseline {
        try read(MappedFile(bytes: bytes), path: path)
    }

    private static func read(_ document: MappedFile, path: String) throws(CoverageInputError) -> CoverageBaseline {
        let document = try SwiftCovReportDocument.read(document, path: path, parts: .summaries)
        var modules: [String: CoverageSummary] = [:]
        for module in document.modules { modules[module.name] = module.summary }
        return CoverageBaseline(totals: document.totals, modules: modules)
    }
}

/// A test that failed, as far as the gate is concerned.
package struct FailedTest: Equatable, Sendable {
    package var name: String
    package var file: String?
    package var line: Int?
    package var message: String

    package init(name: String, file: String? = nil, line: Int? = nil, message: String) {
        self.name = name
        self.file = file
        self.line = line
        self.message = message
    }

    /// The failed tests of `run`, every failure counted (no quarantine, no order dependence).
    package static func all(of run: TestRun) -> [FailedTest] {
        TestJudgement().failedTests(of: run)
    }
}

/// Evaluates a gate: thresholds at every level, the ratchet, and failed tests.
package enum Gate {
    /// A rule of `configuration` on a metric `report`'s inputs do not measure (regions of Xcode's
    /// coverage): the metric and where the rule is ("total", "module App", "files Sources/**").
    /// Such a rule can be neither met nor failed; the caller stops with an input error.
    package static func unmeasuredRule(
        in configuration: GateConfiguration, for report: CoverageReport
    ) -> (metric: CoverageSummary.Kind, rule: String)? {
        let rules =
            [("total", configuration.totals)]
            + configuration.modules.sorted { $0.key < $1.key }.map { ("module \($0.key)", $0.value) }
            + configuration.files.map { ("files \($0.pattern.pattern)", $0.minimums) }
        for (rule, minimums) in rules {
            for kind in GateConfiguration.Minimums.kinds where minimums[kind] != nil && !report.measured.contains(kind)
            {
                return (kind, rule)
            }
        }
        return nil
    }

    /// Checks `report` against `configuration` (and `baseline` when its ratchet is on). When the
    /// tests' results are given, "all tests pass" is a rule too, and each failed test fails it.
    package static func evaluate(
        _ report: CoverageReport, configuration: GateConfiguration, baseline: CoverageBaseline? = nil,
        failedTests: [FailedTest]? = nil
    ) -> GateResult {
        var result = GateResult()
        result.origin = report.origin
        check(report.totals, against: configuration.totals, level: .total, name: "TOTAL", into: &result)
        for module in report.modules {
            guard let minimums = configuration.modules[module.name] else { continue }
            check(module.summary, against: minimums, level: .module, name: module.name, into: &result)
        }
        if !configuration.files.isEmpty {
            for file in report.files {
                let minimums = configuration.minimums(forFile: file.displayPath)
                check(file.summary, against: minimums, level: .file, name: file.displayPath, into: &result)
            }
        }
        if let baseline, let tolerance = configuration.ratchetTolerance {
            ratchet(report.totals, from: baseline.totals, tolerance: tolerance, name: "TOTAL", into: &result)
            for module in report.modules {
                guard let before = baseline.modules[module.name] else { continue }
                ratchet(module.summary, from: before, tolerance: tolerance, name: module.name, into: &result)
            }
        }
        guard let failedTests else { return result }
        result.rulesChecked += 1
        for test in failedTests {
            result.failures.append(
                GateResult.Failure(
                    level: .tests, name: test.name, metric: nil, actual: nil, required: nil, detail: test.message,
                    file: test.file, line: test.line))
        }
        return result
    }

    private static func check(
        _ summary: CoverageSummary, against minimums: GateConfiguration.Minimums, level: GateResult.Failure.Level,
        name: String, into result: inout GateResult
    ) {
        for kind in GateConfiguration.Minimums.kinds {
            guard let required = minimums[kind] else { continue }
            let metric = summary[kind]
            result.rulesChecked += 1
            // Nothing to cover (no branches in Swift, an empty file) cannot fall short. The
            // percentage is compared as printed, to two decimals: 92.3295% meets "92.33".
            guard metric.count > 0, shown(metric.percent) < required else {
                if level != .file {
                    result.met.append(
                        GateResult.Failure(
                            level: level, name: name, metric: kind, actual: metric.percent, required: required,
                            detail: metric.count == 0
                                ? "\(kind.rawValue): nothing to cover (0/0), minimum \(CoverageFormatting.percent(required))"
                                : "\(kind.rawValue) \(CoverageFormatting.percent(metric.percent)) >= "
                                    + "\(CoverageFormatting.percent(required)) (\(metric.covered)/\(metric.count))"))
                }
                continue
            }
            result.failures.append(
                GateResult.Failure(
                    level: level, name: name, metric: kind, actual: metric.percent, required: required,
                    detail:
                        "\(kind.rawValue) \(CoverageFormatting.percent(metric.percent)) < \(CoverageFormatting.percent(required)) "
                        + "(\(metric.covered)/\(metric.count))",
                    file: level == .file ? name : nil, line: level == .file ? 1 : nil))
        }
    }

    /// A percentage as the reports print it (two decimals, printf rounding).
    private static func shown(_ percent: Double) -> Double {
        Double(CoverageFormatting.percent(percent).dropLast()) ?? percent
    }

    private static func ratchet(
        _ summary: CoverageSummary, from before: CoverageSummary, tolerance: Double, name: String,
        into result: inout GateResult
    ) {
        for kind in [CoverageSummary.Kind.lines, .functions, .regions, .branches] {
            let (now, then) = (summary[kind], before[kind])
            guard then.count > 0 else { continue }
            result.rulesChecked += 1
            let drop = shown(then.percent) - shown(now.percent)
            guard drop > tolerance + 1e-9 else {
                result.met.append(
                    GateResult.Failure(
                        level: .ratchet, name: name, metric: kind, actual: now.percent,
                        required: then.percent - tolerance,
                        detail: "\(kind.rawValue) \(CoverageFormatting.percent(now.percent)), baseline "
                            + "\(CoverageFormatting.percent(then.percent)) (tolerance \(CoverageFormatting.percent(tolerance).dropLast()))"
                    ))
                continue
            }
            result.failures.append(
                GateResult.Failure(
                    level: .ratchet, name: name, metric: kind, actual: now.percent, required: then.percent - tolerance,
                    detail:
                        "\(kind.rawValue) dropped from \(CoverageFormatting.percent(then.percent)) to "
                        + "\(CoverageFormatting.percent(now.percent)) (−\(CoverageFormatting.percent(drop).dropLast()) points, "
                        + "tolerance \(CoverageFormatting.percent(tolerance).dropLast()))",
                    file: nil, line: nil))
        }
    }
}

extension Gate {
    /// Why a gate on `report` would judge the coverage of part of the tests as the whole: an input
    /// is a shard's export (and the shards given are not all of one split) or a filtered run's.
    /// Nil when every input is a whole run, or the inputs are every shard of one split.
    package static func partialCoverage(_ report: CoverageReport) -> String? {
        let partial = report.inputs.filter { $0.partial != nil }
        guard let first = partial.first, let what = first.partial else { return nil }
        var shards: [Int: Set<Int>] = [:]
        var other = false
        for input in partial {
            if case .shard(let shard)? = input.record?.scope {
                shards[shard.count, default: []].insert(shard.index)
            } else {
                other = true
            }
        }
        if !other, shards.count == 1, let split = shards.first, split.value.count == split.key,
            partial.count == report.inputs.count
        {
            return nil
        }
        let remedy =
            shards.isEmpty
            ? "run the whole suite (swiftcov run, without --filter or --skip)"
            : "merge the shards (swiftcov check -c SHARD-1-OUTPUT -c SHARD-2-OUTPUT …)"
        return "\(CoverageScope.normalized(first.path)) holds the coverage of part of the tests only (\(what)): "
            + remedy + ", or give --partial to gate this part as it is"
    }

    /// Why `report` gives a gate nothing to judge — no source file of the package is in its scope
    /// — in one sentence that says how to fix it; nil when it has files (or, from Xcode's totals,
    /// targets). Nothing measured is never a pass: the caller stops with an input error.
    package static func nothingToJudge(_ report: CoverageReport) -> String? {
        guard report.files.isEmpty, report.modules.isEmpty else { return nil }
        let root = report.scope.root ?? "."
        let leftOut = report.leftOut
        let total = leftOut.values.reduce(0, +)
        guard total > 0 else { return "no source file in scope: the coverage data has no source file at all" }
        func count(_ exclusion: CoverageScope.Exclusion) -> Int { leftOut[exclusion] ?? 0 }
        let outside = count(.byDefault(.outsideRoot))
        if outside == total {
            let moved = report.otherRoot.map { "the export was made in \($0) (moved, or another checkout)" }
            return "no source file in scope: none of the export's \(total) files is under the package root \(root)"
                + (moved.map { "; " + $0 + ": give --root \(root) to read it as this package's" }
                    ?? "; give --root DIR, the folder the export's files are in")
        }
        var reasons: [String] = []
        if count(.excluded) > 0 { reasons.append("\(count(.excluded)) excluded by --exclude or the configuration") }
        if count(.notIncluded) > 0 { reasons.append("\(count(.notIncluded)) matched by no --include") }
        if count(.byDefault(.testTarget)) > 0 { reasons.append("\(count(.byDefault(.testTarget))) test code") }
        if count(.byDefault(.buildDirectory)) > 0 {
            reasons.append("\(count(.byDefault(.buildDirectory))) under .build (generated, dependencies)")
        }
        if outside > 0 { reasons.append("\(outside) outside the package root \(root)") }
        return "no source file in scope: of the export's \(total) files, " + reasons.joined(separator: ", ")
            + "; widen the scope (--include GLOB, fewer --exclude) or use --all-files"
    }
}
