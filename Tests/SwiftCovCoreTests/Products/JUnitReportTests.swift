import Foundation
import Testing

@testable import SwiftCovCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// JUnit XML for each family of `swift test` output, compared with golden files and checked
/// against the rules of the JUnit schemas CI systems validate with.
@Suite("JUnit XML")
struct JUnitReportTests {
    /// One golden file: the logs it is made from, and the schema variant.
    struct Family: CustomTestStringConvertible, Sendable {
        var golden: String
        var inputs: [String]
        var strict = false

        var testDescription: String { golden }

        func render() throws -> String {
            let run = try TestResultsReader.read(paths: inputs.map { LogFixture($0).path }, utcOffset: 0)
            return JUnitReport.render(run, options: JUnitReportTests.options(strict: strict))
        }
    }

    static func options(strict: Bool = false) -> JUnitReport.Options {
        JUnitReport.Options(strict: strict, hostname: "ci-host", timestamp: "2026-01-01T00:00:00")
    }

    static let families = [
        Family(golden: "junit-linux.xml", inputs: ["SampleReports/swift-test-failing.log"]),
        Family(
            golden: "junit-swift-testing-events.xml",
            inputs: ["SampleReports/swift-test-failing.log", "SampleReports/swift-testing-events.jsonl"]),
        Family(golden: "junit-parallel.xml", inputs: ["SampleReports/swift-test-parallel.log"]),
        Family(golden: "junit-macos.xml", inputs: ["invented-macos.log"]),
        Family(golden: "junit-windows.xml", inputs: ["invented-windows.log"]),
        Family(golden: "junit-terminal.xml", inputs: ["hostile-terminal.log"]),
        Family(golden: "junit-mixed-build.xml", inputs: ["hostile-build-and-test.log"]),
        Family(golden: "junit-truncated-xctest.xml", inputs: ["hostile-xctest-crash.log"]),
        Family(
            golden: "junit-truncated-swift-testing.xml",
            inputs: ["hostile-swift-testing-crash.log", "hostile-swift-testing-crash-events.jsonl"]),
        Family(golden: "junit-parallel-crash.xml", inputs: ["hostile-parallel-crash.log"]),
        Family(golden: "junit-hostile.xml", inputs: ["hostile-with-events.log", "hostile-events.jsonl"]),
        Family(
            golden: "junit-hostile-strict.xml", inputs: ["hostile-with-events.log", "hostile-events.jsonl"],
            strict: true),
    ]

    @Test("each family of logs renders as its golden file", arguments: families)
    func golden(family: Family) throws {
        try assertGolden(family.render(), family.golden)
    }

    @Test("every file keeps the schema's rules and its counts add up", arguments: families)
    func schemaRules(family: Family) throws {
        let document = try XMLShape(xml: family.render())
        #expect(document.problems(strict: family.strict) == [])
    }

