import Testing

@testable import SwiftCovCore

@Suite("test IDs of a per-test store: printed one a line and put into filters")
struct PerTestIDTests {
    @Test("an ID with a control character (a line break would forge another ID) or none at all is refused")
    func controlCharacters() throws {
        for id in ["M.A/t\nM.B/u", "M.A/t\u{1B}[2J", "M.A/t\u{85}", "M.A/t\u{7F}", ""] {
            var coverage = PerTestCoverage(
                recording: .init(commit: "c", dirty: false, date: "d"), files: [.init(path: "a.swift", lines: [1])])
            coverage.add(id: id, outcome: .passed, milliseconds: 1, lines: ["a.swift": [1]])
            let bytes = PerTestStore.encode(coverage)
            let error = #expect(throws: PerTestStore.ReadError.self) { try PerTestStore.decode(bytes) }
            #expect(error?.message.hasSuffix("is empty or holds a control character") == true)
            #expect(error?.message.contains("\n") == false)
            #expect(error?.message.contains("\u{1B}") == false)
        }
    }

    @Test("a filter of IDs: each one regex-escaped, whatever its shape; none: ^$, which matches no test")
    func filterPattern() {
        #expect(TestList.filterPattern(forIDs: []) == "^$")
        #expect(TestList.filterPattern(for: []) == "^$")
        #expect(TestList.filterPattern(forIDs: ["M.A b", "x.y(z:)"]) == "^M\\.A b(/|$)|^x\\.y\\(z:\\)(/|$)")
    }
}
