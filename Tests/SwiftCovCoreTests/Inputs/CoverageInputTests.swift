import Foundation
import Testing

@testable import SwiftCovCore

/// Bad inputs: each gives one error naming the file and where, never a crash. The broken
/// documents here are invented edge cases (or real exports cut short), and say so.
@Suite("Reading coverage inputs", .removingTemporaryFolders)
struct CoverageInputTests {
    func temporaryFile(_ contents: String, name: String = "coverage.json") throws -> String {
        let path = try temporaryDirectory() + "/" + name
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func readError(_ contents: String) throws -> CoverageInputError? {
        let path = try temporaryFile(contents)
        do {
            _ = try CoverageInput.readExport(path, keepMappings: false)
            return nil
        } catch {
            return error
        }
    }

    @Test("the output folder of `run`, or its coverage.json report, stands for the export kept beside it")
    func runOutputFolder() throws {
        let folder = try temporaryDirectory()
        let export = folder + "/" + CoverageInput.runExportName
        try FileManager.default.copyItem(atPath: Fixture.sample.path("coverage.json"), toPath: export)
        let report = folder + "/coverage.json"
        try "{\n  \"schemaVersion\": 1,\n  \"totals\": {}\n}\n".write(toFile: report, atomically: true, encoding: .utf8)
        #expect(try CoverageInput.locateExport(folder) == export)
        #expect(try CoverageInput.locateExport(report) == export)
        // An export named coverage.json is itself.
        #expect(
            try CoverageInput.locateExport(Fixture.sample.path("coverage.json")) == Fixture.sample.path("coverage.json")
        )
        // Without the export beside it, the report is not taken for one: the error says what is missing.
        try FileManager.default.removeItem(atPath: export)
        #expect(throws: CoverageInputError.reportWithoutExport(path: report, export: export)) {
            try CoverageInput.locateExport(report)
        }
    }

    @Test("a file that is not JSON")
    func notJSON() throws {
        let error = try #require(try readError("hello"))
        guard case .malformed(_, let offset, _, _) = error else { Issue.record("\(error)"); return }
        #expect(offset == 0)
        #expect(error.description.contains("coverage.json: error:"))
    }

    @Test("an empty file")
    func emptyFile() throws {
        let error = try #require(try readError(""))
        #expect(error.description.contains("expected an object, found end of input"))
    }

    @Test("a real export cut off in the middle names the byte offset and the key path")
    func truncated() throws {
        let full = try Fixture(name: "swift-algorithms").text("coverage.json")
        let cut = String(full.utf8.prefix(2_000))!
        let error = try #require(try readError(cut))
        guard case .malformed(_, let offset, let keyPath, let message) = error else { Issue.record("\(error)"); return }
        #expect(offset == 2_000)
        #expect(keyPath == "data[0].files[1].segments[41]")
        #expect(message.contains("end of input"))
    }

    @Test("JSON that is not an llvm-cov export")
    func notAnExport() throws {
        let error = try #require(try readError(#"{"name": "swiftcov", "data": {"files": 3}}"#))
        #expect(error.description.contains("not an llvm-cov export"))
    }

    @Test("an unknown major version")
    func unknownVersion() throws {
        let error = try #require(try readError(#"{"data":[],"type":"llvm.coverage.json.export","version":"9.0.0"}"#))
        #expect(error.description.contains("unsupported llvm-cov export version 9.0.0"))
    }

    @Test("a region tuple of the wrong shape names its key path")
    func badRegion() throws {
        let json = #"""
            {"data":[{"files":[],"functions":[{"count":1,"filenames":["a.swift"],"name":"f","regions":[[1,2,3,4,5,0,0,0],[1,2,"x"]]}]}],"type":"llvm.coverage.json.export","version":"3.0.1"}
            """#
        let error = try #require(try readError(json))
        guard case .malformed(_, _, let keyPath, let message) = error else { Issue.record("\(error)"); return }
        #expect(keyPath == "data[0].functions[0].regions[1][2]")
        #expect(message.contains("expected an integer"))
    }

    @Test("a missing file")
    func missingFile() throws {
        #expect(throws: CoverageInputError.notFound(path: "/nonexistent/coverage.json")) {
            try CoverageInput.locateExport("/nonexistent/coverage.json")
        }
    }

    @Test("a folder with no export, and with the .profraw files a failed test run leaves")
    func folderWithoutExport() throws {
        let file = try temporaryFile("x", name: "notes.txt")
        let folder = (file as NSString).deletingLastPathComponent
        #expect(throws: CoverageInputError.noExport(directory: folder, profrawCount: 0)) {
            try CoverageInput.locateExport(folder)
        }
        let codecov = folder + "/.build/x86_64-unknown-linux-gnu/debug/codecov"
        try FileManager.default.createDirectory(atPath: codecov, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: codecov + "/XCTest123_0.profraw", contents: Data([1])))
        let error = #expect(throws: CoverageInputError.self) { try CoverageInput.locateExport(folder) }
        #expect(error?.description.contains("1 .profraw file(s)") == true)
    }

    @Test("a package folder leads to the export SwiftPM wrote under .build")
    func findsExportInPackage() throws {
        let file = try temporaryFile("x", name: "Package.swift")
        let root = (file as NSString).deletingLastPathComponent
        let codecov = root + "/.build/x86_64-unknown-linux-gnu/debug/codecov"
        try FileManager.default.createDirectory(atPath: codecov, withIntermediateDirectories: true)
        try "{}".write(toFile: codecov + "/Package.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/.build/debug", withDestinationPath: "x86_64-unknown-linux-gnu/debug")
        #expect(try CoverageInput.locateExport(root).hasSuffix("/codecov/Package.json"))
        #expect(try CoverageInput.locateExport(root + "/.build").hasSuffix("/codecov/Package.json"))
        #expect(try CoverageInput.locateExport(codecov) == codecov + "/Package.json")
        #expect(
            CoverageInput.defaultRoot(for: [codecov + "/Package.json"], exportPaths: [], workingDirectory: "/") == root)
    }

    @Test("versions 2.0.0 (5-field segments) and 2.0.1 are read")
    func olderVersions() throws {
        // Invented from the 3.0.1 layout: 2.0.0 had no gap flag in segments.
        let json = #"""
            {"data":[{"files":[{"filename":"a.swift","segments":[[1,10,3,true,true],[3,2,0,false,false]],"summary":{"lines":{"count":3,"covered":3}}}]}],"type":"llvm.coverage.json.export","version":"2.0.0"}
            """#
        let path = try temporaryFile(json)
        let export = try CoverageInput.readExport(path, keepMappings: false)
        #expect(export.version == "2.0.0")
        let segments = try #require(try export.segments(of: export.files[0]))
        #expect(LineCoverage.lineCounts(of: segments) == [1, 2, 3].map { LineCount(line: $0, count: 3) })
    }
}
