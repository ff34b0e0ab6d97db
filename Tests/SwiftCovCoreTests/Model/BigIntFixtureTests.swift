import Foundation
import Testing

@testable import SwiftCovCore

/// attaswift/BigInt 6.0.1 (Fixtures/bigint): its one target is declared with `path: "Sources"`,
/// and in this run a counter went below zero at `Sources/Division.swift:73-75`.
@Suite("BigInt: modules from the manifest, counters below zero", .removingTemporaryFolders)
struct BigIntFixtureTests {
    static let fixture = Fixture(name: "bigint")
    static let root = "/ci/BigInt"

    func describeJSON() throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixture.path("describe.json"))))
    }

    func report(targets: PackageTargets? = nil) throws -> CoverageReport {
        let export = try CoverageInput.readExport(Self.fixture.path("coverage.json"), keepMappings: false)
        var scope = CoverageScope(root: Self.root)
        scope.targets = targets
        return try CoverageReport.build(export: export, scope: scope)
    }

    @Test("the manifest's targets name the modules; the folder rule (a module `Sources`) is the fallback")
    func modulesFromTheManifest() throws {
        let targets = try PackageTargets.parse(describe: try describeJSON())
        // describe.json: the target BigInt in `Sources`, the test target BigIntTests in `Tests`.
        #expect(
            targets.targets == [
                .init(name: "BigInt", path: "Sources"), .init(name: "BigIntTests", path: "Tests", type: "test"),
            ])
        let named = try report(targets: targets)
        #expect(named.modules.map(\.name) == ["BigInt"])
        #expect(named.files.map(\.module) == ["BigInt", "BigInt"])
        #expect(named.modules[0].fileCount == 2)
        let byFolder = try report()
        #expect(byFolder.modules.map(\.name) == ["Sources"])
        #expect(byFolder.totals == named.totals)
    }

    @Test("the deepest target's folder wins; files in no target's folder keep the folder rule")
    func deepestTarget() {
        let targets = PackageTargets([
            .init(name: "Outer", path: "Sources"), .init(name: "Inner", path: "./Sources/Inner/"),
            .init(name: "Whole", path: "Sources/Innermost"),
        ])
        #expect(targets.target(ofRelativePath: "Sources/a.swift") == "Outer")
        #expect(targets.target(ofRelativePath: "Sources/Inner/b.swift") == "Inner")
        #expect(targets.target(ofRelativePath: "Sources/Innermost/c.swift") == "Whole")
        #expect(targets.target(ofRelativePath: "Sourcesx/d.swift") == nil)
        var scope = CoverageScope(root: "/p")
        scope.targets = targets
        #expect(scope.module(of: "/p/Sources/Inner/b.swift") == "Inner")
        #expect(scope.module(of: "/p/.build/debug/X.build/y.swift") == "X")
    }

    /// A package folder with `manifest` as its Package.swift.
    func package(_ manifest: String) throws -> String {
        let root = try temporaryDirectory()
        try manifest.write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        return root
    }

    @Test(
        "described once per manifest: cached in .build/swiftcov by the manifest's MD5, described again when it changes")
    func cachedByTheManifest() throws {
        let root = try package("// swift-tools-version:6.0\n")
        let calls = Locked(0)
        let recorded = try describeJSON()
        let describer = PackageDescriber { _ in
            calls.withLock { $0 += 1 }
            return recorded
        }
        // A package that builds elsewhere (`--scratch-path`) gets no `.build` made for the cache.
        let first = describer.targets(ofPackageAt: root)
        #expect(first?.targets.first?.name == "BigInt")
        #expect(!FileManager.default.fileExists(atPath: root + "/.build"))
        #expect(calls.withLock { $0 } == 1)
        // A package built in place keeps the answer.
        try FileManager.default.createDirectory(atPath: root + "/.build", withIntermediateDirectories: false)
        calls.withLock { $0 = 0 }
        #expect(describer.targets(ofPackageAt: root) == first)
        #expect(describer.targets(ofPackageAt: root) == first)
        #expect(calls.withLock { $0 } == 1)
        let cached = try FileManager.default.contentsOfDirectory(atPath: root + "/.build/swiftcov")
        #expect(cached.count == 1 && cached[0].hasPrefix("package-") && cached[0].hasSuffix(".json"))
        try "// swift-tools-version:6.1\n".write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        #expect(describer.targets(ofPackageAt: root) == first)
        #expect(calls.withLock { $0 } == 2)
    }

    @Test("a package that cannot be described, or no manifest: no targets, nothing cached")
    func notDescribed() throws {
        let root = try package("let package = broken")
        #expect(PackageDescriber { _ in nil }.targets(ofPackageAt: root) == nil)
        #expect(PackageDescriber { _ in Array("not JSON".utf8) }.targets(ofPackageAt: root) == nil)
        #expect(!FileManager.default.fileExists(atPath: root + "/.build"))
        let noManifest = try temporaryDirectory()
        #expect(
            PackageDescriber { _ in
                Issue.record("described without a manifest"); return nil
            }
            .targets(ofPackageAt: noManifest) == nil)
    }

    @Test("a request with a package root names the modules after its targets")
    func requestReadsTheManifest() throws {
        let root = try package("// BigInt\n")
        let export = try String(contentsOfFile: Self.fixture.path("coverage.json"), encoding: .utf8)
        try export.replacingOccurrences(of: Self.root + "/", with: root + "/")
            .write(toFile: root + "/coverage.json", atomically: true, encoding: .utf8)
        let recorded = try describeJSON()
        var request = CoverageRequest(inputs: [root + "/coverage.json"], root: root)
        #expect(try request.makeReport(workingDirectory: root).modules.map(\.name) == ["Sources"])
        request.describer = PackageDescriber { _ in recorded }
        #expect(try request.makeReport(workingDirectory: root).modules.map(\.name) == ["BigInt"])
    }

    /// `DA:` lines of llvm-cov's own lcov output for `file`: line → count, as llvm-cov prints it.
    func llvmCovLines(of file: String) throws -> [(line: UInt32, count: UInt64)] {
        var lines: [(UInt32, UInt64)] = []
        var inFile = false
        for line in try Self.fixture.text("llvm-cov.lcov").split(separator: "\n") {
            if line.hasPrefix("SF:") { inFile = line == "SF:" + Self.root + "/" + file }
            guard inFile, line.hasPrefix("DA:") else { continue }
            let fields = line.dropFirst(3).split(separator: ",")
            lines.append((UInt32(fields[0])!, UInt64(fields[1])!))
        }
        return lines
    }

    @Test("the line view equals llvm-cov's; a counter below zero is marked, not shown as a count")
    func counterUnderflow() throws {
        let report = try report()
        for path in ["Sources/Division.swift", "Sources/BigInt.swift"] {
            let expected = try llvmCovLines(of: path)
            let file = try #require(report.files.first { $0.displayPath == path })
            let counts = try file.lineCounts()
            #expect(counts.map(\.line) == expected.map(\.line), "\(path)")
            for (ours, theirs) in zip(counts, expected) {
                // llvm-cov prints a counter below zero as 2^64 minus the deficit, above Int64.max.
                let wrapped = theirs.count > UInt64(Int64.max)
                #expect(ours.isCounterUnderflow == wrapped, "\(path):\(ours.line)")
                if !wrapped { #expect(ours.count == theirs.count, "\(path):\(ours.line)") }
            }
        }
        let wrapped = try llvmCovLines(of: "Sources/Division.swift").filter { $0.count > UInt64(Int64.max) }
        #expect(wrapped.map(\.line) == [73, 74, 75])
    }

    @Test(
        "every fixture: a line is marked as a counter below zero exactly where llvm-cov prints a count above Int64.max",
        arguments: Fixture.all + [fixture])
    func underflowsWhereLLVMCovWraps(fixture: Fixture) throws {
        var wrapped: [String: Set<UInt32>] = [:]
        var file = ""
        for line in try fixture.text("llvm-cov.lcov").split(separator: "\n") {
            if line.hasPrefix("SF:") { file = String(line.dropFirst(3)) }
            guard line.hasPrefix("DA:") else { continue }
            let fields = line.dropFirst(3).split(separator: ",")
            if UInt64(fields[1])! > UInt64(Int64.max) { wrapped[file, default: []].insert(UInt32(fields[0])!) }
        }
        let export = try CoverageInput.readExport(fixture.path("coverage.json"), keepMappings: false)
        let report = try CoverageReport.build(export: export, scope: CoverageScope(root: nil, allFiles: true))
        var marked: [String: Set<UInt32>] = [:]
        for file in report.files {
            let lines = try file.lineCounts().filter(\.isCounterUnderflow).map(\.line)
            if !lines.isEmpty { marked[file.path] = Set(lines) }
        }
        #expect(marked == wrapped)
    }

    @Test("JSON, HTML and Cobertura mark the lines whose counter went below zero")
    func underflowInTheOutputs() throws {
        let report = try report()
        let division = try #require(report.files.first { $0.displayPath == "Sources/Division.swift" })
        let wrapped = try llvmCovLines(of: "Sources/Division.swift").filter { $0.count > UInt64(Int64.max) }
            .map(\.line)

        var json = JSONWriter()
        try CoverageJSONReport.write(report, options: CoverageReportOptions(showLines: true), to: &json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        let marked = Dictionary(
            uniqueKeysWithValues: files.map {
                ($0["path"] as? String ?? "", ($0["counterUnderflowLines"] as? [Int])?.map(UInt32.init))
            })
        #expect(marked[Self.root + "/Sources/Division.swift"] == .some(wrapped), "\(marked)")
        #expect(marked[Self.root + "/Sources/BigInt.swift"] == .some(nil), "\(marked)")

        let segments = try division.segments()
        let page = HTMLReport.filePage(
            division, segments: segments, source: .missing(path: division.displayPath),
            annotations: HTMLReport.Annotations(), options: HTMLReport.Options())
        for line in wrapped {
            let row = try #require(page.firstMatch(of: try Regex(#"<tr id="L\#(line)"[^\n]*"#)))
            #expect(row.output[0].substring?.contains("counter underflow") == true, "\(line)")
            #expect(row.output[0].substring?.contains("&lt;0</td>") == true, "\(line)")
        }
        #expect(page.components(separatedBy: "counter underflow").count == wrapped.count + 1)

        var xml = OutputBuffer()
        try CoberturaReport.write(report, options: InterchangeOptions(timestamp: 0, version: "test"), to: &xml)
        let cobertura = xml.text
        let comments = cobertura.components(separatedBy: "\n").enumerated().filter {
            $0.element.contains("counter underflow")
        }
        // Each comment sits just before the line it marks (once in the class, and in its function).
        let linesAfter = Set(
            comments.map { cobertura.components(separatedBy: "\n")[$0.offset + 1] }
                .compactMap { $0.firstMatch(of: /number="(\d+)"/).map { UInt32($0.output.1)! } })
        #expect(linesAfter == Set(wrapped))
    }
}
