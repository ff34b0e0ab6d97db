import Foundation
import Testing

@testable import SwiftCovCore

/// Xcode 16 and 26 bundles that hold only `database.sqlite3`, read through the SQLite decoder,
/// against what `xcresulttool get test-results tests` printed from the same bundles on a Mac.
@Suite("Xcode result databases: the tests document xcresulttool prints")
struct XcodeResultDatabaseTests {
    static let directory = Fixture(name: "xcode").directory

    static func document(_ name: String) throws -> JSONValue {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).xcresult/database.sqlite3")))
        return try bytes.withUnsafeBytes { raw in
            try XcodeResultDatabase.testsDocument(try SQLiteDatabase(raw))
        }
    }

    static func groundTruth(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Array(Data(contentsOf: URL(fileURLWithPath: "\(directory)/json/\(name).json"))))
    }

    // Every node of the Xcode 26 document against xcresulttool's: XcodeTestResultsJSONTests.

    /// Each test case's identifier and result, in a document.
    static func caseResults(_ node: JSONValue, into results: inout [String: String]) {
        if node["nodeType"] == .string("Test Case"), case .string(let id)? = node["nodeIdentifier"],
            case .string(let result)? = node["result"]
        {
            results[id] = result
        }
        if case .array(let children)? = node["children"] ?? node["testNodes"] {
            for child in children { caseResults(child, into: &results) }
        }
    }

    /// fastlane's Xcode 16 JSON was made from another run of the same project (its failure
    /// messages name other process IDs, and its tool of Xcode 16.2 left out one test and named
    /// UI configurations by their raw values): the tests and their results are what must agree.
    @Test("Xcode 16: every test case and its result equal xcresulttool's")
    func xcode16Results() throws {
        var ours: [String: String] = [:]
        var truth: [String: String] = [:]
        Self.caseResults(try Self.document("Xcode16-Mixed-XCTest-SwiftTesting"), into: &ours)
        Self.caseResults(try Self.groundTruth("Xcode16-Mixed-XCTest-SwiftTesting"), into: &truth)
        #expect(truth.count == 47)
        #expect(Set(ours.keys).subtracting(truth.keys).map { $0.hasPrefix("FastlaneTrainerTests/testName") } == [true])
        for (id, result) in truth { #expect(ours[id] == result, "\(id)") }
    }

    @Test("through the tests reader: the run's counts equal the ground truth's")
    func testRun() throws {
        let path = "Xcode26-Mixed-XCTest-SwiftTesting"
        let ours = try XCResultToolJSON.testRun(tests: try Self.document(path), path: path)
        let truth = try XCResultToolJSON.testRun(tests: try Self.groundTruth(path), path: path)
        func outcomes(_ run: TestRun) -> [String] {
            run.cases.map { "\($0.className)/\($0.testName)/\($0.arguments ?? "-")/\($0.status)" }.sorted()
        }
        // 48 test cases; 153 argument cases (two of them shown as " ") in the parameterized ones.
        #expect(ours.cases.count == 192)
        #expect(outcomes(ours) == outcomes(truth))
    }
}
