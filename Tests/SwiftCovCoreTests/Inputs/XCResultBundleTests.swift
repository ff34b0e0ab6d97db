import Foundation
import Testing

@testable import SwiftCovCore

/// Real result bundles (Xcode 14.2 to 26, format 3.39 to 3.60) read without Xcode: their coverage
/// reports against the numbers xcresultparser's own tests and Cobertura hold for them.
@Suite("Xcode result bundles", .removingTemporaryFolders)
struct XCResultBundleTests {
    static let fixture = Fixture(name: "xcode")
    static let bundles = [
        ("test", 39), ("test_merged", 44), ("test_repeated", 53), ("parametrized", 56),
        ("session_level_failure", 56), ("resultWithCompileError", 53), ("Test-FlakyFixture", 60),
    ]

    static func bundle(_ name: String) throws -> XCResultBundle {
        try XCResultBundle(path: fixture.path(name + ".xcresult"))
    }

    @Test("the format version and root object of every bundle", arguments: bundles)
    func info(_ name: String, _ minor: Int) throws {
        let bundle = try Self.bundle(name)
        #expect(bundle.version == (3, minor) as (Int, Int))
        #expect(bundle.versionWarning == nil)
        let record = try bundle.invocationRecord()
        #expect(record.type == "ActionsInvocationRecord")
    }

    @Test("test.xcresult: Xcode's totals equal xcresultparser's Cobertura for it, and its 444 functions")
    func testBundle() throws {
        let (coverage, workspace) = try Self.bundle("test").coverage()
        #expect(workspace == "/Users/fhaeser/code/xcresultparser")
        #expect(coverage.targets.map(\.name) == ["XcresultparserLib", "XcresultparserTests"])
        // cobertura.xml (made by xcresultparser from this bundle with xccov on a Mac):
        // lines-covered="1530" lines-valid="3108", over both targets.
        let cobertura = try Self.fixture.text("cobertura.xml")
        #expect(cobertura.contains(#"lines-covered="1530" lines-valid="3108""#))
        #expect(coverage.targets.reduce(0) { $0 + $1.coveredLines } == 1530)
        #expect(coverage.targets.reduce(0) { $0 + $1.executableLines } == 3108)
        // Each target's lines are the sum of its files', each file's the sum of its functions'.
        for target in coverage.targets {
            #expect(target.files.reduce(0) { $0 + $1.executableLines } == target.executableLines)
            #expect(target.files.reduce(0) { $0 + $1.coveredLines } == target.coveredLines)
            for file in target.files {
                #expect(file.functions.reduce(0) { $0 + $1.executableLines } == file.executableLines, "\(file.name)")
                #expect(file.functions.reduce(0) { $0 + $1.coveredLines } == file.coveredLines, "\(file.name)")
            }
        }
        // xcresultparser's "methods" report of this bundle has 473 lines: a title, the total, two
        // targets, 25 files and so 444 functions; its coverage converter sees 13 files.
        #expect(coverage.targets.reduce(0) { $0 + $1.files.reduce(0) { $0 + $1.functions.count } } == 444)
        #expect(Set(coverage.targets.flatMap { $0.files.map(\.path) }).count == 13)
        let shell = try #require(coverage.targets[0].files.first { $0.name == "Shell.swift" })
        #expect(
            shell.functions == [
                .init(
                    name: "static Shell.execute(program:with:at:)", lineNumber: 15, executionCount: 0,
                    executableLines: 25, coveredLines: 0)
            ])
    }

    @Test("the report of a bundle: the project root from its metadata, test bundles left out")
    func report() throws {
        let report = try CoverageRequest(inputs: [Self.fixture.path("test.xcresult")]).makeReport(workingDirectory: "/")
        #expect(report.scope.root == "/Users/fhaeser/code/xcresultparser")
        #expect(!report.scope.rootWasGuessed)
        #expect(report.modules.map(\.name) == ["XcresultparserLib"])
        #expect(report.totals.lines == Metric(count: 1454, covered: 672))
        #expect(report.files.first?.displayPath == "Sources/xcresultparser/CoberturaCoverageConverter.swift")
        var options = CoverageReportOptions()
        options.showFunctions = true
        try assertGolden(CoverageTableReport.render(report, options: options), "xcresult-test.txt")

        let flaky = try CoverageRequest(inputs: [Self.fixture.path("Test-FlakyFixture.xcresult")], allFiles: true)
            .makeReport(workingDirectory: "/")
        #expect(
            flaky.modules.map { "\($0.name) \($0.summary.lines.covered)/\($0.summary.lines.count)" } == [
                "FlakyFixture 3/3", "FlakyFixtureTests 22/22",
            ])
        // Three actions (a repeated test), three reports with the same numbers: one report.
        let repeated = try CoverageRequest(inputs: [Self.fixture.path("test_repeated.xcresult")])
            .makeReport(workingDirectory: "/")
        #expect(repeated.modules.map(\.name) == ["test_repeat"])
        #expect(repeated.totals.lines == Metric(count: 23, covered: 23))
    }

    @Test("a bundle without a coverage report, or missing the object: one error naming it")
    func noCoverage() throws {
        #expect(throws: XcodeInputError.self) { try Self.bundle("resultWithCompileError").coverage() }
        let missing = #expect(throws: XcodeInputError.self) { try Self.bundle("session_level_failure").coverage() }
        #expect(missing?.message.contains("is missing") == true)
    }

    @Test("damaged bundles: a cut frame, a bad Info.plist, an id that leads elsewhere")
    func damaged() throws {
        let directory = try temporaryDirectory()
        let copy = directory + "/test.xcresult"
        try FileManager.default.copyItem(atPath: Self.fixture.path("test.xcresult"), toPath: copy)
        let bundle = try XCResultBundle(path: copy)
        let rootFile = copy + "/Data/data." + bundle.rootID
        let frame = try Data(contentsOf: URL(fileURLWithPath: rootFile))
        try frame.prefix(frame.count / 2).write(to: URL(fileURLWithPath: rootFile))
        let cut = #expect(throws: XcodeInputError.self) { try bundle.coverage() }
        #expect(cut?.path == rootFile)

        #expect(!XCResultBundle.isObjectID("0~../../etc/passwd"))
        #expect(!XCResultBundle.isObjectID("../x"))
        #expect(throws: XcodeInputError.self) { try bundle.object("0~/../../Info.plist") }

        try "<plist><dict><key>version</key><dict><key>major</key><integer>3</integer></dict></dict></plist>".write(
            toFile: copy + "/Info.plist", atomically: true, encoding: .utf8)
        let info = #expect(throws: XcodeInputError.self) { try XCResultBundle(path: copy) }
        #expect(info?.location == "rootId.hash")
    }

    @Test("a newer minor format version is read with a warning")
    func newerVersion() throws {
        let directory = try temporaryDirectory()
        let copy = directory + "/new.xcresult"
        try FileManager.default.copyItem(atPath: Self.fixture.path("test.xcresult"), toPath: copy)
        let info = try String(contentsOfFile: copy + "/Info.plist", encoding: .utf8)
        try info.replacingOccurrences(of: "<integer>39</integer>", with: "<integer>71</integer>")
            .write(toFile: copy + "/Info.plist", atomically: true, encoding: .utf8)
        let bundle = try XCResultBundle(path: copy)
        #expect(bundle.versionWarning?.message.contains("3.71 is newer") == true)
        #expect(try bundle.coverage().coverage.targets.count == 2)
    }
}
