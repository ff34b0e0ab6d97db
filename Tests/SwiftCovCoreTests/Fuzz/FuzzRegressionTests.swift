import Foundation
import Testing

@testable import SwiftCovCore

/// Inputs the fuzzers (FuzzTesting/) found to crash, hang or break an invariant, committed as
/// Fixtures/fuzz/TARGET-NAME and run through the same code path as the fuzz target: each must
/// end in a result or a clean error. The seed corpora run through the targets too, so that the
/// targets keep working as the code under them changes.
struct FuzzRegressionTests {
    /// Inputs whose bug is not fixed yet: name → why and who fixes it. A crasher runs in a child
    /// process (a trap would end the whole test run) and is expected to fail; a hang is not run.
    /// The fix removes the entry (the test then reports that the known issue did not occur).
    static let knownIssues: [String: KnownIssue] = [:]

    struct KnownIssue {
        enum Kind { case crash, hang }
        var kind: Kind
        var reason: String
    }

    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/fuzz").path
    static let inputs = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()

    static let seeds: [String] = FuzzTarget.allCases.flatMap { target in
        let folder = packageRoot + "/FuzzTesting/Corpus/" + target.rawValue
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map {
            target.rawValue + "/" + $0
        }
    }

    static let sampleReport = FuzzTarget.sampleReport(path: packageRoot + "/SampleReports/coverage.json")

    @Test func thereAreSeedsForEveryTarget() {
        for target in FuzzTarget.allCases {
            #expect(Self.seeds.contains { $0.hasPrefix(target.rawValue + "/") }, "no seeds for \(target.rawValue)")
        }
        #expect(Self.sampleReport != nil)
    }

    @Test(arguments: seeds) func seedRunsCleanly(_ seed: String) throws {
        let target = try #require(FuzzTarget(rawValue: String(seed.prefix { $0 != "/" })))
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: packageRoot + "/FuzzTesting/Corpus/" + seed)))
        try target.run(bytes, sampleReport: Self.sampleReport)
    }

    @Test(arguments: inputs) func foundInputRunsCleanly(_ name: String) async throws {
        let target = try #require(
            FuzzTarget.allCases.first { name.hasPrefix($0.rawValue + "-") }, "name it TARGET-SHORT-NAME")
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Self.directory + "/" + name)))
        guard let known = Self.knownIssues[name] else {
            try target.run(bytes, sampleReport: Self.sampleReport)
            return
        }
        switch known.kind {
        case .hang:
            withKnownIssue(Comment(rawValue: known.reason)) {
                Issue.record("not run: it hangs until fixed")
            }
        case .crash:
            await withKnownIssue(Comment(rawValue: known.reason)) {
                await #expect(processExitsWith: .success) { [bytes = bytes as [UInt8], target = target as FuzzTarget] in
                    try target.run(bytes, sampleReport: FuzzRegressionTests.sampleReport)
                }
            }
        }
    }

    @Test func xmlCheckAcceptsWellFormedAndRejectsBrokenMarkup() throws {
        let golden = try String(
            contentsOfFile: packageRoot + "/Tests/SwiftCovCoreTests/Golden/junit-hostile.xml", encoding: .utf8)
        #expect(XMLCheck.problem(in: Array(golden.utf8)) == nil)
        let good = "<?xml version=\"1.0\"?>\n<!-- c --><a x='1' y=\"&amp;&#60;\"><b/><![CDATA[<&]]>t&gt;</a>\n"
        #expect(XMLCheck.problem(in: Array(good.utf8)) == nil)
        for broken in [
            "<a>", "<a></b>", "<a x=1/>", "<a x='1' x='2'/>", "<a>&</a>", "<a>&bogus;</a>", "<a><</a>",
            "<a/><b/>", "text<a/>", "<a>\u{1}</a>", "<a x='<'/>", "<!-- a -- b --><a/>", "",
        ] {
            #expect(XMLCheck.problem(in: Array(broken.utf8)) != nil, "accepted \(broken.debugDescription)")
        }
    }
}
