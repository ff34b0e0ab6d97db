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

    /// The differences between two test node trees in what the reader uses, by key path.
    static func differences(_ ours: JSONValue, _ truth: JSONValue, at path: String, into found: inout [String]) {
        // Xcode 16's tool leaves out the URLs of bundles and suites and the seconds of every
        // duration (item 6 of its defects), names every attempt "Retry N", and gives failure
        // messages a result: compared where both tools say something.
        let type = truth["nodeType"]
        for key in ["name", "nodeType", "nodeIdentifier", "nodeIdentifierURL", "result"]
        where ours[key] != truth[key] && (key != "nodeIdentifierURL" || truth[key] != nil)
            && (key != "name" || type != .string("Repetition"))
            && (key != "result" || type != .string("Failure Message"))
        {
            found.append("\(path).\(key): \(String(describing: ours[key])) ≠ \(String(describing: truth[key]))")
        }
        // Durations of single runs (a repetition, or a test or case run once).
        if type == .string("Repetition") || truth["children"] == nil, truth["durationInSeconds"] != nil,
            ours["durationInSeconds"] != truth["durationInSeconds"]
        {
            found.append(
                "\(path).durationInSeconds: \(String(describing: ours["durationInSeconds"])) ≠ \(String(describing: truth["durationInSeconds"]))"
            )
        }
        guard case .array(let truthChildren)? = truth["children"] else {
            if ours["children"] != nil { found.append("\(path).children: not in the ground truth") }
            return
        }
        guard case .array(let ourChildren)? = ours["children"] else {
            found.append("\(path).children: missing")
            return
        }
        if ourChildren.count != truthChildren.count {
            found.append("\(path).children: \(ourChildren.count) ≠ \(truthChildren.count)")
        }
        // Children are matched by type and name (the n-th of a name with the n-th), not by
        // position: the database does not keep the order the tool sorts them in.
        var taken = Set<Int>()
        for (index, truthChild) in truthChildren.enumerated() {
            guard
                let match = ourChildren.indices.first(where: {
                    !taken.contains($0) && ourChildren[$0]["nodeType"] == truthChild["nodeType"]
                        && (truthChild["nodeType"] == .string("Repetition")
                            ? ourChildren[$0]["nodeIdentifier"] == truthChild["nodeIdentifier"]
                            : ourChildren[$0]["name"] == truthChild["name"])
                })
            else {
                found.append("\(path).children[\(index)]: no \(String(describing: truthChild["name"]))")
                continue
            }
            taken.insert(match)
            differences(ourChildren[match], truthChild, at: "\(path).children[\(index)]", into: &found)
        }
    }

    @Test("Xcode 26: every node, name, identifier, result, run duration and failure message equals xcresulttool's")
    func testsDocument() throws {
        let name = "Xcode26-Mixed-XCTest-SwiftTesting"
        let ours = try Self.document(name)
        let truth = try Self.groundTruth(name)
        guard case .array(let ourPlans)? = ours["testNodes"], case .array(let truePlans)? = truth["testNodes"] else {
            Issue.record("no testNodes")
            return
        }
        #expect(ourPlans.count == truePlans.count)
        var found: [String] = []
        for (index, (our, true_)) in zip(ourPlans, truePlans).enumerated() {
            Self.differences(our, true_, at: "testNodes[\(index)]", into: &found)
        }
        #expect(found.isEmpty, "\(found.count) differences, first: \(found.prefix(8).joined(separator: "\n"))")
    }

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
