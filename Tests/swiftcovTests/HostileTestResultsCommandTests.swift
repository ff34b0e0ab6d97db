import Foundation
import Testing

/// Test results and per-test stores swiftcov did not make, through the commands CI runs: a
/// failure is never lost, an input error is one line and exit 2 with no output written, and
/// nothing from an input drives a terminal or forges a line.
@Suite("hostile test results and per-test stores, end to end", .removingTemporaryFolders)
struct HostileTestResultsCommandTests {
    static let nested = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites><testsuite name="S">
        <testcase classname="M.C" name="outer">
          <testcase classname="M.C" name="inner"/>
          <failure message="boom">Tests/A.swift:3: boom</failure>
        </testcase>
        </testsuite></testsuites>

        """

    @Test("a test case inside a test case: exit 2 naming the file and line, no output, in every command")
    func nestedTestCase() throws {
        let directory = try temporaryDirectory()
        let input = directory + "/nested.xml"
        try Self.nested.write(toFile: input, atomically: true, encoding: .utf8)
        let message =
            "\(input):4:3: error: not JUnit XML: a <testcase> inside a <testcase> (its result would hide the other's)\n"
        for (arguments, output) in [
            (["junit", input, "-o", directory + "/junit.xml"], directory + "/junit.xml"),
            (["report", "--tests", input, "-o", directory + "/report.txt"], directory + "/report.txt"),
            (
                ["html", "SampleReports/coverage.json", "--tests", input, "-o", directory + "/site"],
                directory + "/site"
            ),
        ] {
            let result = try swiftcov(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == message, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["nested.xml"])
    }

    @Test("a suite-level error and counts no case shows make the run red: exit 1")
    func suiteLevelFailures() throws {
        let directory = try temporaryDirectory()
        let input = directory + "/suite.xml"
        try """
        <testsuites><testsuite name="M.Setup" tests="1" failures="0" errors="1">
        <error message="setUp crashed" type="crash">Fatal error: setUp crashed</error>
        <testcase classname="M.Setup" name="testA"/>
        </testsuite><testsuite name="M.C" tests="1" failures="5"><testcase classname="M.C" name="t"/></testsuite>
        </testsuites>
        """.write(toFile: input, atomically: true, encoding: .utf8)
        let result = try swiftcov(["junit", input, "-o", directory + "/junit.xml", "--root", directory])
        #expect(result.status == 1)
        // The cases give no `time`: the run's time says it leaves them out.
        #expect(
            result.stderr
                == "swiftcov: wrote \(directory)/junit.xml — 2 passed, 2 errors (4 tests in 0.000 s; 4 without a time)\n"
        )
    }

    @Test("UTF-16 JUnit is read; UTF-16 that is not is exit 2 with no output file")
    func utf16() throws {
        let directory = try temporaryDirectory()
        let input = directory + "/wide.xml"
        let xml = """
            <?xml version="1.0" encoding="UTF-16"?>
            <testsuites><testsuite name="S"><testcase classname="M.C" name="t"><failure message="boom">Tests/A.swift:3: boom</failure></testcase></testsuite></testsuites>
            """
        try Data(xml.data(using: .utf16)!).write(to: URL(fileURLWithPath: input))
        let output = directory + "/junit.xml"
        let result = try swiftcov(["junit", input, "-o", output, "--root", directory])
        #expect(result.status == 1)
        #expect(
            result.stderr == "swiftcov: wrote \(output) — 0 passed, 1 failed (1 test in 0.000 s; 1 without a time)\n"
        )
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("Tests/A.swift:3: boom"))
        try FileManager.default.removeItem(atPath: output)
        var broken = Array(xml.data(using: .utf16LittleEndian)!)
        broken.insert(contentsOf: [0x00, 0xDC], at: 40)  // a low surrogate, alone
        try Data([0xFF, 0xFE] + broken).write(to: URL(fileURLWithPath: input))
        let bad = try swiftcov(["junit", input, "-o", output, "--root", directory])
        #expect(bad.status == 2)
        #expect(
            bad.stderr
                == "\(input):1:1: error: not UTF-16LE (byte offset 42); JUnit XML must be UTF-8, UTF-16 or UTF-32\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a UTF-32 log is exit 2 with one line and no output, not an empty run")
    func utf32Log() throws {
        let directory = try temporaryDirectory()
        let input = directory + "/log.txt"
        let log = try String(contentsOfFile: packageRoot + "/SampleReports/swift-test-failing.log", encoding: .utf8)
        try Data(log.data(using: .utf32)!).write(to: URL(fileURLWithPath: input))
        let output = directory + "/junit.xml"
        let result = try swiftcov(["junit", input, "-o", output, "--root", directory])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "\(input): error: cannot read: UTF-32LE text that is not JUnit XML; a log or an event stream must be UTF-8 or UTF-16\n"
        )
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("JUnit on stdin stopped by SIGTERM: exit 2 at once, one line, nothing written")
    func junitOnStdinTerminated() throws {
        let directory = try temporaryDirectory()
        let output = directory + "/junit.xml"
        let run = try LiveRun(["junit", "--tests", "-", "-o", output, "--root", directory])
        try run.write("<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite name=\"S\">\n")
        #expect(run.readStdout(until: "<testsuite name=\"S\">\n"))
        run.process.terminate()
        let status = try run.finish(closeInput: false)
        #expect(status == 2)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("C1 controls in test names and messages never reach GitHub annotations")
    func annotationsWithoutControls() throws {
        let directory = try temporaryDirectory()
        let input = directory + "/c1.xml"
        try """
        <testsuites><testsuite name="S"><testcase classname="M.C" name="t\u{9B}31m\u{85}x"><failure message="b\u{9B}ad">Tests/A.swift:3: b\u{9B}ad\u{85}::warning::forged</failure></testcase></testsuite></testsuites>
        """.write(toFile: input, atomically: true, encoding: .utf8)
        let result = try swiftcov(
            ["junit", input, "-o", directory + "/junit.xml", "--root", directory],
            environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1)
        let annotation = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("::error ") })
        #expect(
            annotation
                == "::error file=Tests/A.swift,line=3,title=Test failed%3A M.C.t\u{FFFD}31m\u{FFFD}x::b\u{FFFD}ad\u{FFFD}::warning::forged"
        )
        #expect(!result.stderr.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0 == "\u{1B}" })
    }
}

/// `impacted` with stores that hold IDs a filter or a list would mangle.
@Suite("impacted: test IDs from a store", .removingTemporaryFolders)
struct ImpactedIDTests {
    /// A per-test store (format 1) of one file, `a.swift` with line 1, and `ids`, each having run it.
    static func store(ids: [String]) -> [UInt8] {
        func number(_ value: Int, _ bytes: inout [UInt8]) {
            var value = value
            repeat {
                bytes.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
                value >>= 7
            } while value > 0
        }
        func string(_ text: String, _ bytes: inout [UInt8]) {
            number(text.utf8.count, &bytes)
            bytes += Array(text.utf8)
        }
        var bytes = Array("SWIFTCOV-PER-TEST\n".utf8)
        number(1, &bytes)  // version
        string("", &bytes)  // commit
        bytes.append(0)  // clean
        string("", &bytes)  // date
        number(1, &bytes)  // files
        string("a.swift", &bytes)
        number(1, &bytes)
        number(1, &bytes)  // line 1
        number(ids.count, &bytes)
        for id in ids {
            string(id, &bytes)
            bytes.append(0)  // passed
            number(5, &bytes)  // ms
            number(1, &bytes)  // one file
            number(0, &bytes)  // file 0
            number(1, &bytes)  // one run
            number(0, &bytes)  // from line index 0
            number(0, &bytes)  // one line long
        }
        return bytes
    }

    static let change = """
        --- a/a.swift
        +++ b/a.swift
        @@ -1 +1 @@
        -let a = 1
        +let a = 2

