import Foundation
import Testing

@testable import SwiftCovCore

/// The manifest decides what is test code: swhitty/FlyingFox 0.27.1 (Fixtures/flyingfox) keeps
/// its test targets in `FlyingFox/Tests` and `FlyingSocks/Tests`, which no folder rule finds.
@Suite("Test code by the manifest, wherever its folder is")
struct ManifestScopeTests {
    static let fixture = Fixture(name: "flyingfox")

    /// The TOTAL row of an `llvm-cov report` text: regions, functions and lines as (count, covered).
    static func llvmCovTotals(_ name: String) throws -> [[Int]] {
        let text = try String(contentsOfFile: fixture.path(name), encoding: .utf8)
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("TOTAL") })
        let columns = row.split(separator: " ").dropFirst().map(String.init)
        func pair(_ count: Int, _ missed: Int) -> [Int] {
            [Int(columns[count]) ?? -1, (Int(columns[count]) ?? -1) - (Int(columns[missed]) ?? -1)]
        }
        return [pair(0, 1), pair(3, 4), pair(6, 7)]
    }

    static func totals(_ report: CoverageReport) -> [[Int]] {
        [report.totals.regions, report.totals.functions, report.totals.lines].map { [$0.count, $0.covered] }
    }

    func report(targets: PackageTargets?, allFiles: Bool = false) throws -> CoverageReport {
        let export = try CoverageInput.readExport(Self.fixture.path("coverage.json"), keepMappings: false)
        var scope = CoverageScope(root: "/PACKAGE", allFiles: allFiles)
        scope.targets = targets
        return try CoverageReport.build(export: export, scope: scope)
    }

    func targets() throws -> PackageTargets {
        try PackageTargets.parse(
            describe: Array(Data(contentsOf: URL(fileURLWithPath: Self.fixture.path("describe.json")))))
    }

    @Test("the test targets of the manifest are left out: the totals are llvm-cov's on the libraries' files")
    func manifestDecides() throws {
        let report = try report(targets: try targets())
        #expect(
            report.files.map(\.displayPath) == [
                "FlyingFox/Sources/HTTPHeader.swift", "FlyingSocks/Sources/SocketAddress.swift",
            ])
        #expect(report.modules.map(\.name) == ["FlyingFox", "FlyingSocks"])
        #expect(Self.totals(report) == (try Self.llvmCovTotals("llvm-cov-report-product.txt")))
        #expect(report.leftOut == [.byDefault(.testTarget): 1])
        // --all-files brings the test file back: llvm-cov's numbers on all three files.
        let all = try self.report(targets: try targets(), allFiles: true)
        #expect(Self.totals(all) == (try Self.llvmCovTotals("llvm-cov-report.txt")))
    }

    @Test("without a manifest the folder rule cannot tell: the test file counts (what a note warns of)")
    func folderRuleFallback() throws {
        let report = try report(targets: nil)
        #expect(report.files.map(\.displayPath).contains("FlyingFox/Tests/HTTPHeaderTests.swift"))
        #expect(Self.totals(report) == (try Self.llvmCovTotals("llvm-cov-report.txt")))
    }

    /// A description with the targets given as (name, type, path, dependencies, in a product).
    static func describe(_ targets: [(String, String, String, [String], Bool)]) -> [UInt8] {
        let elements = targets.map { name, type, path, dependencies, inProduct in
            #"{"name": "\#(name)", "type": "\#(type)", "path": "\#(path)", "target_dependencies": ["#
                + dependencies.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
                + (inProduct ? #", "product_memberships": ["P"]"# : "") + "}"
        }
        return Array(#"{"name": "P", "targets": [\#(elements.joined(separator: ", "))]}"#.utf8)
    }

    @Test("test-support libraries: in Tests/, or (with products) in no product and used by tests only")
    func testSupport() throws {
        // LayoutPackage's shape: a product library, a support library only its tests use.
        let layout = try PackageTargets.parse(
            describe: Self.describe([
                ("Core", "library", "Lib/Core", [], true), ("tool", "executable", "Sources/tool", ["Core"], true),
                ("CheckSupport", "library", "Checks/Support", ["Core"], false),
                ("CoreTests", "test", "Checks/CoreTests", ["Core", "CheckSupport"], false),
                ("Unused", "library", "Lib/Unused", [], false),
            ]))
        let testCode = Set(layout.targets.filter(\.isTestCode).map(\.name))
        #expect(testCode == ["CheckSupport", "CoreTests"])
        // A support library used by a library too is the package's own.
        let shared = try PackageTargets.parse(
            describe: Self.describe([
                ("Core", "library", "Sources/Core", ["Support"], true),
                ("Support", "library", "Sources/Support", [], false),
                ("CoreTests", "test", "Tests/CoreTests", ["Support"], false),
            ]))
        #expect(shared.targets.filter(\.isTestCode).map(\.name) == ["CoreTests"])
        // A package without products (the usual fixture): its libraries are what its tests test;
        // one in Tests/ is test code all the same.
        let tiny = try PackageTargets.parse(
            describe: Self.describe([
                ("Tiny", "library", "Sources/Tiny", [], false), ("Helpers", "library", "Tests/Helpers", [], false),
                ("TinyTests", "test", "Tests/TinyTests", ["Tiny", "Helpers"], false),
            ]))
        #expect(Set(tiny.targets.filter(\.isTestCode).map(\.name)) == ["Helpers", "TinyTests"])
        var scope = CoverageScope(root: "/p")
        scope.targets = layout
        #expect(scope.defaultExclusion("/p/Checks/Support/Answers.swift") == .testTarget)
        #expect(scope.defaultExclusion("/p/Lib/Core/Streak.swift") == nil)
        #expect(scope.defaultExclusion("/p/Tests/Stray.swift") == .testTarget)  // no target holds it: the folder rule
        #expect(scope.defaultExclusion("/p/.build/checkouts/x.swift") == .buildDirectory)
    }

    @Test("XCTest classes get their module from the manifest's test targets, wherever their folder is")
    func classesOfTestTargets() throws {
        let root = packageRoot + "/Tests/Fixtures/LayoutPackage"
        let targets = PackageTargets([.init(name: "CoreTests", path: "Checks/CoreTests", type: "test")])
        #expect(TestSourceIndex.scanning(root: root, targets: targets).module(ofClass: "ScoringTests") == "CoreTests")
        #expect(TestSourceIndex.scanning(root: root).module(ofClass: "ScoringTests") == nil)
    }
}
