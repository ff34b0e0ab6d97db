/// Writes a large `swift test` console log in the form Linux's XCTest and Swift Testing print it:
/// many distinct XCTest classes (the shape that makes a reader keep per-class state), each with
/// passing, failing (messages over one or two lines), skipped and printing tests, the bundle's
/// and the run's summaries, then a Swift Testing part with suites, parameterized tests, issues and
/// the run's summary. The counts in the summary lines are those of the tests written, so a reader's
/// totals can be checked against them. Deterministic: the same arguments give the same bytes.
package struct LogGenerator {
    /// What was written.
    package struct Summary: Equatable {
        package var bytes = 0
        package var xctestClasses = 0
        package var xctestTests = 0
        /// Failing XCTest tests (one failure each).
        package var xctestFailures = 0
        package var xctestSkipped = 0
        package var swiftTestingTests = 0
        package var swiftTestingIssues = 0
    }

    /// The size to reach (the XCTest part grows until the whole log is about this large).
    package var targetSize: Int
    /// XCTest test methods per class.
    package var testsPerClass = 6
    /// Swift Testing suites of four tests each, after the XCTest part: one per megabyte, 2 to 200.
    package var swiftTestingSuites: Int

    /// A generator for a log of about `targetSize` bytes.
    package init(targetSize: Int) {
        self.targetSize = targetSize
        swiftTestingSuites = max(2, min(200, targetSize / 1_000_000))
    }

    /// Writes the log to `path`.
    package func write(to path: String) throws(BenchmarkError) -> Summary {
        let output = try BufferedOutput(path: path)
        var summary = Summary()
        var clock = Clock()
        let swiftTesting = swiftTestingPart(summary: &summary)
        let swiftTestingBytes = swiftTesting.utf8.count

        let start = clock.next()
        try output.write(line: "Test Suite 'All tests' started at \(start)")
        try output.write(line: "Test Suite 'debug.xctest' started at \(clock.next())")
        var classIndex = 0
        while output.count + swiftTestingBytes + 400 < targetSize {
            try writeClass(classIndex, to: output, clock: &clock, summary: &summary)
            classIndex += 1
        }
        let executed =
            "\t Executed \(summary.xctestTests) test\(summary.xctestTests == 1 ? "" : "s"), with "
            + (summary.xctestSkipped > 0
                ? "\(summary.xctestSkipped) test\(summary.xctestSkipped == 1 ? "" : "s") skipped and " : "")
            + "\(summary.xctestFailures) failure\(summary.xctestFailures == 1 ? "" : "s") (0 unexpected) in "
            + "\(Double(summary.xctestTests) / 1000) (\(Double(summary.xctestTests) / 1000)) seconds"
        let verdict = summary.xctestFailures > 0 ? "failed" : "passed"
        try output.write(line: "Test Suite 'debug.xctest' \(verdict) at \(clock.next())")
        try output.write(line: executed)
        try output.write(line: "Test Suite 'All tests' \(verdict) at \(clock.next())")
        try output.write(line: executed)
        try output.write(text: swiftTesting)
        try output.flush()
        summary.bytes = output.count
        return summary
    }

    /// One XCTest class: its tests, some failing, one skipped in seven classes, output printed
    /// by some; `Executed …` with the class's counts.
    private func writeClass(
        _ index: Int, to output: BufferedOutput, clock: inout Clock, summary: inout Summary
    ) throws(BenchmarkError) {
        let module = "Feature\(index / 500)Tests"
        let name = "Generated\(index)Tests"
        let file = "/home/runner/work/App/App/Tests/\(module)/\(name).swift"
        try output.write(line: "Test Suite '\(name)' started at \(clock.next())")
        var failures = 0
        var skipped = 0
        for test in 0..<testsPerClass {
            let method =
                "test\(["Loads", "Saves", "Parses", "Renders", "Merges", "Sorts", "Retries"][test % 7])Item\(test)"
            try output.write(line: "Test Case '\(name).\(method)' started at \(clock.next())")
            let kind = (index * 7 + test * 3) % 23
            if kind == 0 {
                failures += 1
                try output.write(
                    line:
                        "\(file):\(20 + test * 9): error: \(name).\(method) : XCTAssertEqual failed: (\"\(index)\") is not equal to (\"\(index + 1)\") - item \(test) after reload"
                )
                try output.write(line: "Test Case '\(name).\(method)' failed (0.\(String(format3: test + 1)) seconds)")
            } else if kind == 5 {
                failures += 1
                try output.write(
                    line: "\(file):\(24 + test * 9): error: \(name).\(method) : failed - expected a sorted list")
                try output.write(line: "got [3, 1, 2] instead")
                try output.write(line: "Test Case '\(name).\(method)' failed (0.\(String(format3: test + 2)) seconds)")
            } else if kind == 11 {
                skipped += 1
                try output.write(line: "\(file):\(30 + test * 9): \(name).\(method) : Test skipped - needs a network")
                try output.write(line: "Test Case '\(name).\(method)' skipped (0.0 seconds)")
            } else {
                if kind == 17 {
                    try output.write(line: "loaded \(index * 31 % 977) items from fixture-\(test).json in 3 ms")
                    try output.write(line: "  cache: hit=\(test) miss=\(index % 5) evicted=0")
                }
                try output.write(line: "Test Case '\(name).\(method)' passed (0.00\(test) seconds)")
            }
        }
        summary.xctestClasses += 1
        summary.xctestTests += testsPerClass
        summary.xctestFailures += failures
        summary.xctestSkipped += skipped
        try output.write(line: "Test Suite '\(name)' \(failures > 0 ? "failed" : "passed") at \(clock.next())")
        try output.write(
            line: "\t Executed \(testsPerClass) tests, with "
                + (skipped > 0 ? "\(skipped) test\(skipped == 1 ? "" : "s") skipped and " : "")
                + "\(failures) failure\(failures == 1 ? "" : "s") (0 unexpected) in 0.0\(testsPerClass) (0.0\(testsPerClass)) seconds"
        )
    }

    /// The Swift Testing part: suites of plain and parameterized tests, two in nine with an issue.
    private func swiftTestingPart(summary: inout Summary) -> String {
        var lines = [
            "◇ Test run started.", "↳ Testing Library Version: 6.3.1 (937120cbc281cf2)",
            "↳ Target Platform: x86_64-unknown-linux-gnu",
        ]
        for suite in 0..<swiftTestingSuites { lines.append("◇ Suite GeneratedSuite\(suite) started.") }
        var ends: [String] = []
        for suite in 0..<swiftTestingSuites {
            var suiteIssues = 0
            for test in 0..<4 {
                let name = "behaves\(test)Way\(suite)()"
                summary.swiftTestingTests += 1
                lines.append("◇ Test \(name) started.")
                if test == 3 {
                    let parameterized = "handles(value:)"
                    lines[lines.count - 1] = "◇ Test \(parameterized) started."
                    for value in 0..<3 {
                        lines.append("◇ Test case passing 1 argument value → \(value) to \(parameterized) started.")
                    }
                    ends.append("✔ Test \(parameterized) with 3 test cases passed after 0.00\(suite % 10) seconds.")
                } else if (suite * 4 + test) % 9 == 2 {
                    suiteIssues += 1
                    summary.swiftTestingIssues += 1
                    lines.append(
                        "✘ Test \(name) recorded an issue at Generated\(suite).swift:\(12 + test):9: Expectation failed: (count → \(test)) == \(test + 1)"
                    )
                    ends.append("✘ Test \(name) failed after 0.00\(test) seconds with 1 issue.")
                } else {
                    ends.append("✔ Test \(name) passed after 0.00\(test) seconds.")
                }
            }
            ends.append(
                suiteIssues > 0
                    ? "✘ Suite GeneratedSuite\(suite) failed after 0.010 seconds with \(suiteIssues) issue\(suiteIssues == 1 ? "" : "s")."
                    : "✔ Suite GeneratedSuite\(suite) passed after 0.010 seconds.")
        }
        lines += ends
        let issues = summary.swiftTestingIssues
        lines.append(
            issues > 0
                ? "✘ Test run with \(summary.swiftTestingTests) tests in \(swiftTestingSuites) suites failed after 1.250 seconds with \(issues) issue\(issues == 1 ? "" : "s")."
                : "✔ Test run with \(summary.swiftTestingTests) tests in \(swiftTestingSuites) suites passed after 1.250 seconds."
        )
        return lines.joined(separator: "\n") + "\n"
    }

    /// Timestamps that advance a millisecond per call, as XCTest prints them.
    struct Clock {
        private var milliseconds = 0

        mutating func next() -> String {
            defer { milliseconds += 1 }
            let total = milliseconds
            let seconds = total / 1000 % 60
            let minutes = total / 60_000 % 60
            let hours = 9 + total / 3_600_000 % 14
            return "2026-11-23 \(String(format2: hours)):\(String(format2: minutes)):\(String(format2: seconds))."
                + String(format3: total % 1000)
        }
    }
}

extension BufferedOutput {
    /// Appends `text` and a line feed.
    fileprivate func write(line text: String) throws(BenchmarkError) {
        try write(text: text)
        try write(byte: 0x0A)
    }

    /// Appends `text`.
    fileprivate func write(text: String) throws(BenchmarkError) {
        var text = text
        var failure: BenchmarkError?
        text.withUTF8 { bytes in
            do throws(BenchmarkError) { try write(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

extension String {
    /// `value` with at least two digits.
    fileprivate init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : "\(value)"
    }

    /// `value` with at least three digits.
    fileprivate init(format3 value: Int) {
        self = value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }
}