    @Test("names and texts with markup, quotes, NUL and ANSI codes come back as written, minus what XML forbids")
    func hostile() throws {
        let xml = try Self.families.first { $0.golden == "junit-hostile.xml" }!.render()
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let shape = try XMLShape(xml: xml)
        let names = shape.elements.filter { $0.name == "testcase" }.compactMap { $0.attributes["name"] }
        #expect(names.contains("Free <display> & \"name\""))
        let console = try TestResultsReader.read(
            paths: [LogFixture("hostile-xctest-and-swift-testing.log").path], utcOffset: 0)
        let text = try XMLShape(xml: JUnitReport.render(console, options: Self.options())).elements
        let failure = try #require(
            text.first { $0.name == "failure" && $0.attributes["message"]?.hasPrefix("failed - bad") == true })
        #expect(
            failure.attributes["message"] == "failed - bad <tag attr=\"v\"> & 'q' bold nul:\u{FFFD}: bell:\u{FFFD}:")
        let output = try #require(text.first { $0.name == "system-out" && $0.text.hasPrefix("plain output line") })
        #expect(output.text == "plain output line\nred text and <&\"'> and nul:\u{FFFD}:end")
    }

    @Test("a failure's message attribute is its first line, whether lines end in LF, CR LF or CR")
    func messageFirstLine() throws {
        for (message, first) in [
            ("one\ntwo", "one"), ("one\r\ntwo", "one"), ("one\rtwo", "one"), ("only ✔", "only ✔"), ("\nlater", ""),
        ] {
            var testCase = TestRun.Case(className: "C", testName: "t", status: .failed)
            testCase.issues = [TestRun.Issue(kind: .failure, message: message)]
            var suite = TestRun.Suite(name: "C", framework: .xctest)
            suite.cases = [testCase]
            let xml = JUnitReport.render(TestRun(suites: [suite]), options: Self.options())
            let failure = try #require(try XMLShape(xml: xml).elements.first { $0.name == "failure" })
            #expect(failure.attributes["message"] == first, "\(message.debugDescription)")
        }
    }

    @Test("a passed case of a parameterized test is one empty element only when it says nothing more")
    func passedCaseWithArguments() throws {
        // Each thing a passed case can say beyond its name, on a case with arguments: the short
        // form (`<testcase …/>`) leaves none of them out.
        var plain = TestRun.Case(className: "S", testName: "t", arguments: "x → 1", status: .passed, duration: 0.5)
        plain.function = "t(x:)"  // not shown in JUnit
        var located = plain
        located.location = TestRun.SourceLocation(file: "Tests/S.swift", line: 7)
        var printed = plain
        printed.output = "printed line"
        var warned = plain
        warned.issues = [TestRun.Issue(kind: .warning, message: "careful")]
        var attached = plain
        attached.attachments = [TestRun.Attachment(name: "a.txt", path: "/tmp/a.txt")]
        var retried = plain
        retried.attempts = [
            TestRun.Case.Attempt(status: .failed, issues: [TestRun.Issue(kind: .failure, message: "once")])
        ]
        var skipped = plain
        skipped.status = .skipped
        var suite = TestRun.Suite(name: "S", framework: .swiftTesting)
        suite.cases = [plain, located, printed, warned, attached, retried, skipped]
        let xml = JUnitReport.render(TestRun(suites: [suite]), options: Self.options())
        let cases = xml.split(separator: "\n").filter { $0.contains("<testcase ") }
        #expect(cases.count == 7)
        #expect(cases[0] == "    <testcase classname=\"S\" name=\"t (x → 1)\" time=\"0.500\"/>")
        #expect(cases[1].contains(" file=\"Tests/S.swift\" line=\"7\"/>"))
        for (index, text) in [(2, "printed line"), (3, "warning: careful"), (4, "[[ATTACHMENT|/tmp/a.txt]]")] {
            #expect(cases[index].hasSuffix("\">"), "\(index)")
            #expect(xml.contains("<system-out>\(text)</system-out>"), "\(index)")
        }
        #expect(cases[5].hasSuffix("\">") && xml.contains("<flakyFailure message=\"once\""))
        #expect(cases[6].hasSuffix("\">") && xml.contains("<skipped/>"))
        #expect(try XMLShape(xml: xml).problems(strict: false) == [])
    }

    @Test("times have at most three decimals")
    func seconds() {
        #expect(JUnitReport.seconds(0.0621) == "0.062")
        #expect(JUnitReport.seconds(12.0) == "12.000")
        #expect(JUnitReport.seconds(0.0005) == "0.001")
        #expect(JUnitReport.seconds(.nan) == "0.000")
        #expect(JUnitReport.seconds(0.9994) == "0.999")
        #expect(JUnitReport.seconds(0.9995) == "1.000")
        #expect(JUnitReport.seconds(1.0625) == "1.063")
        #expect(JUnitReport.seconds(1234.5) == "1234.500")
        #expect(JUnitReport.seconds(-1) == "0.000")
        #expect(JUnitReport.seconds(.infinity) == "0.000")
    }

    @Test("a log without test results becomes one error, so CI does not show an empty pass")
    func missingResults() throws {
        var parser = TestLogParser()
        parser.consume(line: "error: emit-module command failed with exit code 1")
        let log = parser.finish()
        #expect(!log.hasTestOutput)
        let run = TestResultsReader.missingResults(sources: ["build.log"], output: log.output)
        #expect(run.totals.errors == 1)
        let xml = JUnitReport.render(run, options: Self.options())
        #expect(xml.contains("error: emit-module command failed"))
        #expect(try XMLShape(xml: xml).problems(strict: false) == [])
    }
}

