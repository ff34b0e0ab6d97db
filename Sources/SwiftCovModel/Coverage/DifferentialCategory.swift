/// genhtml's differential line categories (lcov 2.x), which say what a change did to coverage:
/// a line is new, unchanged or deleted, and executable and covered on either side or not.
/// Declared most important first, in genhtml's order.
package enum DifferentialCategory: String, CaseIterable, Sendable, Comparable {
    /// A new executable line no test runs.
    case UNC
    /// An unchanged line the tests ran in the baseline and no longer run: lost baseline coverage.
    case LBC
    /// An unchanged line executable only now, not run.
    case UIC
    /// An unchanged line executable on both sides, run on neither.
    case UBC
    /// An unchanged line executable on both sides, run now and not in the baseline.
    case GBC
    /// An unchanged line executable only now, run.
    case GIC
    /// A new executable line the tests run.
    case GNC
    /// An unchanged line run on both sides.
    case CBC
    /// An unchanged line executable only in the baseline, where it did not run.
    case EUB
    /// An unchanged line executable only in the baseline, where it ran.
    case ECB
    /// A deleted line that was executable and did not run.
    case DUB
    /// A deleted line that was executable and ran.
    case DCB

    /// Its position in `allCases`.
    package var index: Int {
        switch self {
        case .UNC: 0
        case .LBC: 1
        case .UIC: 2
        case .UBC: 3
        case .GBC: 4
        case .GIC: 5
        case .GNC: 6
        case .CBC: 7
        case .EUB: 8
        case .ECB: 9
        case .DUB: 10
        case .DCB: 11
        }
    }

    /// What it means, in a few words.
    package var meaning: String {
        switch self {
        case .UNC: "new, not run"
        case .LBC: "lost its coverage"
        case .UIC: "unchanged, executable only now, not run"
        case .UBC: "unchanged, not run before or now"
        case .GBC: "gained coverage"
        case .GIC: "unchanged, executable only now, run"
        case .GNC: "new, run"
        case .CBC: "run before and now"
        case .EUB: "unchanged, executable only before, not run then"
        case .ECB: "unchanged, executable only before, run then"
        case .DUB: "deleted, was not run"
        case .DCB: "deleted, was run"
        }
    }

    /// Whether its lines are numbered in the baseline (deleted lines) rather than now.
    package var isBaselineLine: Bool { self == .DUB || self == .DCB }

    /// Reads a comma-separated list of codes (`UNC,LBC`; spaces and `+` also separate); nil
    /// with the first unknown code.
    package static func parseList(_ text: String) -> Result<Set<DifferentialCategory>, UnknownCode> {
        var codes: Set<DifferentialCategory> = []
        for part in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "+" }) {
            guard let code = DifferentialCategory(rawValue: part.uppercased()) else {
                return .failure(UnknownCode(code: String(part)))
            }
            codes.insert(code)
        }
        return .success(codes)
    }

    /// A code that is none of the twelve.
    package struct UnknownCode: Error, Equatable {
        package var code: String
        package var message: String {
            "unknown category '\(code)'; expected codes among "
                + DifferentialCategory.allCases.map(\.rawValue).joined(separator: ", ")
        }
    }

    package static func < (lhs: DifferentialCategory, rhs: DifferentialCategory) -> Bool { lhs.index < rhs.index }

    package static func unchanged(before: LineCount?, now: LineCount?) -> DifferentialCategory? {
        switch (before.map { $0.count > 0 }, now.map { $0.count > 0 }) {
        case (true?, true?): .CBC
        case (true?, false?): .LBC
        case (false?, true?): .GBC
        case (false?, false?): .UBC
        case (nil, true?): .GIC
        case (nil, false?): .UIC
        case (true?, nil): .ECB
        case (false?, nil): .EUB
        case (nil, nil): nil
        }
    }
}
