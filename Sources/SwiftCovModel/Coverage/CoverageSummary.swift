/// A count of things and how many of them were covered, as llvm-cov reports it.
package struct Metric: Equatable, Sendable {
    package var count: Int = 0
    package var covered: Int = 0

    package init(count: Int = 0, covered: Int = 0) {
        self.count = count
        self.covered = covered
    }

    /// `count - covered`: the "Missed" column of `llvm-cov report` (0 rather than negative
    /// for a metric that claims more covered than there are).
    package var missed: Int { covered <= count ? count - covered : 0 }

    /// Percent covered, computed exactly as llvm-cov does (`covered / count * 100`, 0 when empty),
    /// so the same Double comes out.
    package var percent: Double {
        count == 0 ? 0 : Double(covered) / Double(count) * 100.0
    }

    /// The sum, stopping at `Int.max` (llvm-cov clamps its numbers to Int64.max) instead of trapping.
    package static func + (lhs: Metric, rhs: Metric) -> Metric {
        Metric(count: lhs.count.addingSaturating(rhs.count), covered: lhs.covered.addingSaturating(rhs.covered))
    }

    package static func += (lhs: inout Metric, rhs: Metric) {
        lhs = lhs + rhs
    }

    /// The larger count and the larger covered, as llvm-cov merges a function's instantiations.
    package func merged(with other: Metric) -> Metric {
        Metric(count: max(count, other.count), covered: max(covered, other.covered))
    }
}

/// The summary numbers of a file, module or report, as in the export's `summary` and
/// `llvm-cov report` (docs/COVERAGE-ALGORITHMS.md §3). `lines` here is the *summary view*: summed per function.
package struct CoverageSummary: Equatable, Sendable {
    package var lines = Metric()
    package var functions = Metric()
    package var instantiations = Metric()
    package var regions = Metric()
    package var branches = Metric()

    package init(
        lines: Metric = Metric(), functions: Metric = Metric(), instantiations: Metric = Metric(),
        regions: Metric = Metric(), branches: Metric = Metric()
    ) {
        self.lines = lines
        self.functions = functions
        self.instantiations = instantiations
        self.regions = regions
        self.branches = branches
    }

    package static func + (lhs: CoverageSummary, rhs: CoverageSummary) -> CoverageSummary {
        CoverageSummary(
            lines: lhs.lines + rhs.lines, functions: lhs.functions + rhs.functions,
            instantiations: lhs.instantiations + rhs.instantiations, regions: lhs.regions + rhs.regions,
            branches: lhs.branches + rhs.branches)
    }

    package static func += (lhs: inout CoverageSummary, rhs: CoverageSummary) {
        lhs = lhs + rhs
    }

    /// The metrics reported for every level, in display order.
    package enum Kind: String, CaseIterable, Sendable {
        case lines, functions, instantiations, regions, branches

        /// The name (`rawValue`) as a static string: a JSON key written without escaping, or
        /// matched without making a `String`.
        package var staticName: StaticString {
            switch self {
            case .lines: "lines"
            case .functions: "functions"
            case .instantiations: "instantiations"
            case .regions: "regions"
            case .branches: "branches"
            }
        }
    }

    /// The metric of one kind.
    package subscript(kind: Kind) -> Metric {
        switch kind {
        case .lines: lines
        case .functions: functions
        case .instantiations: instantiations
        case .regions: regions
        case .branches: branches
        }
    }
}

extension CoverageSummary {
    /// What no input's numbers may say, checked where reports are built from any input: the
    /// first metric with more covered than counted (lines, functions, …), as a message; nil
    /// when there is none.
    package var contradiction: String? {
        for kind in Kind.allCases where self[kind].covered > self[kind].count {
            return Self.contradiction(kind.rawValue, covered: self[kind].covered, of: self[kind].count)
        }
        return nil
    }

    /// "7 covered lines of only 5: the coverage cannot be right".
    package static func contradiction(_ what: String, covered: Int, of count: Int) -> String {
        "\(covered) covered \(what) of only \(count): the coverage cannot be right"
    }
}

extension Int {
    /// Addition that stops at `Int.max` or `Int.min` instead of trapping.
    package func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
