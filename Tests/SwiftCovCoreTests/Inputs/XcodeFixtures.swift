import Foundation

@testable import SwiftCovCore

/// The real result bundles in `Fixtures/xcode/` (see its ORIGIN.md), read as the bundle reader
/// will: the root object named by `Info.plist`, the others through a loader.
enum XcodeFixtures {
    static let bundles = [
        "test", "test_merged", "test_repeated", "parametrized", "session_level_failure", "resultWithCompileError",
        "Test-FlakyFixture", "example", "merged", "Spaceship", "TestResults", "TestResults-669",
    ]

    static var directory: String {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent("xcode").path
    }

    static func path(_ file: String) -> String { directory + "/" + file }

    static func bundlePath(_ bundle: String) -> String { path(bundle + ".xcresult") }

    /// The root object's id: `rootId.hash` in the bundle's `Info.plist`.
    static func rootID(bundle: String) throws -> String {
        try XCResultBundle(path: bundlePath(bundle)).rootID
    }

    /// The decompressed bytes of object `id`, nil when the bundle does not hold it.
    static func objectBytes(bundle: String, id: String) throws(TestResultsError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: bundlePath(bundle) + "/Data/data." + id) else { return nil }
        do throws(XcodeInputError) {
            return try XCResultBundle(path: bundlePath(bundle)).object(id)
        } catch {
            throw .unreadable(path: error.path, reason: error.message)
        }
    }

    /// Object `id` of `bundle`, nil when the bundle does not hold it.
    static func object(bundle: String, id: String) throws(TestResultsError) -> XCResultObject? {
        guard let bytes = try objectBytes(bundle: bundle, id: id) else { return nil }
        let result: Result<XCResultObject, TestResultsError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(TestResultsError) in
                try XCResultObject.parseTypedEncoding(buffer, path: "\(bundle).xcresult/Data/data.\(id)")
            }
        }
        return try result.get()
    }

    /// The bundle's run: its invocation record, with the objects it refers to loaded as asked.
    static func testRun(bundle: String) throws -> TestRun {
        let root = try object(bundle: bundle, id: rootID(bundle: bundle))
        return try XcodeTestResults.testRun(
            invocationRecord: root, testPlanRunSummaries: [],
            load: { id throws(TestResultsError) in try object(bundle: bundle, id: id) }, path: bundle + ".xcresult")
    }

    /// The ids of the bundle's objects.
    static func objectIDs(bundle: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: bundlePath(bundle) + "/Data").filter {
            $0.hasPrefix("data.")
        }.map { String($0.dropFirst(5)) }.sorted()
    }

    /// xcresultparser's JUnit for a bundle, read back.
    static func groundTruth(_ file: String) throws -> TestRun {
        try JUnitXMLReader.read(Array(FileManager.default.contents(atPath: path(file))!), path: file)
    }
}
