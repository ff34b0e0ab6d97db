import Foundation
import SwiftCovCore
import Testing
import swiftcov_benchmark

/// The generated `swift test` log: about the size asked for, and its own summary lines agree with
/// the lines it holds, counted here with plain text matching.
@Suite("Generating a large swift test log")
struct LogGeneratorTests {
    static func generate(size: Int) throws -> (text: String, summary: LogGenerator.Summary) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftcov-\(UUID().uuidString).log")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let summary = try LogGenerator(targetSize: size).write(to: path)
        return (try String(contentsOfFile: path, encoding: .utf8), summary)
    }

    @Test("the summary lines state what the log holds", arguments: [60_000, 400_000])
    func consistent(size: Int) throws {
        let (text, summary) = try Self.generate(size: size)
        #expect(text.utf8.count == summary.bytes)
        #expect(abs(summary.bytes - size) < 2_000)
        let lines = text.split(separator: "\n")
        let started = lines.filter { $0.hasPrefix("Test Case '") && $0.contains("' started at ") }.count
        let failed = lines.filter {
            $0.hasPrefix("Test Case '") && $0.hasSuffix(" seconds)") && $0.contains("' failed (")
        }
        let skipped = lines.filter { $0.hasPrefix("Test Case '") && $0.contains("' skipped (") }
        let classes = Set(lines.filter { $0.hasPrefix("Test Suite 'Generated") }.map { $0.split(separator: "'")[1] })
        #expect(started == summary.xctestTests)
        #expect(failed.count == summary.xctestFailures)
        #expect(skipped.count == summary.xctestSkipped)
        #expect(classes.count == summary.xctestClasses)
        #expect(summary.xctestFailures > 0 && summary.xctestSkipped > 0)
        let executed =
            "\t Executed \(started) tests, with \(skipped.count) tests skipped and \(failed.count) failures (0 unexpected)"
        #expect(lines.filter { $0.hasPrefix(executed) }.count == 2)
        let swiftTests = lines.filter {
            $0.hasPrefix("◇ Test ") && $0.hasSuffix(" started.") && !$0.hasPrefix("◇ Test case ")
                && $0 != "◇ Test run started."
        }
        let issues = lines.filter { $0.hasPrefix("✘ Test ") && $0.contains(" recorded an issue ") }
        #expect(swiftTests.count == summary.swiftTestingTests)
        #expect(issues.count == summary.swiftTestingIssues)
        let suites = LogGenerator(targetSize: size).swiftTestingSuites
        #expect(
            lines.last
                == "✘ Test run with \(swiftTests.count) tests in \(suites) suites failed after 1.250 seconds with \(issues.count) issue\(issues.count == 1 ? "" : "s")."
        )
    }

    @Test("swiftcov reads the counts the log states")
    func readable() throws {
        let (text, summary) = try Self.generate(size: 200_000)
        var parser = TestLogParser()
        for line in text.split(separator: "\n") { parser.consume(line: String(line)) }
        let run = parser.finish()
        #expect(run.isComplete)
        let xctest = run.suites.filter { $0.framework == .xctest }.flatMap(\.cases)
        #expect(xctest.count == summary.xctestTests)
        #expect(xctest.filter { $0.status == .failed }.count == summary.xctestFailures)
        #expect(xctest.filter { $0.status == .skipped }.count == summary.xctestSkipped)
    }

    @Test("the same size gives the same bytes")
    func deterministic() throws {
        #expect(try Self.generate(size: 30_000).text == Self.generate(size: 30_000).text)
    }
}
