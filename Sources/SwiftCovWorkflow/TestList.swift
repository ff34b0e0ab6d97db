import SwiftCovModel

/// The tests of a package as `swift test list` prints them: one test ID a line, XCTest's as
/// `Target.Class/testMethod`, Swift Testing's as `Target.Suite/function(label:)` (nested suites
/// add `/Inner`; a test outside any suite is `Target.function()`). SwiftPM prints its build
/// progress on standard error, so what is read here is standard output alone.
package struct TestList: Equatable, Sendable {
    /// The tests in the order listed (SwiftPM lists them sorted), each once.
    package var tests: [TestID]

    package init(tests: [TestID]) {
        self.tests = tests
    }

    /// Reads `swift test list`'s standard output. Blank lines and lines SwiftPM or a test library
    /// prints around the list (build progress such as `[3/5] Compiling …`, `Build complete!`)
    /// are skipped; a test listed twice is kept once.
    package static func parse(_ text: String) -> TestList {
        var tests: [TestID] = []
        var seen = Set<String>()
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingSpaces
            guard let test = TestID(line), seen.insert(test.id).inserted else { continue }
            tests.append(test)
        }
        return TestList(tests: tests)
    }

    /// One regular expression for `swift test --filter` that selects exactly `tests` (both
    /// libraries): `^ID(/|$)` for each, joined with `|`. Swift Testing matches its pattern against
    /// the ID followed by `/` and the test's source location, so the end is `/` or the string's end.
    package static func filterPattern(for tests: [TestID]) -> String {
        filterPattern(forIDs: tests.map(\.id))
    }

    /// The same for test IDs as recorded (every ID, whatever its shape, matched as it is). No
    /// test: `^$`, which no test ID matches (an empty pattern would match them all).
    package static func filterPattern(forIDs ids: [String]) -> String {
        ids.isEmpty ? "^$" : ids.map(TestID.filterPattern(of:)).joined(separator: "|")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return text
    }
}
