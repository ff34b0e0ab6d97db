import Foundation
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// Xcode results that are cut, lie about lengths, nest without end, refer in circles or hold
/// types and values no reader expects: one clear error (or a warning for what is skipped),
/// never a trap, a hang or an allocation the input's size does not bound. Invented inputs.
@Suite("Xcode results, hostile")
struct XcodeHostileInputTests {
    func typed(_ text: String) throws(TestResultsError) -> XCResultObject {
        let bytes = Array(text.utf8)
        let result: Result<XCResultObject, TestResultsError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(TestResultsError) in try XCResultObject.parseTypedEncoding(buffer, path: "object") }
        }
        return try result.get()
    }

    func typedError(_ text: String) -> (offset: Int?, keyPath: String?, message: String)? {
        do {
            _ = try typed(text)
            return nil
        } catch {
            guard case .malformedXcodeResult(let path, let offset, let keyPath, let message) = error else { return nil }
            #expect(path == "object")
            return (offset, keyPath, message)
        }
    }

    func legacy(_ text: String) throws(TestResultsError) -> XCResultObject {
        let bytes = Array(text.utf8)
        let result: Result<XCResultObject, TestResultsError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(TestResultsError) in try XCResultObject.parseLegacyJSON(buffer, path: "legacy.json") }
        }
        return try result.get()
    }

    @Test("a real object cut at every byte: an error inside the bytes read, never a trap")
    func truncatedEverywhere() throws {
        let root = try XcodeFixtures.rootID(bundle: "test")
        let bytes = try #require(try XcodeFixtures.objectBytes(bundle: "test", id: root))
        for end in 0..<bytes.count {
            let prefix = Array(bytes[..<end])
            let outcome: Result<XCResultObject, TestResultsError> = prefix.withUnsafeBytes { buffer in
                Result { () throws(TestResultsError) in try XCResultObject.parseTypedEncoding(buffer, path: "cut") }
            }
            guard case .failure(.malformedXcodeResult(_, let offset?, _, _)) = outcome else {
                Issue.record("cut at \(end): \(outcome)")
                continue
            }
            #expect(offset <= end)
        }
    }

    @Test("lengths past the end, too many digits, none, or not UTF-8")
    func badLengths() {
        #expect(typedError("[T[K2:_nV99:Array]]")?.message.contains("past the end") == true)
        #expect(typedError("[T[K2:_nV15:Array]]")?.message.contains("a length of 15 bytes, and 7 are left") == true)
        #expect(typedError("[T[K2:_nV99999999999999999999:A]]")?.message.contains("past the end") == true)
        #expect(typedError("[T[K2:_nV:A]]")?.message.contains("expected a length") == true)
        #expect(typedError("[T[K2:_nV1A]]")?.message.contains("':' after a length") == true)
        #expect(typedError("[T[K2:_nV2:\u{E9}]]") == nil)  // é is two bytes: the length counts bytes
        #expect(typedError("[T[K2:_nV1:\u{E9}]]")?.message.contains("UTF-8") == true)  // half of é
        let error = typedError("[T[K2:_nV1:A]K3:keyX]")
        #expect(error?.keyPath == "key" && error?.offset == 19)
    }

    @Test("a key path in the message: where in the graph the bytes went wrong")
    func keyPath() {
        let error = typedError("[T[K2:_nV1:A]K5:items[T[K2:_nV5:Array][S1:AK1:x[S5:Array[S1:B]]]]]")
        #expect(error?.keyPath == "items[0].x[0]")
        #expect(error?.message == "not an Xcode result object: type 'B' used before it is defined")
    }

    @Test("nesting without end: an error at the depth limit, not a stack overflow")
    func deepNesting() {
        let deepValues = "[T[K2:_nV1:A]" + String(repeating: "K1:a[S1:A", count: 100_000)
        #expect(typedError(deepValues)?.message.contains("nested too deep") == true)
        let deepTypes = "[T" + String(repeating: "[K2:_nV1:AK2:_s", count: 100_000)
        #expect(typedError(deepTypes)?.message.contains("nested too deep") == true)
        let deepJSON = String(repeating: "{\"_type\":{\"_name\":\"A\"},\"a\":", count: 10_000)
        #expect(throws: TestResultsError.self) { try legacy(deepJSON) }
    }

    @Test("legacy JSON that is not the typed graph: the key path named")
    func legacyShapes() {
        #expect(
            throws: TestResultsError.malformedXcodeResult(
                path: "legacy.json", offset: nil, keyPath: "summaries",
                message: "not xcresulttool's JSON: an object without a _type")
        ) { try legacy(#"{"_type":{"_name":"ActionTestPlanRunSummaries"},"summaries":{"_values":[]}}"#) }
        #expect(
            throws: TestResultsError.malformedXcodeResult(
                path: "legacy.json", offset: nil, keyPath: "a._values",
                message: "not xcresulttool's JSON: _values that is not an array")
        ) { try legacy(#"{"_type":{"_name":"X"},"a":{"_type":{"_name":"Array"},"_values":3}}"#) }
        #expect(
            throws: TestResultsError.malformedXcodeResult(
                path: "legacy.json", offset: nil, keyPath: "_type",
                message: "not xcresulttool's JSON: a type without a _name")
        ) { try legacy(#"{"_type":{}}"#) }
        let text = try? String(contentsOfFile: XcodeFixtures.path("json/test.invocation.legacy.json"), encoding: .utf8)
        let utf8 = Array((text ?? "").utf8)
        for end in stride(from: 0, to: utf8.count, by: 97) {
            #expect(throws: TestResultsError.self) { try legacy(String(decoding: utf8[..<end], as: UTF8.self)) }
        }
    }

    @Test("an unknown object type among tests is skipped with a warning, never guessed")
    func unknownTypes() throws {
        let summaries = try typed(
            "[T[K2:_nV26:ActionTestPlanRunSummaries]K9:summaries[T[K2:_nV5:Array][T[K2:_nV24:ActionTestPlanRunSummary]"
                + "K17:testableSummaries[S5:Array[T[K2:_nV21:ActionTestableSummary]K4:name[T[K2:_nV6:String]K2:_vV4:Mod1]"
                + "K5:tests[S5:Array[T[K2:_nV18:ActionTestMetadata]K4:name[S6:StringK2:_vV3:t()]K10:identifier"
                + "[S6:StringK2:_vV5:C/t()]K10:testStatus[S6:StringK2:_vV7:Success]][T[K2:_nV9:Something]]]]]]]]")
        let run = try XcodeTestResults.testRun(object: summaries, load: { _ in nil }, path: "x")
        #expect(run.totals.tests == 1 && run.totals.passed == 1)
        #expect(run.cases.first?.className == "Mod1.C")
        #expect(
            run.warnings == [
                .warning(
                    file: "x", at: .keyPath("[0].summaries[0].testableSummaries[0].tests[1]"),
                    "skipped an object of type Something, not a test or a group of tests")
            ])
    }

    @Test("an unknown status is an error that names it: never green")
    func unknownStatus() throws {
        let summaries = try typed(
            "[T[K2:_nV26:ActionTestPlanRunSummaries]K9:summaries[T[K2:_nV5:Array][T[K2:_nV24:ActionTestPlanRunSummary]"
                + "K17:testableSummaries[S5:Array[T[K2:_nV21:ActionTestableSummary]"
                + "K5:tests[S5:Array[T[K2:_nV18:ActionTestMetadata]K4:name[T[K2:_nV6:String]K2:_vV3:t()]"
                + "K10:testStatus[S6:StringK2:_vV8:Exploded]]]]]]]]")
        let run = try XcodeTestResults.testRun(object: summaries, load: { _ in nil }, path: "x")
        #expect(run.totals.errors == 1)
        #expect(run.cases.first?.issues.map(\.message) == ["Xcode's status: Exploded"])
    }

    @Test("references in a circle: each object loaded once, a wrong type skipped with a warning")
    func referenceCycle() throws {
        let record = try typed(
            "[T[K2:_nV23:ActionsInvocationRecord]K7:actions[T[K2:_nV5:Array][T[K2:_nV12:ActionRecord]K12:actionResult"
                + "[T[K2:_nV12:ActionResult]K8:testsRef[T[K2:_nV9:Reference]K2:id[T[K2:_nV6:String]K2:_vV4:root]]]]"
                + "[S12:ActionRecordK12:actionResult[S12:ActionResultK8:testsRef[S9:ReferenceK2:id[S6:StringK2:_vV4:root]]]]]]"
        )
        var loads = 0
        let run = try XcodeTestResults.testRun(
            invocationRecord: record, testPlanRunSummaries: [],
            load: { _ in
                loads += 1
                return record
            }, path: "bundle")
        #expect(loads == 1)
        #expect(run.totals.tests == 0)
        #expect(run.warnings.count == 1)
        #expect(
            run.warnings.first?.message
                == "skipped an object of type ActionsInvocationRecord, not ActionTestPlanRunSummaries")
    }

    @Test("a loader's error stops the reading, with the loader's message")
    func loaderError() throws {
        let record = try typed(
            "[T[K2:_nV23:ActionsInvocationRecord]K7:actions[T[K2:_nV5:Array][T[K2:_nV12:ActionRecord]K12:actionResult"
                + "[T[K2:_nV12:ActionResult]K8:testsRef[T[K2:_nV9:Reference]K2:id[T[K2:_nV6:String]K2:_vV1:x]]]]]]")
        #expect(throws: TestResultsError.unreadable(path: "bundle/Data/data.x", reason: "gone")) {
            try XcodeTestResults.testRun(
                invocationRecord: record, testPlanRunSummaries: [],
                load: { _ throws(TestResultsError) in throw .unreadable(path: "bundle/Data/data.x", reason: "gone") },
                path: "bundle")
        }
    }

    func toolJSON(_ text: String) throws(TestResultsError) -> TestRun {
        let bytes = Array(text.utf8)
        return try TestResultsStream.readXcode(bytes, path: "tests.json")
    }

    @Test("test-results JSON: a localized duration where seconds belong is an error with its key path")
    func durationStrings() throws {
        #expect(
            throws: TestResultsError.malformedXcodeResult(
                path: "tests.json", offset: nil, keyPath: "testNodes[0].children[0].durationInSeconds",
                message: "not `xcresulttool get test-results tests` output: not a number")
        ) {
            try toolJSON(
                #"{"testNodes":[{"nodeType":"Test Plan","name":"P","children":[{"nodeType":"Test Case","name":"t()","#
                    + #""result":"Passed","durationInSeconds":"0,00062s"}]}]}"#)
        }
        // `duration` alone (localized text, as Xcode 16.0–16.2 write it) is read; text that is no
        // duration gives no time.
        let run = try toolJSON(
            #"{"testNodes":[{"nodeType":"Test Case","name":"t()","result":"Passed","duration":"0,00062s"}]}"#)
        #expect(run.cases.map(\.duration) == [0.00062])
        let unreadable = try toolJSON(
            #"{"testNodes":[{"nodeType":"Test Case","name":"t()","result":"Passed","duration":"soon"}]}"#)
        #expect(unreadable.cases.map(\.duration) == [nil])
        #expect(throws: TestResultsError.self) { try toolJSON(#"{"testNodes":[{"name":"x"}]}"#) }
        #expect(throws: TestResultsError.self) { try toolJSON(#"{"testNodes":{}}"#) }
        #expect(throws: TestResultsError.self) { try toolJSON(#"{"testNodes":[3]}"#) }
        #expect(throws: TestResultsError.self) { try toolJSON(#"{"other":1}"#) }
    }

    @Test("test-results JSON: a node type not known is a warning; a case without a result an error")
    func unknownNodes() throws {
        let run = try toolJSON(
            #"{"testNodes":[{"nodeType":"Hologram","name":"h"},{"nodeType":"Test Case","name":"t()"}]}"#)
        #expect(run.warnings.map(\.message) == ["skipped a test node of type 'Hologram' that swiftcov does not know"])
        #expect(run.totals.errors == 1)
    }

    @Test("test-results JSON nested without end: an error, not a stack overflow")
    func deepTestNodes() {
        let deep =
            #"{"testNodes":["# + String(repeating: #"{"nodeType":"Test Suite","name":"s","children":["#, count: 300)
            + String(repeating: "]}", count: 300) + "]}"
        #expect(throws: TestResultsError.self) { try toolJSON(deep) }
    }

    @Test("document URLs: percent escapes, lines from 0, no line or no file")
    func documentURLs() {
        #expect(
            XcodeTestResults.location(
                documentURL: "file:///Users/a/My%20Tests/T.swift#EndingLineNumber=9&StartingLineNumber=8")
                == TestRun.SourceLocation(file: "/Users/a/My Tests/T.swift", line: 9))
        #expect(XcodeTestResults.location(documentURL: "file:///a/T.swift") == nil)
        #expect(XcodeTestResults.location(documentURL: "file:///a/T.swift#StartingLineNumber=-1") == nil)
        #expect(XcodeTestResults.location(documentURL: "#StartingLineNumber=3") == nil)
        #expect(XcodeTestResults.percentDecoded("a%zz%4") == "a%zz%4")
        #expect(XcodeTestResults.percentDecoded("%C3%A9") == "é")
    }

    @Test("a summary in the tests array: skip reason, expected failure, uncaught error")
    func inlineSummaries() throws {
        func test(_ status: String, _ extra: String) -> String {
            "[S17:ActionTestSummaryK4:name[S6:StringK2:_vV3:t()]K10:identifier[S6:StringK2:_vV5:C/t()]"
                + "K10:testStatus[S6:StringK2:_vV\(status.utf8.count):\(status)]" + extra + "]"
        }
        let skip =
            "K17:skipNoticeSummary[T[K2:_nV23:ActionTestNoticeSummary]K7:message[S6:StringK2:_vV9:no camera]"
            + "K8:fileName[S6:StringK2:_vV7:T.swift]K10:lineNumber[T[K2:_nV3:Int]K2:_vV1:7]]"
        let expected =
            "K16:expectedFailures[S5:Array[T[K2:_nV25:ActionTestExpectedFailure]K13:failureReason[S6:StringK2:_vV6:bug 12]"
            + "K14:failureSummary[T[K2:_nV24:ActionTestFailureSummary]K7:message[S6:StringK2:_vV4:oops]]]]"
        let uncaught =
            "K16:failureSummaries[S5:Array[S24:ActionTestFailureSummaryK9:issueType[S6:StringK2:_vV18:Uncaught Exception]"
            + "K7:message[S6:StringK2:_vV4:boom]]]"
        let object = try typed(
            "[T[K2:_nV26:ActionTestPlanRunSummaries]K9:summaries[T[K2:_nV5:Array][T[K2:_nV24:ActionTestPlanRunSummary]"
                + "K4:name[T[K2:_nV6:String]K2:_vV6:Config]K17:testableSummaries[S5:Array[T[K2:_nV21:ActionTestableSummary]"
                + "K10:targetName[S6:StringK2:_vV10:Mod.xctest]"
                + "K5:tests[S5:Array[T[K2:_nV22:ActionTestSummaryGroup]K4:name[S6:StringK2:_vV9:All tests]]"
                + "[T[K2:_nV17:ActionTestSummary]]"
                + test("Skipped", skip).replacingOccurrences(
                    of: "[S17:ActionTestSummary", with: "[S17:ActionTestSummary")
                + test("Expected Failure", expected).replacingOccurrences(of: "t()", with: "u()")
                + test("Failure", uncaught).replacingOccurrences(of: "t()", with: "v()") + "]]]]]]")
        let run = try XcodeTestResults.testRun(object: object, load: { _ in nil }, path: "x")
        let cases = run.cases
        #expect(cases.map(\.className) == ["Mod", "Mod.C", "Mod.C", "Mod.C"])
        #expect(cases[0].status == .error)  // no status at all
        #expect(cases[1].status == .skipped && cases[1].skipReason == "no camera" && cases[1].location?.line == 7)
        #expect(cases[2].status == .passed && cases[2].issues.map(\.message) == ["bug 12: oops"])
        #expect(cases[2].issues.map(\.kind) == [.knownIssue])
        #expect(cases[3].status == .failed && cases[3].issues.map(\.kind) == [.error])
    }

    @Test("an action that failed with no failing test, and a root of another type")
    func failedActionAndWrongRoot() throws {
        let record = try typed(
            "[T[K2:_nV23:ActionsInvocationRecord]K7:actions[T[K2:_nV5:Array][T[K2:_nV12:ActionRecord]K5:title"
                + "[T[K2:_nV6:String]K2:_vV4:Test]K12:actionResult[T[K2:_nV12:ActionResult]K10:resultName[S6:StringK2:_vV6:action]"
                + "K6:status[S6:StringK2:_vV11:interrupted]]]]]")
        let run = try XcodeTestResults.testRun(object: record, load: { _ in nil }, path: "x")
        #expect(run.totals.errors == 1)
        #expect(
            run.cases.first?.issues.map(\.message) == [
                "Xcode's action action (Test) ended: interrupted, with no failure recorded"
            ])
        let other = try typed("[T[K2:_nV17:ActionTestSummary]]")
        #expect(throws: TestResultsError.self) {
            try XcodeTestResults.testRun(object: other, load: { _ in nil }, path: "x")
        }
        #expect(throws: TestResultsError.self) {
            try XcodeTestResults.testRun(
                invocationRecord: other, testPlanRunSummaries: [], load: { _ in nil }, path: "x")
        }
    }
}
