import SwiftCovModel

/// The coverage rule (DeFlaker, Bell et al., ICSE 2018): a new failure in a test whose per-test
/// coverage runs none of the lines a change touched is likely flaky — the change cannot have
/// broken what the test never ran; one that runs changed lines is likely the change's doing.
extension FlakyVerdicts {
    /// What the per-test data says of a failure.
    package enum CoverageFinding: Sendable, Equatable {
        /// It ran none of the changed lines (`changed`, as `file:line`, at most 20).
        case ranNone(changed: [String], total: Int)
        /// It ran these changed lines (at most 20 of `total`).
        case ran([String], total: Int)
        /// The per-test data has no test of that name.
        case notRecorded
    }

    /// The coverage finding of each of `failures` (history names), by the per-test data of the
    /// failing run and the lines the change touched (`changedLines`: path to lines, as the
    /// per-test data names files). A failure matches a per-test test of the same ID, or of the
    /// same ID without its module (XCTest logs on Linux name classes without their module).
    package static func coverageFindings(
        of failures: [String], perTest: PerTestCoverage, changedLines: [String: [UInt32]]
    ) -> [(test: String, finding: CoverageFinding)] {
        let changed = changedLines.keys.sorted().flatMap { path in changedLines[path]!.sorted().map { (path, $0) } }
        let changedText = changed.prefix(20).map { "\($0.0):\($0.1)" }
        var byID: [String: PerTestCoverage.Test] = [:]
        var byShortID: [String: PerTestCoverage.Test] = [:]
        for test in perTest.tests {
            byID[test.id] = test
            byShortID[withoutModule(test.id)] = test
        }
        return failures.map { name in
            guard let test = byID[name] ?? byShortID[withoutModule(name)] else { return (name, .notRecorded) }
            var ran: [String] = []
            var count = 0
            // Only the changed files' lines of the test, each file's once.
            var executed: (path: String, lines: [UInt32]) = ("", [])
            for (path, line) in changed {
                if executed.path != path {
                    executed = (
                        path, perTest.fileIndex(of: path).map { perTest.executedLines(of: test, inFile: $0) } ?? []
                    )
                }
                let index = PerTestCoverage.lowerBound(of: line, in: executed.lines)
                guard index < executed.lines.count, executed.lines[index] == line else { continue }
                count += 1
                if ran.count < 20 { ran.append("\(path):\(line)") }
            }
            return (name, count == 0 ? .ranNone(changed: changedText, total: changed.count) : .ran(ran, total: count))
        }
    }

    /// `Module.Class/test` without `Module.`: the part of the class before its first dot, when
    /// the class has one.
    static func withoutModule(_ id: String) -> String {
        let slash = id.firstIndex(of: "/") ?? id.endIndex
        guard let dot = id[..<slash].firstIndex(of: ".") else { return id }
        return String(id[id.index(after: dot)...])
    }
}
