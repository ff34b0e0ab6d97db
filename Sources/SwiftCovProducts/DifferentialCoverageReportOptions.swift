import SwiftCovAnalyses
import SwiftCovModel

/// What a differential coverage report says besides the categories; shared by every format.
package struct DifferentialCoverageReportOptions: Sendable {
    /// Where the change comes from (`--base REF` or `--diff FILE`).
    package var changes = ChangedLineCoverageReportOptions()
    /// The baseline's name, as given.
    package var baseline = ""
    /// The categories that fail the gate (`--fail-on`, `failOn` in `.swiftcov.json`); empty: no gate.
    package var failOn: Set<DifferentialCategory> = []
    /// A link to a line of a file: `{path}` and `{line}` are replaced, e.g.
    /// `https://github.com/OWNER/REPO/blob/SHA/{path}#L{line}`.
    package var urlTemplate: String?
    /// Colour the table (terminal only).
    package var colors = false

    package init() {}

    /// The URL of `line` of `path`, when a template is given.
    package func url(path: String, line: UInt32) -> String? {
        guard let urlTemplate else { return nil }
        let encoded = path.split(separator: "/", omittingEmptySubsequences: false).map(Self.percentEncoded)
            .joined(separator: "/")
        return urlTemplate.replacingOccurrences("{path}", encoded).replacingOccurrences("{line}", String(line))
    }

    private static func percentEncoded(_ component: Substring) -> String {
        var text = ""
        for byte in component.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "+"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                text += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return text
    }
}

extension DifferentialCoverage {
    /// The lines in the gate's categories.
    package func failingLines(_ failOn: Set<DifferentialCategory>) -> Int { counts.total(of: failOn) }

    /// The headline: what needs attention first ("3 new lines no test runs; 5 lines lost their
    /// coverage"), else what the change did well.
    package var headline: String {
        let counts = counts
        func lines(_ count: Int) -> String { count == 1 ? "1 line" : "\(count) lines" }
        func newLines(_ count: Int) -> String { count == 1 ? "1 new line" : "\(count) new lines" }
        var parts: [String] = []
        if counts[.UNC] > 0 { parts.append("\(newLines(counts[.UNC])) no test runs") }
        if counts[.LBC] > 0 {
            parts.append("\(lines(counts[.LBC])) lost \(counts[.LBC] == 1 ? "its" : "their") coverage")
        }
        if counts[.UIC] > 0 {
            parts.append("\(lines(counts[.UIC])) newly executable no test runs")
        }
        if parts.isEmpty {
            if counts[.GNC] > 0 { parts.append("all \(newLines(counts[.GNC])) run in tests") }
            if counts[.GBC] > 0 { parts.append("\(lines(counts[.GBC])) gained coverage") }
        }
        return parts.isEmpty ? "no new or changed executable lines" : parts.joined(separator: "; ")
    }
}

extension DifferentialCoverage.File {
    /// The lines of a category numbered now, as ranges: two share a range when no line of
    /// another category (executable now) lies between them. For DCB and DUB, consecutive lines.
    package func ranges(_ category: DifferentialCategory) -> [ClosedRange<UInt32>] {
        let lines = self.lines[category]
        guard !lines.isEmpty else { return [] }
        var others: [UInt32] = []
        if !category.isBaselineLine {
            for other in DifferentialCategory.allCases
            where other != category && !other.isBaselineLine && other != .ECB && other != .EUB {
                others += self.lines[other]
            }
            others.sort()
        }
        var ranges: [ClosedRange<UInt32>] = []
        var next = 0
        for line in lines {
            if let last = ranges.last {
                while next < others.count && others[next] <= last.upperBound { next += 1 }
                let blocked = next < others.count && others[next] < line
                if !blocked && (!category.isBaselineLine || line == last.upperBound + 1) {
                    ranges[ranges.count - 1] = last.lowerBound...line
                    continue
                }
            }
            ranges.append(line...line)
        }
        return ranges
    }

    /// The path with what the change did to it: "X.swift (renamed from Y.swift)".
    package var annotatedPath: String {
        let annotation = status?.annotation(oldPath: basePath) ?? ""
        return annotation.isEmpty ? path : path + " " + annotation
    }
}

extension CoverageChange {
    /// "+1.25", "-0.50", "0.00", or "" when there is nothing to compare.
    package var deltaText: String {
        guard let delta else { return "" }
        let text = CoverageFormatting.percent(delta).dropLast()
        return delta > 0 && text != "0.00" ? "+" + text : (text == "-0.00" ? "0.00" : String(text))
    }

    /// "80.00% → 75.00%", with "-" for a side without executable lines.
    package var arrowText: String {
        "\(before.count == 0 ? "-" : before.formattedPercent) → \(after.count == 0 ? "-" : after.formattedPercent)"
    }
}
