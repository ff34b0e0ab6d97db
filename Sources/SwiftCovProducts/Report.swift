import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovModel

/// A product swiftcov writes in the format the user chooses — a table for a person, JSON for a
/// program, Markdown for a pull request, … — through one entry that takes the format. A product
/// holds what it reports and how; `write` appends to an `OutputBuffer`, and a streaming buffer
/// (`AtomicFile.Destination.streamingBuffer()`) flushes to the destination as it fills, so the
/// products that can be larger than memory (JSON with every line, the interchange formats)
/// never are held whole.
package protocol Report {
    /// The formats the product is written in.
    associatedtype Format

    /// Writes the product in `format` to `output`. After an error, `output` is to be given up
    /// (not finished): what it holds is not the product.
    func write(_ format: Format, to output: inout OutputBuffer) throws
}

extension Report {
    /// The product in `format`, as text (for a job summary, a comment).
    package func text(_ format: Format) throws -> String {
        var output = OutputBuffer()
        try write(format, to: &output)
        return output.text
    }
}

/// The formats of `report`, `diff` and `flaky`.
package enum ReportFormat: String, CaseIterable, Sendable {
    case table, json, markdown
}

/// The coverage of a change (`swiftcov diff`), written in each of `ReportFormat`'s formats by
/// its renderers.
package protocol ChangeCoverage {
    /// What the renderers are told besides the coverage: the change's name, the verdict's rule.
    associatedtype ReportOptions

    func writeJSON(options: ReportOptions, to json: inout JSONWriter)
    func markdown(options: ReportOptions) -> String
    func table(options: ReportOptions) -> String
}

/// A change's coverage in the format asked for (`swiftcov diff`).
package struct ChangeCoverageReport<Coverage: ChangeCoverage>: Report {
    package var coverage: Coverage
    package var options: Coverage.ReportOptions

    package init(_ coverage: Coverage, options: Coverage.ReportOptions) {
        self.coverage = coverage
        self.options = options
    }

    package func write(_ format: ReportFormat, to output: inout OutputBuffer) {
        switch format {
        case .json:
            var json = JSONWriter(output)
            coverage.writeJSON(options: options, to: &json)
            output = json.finish()
        case .markdown: output += coverage.markdown(options: options)
        case .table: output += coverage.table(options: options)
        }
    }
}

/// Changed-line coverage (`swiftcov diff`).
package typealias ChangedLineCoverageReport = ChangeCoverageReport<ChangedLineCoverage>

extension ChangedLineCoverage: ChangeCoverage {
    package func writeJSON(options: ChangedLineCoverageReportOptions, to json: inout JSONWriter) {
        ChangedLineCoverageJSONReport.write(self, options: options, to: &json)
    }

    package func markdown(options: ChangedLineCoverageReportOptions) -> String {
        ChangedLineCoverageMarkdownReport.render(self, options: options)
    }

    package func table(options: ChangedLineCoverageReportOptions) -> String {
        ChangedLineCoverageTableReport.render(self, options: options)
    }
}

/// Differential coverage against the base revision's (`swiftcov diff --base-coverage`).
package typealias DifferentialCoverageReport = ChangeCoverageReport<DifferentialCoverage>

extension DifferentialCoverage: ChangeCoverage {
    package func writeJSON(options: DifferentialCoverageReportOptions, to json: inout JSONWriter) {
        DifferentialCoverageJSONReport.write(self, options: options, to: &json)
    }

    package func markdown(options: DifferentialCoverageReportOptions) -> String {
        DifferentialCoverageMarkdownReport.render(self, options: options)
    }

    package func table(options: DifferentialCoverageReportOptions) -> String {
        DifferentialCoverageTableReport.render(self, options: options)
    }
}

