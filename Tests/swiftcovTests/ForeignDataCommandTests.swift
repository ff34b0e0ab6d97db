import Foundation
import Testing

/// Data of another package never reads as "nothing to do": a per-test store or a baseline that
/// shares no file with the package is an input error (exit 2, the file named), not an empty
/// selection or a clean comparison.
@Suite("per-test data and baselines of another package", .removingTemporaryFolders)
struct ForeignDataCommandTests {
    /// A per-test store (format version 1) of one file, `Sources/Other/Thing.swift` with lines 1
    /// and 2, and one passing test that ran both.
    static let otherPackageStore: [UInt8] = {
        func string(_ text: String) -> [UInt8] { [UInt8(text.utf8.count)] + Array(text.utf8) }
        return Array("SWIFTCOV-PER-TEST\n".utf8) + [1] + string("") + [0] + string("")
            + [1] + string("Sources/Other/Thing.swift") + [2, 1, 1]
            + [1] + string("OtherTests.test()") + [0, 1] + [1, 0, 1, 0, 1]
    }()

    static let change = """
        diff --git a/Sources/Mine/a.swift b/Sources/Mine/a.swift
        --- a/Sources/Mine/a.swift
        +++ b/Sources/Mine/a.swift
        @@ -1,1 +1,2 @@
         let a = 1
        +let b = 2

        """

    @Test("impacted with a store of another package: exit 2, never an empty filter that runs nothing")
    func impactedForeignStore() throws {
        let directory = try temporaryDirectory()
        try Data(Self.otherPackageStore).write(to: URL(fileURLWithPath: directory + "/per-test.swiftcov"))
        try Self.change.write(toFile: directory + "/change.diff", atomically: true, encoding: .utf8)
        let foreign = try swiftcov(
            ["impacted", "per-test.swiftcov", "--diff", "change.diff", "--format", "filter"], in: directory)
        #expect(foreign.status == 2)
        #expect(foreign.stdout.isEmpty)
        #expect(
            foreign.stderr
                == "per-test.swiftcov: error: per-test data of 1 files (such as Sources/Other/Thing.swift), none of "
                + "them in this package (the current folder) or the diff: recorded in another package?\n")
        // The same store where its file exists: this package's, and no test ran the change.
        try FileManager.default.createDirectory(atPath: directory + "/Sources/Other", withIntermediateDirectories: true)
        try "let thing = 1\n".write(toFile: directory + "/Sources/Other/Thing.swift", atomically: true, encoding: .utf8)
        let own = try swiftcov(
            ["impacted", "per-test.swiftcov", "--diff", "change.diff", "--format", "filter"], in: directory)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stdout == "^$\n")
        #expect(own.stderr.hasPrefix("swiftcov: 0 of 1 tests executed a changed line"))
    }

    @Test("report --show tests and html with a store of another package beside the export: exit 2, nothing written")
    func reportForeignStore() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: packageRoot + "/SampleReports/coverage.json", toPath: directory + "/coverage.json")
        try Data(Self.otherPackageStore).write(to: URL(fileURLWithPath: directory + "/per-test.swiftcov"))
        let report = try swiftcov(
            ["report", directory + "/coverage.json", "--show", "tests", "-f", "json", "-o", directory + "/r.json"])
        #expect(report.status == 2)
        #expect(
            report.stderr.contains("none of them in this coverage: recorded in another package?"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/r.json"))
        let html = try swiftcov(["html", directory + "/coverage.json", "-o", directory + "/site"])
        #expect(html.status == 2)
        #expect(html.stderr.contains("none of them in this coverage"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/site/index.html"))
    }

    @Test("diff --base-coverage with a baseline holding no file: exit 2, never every line new and none lost")
    func emptyBaseline() throws {
        let directory = try temporaryDirectory()
        try #"{"schemaVersion": 1, "files": []}"#.write(
            toFile: directory + "/empty.json", atomically: true, encoding: .utf8)
        try "".write(toFile: directory + "/none.diff", atomically: true, encoding: .utf8)
        let result = try swiftcov([
            "diff", "SampleReports/coverage.json", "--base-coverage", directory + "/empty.json", "--diff",
            directory + "/none.diff", "--fail-on", "UNC,LBC",
        ])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("empty.json: error: holds no file's coverage"), "\(result.stderr)")
    }
}
