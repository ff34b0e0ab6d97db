import SwiftCovFormats
import SwiftCovPlatform

/// The coverage gate a team agreed on: minimum percentages for the whole report, per module and
/// per file or glob, files exempted from file rules, and a ratchet against a baseline. Read from
/// `.swiftcov.json` (see the README for the format).
package struct GateConfiguration: Equatable, Sendable {
    /// Minimum percentages per metric; unset metrics are not checked.
    package struct Minimums: Equatable, Sendable {
        package var lines: Double?
        package var functions: Double?
        package var regions: Double?
        package var branches: Double?

        package init(lines: Double? = nil, functions: Double? = nil, regions: Double? = nil, branches: Double? = nil) {
            self.lines = lines
            self.functions = functions
            self.regions = regions
            self.branches = branches
        }

        /// The minimum for one metric.
        package subscript(kind: CoverageSummary.Kind) -> Double? {
            switch kind {
            case .lines: lines
            case .functions: functions
            case .regions: regions
            case .branches: branches
            case .instantiations: nil
            }
        }

        /// These minimums, with `fallback`'s for the metrics these leave unset.
        package func filled(from fallback: Minimums) -> Minimums {
            Minimums(
                lines: lines ?? fallback.lines, functions: functions ?? fallback.functions,
                regions: regions ?? fallback.regions, branches: branches ?? fallback.branches)
        }

        /// Whether no metric is set.
        package var isEmpty: Bool { lines == nil && functions == nil && regions == nil && branches == nil }

        /// The metrics a gate can check, in display order.
        package static let kinds: [CoverageSummary.Kind] = [.lines, .functions, .regions, .branches]
    }

    /// A rule for the files a glob matches.
    package struct FileRule: Equatable, Sendable {
        package var pattern: Glob
        package var minimums: Minimums

        package init(pattern: Glob, minimums: Minimums) {
            self.pattern = pattern
            self.minimums = minimums
        }
    }

    /// Minimums for the report's totals.
    package var totals = Minimums()
    /// Minimums per module, by name.
    package var modules: [String: Minimums] = [:]
    /// Minimums per file glob, in the order written.
    package var files: [FileRule] = []
    /// Files no file rule applies to.
    package var exempt: [Glob] = []
    /// The same scope rules as `report`.
    package var includes: [Glob] = []
    package var excludes: [Glob] = []
    package var allFiles = false
    /// How many percentage points the total or a module may drop below the baseline.
    package var ratchetTolerance: Double?
    /// The differential categories no line may fall into (`swiftcov diff --base-coverage`):
    /// `"failOn": ["UNC", "LBC", "UIC"]` is genhtml's "UNC + LBC + UIC == 0".
    package var failOn: Set<DifferentialCategory> = []
    /// What the gate makes of tests that failed only in some runs (`"tests"`).
    package var tests = TestRules()
    /// Tests whose failures are reported but do not fail the gate (`"quarantine"`).
    package var quarantine: [QuarantinedTest] = []
    /// The file `"quarantine"` names, as the configuration's folder makes it (read by
    /// `parseQuarantine` into `quarantine`).
    package var quarantineFile: String?

    package init() {}

    /// How the gate judges the tests that failed and passed.
    package struct TestRules: Equatable, Sendable {
        /// Whether such tests pass the gate or fail it.
        package enum Verdict: String, Equatable, Sendable, CaseIterable {
            case pass, fail
        }

        /// A test that failed, then passed when run again (`run --retry-failed`, Xcode's retries):
        /// reported as flaky either way. Default: it passes.
        package var flaky = Verdict.pass
        /// A test that ends one way alone and another in the suite (`run --per-test`): reported as
        /// order-dependent either way. Default: it passes.
        package var orderDependent = Verdict.pass

        package init(flaky: Verdict = .pass, orderDependent: Verdict = .pass) {
            self.flaky = flaky
            self.orderDependent = orderDependent
        }
    }

    /// A test in quarantine: it still runs and is reported, but its failure does not fail the gate.
    package struct QuarantinedTest: Equatable, Sendable {
        /// The test, as `swift test list` names it.
        package var id: TestID
        /// Where it is listed: the configuration (at `quarantine[2]`) or the quarantine file (a line).
        package var file: String
        package var location: Diagnostic.Location

        package init(id: TestID, file: String, location: Diagnostic.Location) {
            self.id = id
            self.file = file
            self.location = location
        }
    }

    /// The minimums for a file: for each metric, from the most specific file rule that sets it
    /// (most literal characters in its pattern; the later rule on a tie), unless exempted.
    package func minimums(forFile path: String) -> Minimums {
        guard !exempt.contains(where: { $0.matches(path) }) else { return Minimums() }
        let matching = files.enumerated().filter { $0.element.pattern.matches(path) }
            .sorted { lhs, rhs in
                let (a, b) = (lhs.element.pattern.specificity, rhs.element.pattern.specificity)
                return a != b ? a > b : lhs.offset > rhs.offset
            }
        return matching.reduce(Minimums()) { $0.filled(from: $1.element.minimums) }
    }
}

extension Glob {
    /// How specific the pattern is: the number of characters that are not wildcards.
    package var specificity: Int {
        pattern.filter { $0 != "*" && $0 != "?" }.count
    }
}
