import Foundation
@_exported import SwiftCovTestSupport
import Testing

@testable import SwiftCovCore

/// A real llvm-cov export cut down by `scripts/make-fixture`, with llvm-cov's own answers.
struct Fixture: CustomTestStringConvertible, Sendable {
    let name: String
    let directory: String

    init(name: String) {
        self.name = name
        directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

    private init(name: String, directory: String) {
        self.name = name
        self.directory = directory
    }

    static let all = ["swift-algorithms", "yams", "swift-argument-parser", "swift-collections"].map(Fixture.init)

    /// The trivia modules' export and llvm-cov's answers in SampleReports/, as shipped.
    static let sample = Fixture(name: "SampleReports", directory: packageRoot + "/SampleReports")

    var testDescription: String { name }

    func path(_ file: String) -> String { directory + "/" + file }

    func text(_ file: String) throws -> String {
        try String(contentsOfFile: path(file), encoding: .utf8)
    }

    /// The export read as swiftcov reads it.
    func export(_ file: String = "coverage.json", keepMappings: Bool = false) throws -> LLVMCovExport {
        try CoverageInput.readExport(path(file), keepMappings: keepMappings)
    }

    /// The report over every file of the fixture (its paths are relative to the package root).
    func report(_ file: String = "coverage.json") throws -> CoverageReport {
        try CoverageReport.build(exports: [export(file)], scope: CoverageScope(root: "/package", allFiles: true))
    }

    /// `llvm-cov report` rows: file → (regions, missed regions, functions, missed, lines, missed lines).
    func llvmCovReportRows() throws -> [String: [Int]] {
        var rows: [String: [Int]] = [:]
        for line in try text("llvm-cov-report.txt").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 10, Int(fields[1]) != nil else { continue }
            let numbers = [1, 2, 4, 5, 7, 8].map { Int(fields[$0])! }
            rows[String(fields[0])] = numbers
        }
        return rows
    }

    /// `llvm-cov report -show-functions`: file → mangled name → (regions, missed, lines, missed).
    func llvmCovFunctionRows() throws -> [String: [String: [Int]]] {
        var result: [String: [String: [Int]]] = [:]
        var file = ""
        for line in try text("llvm-cov-functions.txt").split(separator: "\n") {
            if line.hasPrefix("File '") {
                file = String(line.dropFirst(6).dropLast(2))
                continue
            }
            let fields = line.split(separator: " ")
            guard fields.count >= 7, fields[0].hasPrefix("$s"), let regions = Int(fields[1]) else { continue }
            result[file, default: [:]][String(fields[0])] = [
                regions, Int(fields[2])!, Int(fields[4])!, Int(fields[5])!,
            ]
        }
        return result
    }

    /// `llvm-cov export -format=lcov` DA lines: file → executable lines and counts. The JSON
    /// export clamps counts to Int64.max; lcov prints the raw (possibly underflowed) UInt64.
    func llvmCovLineCounts() throws -> [String: [LineCount]] {
        var result: [String: [LineCount]] = [:]
        var file = ""
        for line in try text("llvm-cov.lcov").split(separator: "\n") {
            if line.hasPrefix("SF:") {
                file = String(line.dropFirst(3))
                result[file] = []
            } else if line.hasPrefix("DA:") {
                let fields = line.dropFirst(3).split(separator: ",")
                let count = min(UInt64(fields[1])!, UInt64(Int64.max))
                result[file]!.append(LineCount(line: UInt32(fields[0])!, count: count))
            }
        }
        return result
    }
}

/// Compares `text` with the golden file `Golden/<name>`, recording it when it is missing or when
/// RECORD_GOLDEN=1 (and failing then, so a recording is never mistaken for a pass).
func assertGolden(_ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")
    let url = directory.appendingPathComponent(name)
    let record = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"
    if record || !FileManager.default.fileExists(atPath: url.path) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("recorded golden file \(name); check it and run again", sourceLocation: sourceLocation)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    if expected != text {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstDifference = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }
        let detail =
            firstDifference.map {
                "line \($0.offset + 1):\n  expected: \($0.element.0)\n  actual:   \($0.element.1)"
            } ?? "line counts differ: \(expectedLines.count) vs \(actualLines.count)"
        Issue.record(
            "output differs from golden file \(name) (RECORD_GOLDEN=1 to update)\n\(detail)",
            sourceLocation: sourceLocation)
    }
}

/// The package's root folder (tests read SampleReports/ from the checkout).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

/// `text` read by Foundation's `JSONDecoder` (a reader other than swiftcov's own, so a report's
/// JSON is checked by what its users parse it with), as a `JSONValue` for the checks. Object
/// members come in key order: Foundation keeps none.
func foundationJSON(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(FoundationJSON.self, from: Data(text.utf8)).value
}

private struct FoundationJSON: Decodable {
    var value: JSONValue

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            value = .object(
                try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
                    (key.stringValue, try object.decode(FoundationJSON.self, forKey: key).value)
                })
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(FoundationJSON.self).value) }
            value = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let bool = try? single.decode(Bool.self) {
                value = .bool(bool)
            } else if let number = try? single.decode(Double.self) {
                value = .number(number)
            } else {
                value = .string(try single.decode(String.self))
            }
        }
    }
}