        """

    func impacted(ids: [String], format: String) throws -> (RunResult, String) {
        let directory = try temporaryDirectory()
        try Data(Self.store(ids: ids)).write(to: URL(fileURLWithPath: directory + "/per-test.swiftcov"))
        try Self.change.write(toFile: directory + "/change.diff", atomically: true, encoding: .utf8)
        try "let a = 2\n".write(toFile: directory + "/a.swift", atomically: true, encoding: .utf8)
        let result = try swiftcov(
            ["impacted", directory, "--diff", directory + "/change.diff", "--format", format], in: directory)
        return (result, directory)
    }

    @Test("an ID with a line break or an escape sequence is malformed input: exit 2, one line, nothing printed")
    func controlCharacters() throws {
        for id in ["M.A/testOne\nM.Forged/testTwo", "M.A/test\u{1B}]0;owned\u{7}", "M.A/t\u{9B}2J", ""] {
            let (result, directory) = try impacted(ids: ["M.A/ok", id], format: "list")
            #expect(result.status == 2, "\(id)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("\(directory)/per-test.swiftcov: error: "), "\(result.stderr)")
            #expect(result.stderr.contains("is empty or holds a control character"))
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(!result.stderr.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
        }
    }

    @Test("--format filter: every selected test in the pattern, whatever its shape; none selected: ^$")
    func filter() throws {
        let (result, _) = try impacted(ids: ["M.A test", "Weird id (x)"], format: "filter")
        #expect(result.status == 0)
        #expect(result.stdout == "^M\\.A test(/|$)|^Weird id \\(x\\)(/|$)\n")
        #expect(result.stderr.hasPrefix("swiftcov: 2 of 2 tests executed a changed line"))
        let (list, _) = try impacted(ids: ["M.A test", "Weird id (x)"], format: "list")
        #expect(list.stdout == "M.A test\nWeird id (x)\n")
    }

    @Test("a store of another package (none of its files here) is exit 2, not a filter that runs nothing")
    func anotherPackage() throws {
        let (result, directory) = try impacted(ids: ["M.A/ok"], format: "filter")
        #expect(result.status == 0)
        try FileManager.default.removeItem(atPath: directory + "/a.swift")
        try Self.change.replacing("a.swift", with: "b.swift").write(
            toFile: directory + "/change.diff", atomically: true, encoding: .utf8)
        let other = try swiftcov(
            ["impacted", directory, "--diff", directory + "/change.diff", "--format", "filter"], in: directory)
        #expect(other.status == 2)
        #expect(other.stdout.isEmpty)
        #expect(
            other.stderr
                == "\(directory)/per-test.swiftcov: error: per-test data of 1 files (such as a.swift), none of them in "
                + "this package (the current folder) or the diff: recorded in another package?\n")
    }
}
