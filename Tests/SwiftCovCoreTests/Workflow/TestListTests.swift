import Foundation
import Testing

@testable import SwiftCovCore

@Suite("swift test list's output")
struct TestListTests {
    /// What `swift test list --skip-build` printed for Tests/Fixtures/TinyPackage (stdout), with
    /// the build lines SwiftPM prints when stderr and stdout are merged.
    let listed = """
        [0/1] Planning build
        Build complete! (0.31s)
        TinyTests.DescribeTests/testPositive
        TinyTests.DescribeTests/testZero
        TinyTests.SignTests/minusOne()
        TinyTests.negative()

        """

    @Test("every listed test once, in order, with its library; progress lines skipped")
    func parse() {
        let list = TestList.parse(listed + "TinyTests.negative()\r\n")
        #expect(
            list.tests.map(\.id) == [
                "TinyTests.DescribeTests/testPositive", "TinyTests.DescribeTests/testZero",
                "TinyTests.SignTests/minusOne()", "TinyTests.negative()",
            ])
        #expect(list.tests.map(\.library) == [.xctest, .xctest, .swiftTesting, .swiftTesting])
        #expect(list.tests.map(\.module) == ["TinyTests", "TinyTests", "TinyTests", "TinyTests"])
    }

    @Test("lines that are not test IDs are not tests")
    func notTests() {
        for line in ["", "Build complete!", "[3/5] Compiling Foo.swift", ".Class/test", "Module.", "A.b", "A b.C/d"] {
            #expect(TestID(line) == nil, "\(line)")
        }
        #expect(TestID("M.Outer/Inner/f(x:_:)")?.library == .swiftTesting)
    }

    @Test("a filter pattern selects a test alone: regex characters escaped, the end anchored")
    func filterPattern() throws {
        let tests = TestList.parse(listed).tests
        let pattern = TestList.filterPattern(for: [tests[0], tests[2]])
        #expect(pattern == #"^TinyTests\.DescribeTests/testPositive(/|$)|^TinyTests\.SignTests/minusOne\(\)(/|$)"#)
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(matches("TinyTests.DescribeTests/testPositive"))
        #expect(!matches("TinyTests.DescribeTests/testPositiveToo"))
        // Swift Testing matches the ID followed by the source location.
        #expect(matches("TinyTests.SignTests/minusOne()/TinyTests.swift:24:6"))
        #expect(!matches("TinyTests.SignTests/minusOneMore()"))
        #expect(TestID.escapedForRegex(#"a.b\c$(d)[e]{f}|g?*+^"#) == #"a\.b\\c\$\(d\)\[e\]\{f\}\|g\?\*\+\^"#)
    }
}
