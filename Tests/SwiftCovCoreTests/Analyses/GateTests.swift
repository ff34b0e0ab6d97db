import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// The gate on the trivia sample, whose numbers (checked against llvm-cov elsewhere) are:
/// total lines 325/352 (92.33%), functions 46/50 (92%), regions 175/192 (91.15%);
/// TriviaCore functions 25/29 (86.21%); NetworkTriviaAPI.swift lines 4/11 (36.36%).
@Suite("Coverage gate")
struct GateTests {
    let report: CoverageReport

    init() throws {
        report = try CoverageReport.build(exports: [Fixture.sample.export()], scope: CoverageScope(root: "/p"))
    }

    func configuration(_ json: String) throws -> GateConfiguration {
        try GateConfiguration.parse(Array(json.utf8), path: ".swiftcov.json")
    }

    @Test(
        "a threshold on the whole report, for each metric",
        arguments: [
            ("lines", 92.33, true), ("lines", 92.34, false), ("functions", 92, true), ("functions", 92.01, false),
            ("regions", 91.15, true), ("regions", 91.16, false), ("branches", 100, true),
        ])
    func totals(metric: String, minimum: Double, passes: Bool) throws {
        let result = Gate.evaluate(
            report, configuration: try configuration(#"{"thresholds": {"\#(metric)": \#(minimum)}}"#))
        #expect(result.passed == passes)
        #expect(result.rulesChecked == 1)
        if !passes {
            #expect(result.failures.first?.level == .total)
            #expect(result.failures.first?.metric?.rawValue == metric)
        }
    }

    @Test("a module rule applies to that module only")
    func modules() throws {
        let result = Gate.evaluate(
            report,
            configuration: try configuration(
                #"{"modules": {"TriviaCore": {"functions": 90}, "TriviaGame": {"functions": 90}}}"#))
        #expect(result.failures.map(\.name) == ["TriviaCore"])
        #expect(result.failures.first?.detail == "functions 86.21% < 90.00% (25/29)")
        #expect(result.rulesChecked == 2)
    }

    @Test("the most specific file rule wins, per metric; exempted files have no file rule")
    func files() throws {
        let gate = try configuration(
            #"""
            {"files": {"Sources/TriviaCore/**": {"lines": 85, "regions": 10},
                       "Sources/TriviaCore/NetworkTriviaAPI.swift": {"lines": 30}},
             "exempt": ["Sources/TriviaCore/TriviaAPIProviding.swift"]}
            """#)
        #expect(gate.minimums(forFile: "Sources/TriviaCore/NetworkTriviaAPI.swift") == .init(lines: 30, regions: 10))
        #expect(gate.minimums(forFile: "Sources/TriviaCore/Question.swift") == .init(lines: 85, regions: 10))
        #expect(gate.minimums(forFile: "Sources/TriviaCore/TriviaAPIProviding.swift").isEmpty)
        #expect(gate.minimums(forFile: "Sources/TriviaGame/Game.swift").isEmpty)
        let result = Gate.evaluate(report, configuration: gate)
        // NetworkTriviaAPI: lines 36.36% ≥ 30 but regions 20% ≥ 10: passes; nothing else is below 85% lines.
        #expect(result.passed)
        let stricter = try configuration(#"{"files": {"Sources/TriviaCore/NetworkTriviaAPI.swift": {"lines": 50}}}"#)
        let failure = try #require(Gate.evaluate(report, configuration: stricter).failures.first)
        #expect(failure.level == .file)
        #expect(failure.file == "Sources/TriviaCore/NetworkTriviaAPI.swift")
        #expect(failure.detail == "lines 36.36% < 50.00% (4/11)")
    }

    @Test("the ratchet fails when coverage dropped by more than the tolerance, naming what and by how much")
    func ratchet() throws {
        let better = CoverageSummary(
            lines: Metric(count: 352, covered: 330), functions: Metric(count: 50, covered: 46),
            regions: Metric(count: 192, covered: 175))
        let baseline = CoverageBaseline(totals: better, modules: [:])
        let tolerant = try configuration(#"{"ratchet": {"tolerance": 1.5}}"#)
        #expect(Gate.evaluate(report, configuration: tolerant, baseline: baseline).passed)  // 93.75 → 92.33: −1.42
        let strict = try configuration(#"{"ratchet": {"tolerance": 0.5}}"#)
        let failure = try #require(Gate.evaluate(report, configuration: strict, baseline: baseline).failures.first)
        #expect(failure.level == .ratchet)
        #expect(failure.detail == "lines dropped from 93.75% to 92.33% (−1.42 points, tolerance 0.50)")
    }

    @Test("a baseline is read from a swiftcov JSON report, the same numbers pass the ratchet")
    func baselineRoundTrip() throws {
        let json = try CoverageJSONReport.render(report, options: CoverageReportOptions())
        let baseline = try CoverageBaseline.parse(Array(json.utf8), path: "baseline.json")
        #expect(baseline.totals == report.totals)
        #expect(baseline.modules["TriviaCore"] == report.modules.first { $0.name == "TriviaCore" }?.summary)
        #expect(Gate.evaluate(report, configuration: try configuration(#"{"ratchet": {}}"#), baseline: baseline).passed)
        #expect(throws: CoverageInputError.self) {
            try CoverageBaseline.parse(Array("{}".utf8), path: "x.json")
        }
    }

    @Test("failed tests fail the gate")
    func failedTests() throws {
        let result = Gate.evaluate(
            report, configuration: GateConfiguration(),
            failedTests: [
                FailedTest(name: "GameTests.testWrap", file: "Tests/GameTests.swift", line: 12, message: "1 != 2")
            ])
        #expect(!result.passed)
        #expect(GateReport.verdict(result) == "Gate failed: 1 test failed; no coverage rule configured.")
    }

    @Test(
        "every kind of bad configuration is reported with the key and the reason",
        arguments: [
            (#"{"treshold": {}}"#, #".swiftcov.json: error: treshold: unknown key; did you mean "thresholds"?"#),
            (
                #"{"thresholds": {"lines": "80"}}"#,
                #".swiftcov.json: error: thresholds.lines: expected a percentage (a number from 0 to 100), found "80""#
            ),
            (
                #"{"thresholds": {"lines": 120}}"#,
                ".swiftcov.json: error: thresholds.lines: 120 is not a percentage from 0 to 100"
            ),
            (
                #"{"thresholds": {"line": 80}}"#,
                #".swiftcov.json: error: thresholds.line: unknown metric; did you mean "lines"?"#
            ),
            (
                #"{"modules": {"A": 80}}"#,
                #".swiftcov.json: error: modules.A: expected an object such as {"lines": 80}"#
            ),
            (#"{"files": ["Sources/**"]}"#, ".swiftcov.json: error: files: expected an object of globs"),
            (#"{"exclude": [3]}"#, ".swiftcov.json: error: exclude[0]: expected a glob string"),
            (
                #"{"ratchet": {"tolerance": -1}}"#,
                ".swiftcov.json: error: ratchet.tolerance: expected percentage points between 0 and 100"
            ),
            (#"{"allFiles": "yes"}"#, ".swiftcov.json: error: allFiles: expected true or false"),
            (
                "{\n  \"thresholds\": {\"lines\": 80,}\n}",
                ".swiftcov.json:2:30: error: expected a key string, found '}'"
            ),
            ("[]", ".swiftcov.json: error: (root): expected an object"),
            // Invented hostile values: a number too large for a Double, a string to echo.
            (
                #"{"thresholds": {"lines": 1e400}}"#,
                ".swiftcov.json: error: thresholds.lines: number out of range; expected a percentage from 0 to 100"
            ),
            (
                #"{"ratchet": {"tolerance": -1e999}}"#,
                ".swiftcov.json: error: ratchet.tolerance: number out of range; expected percentage points between 0 and 100"
            ),
            (
                "\u{FEFF}{\n  \"thresholds\": {\"lines\": 80,}\n}",
                ".swiftcov.json:2:30: error: expected a key string, found '}'"
            ),
        ])
    func badConfiguration(json: String, message: String) {
        let error = #expect(throws: GateConfigurationError.self) { try configuration(json) }
        #expect(error?.description == message)
    }

    @Test("a configuration saved with a UTF-8 byte order mark is read")
    func byteOrderMark() throws {
        let gate = try configuration("\u{FEFF}{\"thresholds\": {\"lines\": 80}}")
        #expect(gate.totals.lines == 80)
    }

    @Test("a huge key or value is cut short in the message (invented 100 KB key)")
    func hugeKey() {
        let key = String(repeating: "k", count: 100_000)
        let error = #expect(throws: GateConfigurationError.self) { try configuration(#"{"\#(key)": 1}"#) }
        let text = error?.description ?? ""
        #expect(text.hasPrefix(".swiftcov.json: error: " + String(repeating: "k", count: 79) + "…: unknown key"))
        #expect(text.utf8.count < 300)
        let value = String(repeating: "v", count: 100_000)
        let valueError = #expect(throws: GateConfigurationError.self) {
            try configuration(#"{"modules": {"\#(key)": {"lines": "\#(value)"}}}"#)
        }
        #expect((valueError?.description.utf8.count ?? .max) < 400)
    }

    @Test("a baseline with numbers a report cannot hold is not a report (invented)")
    func hostileBaseline() {
        let metric = #"{"count": 1e300, "covered": 1.5}"#
        let json =
            #"{"schemaVersion": 1, "totals": {"lines": \#(metric), "functions": \#(metric), "regions": \#(metric)}}"#
        #expect(throws: CoverageInputError.self) {
            try CoverageBaseline.parse(Array(json.utf8), path: "b.json")
        }
    }

    @Test("rules that match nothing are warnings")
    func warnings() throws {
        let gate = try configuration(
            #"{"files": {"Sources/Gone/**": {"lines": 1}}, "modules": {"Gone": {"lines": 1}}}"#)
        #expect(
            gate.warnings(for: report, path: ".swiftcov.json").map(\.description) == [
                ".swiftcov.json: warning: files.Sources/Gone/**: matches no file in the report",
                ".swiftcov.json: warning: modules.Gone: no such module in the report (modules: TriviaCore, TriviaGame, trivia)",
            ])
    }

    @Test("the verdict and failure lines")
    func text() throws {
        let gate = try configuration(#"{"thresholds": {"lines": 95}, "modules": {"TriviaCore": {"functions": 90}}}"#)
        try assertGolden(GateReport.text(Gate.evaluate(report, configuration: gate)), "gate-failed.txt")
        try assertGolden(GateReport.markdown(Gate.evaluate(report, configuration: gate)), "gate-failed.md")
        #expect(
            GateReport.text(Gate.evaluate(report, configuration: GateConfiguration()))
                == "Coverage gate passed: 0 rules met.\n")
    }
}

@Suite("A shard's gate")
struct ShardGateTests {
    @Test(
        "a shard keeps the configuration's scope and none of its coverage rules",
        arguments: [
            #"{"thresholds": {"lines": 80}}"#, #"{"modules": {"Tiny": {"functions": 50}}}"#,
            #"{"files": {"Sources/**": {"lines": 10}}}"#, #"{"ratchet": {"tolerance": 0.5}}"#,
        ])
    func withoutRules(json: String) throws {
        let scoped = #"{"exclude": ["Sources/Generated/**"], "allFiles": true, "#
        let configuration = try GateConfiguration.parse(Array((scoped + json.dropFirst()).utf8), path: ".swiftcov.json")
        #expect(configuration.hasCoverageRules)
        let shard = configuration.withoutCoverageRules
        #expect(!shard.hasCoverageRules)
        #expect(shard.excludes == configuration.excludes && !shard.excludes.isEmpty && shard.allFiles)
        #expect(shard.totals.isEmpty && shard.modules.isEmpty && shard.files.isEmpty && shard.ratchetTolerance == nil)
    }

    @Test("a configuration of scope alone (or diff's failOn) has no coverage rule for run's gate")
    func scopeOnly() throws {
        let json = #"{"include": ["Sources/**"], "failOn": ["UNC"]}"#
        #expect(!(try GateConfiguration.parse(Array(json.utf8), path: ".swiftcov.json").hasCoverageRules))
    }
}