/// A parsed XML document, flat, and the rules of `junit-10.xsd` (Jenkins) and
/// `junit-10-with-file-line.xsd` checked on it without a schema validator.
struct XMLShape {
    struct Element {
        var name: String
        var attributes: [String: String]
        var parent: Int?
        var text = ""
    }

    var elements: [Element] = []

    init(xml: String) throws {
        let parser = XMLParser(data: Data(xml.utf8))
        let delegate = Delegate()
        parser.delegate = delegate
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        elements = delegate.elements
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var stack: [Int] = []

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append(Element(name: element, attributes: attributes, parent: stack.last))
            stack.append(elements.count - 1)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let current = stack.last { elements[current].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }
    }

    /// What breaks the schema's rules (allowed elements and attributes, required attributes,
    /// the time pattern) or makes the counts disagree with the test cases.
    func problems(strict: Bool) -> [String] {
        var problems: [String] = []
        let allowed: [String: (attributes: Set<String>, required: Set<String>, children: Set<String>)] = [
            "testsuites": (["name", "time", "tests", "failures", "errors"], [], ["testsuite"]),
            "testsuite": (
                [
                    "name", "tests", "failures", "errors", "group", "time", "skipped", "timestamp", "hostname", "id",
                    "package", "file", "log", "url",
                ], ["name", "tests", "failures", "errors"],
                ["testsuite", "properties", "testcase", "system-out", "system-err"]
            ),
            "properties": ([], [], ["property"]),
            "property": (["name", "value"], ["name", "value"], []),
            "testcase": (
                strict
                    ? ["name", "time", "classname", "group"] : ["name", "time", "classname", "group", "file", "line"],
                ["name"],
                [
                    "skipped", "error", "failure", "rerunFailure", "rerunError", "flakyFailure", "flakyError",
                    "system-out", "system-err",
                ]
            ),
            // Surefire's rerunType: `type` required, the text in `stackTrace`.
            "rerunFailure": (["type", "message"], ["type"], ["stackTrace", "system-out", "system-err"]),
            "rerunError": (["type", "message"], ["type"], ["stackTrace", "system-out", "system-err"]),
            "flakyFailure": (["type", "message"], ["type"], ["stackTrace", "system-out", "system-err"]),
            "flakyError": (["type", "message"], ["type"], ["stackTrace", "system-out", "system-err"]),
            "stackTrace": ([], [], []),
            "failure": (["type", "message"], [], []),
            "error": (["type", "message"], [], []),
            "skipped": (["type", "message"], [], []),
            "system-out": ([], [], []),
            "system-err": ([], [], []),
        ]
        if elements.first?.name != "testsuites" { problems.append("the root is not testsuites") }
        for (index, element) in elements.enumerated() {
            guard let rule = allowed[element.name] else {
                problems.append("unknown element \(element.name)")
                continue
            }
            if let parent = element.parent, let parentRule = allowed[elements[parent].name],
                !parentRule.children.contains(element.name)
            {
                problems.append("\(element.name) inside \(elements[parent].name)")
            }
            for attribute in element.attributes.keys where !rule.attributes.contains(attribute) {
                problems.append("\(element.name) has \(attribute)")
            }
            for attribute in rule.required where element.attributes[attribute] == nil {
                problems.append("\(element.name) lacks \(attribute)")
            }
            if let time = element.attributes["time"], time.wholeMatch(of: #/\d+(\.\d{1,3})?/#) == nil {
                problems.append("\(element.name) time \(time)")
            }
            guard element.name == "testsuite" || element.name == "testsuites" else { continue }
            let cases = elements.indices.filter { caseIndex in
                elements[caseIndex].name == "testcase"
                    && (elements[caseIndex].parent == index || elements[elements[caseIndex].parent!].parent == index)
            }
            func count(_ child: String) -> Int {
                cases.filter { caseIndex in elements.contains { $0.parent == caseIndex && $0.name == child } }.count
            }
            let expected = [
                "tests": cases.count, "failures": count("failure"), "errors": count("error"),
                "skipped": count("skipped"),
            ]
            for (attribute, value) in expected {
                if let stated = element.attributes[attribute], Int(stated) != value {
                    problems.append(
                        "\(element.name) \(element.attributes["name"] ?? "") \(attribute)=\(stated), counted \(value)")
                }
            }
        }
        return problems
    }
}
