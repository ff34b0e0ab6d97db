import Foundation
import Testing

@testable import SwiftCovCore

/// A seeded campaign replayed: Tests/Fixtures/CampaignHistory/history.jsonl is what
/// `scripts/flaky-campaign` recorded with `swiftcov run --history` (32 runs of
/// Tests/Fixtures/CampaignPackage over 4 commits: plain runs, `--retry-failed 2`, `--per-test`, the
/// "turkish" environment, a killed run and a build break; `runs.txt` lists them). Every verdict
/// `flaky` gives is checked against the package's seeded roles (`roles.tsv`), never against
/// swiftcov's own output.
@Suite("A seeded campaign's recorded history: every verdict is the seeded role of its test")
struct CampaignReplayTests {
    static let folder = packageRoot + "/Tests/Fixtures/CampaignHistory"

    /// Each seeded test's role: "flaky", "broken", "broken in turkish", "order-dependent:TEST", "steady".
    static func roles() throws -> [String: String] {
        let text = try String(
            contentsOfFile: packageRoot + "/Tests/Fixtures/CampaignPackage/roles.tsv", encoding: .utf8)
        var roles: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            roles[String(fields[0])] = String(fields[1])
        }
        return roles
    }

    /// The recorded history, read as `flaky` reads it.
    static func history() throws -> TestHistory {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/history.jsonl")))
        return try bytes.withUnsafeBytes { raw in
            try Result { () throws(HistoryFormat.ReadError) in
                try HistoryFormat.read(raw, path: "history.jsonl").history
            }.get()
        }
    }

    /// What `runs.txt` says of each run, in order: its options ("--per-test", "killed", "build break", …).
    static func plan() throws -> [String] {
        try String(contentsOfFile: folder + "/runs.txt", encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// A verdict as a role names it.
    static func role(of finding: FlakyVerdicts.Finding) -> String {
        if finding.verdict.isFlaky || finding.verdict.name == "healed" { return "flaky" }
        if case .orderDependent = finding.verdict { return "order-dependent:" + (finding.dependsOn?.test ?? "?") }
        return finding.verdict.name
    }

    @Test("every seeded test that failed has its role as verdict; steady tests have none; nothing broken is flaky")
    func verdicts() throws {
        let history = try Self.history()
        let roles = try Self.roles()
        #expect(history.runs.count == (try Self.plan()).count)
        // Failed in a run that counts (the killed run's crashed test is the infrastructure's).
        let failed = Set(
            history.runs.filter { $0.leftOutReason == nil }.flatMap { run in
                run.executions.filter(\.isFailing).map { history.names[Int($0.test)] }
            })
        let analysis = FlakyVerdicts.analyze(history)
        var judged: [String: String] = [:]
        for finding in analysis.findings { judged[finding.test] = Self.role(of: finding) }
        for (test, role) in roles.sorted(by: { $0.key < $1.key }) {
            if role == "steady" || !failed.contains(test) {
                #expect(judged[test] == nil, "\(test): \(judged[test] ?? "")")
            } else {
                #expect(judged[test] == role, "\(test)")
            }
        }
        #expect(Set(judged.keys).isSubset(of: Set(roles.keys)), "\(judged)")
        // Every seeded kind failed at least once in this campaign.
        #expect(Set(roles.filter { failed.contains($0.key) }.values) == Set(roles.values).subtracting(["steady"]))
    }

    @Test("after every run, no test that always fails (in one environment) is ever flaky")
    func neverFlakyWhenDeterministic() throws {
        let history = try Self.history()
        let deterministic = try Self.roles().filter { $0.value.hasPrefix("broken") }.map(\.key)
        for count in 1...history.runs.count {
            let prefix = history.keeping(Array(history.runs.prefix(count)))
            let analysis = FlakyVerdicts.analyze(prefix)
            for finding in analysis.findings where deterministic.contains(finding.test) {
                #expect(
                    !finding.verdict.isFlaky && finding.verdict.name != "healed", "\(finding.test) after run \(count)")
            }
        }
    }

    @Test("the killed run and the build break are left out and listed, as the campaign ran them")
    func infrastructure() throws {
        let history = try Self.history()
        let plan = try Self.plan()
        let analysis = FlakyVerdicts.analyze(history)
        let killed = plan.indices.filter { plan[$0].contains("CAMPAIGN_KILL=1") }.map { history.runs[$0].id }
        let broken = plan.indices.filter { plan[$0].contains("(A build break)") }.map { history.runs[$0].id }
        #expect(killed.count == 1 && broken.count == 1)
        #expect(analysis.excluded.map(\.id).sorted() == (killed + broken).sorted())
        #expect(analysis.buildFailed.map(\.id) == broken)
        let table = FlakyReport.table(analysis)
        #expect(table.contains(broken[0]) && table.contains(killed[0]), "\(table)")
    }
}
