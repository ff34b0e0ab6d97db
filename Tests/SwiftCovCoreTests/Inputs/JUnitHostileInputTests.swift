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

/// JUnit files swiftcov did not make, shaped to lose a failure or exhaust memory: no failure
/// anywhere in an input is ever lost, and what a test keeps is bounded.
@Suite("JUnit input that would hide a failure or exhaust memory", .removingTemporaryFolders)
struct JUnitHostileInputTests {
    static func read(_ xml: String) throws -> TestRun {
        try JUnitXMLReader.read(Array(xml.utf8), path: "j.xml")
    }

    static func error(_ xml: String) -> String? {
        do {
            _ = try JUnitXMLReader.read(Array(xml.utf8), path: "j.xml")
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a test case inside a test case, or an outcome inside an outcome, is an error naming where")
    func nesting() {
        let nested = """
            <testsuites><testsuite name="S">
            <testcase classname="M.C" name="outer">
              <testcase classname="M.C" name="inner"/>
              <failure message="boom">Tests/A.swift:3: boom</failure>
            </testcase>
            </testsuite></testsuites>
            """
        #expect(
            Self.error(nested)
                == "j.xml:3:3: error: not JUnit XML: a <testcase> inside a <testcase> (its result would hide the other's)"
        )
        let skippedInFailure = """
            <testsuites><testsuite name="S"><testcase classname="M.C" name="t">
            <failure message="boom"><skipped/></failure></testcase></testsuite></testsuites>
            """
        #expect(
            Self.error(skippedInFailure)?.hasPrefix("j.xml:2:25: error: not JUnit XML: a <skipped> inside a <failure>")
                == true)
        let suiteInCase = """
            <testsuites><testsuite name="S"><testcase classname="M.C" name="t">
            <testsuite name="T"/></testcase></testsuite></testsuites>
            """
        #expect(Self.error(suiteInCase)?.contains("a <testsuite> inside a <testcase>") == true)
        let caseInSuiteError = """
            <testsuites><testsuite name="S"><error message="set-up"><testcase name="t"/></error></testsuite></testsuites>
            """
        #expect(Self.error(caseInSuiteError)?.contains("a <testcase> inside an <error>") == true)
        #expect(
            Self.error("<testsuites><failure message=\"x\"/></testsuites>")?.contains(
                "<failure> outside any <testsuite>") == true)
        // Nested suites are JUnit (Ant writes them): their cases are read.
        let run = try? Self.read(
            """
            <testsuites><testsuite name="A"><testsuite name="B"><testcase classname="M.C" name="t">
            <failure message="f"/></testcase></testsuite></testsuite></testsuites>
            """)
        #expect(run?.totals.failed == 1)
    }

    @Test("a nested test case is an error through shard merges too: the merge never reads as green")
    func nestingInShards() throws {
        let directory = try temporaryDirectory()
        let good = directory + "/shard1.xml"
        let bad = directory + "/shard2.xml"
        try "<testsuites><testsuite name=\"S\"><testcase classname=\"M.C\" name=\"a\"/></testsuite></testsuites>"
            .write(toFile: good, atomically: true, encoding: .utf8)
        try """
        <testsuites><testsuite name="S"><testcase classname="M.C" name="b">
        <testcase classname="M.C" name="c"/><failure message="f"/></testcase></testsuite></testsuites>
        """.write(toFile: bad, atomically: true, encoding: .utf8)
        let error = #expect(throws: TestResultsError.self) {
            try TestResultsReader.read(paths: [good, bad], utcOffset: 0)
        }
        #expect(error?.description.hasPrefix(bad + ":2:1: error: not JUnit XML: a <testcase> inside") == true)
    }

    @Test("a suite's own <error> (its set-up crashed) is a failing test case named after the suite")
    func suiteLevelOutcomes() throws {
        let run = try Self.read(
            """
            <testsuites><testsuite name="M.Setup" tests="1" errors="1">
            <error message="setUp crashed" type="crash">Fatal error: setUp crashed</error>
            <testcase classname="M.Setup" name="testA"/>
            </testsuite>
            <testsuite name="M.Other"><failure message="class set-up failed"/><skipped/></testsuite></testsuites>
            """)
        #expect(run.totals.hasFailures)
        let crashed = try #require(run.cases.first { $0.className == "M.Setup" && $0.testName == "M.Setup" })
        #expect(crashed.status == .error)
        #expect(crashed.issues.map(\.kind) == [.crash])
        #expect(crashed.issues.first?.message == "Fatal error: setUp crashed")
        let failed = try #require(run.cases.first { $0.testName == "M.Other" })
        #expect(failed.status == .failed)
        #expect(failed.issues.first?.message == "class set-up failed")
        #expect(run.cases.count == 3)
    }

    @Test("failures and errors that attributes count and no element shows make the run red")
    func contradictingCounts() throws {
        let suite = try Self.read(
            """
            <testsuites><testsuite name="M.C" tests="2" failures="5" errors="0">
            <testcase classname="M.C" name="testA"/><testcase classname="M.C" name="testB"/>
            </testsuite></testsuites>
            """)
        #expect(suite.totals.errors == 1)
        let missing = try #require(suite.cases.first { $0.status == .error })
        #expect(missing.testName == "M.C")
        #expect(
            missing.issues.first?.message
                == "<testsuite> counts 5 failures and errors (its failures and errors attributes), but the file shows 0 <failure> or <error> elements: failing test cases are missing"
        )
        let root = try Self.read(
            """
            <testsuites name="all" failures="1" errors="2"><testsuite name="M.C" failures="x">
            <testcase classname="M.C" name="testA"><error message="e"/></testcase>
            </testsuite></testsuites>
            """)
        #expect(root.suites.map(\.name) == ["M.C", "all"])
        #expect(root.totals.errors == 2)
        #expect(
            root.suites.last?.cases.first?.issues.first?.message.hasPrefix("<testsuites> counts 3 failures") == true)
        // A suite's shortfall is not counted again by the root; counts that agree add nothing;
        // counts too large for a number (or not numbers) are ignored, never a trap.
        let nested = try Self.read(
            """
            <testsuites failures="5"><testsuite name="A" failures="5" errors="99999999999999999999999">
            <testcase classname="A" name="t"/></testsuite>
            <testsuite name="B" failures="9223372036854775807" errors="9223372036854775807"/></testsuites>
            """)
        #expect(nested.totals.errors == 2)
        let agreeing = try Self.read(
            """
            <testsuites failures="1" errors="1"><testsuite name="A" failures="1" errors="1">
            <testcase classname="A" name="t"><failure/></testcase><testcase classname="A" name="u"><error/></testcase>
            </testsuite></testsuites>
            """)
        #expect(agreeing.cases.count == 2)
    }

    @Test("one failure of many lines keeps the log parser's limits per test, and says how much was left out")
    func failureTextBounded() throws {
        let lines = String(repeating: "Tests/A.swift:1: boom\n", count: 5_000)
        let run = try Self.read(
            """
            <testsuites><testsuite name="S"><testcase classname="M.C" name="t"><failure message="boom">\(lines)</failure>
            <system-out>\(String(repeating: "printed\n", count: 3_000))</system-out></testcase></testsuite></testsuites>
            """)
        let test = try #require(run.cases.first)
        #expect(test.status == .failed)
        #expect(test.issues.count == TestLogParser.outputLineLimit)
        let last = try #require(test.issues.last?.message)
        #expect(
            last.hasSuffix(
                "\n… (3000 more lines, 66001 bytes, of failure text left out: swiftcov keeps 2000 lines or 256 KiB of it per test)"
            ), "\(last)")
        #expect(test.output.split(separator: "\n").count == TestLogParser.outputLineLimit + 1)
        #expect(test.output.hasSuffix("printed\n" + TextBudget.outputLeftOut))
        // Bytes: one long line is cut between characters.
        let long = String(repeating: "é", count: 200_000)
        let cut = try Self.read(
            "<testsuite name=\"S\"><testcase name=\"t\"><error message=\"m\">\(long)</error></testcase></testsuite>")
        let message = try #require(cut.cases.first?.issues.first?.message)
        #expect(message.utf8.count < TestLogParser.outputByteLimit + 200)
        #expect(message.hasPrefix("éé"))
        #expect(message.contains("0 more lines, 137856 bytes, of failure text left out"))
        // A message attribute without text counts against the same limits.
        let attribute = String(repeating: "Tests/A.swift:1: x&#10;", count: 3_000)
        let fromAttribute = try Self.read(
            "<testsuite name=\"S\"><testcase name=\"t\"><failure message=\"\(attribute)\"/></testcase></testsuite>")
        #expect(fromAttribute.cases.first?.issues.count == TestLogParser.outputLineLimit)
    }

    @Test(
        "a test cut to the limits reads back from swiftcov's own JUnit the same; many outcome elements add no more issues"
    )
    func boundedRoundTrip() throws {
        let options = JUnitReport.Options(hostname: "h", timestamp: "2026-01-01T00:00:00")
        for text in [
            String(repeating: "Tests/A.swift:1: boom\n", count: 5_000), String(repeating: "\n", count: 5_000),
            String(repeating: "x", count: 300_000), String(repeating: "Tests/A.swift:1: é\n", count: 20_000),
        ] {
            let run = try Self.read(
                """
                <testsuite name="S"><testcase classname="M.C" name="t"><failure message="m">\(text)</failure>
                <system-out>\(String(repeating: "p\n", count: 3_000))</system-out></testcase></testsuite>
                """)
            let written = JUnitReport.render(run, options: options)
            let again = try Self.read(written)
            #expect(JUnitReport.render(again, options: options) == written)
        }
        let many = try Self.read(
            "<testsuite name=\"S\"><testcase name=\"t\">"
                + String(repeating: "<failure/>", count: 10_000) + "</testcase></testsuite>")
        let test = try #require(many.cases.first)
        #expect(test.issues.count == TestLogParser.outputLineLimit)
        #expect(test.status == .failed)
        #expect(test.issues.last?.message.contains("… (8000 more lines") == true)
    }

    @Test("test cases past the limit of a file are an error, not gigabytes of memory")
    func caseLimit() throws {
        let xml = Array(("<testsuite name=\"S\">" + String(repeating: "<testcase/>", count: 4) + "</testsuite>").utf8)
        #expect(try JUnitXMLReader.read(xml, path: "c.xml", caseLimit: 5).cases.count == 4)
        let error = #expect(throws: TestResultsError.self) { try JUnitXMLReader.read(xml, path: "c.xml", caseLimit: 4) }
        #expect(
            error?.description
                == "c.xml:1:54: error: more than 4 test cases and suites in one file; swiftcov reads up to that many a file"
        )
    }

    @Test("text budgets: limits of lines and bytes, characters never cut, a little held, what is left out counted")
    func textBudget() {
        var budget = TextBudget(lineLimit: 3, byteLimit: 10)
        #expect(budget.admit("a\nb") == "a\nb")
        #expect(budget.admit("\nc\nd") == "\nc")
        #expect(!budget.isExhausted)
        #expect(budget.admit(String(repeating: "x\n", count: 10)) == "")
        #expect(budget.isExhausted)
        #expect(budget.endElement() == "")
        #expect(budget.leftOutLineBreaks == 10 && budget.leftOutBytes == 22)
        #expect(budget.admit("more") == "" && budget.leftOutBytes == 26)
        // Just past the limits (swiftcov's own note): held, then kept when the element ends.
        var slack = TextBudget(lineLimit: 3, byteLimit: 100)
        #expect(slack.admit("a\nb\nc\n… (note)") == "a\nb\nc")
        #expect(slack.admit("!") == "")
        #expect(slack.endElement() == "\n… (note)!")
        #expect(!slack.isExhausted)
        var bytes = TextBudget(lineLimit: 100, byteLimit: 5)
        #expect(bytes.admit("abcé" + String(repeating: "€", count: 2_000)) == "abcé")
        #expect(bytes.leftOutBytes == 6_000)
    }

    @Test(
        "UTF-16 and UTF-32 JUnit (with a byte order mark or without) reads as UTF-8 does",
        arguments: [
            ("UTF-16", true), ("UTF-16LE", false), ("UTF-16BE", false), ("UTF-32", true), ("UTF-32LE", false),
            ("UTF-32BE", false),
        ])
    func wideEncodings(encoding: String, hasBOM: Bool) throws {
        let xml = """
            <?xml version="1.0" encoding="\(encoding)"?>
            <testsuites><testsuite name="S"><testcase classname="M.C" name="tést 🎉"><failure message="boom">Tests/A.swift:3: boom</failure></testcase></testsuite></testsuites>

            """
        let encodings: [String: String.Encoding] = [
            "UTF-16": .utf16, "UTF-16LE": .utf16LittleEndian, "UTF-16BE": .utf16BigEndian, "UTF-32": .utf32,
            "UTF-32LE": .utf32LittleEndian, "UTF-32BE": .utf32BigEndian,
        ]
        let bytes = Array(try #require(xml.data(using: encodings[encoding]!)))
        let bom =
            bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0, 0, 0xFE])
        #expect(bom == hasBOM)
        #expect(bytes.withUnsafeBytes { JUnitXMLReader.recognizes($0) })
        let directory = try temporaryDirectory()
        let path = directory + "/wide.xml"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try TestResultsReader.read(paths: [path], utcOffset: 0)
        #expect(run.cases.map(\.testName) == ["tést 🎉"])
        #expect(run.cases.first?.issues.first?.location?.description == "Tests/A.swift:3")
        #expect(run.totals.failed == 1)
    }

    @Test("UTF-16 that is not (an unpaired surrogate) is one error naming the file")
    func badUTF16() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<testsuite name=\"".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        bytes += [0x00, 0xD8]  // a high surrogate, alone
        for unit in "\"/>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let error = #expect(throws: TestResultsError.self) { try JUnitXMLReader.read(bytes, path: "w.xml") }
        #expect(
            error?.description
                == "w.xml:1:1: error: not UTF-16LE (byte offset 36); JUnit XML must be UTF-8, UTF-16 or UTF-32")
        #expect(JUnitXMLReader.WideEncoding.detect(UnsafeRawBufferPointer(start: nil, count: 0)) == nil)
        // UTF-32 with a surrogate (no character), and UTF-16 cut in the middle of a code unit.
        var utf32: [UInt8] = []
        for scalar in "<testsuite name=\"".unicodeScalars { utf32 += [0, 0, 0, UInt8(scalar.value)] }
        utf32 += [0, 0, 0xD8, 0x00]
        let bad32 = #expect(throws: TestResultsError.self) { try JUnitXMLReader.read(utf32, path: "w.xml") }
        #expect(bad32?.description.contains("not UTF-32BE (byte offset 68)") == true)
        var cut: [UInt8] = []
        for unit in "<testsuite/>".utf16 { cut += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let bad16 = #expect(throws: TestResultsError.self) { try JUnitXMLReader.read(cut + [0x00], path: "w.xml") }
        #expect(bad16?.description.contains("not UTF-16BE (byte offset 24)") == true)
        #expect(try JUnitXMLReader.read(cut, path: "w.xml").hasTestOutput)
    }

    @Test("a JUnit document past the size limit is refused with one line, whole files and pipes alike")
    func sizeLimit() throws {
        var stream = TestResultsStream(path: "big.xml", utcOffset: 0, junitByteLimit: 100)
        let head = Array("<testsuites>\n".utf8)
        try head.withUnsafeBytes { try stream.consume($0) }
        #expect(stream.isJUnit)
        let more = Array(repeating: UInt8(ascii: " "), count: 90)
        let error = #expect(throws: TestResultsError.self) { try more.withUnsafeBytes { try stream.consume($0) } }
        #expect(
            error?.description
                == "big.xml: error: cannot read: JUnit XML larger than 100 bytes, which is held whole to be read; split it (one file per test target or shard) or give the `swift test` log instead"
        )
        #expect(TestResultsStream.describe(bytes: TestResultsStream.junitByteLimit) == "1 GiB")
        #expect(TestResultsStream.describe(bytes: 3 << 20) == "3 MiB")
        #expect(TestResultsStream.describe(bytes: 2048) == "2 KiB")
        var small = TestResultsStream(path: "s.xml", utcOffset: 0, junitByteLimit: 10)
        #expect(throws: TestResultsError.self) { try head.withUnsafeBytes { try small.consume($0) } }
    }

    @Test("UTF-8 is validated in place, agreeing with a decoder character by character")
    func utf8Validation() {
        for bytes: [UInt8] in [
            [0x61, 0xC3], [0xE2, 0x82], [0x61, 0xFF, 0x62], Array("ok é".utf8), [0xED, 0xA0, 0x80],
        ] {
            #expect(JUnitXMLReader.firstInvalidUTF8(in: bytes) == JUnitXMLReader.firstInvalidUTF8ByDecoding(in: bytes))
        }
    }

    @Test("long text comes from the XML reader in pieces that end between characters")
    func textPieces() throws {
        let text = String(repeating: "aé€", count: 40_000)
        var reader = XMLReader(Array("<a>\(text)</a>".utf8))
        var pieces: [String] = []
        while let event = try reader.next() {
            if case .text(let piece) = event { pieces.append(piece) }
        }
        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.utf8.count <= XMLReader.textPieceSize + 4 })
        #expect(pieces.joined() == text)
    }

    @Test("shards merged with another shard's event stream: no Swift Testing failure of a JUnit file or a log is lost")
    func mergesWithEventStreams() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        let junit = fixtures + "/Golden/junit-swift-testing-events.xml"
        let log = fixtures + "/Fixtures/logs/hostile-with-events.log"
        let otherStream = fixtures + "/Fixtures/logs/real-oddities-events.jsonl"
        for shard in [junit, log] {
            let alone = try TestResultsReader.read(paths: [shard], utcOffset: 0).totals
            let stream = try TestResultsReader.read(paths: [otherStream], utcOffset: 0).totals
            let merged = try TestResultsReader.read(paths: [shard, otherStream], utcOffset: 0).totals
            #expect(
                merged.failed + merged.errors == alone.failed + alone.errors + stream.failed + stream.errors, "\(shard)"
            )
        }
        let both = try TestResultsReader.read(paths: [junit, otherStream], utcOffset: 0).totals
        #expect(both.tests == 73 + 37)
    }
}
