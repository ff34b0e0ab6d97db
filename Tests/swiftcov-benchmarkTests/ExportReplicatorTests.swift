import Foundation
import SwiftCovCore
import SwiftCovTestSupport
import Testing
import swiftcov_benchmark

/// The replicator on a real export (SwiftCovCoreTests' trimmed swift-algorithms fixture): the
/// copies must be what llvm-cov would have written for a package with more modules.
@Suite("Replicating an export", .removingTemporaryFolders)
struct ExportReplicatorTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../SwiftCovCoreTests/Fixtures/swift-algorithms/coverage.json").standardized.path
    /// The fixture's modules, as its `Sources/<Module>/` folders name them.
    static let modules = ["Algorithms", "RealModule"]
    static let copies = 3

    /// The fixture replicated `copies` times into a new temporary file.
    static func replicate(copies: Int = copies) throws -> (path: String, summary: ExportReplicator.Summary) {
        let path = try temporaryDirectory() + "/replicated.json"
        let summary = try ExportReplicator(input: fixture).write(to: path, copies: copies)
        return (path, summary)
    }

    /// A document parsed by Foundation.
    static func json(_ path: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return try #require(object as? [String: Any])
    }

    /// The single `data` entry's `key` array.
    static func entries(_ document: [String: Any], _ key: String) throws -> [[String: Any]] {
        let data = try #require(document["data"] as? [[String: Any]])
        return try #require(data.first?[key] as? [[String: Any]])
    }

    @Test("the output is valid JSON with k times the files and functions, and k times the totals")
    func validJSON() throws {
        let original = try Self.json(Self.fixture)
        let (path, summary) = try Self.replicate()
        let replicated = try Self.json(path)
        #expect(replicated["type"] as? String == original["type"] as? String)
        #expect(replicated["version"] as? String == original["version"] as? String)
        let originalFiles = try Self.entries(original, "files")
        let originalFunctions = try Self.entries(original, "functions")
        #expect(try Self.entries(replicated, "files").count == Self.copies * originalFiles.count)
        #expect(try Self.entries(replicated, "functions").count == Self.copies * originalFunctions.count)
        #expect(summary.files == Self.copies * originalFiles.count)
        #expect(summary.functions == Self.copies * originalFunctions.count)

        let totals = try #require((original["data"] as? [[String: Any]])?.first?["totals"] as? [String: [String: Any]])
        let scaled = try #require(
            (replicated["data"] as? [[String: Any]])?.first?["totals"] as? [String: [String: Any]])
        #expect(totals.keys.sorted() == scaled.keys.sorted())
        for (kind, metric) in totals {
            for field in ["count", "covered", "notcovered"] where metric[field] != nil {
                #expect(
                    scaled[kind]?[field] as? Int == (metric[field] as? Int).map { $0 * Self.copies }, "\(kind).\(field)"
                )
            }
            #expect(scaled[kind]?["percent"] as? Double == metric["percent"] as? Double, "\(kind).percent")
        }
    }

    @Test("function names are unique and every one still demangles, with only its module renamed")
    func namesDemangle() throws {
        let (path, _) = try Self.replicate()
        let names = try Self.entries(Self.json(path), "functions").map { try #require($0["name"] as? String) }
        #expect(Set(names).count == names.count)
        let perCopy = names.count / Self.copies
        for (index, name) in names.enumerated() {
            let copy = index / perCopy
            let demangled = SwiftDemangler.demangle(name)
            #expect(demangled != name, "\(name) does not demangle")
            guard copy > 0 else { continue }
            let original = SwiftDemangler.demangle(names[index % perCopy])
            let renamed = Self.modules.map { "\($0)_\(copy)" }
            let module = Self.modules.first { demangled.contains("\($0)_\(copy)") }
            #expect(module != nil, "none of \(renamed) in \(demangled)")
            if let module {
                #expect(demangled.replacing("\(module)_\(copy)", with: module) == original)
            }
        }
    }

    @Test("each copy's files read back with the original's numbers")
    func summariesMatch() throws {
        let (path, _) = try Self.replicate()
        let original = try CoverageInput.readExport(Self.fixture, keepMappings: false)
        let replicated = try CoverageInput.readExport(path, keepMappings: false)
        #expect(replicated.files.count == Self.copies * original.files.count)

        let scope = CoverageScope(root: nil, allFiles: true)
        let originalReport = try CoverageReport.build(exports: [original], scope: scope)
        let replicatedReport = try CoverageReport.build(exports: [replicated], scope: scope)
        let exported = Dictionary(uniqueKeysWithValues: replicated.files.map { ($0.filename, $0.exportedSummary) })
        let reported = Dictionary(uniqueKeysWithValues: replicatedReport.files.map { ($0.path, $0) })
        #expect(!original.files.isEmpty)
        for copy in 0..<Self.copies {
            for file in original.files {
                let renamed = PathRenamer.renamed(file.filename, copy: copy)
                #expect(exported[renamed] == file.exportedSummary, "exported summary of \(renamed)")
            }
            for file in originalReport.files {
                let renamed = PathRenamer.renamed(file.path, copy: copy)
                let copied = try #require(reported[renamed], "\(renamed) missing")
                #expect(copied.summary == file.summary, "\(renamed)")
                #expect(copied.functions.map(\.summary) == file.functions.map(\.summary), "\(renamed)")
                #expect(copied.functions.map(\.line) == file.functions.map(\.line), "\(renamed)")
                #expect(try copied.lineCounts() == file.lineCounts(), "\(renamed)")
            }
        }
        #expect(replicatedReport.modules.count == Self.copies * originalReport.modules.count)
    }

    @Test("the size is known before writing, and --size picks the fewest copies that reach it")
    func sizes() throws {
        let replicator = try ExportReplicator(input: Self.fixture)
        let (path, summary) = try Self.replicate()
        let written = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(written == summary.bytes)
        #expect(replicator.outputSize(copies: Self.copies) == summary.bytes)

        let (single, _) = try Self.replicate(copies: 1)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: single)) == Data(contentsOf: URL(fileURLWithPath: Self.fixture)),
            "one copy is the input itself")

        let target = replicator.outputSize(copies: 4) - 1
        let copies = replicator.copiesNeeded(for: target)
        #expect(copies == 4)
        #expect(replicator.copiesNeeded(for: 1) == 1)
    }
}