/// The coverage per module, file and function (`swiftcov report`), with the tests' summary and
/// the tests that ran each file or line when given.
package struct CoverageAndTestsReport: Report {
    package var coverage: CoverageReport
    package var options: CoverageReportOptions
    package var tests: TestRun?
    /// Per-test data: the tests that ran each file (table) or each line (JSON).
    package var perTest: PerTestCoverage?
    /// Which of the tests' failures do not fail the gate.
    package var judgement: TestJudgement
    /// Each failure's step and page of evidence (Markdown).
    package var links: TestSummaryMarkdownReport.EvidenceLinks?

    package init(
        _ coverage: CoverageReport, options: CoverageReportOptions, tests: TestRun? = nil,
        perTest: PerTestCoverage? = nil, judgement: TestJudgement = TestJudgement(),
        links: TestSummaryMarkdownReport.EvidenceLinks? = nil
    ) {
        self.coverage = coverage
        self.options = options
        self.tests = tests
        self.perTest = perTest
        self.judgement = judgement
        self.links = links
    }

    package func write(_ format: ReportFormat, to output: inout OutputBuffer) throws {
        switch format {
        case .json:
            // File by file: with every function and line the JSON can be many times the export's size.
            var json = JSONWriter(output)
            do {
                try CoverageJSONReport.write(
                    coverage, options: options, tests: tests, perTest: perTest, judgement: judgement, to: &json)
            } catch {
                // The document is cut short, and the output given up (`write`'s contract).
                output = OutputBuffer()
                throw error
            }
            output = json.finish()
        case .markdown:
            output += CoverageMarkdownReport.render(coverage, options: options)
            if let tests {
                output += "\n" + TestSummaryMarkdownReport.render(tests, judgement: judgement, links: links)
            }
        case .table:
            output += CoverageTableReport.render(coverage, options: options)
            if let perTest {
                output += "\n" + PerTestTableReport.render(coverage, perTest: perTest, width: options.width)
            }
            if let tests {
                output += "\n" + TestSummaryTableReport.render(tests, colors: options.colors, judgement: judgement)
            }
        }
    }
}

/// A test run's summary (`swiftcov report --tests` without coverage).
package struct TestSummaryReport: Report {
    package var tests: TestRun
    /// Which failures do not fail the gate.
    package var judgement: TestJudgement
    /// Each failure's step and page of evidence (Markdown).
    package var links: TestSummaryMarkdownReport.EvidenceLinks?
    /// Colour the table with ANSI codes.
    package var colors: Bool

    package init(
        _ tests: TestRun, judgement: TestJudgement = TestJudgement(),
        links: TestSummaryMarkdownReport.EvidenceLinks? = nil, colors: Bool = false
    ) {
        self.tests = tests
        self.judgement = judgement
        self.links = links
        self.colors = colors
    }

    package func write(_ format: ReportFormat, to output: inout OutputBuffer) {
        switch format {
        case .json:
            // Test by test: a log of a million tests gives a JSON document larger than the log.
            var json = JSONWriter(output)
            TestSummaryJSONReport.write(tests, judgement: judgement, to: &json)
            output = json.finish()
        case .markdown: output += TestSummaryMarkdownReport.render(tests, judgement: judgement, links: links)
        case .table: output += TestSummaryTableReport.render(tests, colors: colors, judgement: judgement)
        }
    }
}

/// The coverage in an interchange format (`swiftcov export`), file by file.
package struct InterchangeReport: Report {
    package var coverage: CoverageReport
    package var options: InterchangeOptions

    package init(_ coverage: CoverageReport, options: InterchangeOptions) {
        self.coverage = coverage
        self.options = options
    }

    package func write(_ format: InterchangeFormat, to output: inout OutputBuffer) throws {
        try format.write(coverage, options: options, to: &output)
    }
}

/// `swiftcov flaky`'s verdicts.
extension FlakyReport: Report {
    package func write(_ format: ReportFormat, to output: inout OutputBuffer) {
        switch format {
        case .table: output += Self.table(analysis)
        case .json: output += Self.json(analysis)
        case .markdown: output += Self.markdown(analysis)
        }
    }
}

/// `swiftcov trends`'s summary, comment or page.
extension TrendsReport: Report {
    /// What `trends` writes.
    package enum Format: String, CaseIterable, Sendable {
        case table, markdown, html
    }

    package func write(_ format: Format, to output: inout OutputBuffer) {
        switch format {
        case .table: output += Self.table(trends)
        case .markdown: output += Self.markdown(trends)
        case .html: output += Self.html(trends)
        }
    }
}
