import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// JUnit XML as CI systems read it (Jenkins, GitLab, GitHub annotation actions):
/// `testsuites > testsuite > testcase`, one `testsuite` per XCTest class and Swift Testing suite,
/// with `failure`/`error` (message, type, full text), `skipped` (reason) and `system-out`.
/// By default valid against `junit-10-with-file-line.xsd` (`file`/`line` on `testcase`, which
/// GitLab and GitHub annotation actions read); with `strict`, against Jenkins' `junit-10.xsd`.
package enum JUnitReport {
    /// What the XML says beyond the results.
    package struct Options: Sendable {
        /// Leave out the `file` and `line` attributes the Jenkins xUnit schema does not allow.
        package var strict = false
        /// The `hostname` of every suite.
        package var hostname: String
        /// The `timestamp` of suites the log gives no start time for (ISO 8601, no zone).
        package var timestamp: String
        /// The `name` of `testsuites`.
        package var name = "swift test"
        /// The folder the JUnit file is written to: attachments are named relative to it, as
        /// GitLab's `[[ATTACHMENT|path]]` lines are read; nil (standard output) names them as
        /// recorded.
        package var folder: String?

        /// Options for this host and time.
        package init(strict: Bool = false, hostname: String, timestamp: String) {
            self.strict = strict
            self.hostname = hostname
            self.timestamp = timestamp
        }
    }

    /// Renders `run` as a JUnit XML document.
    package static func render(_ run: TestRun, options: Options) -> String {
        var xml = OutputBuffer()
        write(run, options: options, to: &xml)
        return xml.text
    }

    /// Writes `run` as a JUnit XML document into `xml` (which may stream it to a file: a run of
    /// a million tests is never held as text). Written piece by piece, without building a
    /// `String` per test.
    package static func write(_ run: TestRun, options: Options, to xml: inout OutputBuffer) {
        // Each suite counted once, read in place (a suite passed by value is copied: each of its
        // strings counted up and down): the run's totals are theirs added up.
        let suiteTotals = run.suites.withUnsafeBufferPointer { suites in
            suites.indices.map { TestRun.Totals(suites[$0].cases) }
        }
        let totals = suiteTotals.reduce(into: TestRun.Totals()) { $0.add($1) }
        xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"")
        xml.append(escapingXMLAttribute: options.name)
        xml.append("\" tests=\"")
        xml.append(decimal: UInt64(totals.tests))
        xml.append("\" failures=\"")
        xml.append(decimal: UInt64(totals.failed))
        xml.append("\" errors=\"")
        xml.append(decimal: UInt64(totals.errors))
        xml.append("\" time=\"")
        append(seconds: run.duration, to: &xml)
        xml.append("\">\n")
        // The tests' names recur across suites and runs: each escaped once.
        var names = EscapedXMLNames()
        run.suites.withUnsafeBufferPointer { suites in
            guard let first = suites.baseAddress else { return }
            for index in suites.indices {
                write(first + index, counts: suiteTotals[index], options: options, names: &names, to: &xml)
            }
        }
        xml.append("</testsuites>\n")
    }

    private static func write(
        _ suite: UnsafePointer<TestRun.Suite>, counts: TestRun.Totals, options: Options, names: inout EscapedXMLNames,
        to xml: inout OutputBuffer
    ) {
        xml.append("  <testsuite name=\"")
        xml.append(escapingXMLAttribute: suite.pointee.name)
        xml.append("\" tests=\"")
        xml.append(decimal: UInt64(counts.tests))
        xml.append("\" failures=\"")
        xml.append(decimal: UInt64(counts.failed))
        xml.append("\" errors=\"")
        xml.append(decimal: UInt64(counts.errors))
        xml.append("\" skipped=\"")
        xml.append(decimal: UInt64(counts.skipped))
        xml.append("\" time=\"")
        append(seconds: TestRun.Suite.duration(of: suite), to: &xml)
        xml.append("\" timestamp=\"")
        xml.append(escapingXMLAttribute: suite.pointee.timestamp ?? options.timestamp)
        xml.append("\" hostname=\"")
        xml.append(escapingXMLAttribute: options.hostname)
        xml.append("\">\n    <properties>\n      <property name=\"framework\" value=\"")
        xml.append(escapingXMLAttribute: suite.pointee.framework.rawValue)
        xml.append("\"/>\n")
        if let displayName = suite.pointee.displayName {
            xml.append("      <property name=\"displayName\" value=\"")
            xml.append(escapingXMLAttribute: displayName)
            xml.append("\"/>\n")
        }
        xml.append("    </properties>\n")
        // Each case read in place through a pointer (passing the case itself copies it: every
        // string retained and released), its opening tag made once for all that share a class name.
        var opening = CaseOpening()
        suite.pointee.cases.withUnsafeBufferPointer { cases in
            guard let first = cases.baseAddress else { return }
            for index in cases.indices {
                write(first + index, options: options, opening: &opening, names: &names, to: &xml)
            }
        }
        if !suite.pointee.output.isEmpty {
            xml.append("    <system-out>")
            xml.append(escapingXML: suite.pointee.output)
            xml.append("</system-out>\n")
        }
        xml.append("  </testsuite>\n")
    }

    /// `    <testcase classname="…" name="` for the class name of the cases written before: the
    /// cases of a suite share theirs, escaped once.
    private struct CaseOpening {
        /// The class name of the opening in `bytes` (none yet: `bytes` is empty).
        private var className = ""
        private var bytes: [UInt8] = []

        /// Appends the opening for `className`.
        mutating func write(_ className: String, to xml: inout OutputBuffer) {
            // The same string (most often the same storage, compared at once) as the case before.
            if bytes.isEmpty || className != self.className {
                var opening = OutputBuffer()
                opening.append("    <testcase classname=\"")
                opening.append(escapingXMLAttribute: className)
                opening.append("\" name=\"")
                bytes = opening.withBytes { Array($0) }
                self.className = className
            }
            bytes.withUnsafeBufferPointer { xml.append(bytes: $0) }
        }
    }

    private static func write(
        _ testCase: UnsafePointer<TestRun.Case>, options: borrowing Options, opening: inout CaseOpening,
        names: inout EscapedXMLNames, to xml: inout OutputBuffer
    ) {
        opening.write(testCase.pointee.className, to: &xml)
        // Most cases are bare (no arguments, place, output, issues or earlier runs): told in
        // place, and their stored names read in place.
        let isBare = TestRun.Case.isBare(testCase)
        let arguments = isBare ? nil : testCase.pointee.arguments
        if let arguments, !hasESC(testCase.pointee.testName), !hasESC(arguments) {
            // `Case.name`, written in pieces: escaping goes character by character (but for
            // ANSI codes, removed from the whole text).
            names.append(testCase.pointee.testName, to: &xml)
            xml.append(" (")
            names.append(arguments, to: &xml)
            xml.append(")")
        } else if arguments == nil {
            names.append(testCase.pointee.testName, to: &xml)
        } else {
            xml.append(escapingXMLAttribute: testCase.pointee.name)
        }
        xml.append("\"")
        if let duration = testCase.pointee.duration {
            xml.append(" time=\"")
            append(seconds: duration, to: &xml)
            xml.append("\"")
        }
        if case .passed = testCase.pointee.status, TestRun.Case.showsOnlyItsName(testCase) {
            // Most tests (and most cases of a parameterized one): nothing more to write.
            xml.append("/>\n")
            return
        }
        // The rest read from one copy (each property read through the pointer copies the case).
        let testCase = testCase.pointee
        if !options.strict, let location = testCase.primaryLocation {
            xml.append(" file=\"")
            xml.append(escapingXMLAttribute: location.file)
            xml.append("\" line=\"")
            xml += "\(location.line)"
            xml.append("\"")
        }
        var output = testCase.output
        for issue in testCase.issues where !issue.isFailing {
            output.appendLines((issue.kind == .warning ? "warning: " : "known issue: ") + describe(issue))
        }
        // Each attached file as GitLab shows it on the test (a screenshot inline).
        for attachment in testCase.attachments {
            let path = options.folder.map { CoverageScope.path(attachment.path, relativeTo: $0) } ?? attachment.path
            output.appendLines("[[ATTACHMENT|" + path + "]]")
        }
        if testCase.status == .passed && output.isEmpty && testCase.attempts.isEmpty {
            xml.append("/>\n")
            return
        }
        xml.append(">\n")
        // Runs that failed, as Maven Surefire writes reruns: the first failing run in
        // `failure`/`error` and the later ones in `rerunFailure`/`rerunError` when the test failed
        // in the end; each in `flakyFailure`/`flakyError` when it passed in the end.
        var failedRuns = testCase.attempts.filter { $0.status == .failed || $0.status == .error }
        switch testCase.status {
        case .failed, .error:
            failedRuns.append(
                TestRun.Case.Attempt(
                    status: testCase.status, issues: testCase.issues,
                    duration: testCase.duration))
            let first = failure(failedRuns[0])
            // Named after the first failed run, as Surefire does: its later runs name their own.
            let element: StaticString = failedRuns[0].status == .error ? "error" : "failure"
            xml.append("      <")
            xml.append(element)
            xml.append(" message=\"")
            xml.append(escapingXMLAttribute: first.message)
            xml += "\" type=\"\(first.type)\">"
            xml.append(escapingXML: first.text)
            xml.append("</")
            xml.append(element)
            xml.append(">\n")
            for run in failedRuns.dropFirst() {
                write(rerun: run, element: run.status == .error ? "rerunError" : "rerunFailure", to: &xml)
            }
        case .skipped:
            if let reason = testCase.skipReason {
                xml.append("      <skipped message=\"")
                xml.append(escapingXMLAttribute: reason)
                xml.append("\"/>\n")
            } else {
                xml.append("      <skipped/>\n")
            }
        case .passed:
            for run in failedRuns {
                write(rerun: run, element: run.status == .error ? "flakyError" : "flakyFailure", to: &xml)
            }
        }
        if !output.isEmpty {
            xml.append("      <system-out>")
            xml.append(escapingXML: output)
            xml.append("</system-out>\n")
        }
        xml.append("    </testcase>\n")
    }

    /// What a failed run's element says: the first line of its first failing issue (an error's
    /// first), the type (`failure`, `error` or `crash`), and every failing issue with its place.
    private static func failure(_ run: TestRun.Case.Attempt) -> (message: String, type: String, text: String) {
        let failing = run.issues.filter(\.isFailing)
        let first = failing.first { $0.kind != .failure } ?? failing.first
        let type = run.status == .error ? (first?.kind == .crash ? "crash" : "error") : "failure"
        // Every issue with where it happened: CI shows this text; the attributes keep one line.
        return (first.map { firstLine($0.message) } ?? "", type, failing.map(describe).joined(separator: "\n"))
    }

    /// An earlier run as Surefire's `rerunType`: message, type and the text in `stackTrace`.
    private static func write(rerun run: TestRun.Case.Attempt, element: StaticString, to xml: inout OutputBuffer) {
        let content = failure(run)
        xml.append("      <")
        xml.append(element)
        xml.append(" message=\"")
        xml.append(escapingXMLAttribute: content.message)
        xml += "\" type=\"\(content.type)\">"
        if !content.text.isEmpty {
            xml.append("<stackTrace>")
            xml.append(escapingXML: content.text)
            xml.append("</stackTrace>")
        }
        xml.append("</")
        xml.append(element)
        xml.append(">\n")
    }

    /// Whether the text holds an ESC byte (the start of an ANSI code).
    private static func hasESC(_ text: String) -> Bool {
        // The string's own bytes, read in place (no copy of it made).
        let found = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard let base = utf8.baseAddress else { return false }
            return memchr(base, 0x1B, utf8.count) != nil
        }
        return found ?? text.utf8.contains(0x1B)
    }

    /// `file:line: message`, or the message alone when the location is not known.
    static func describe(_ issue: TestRun.Issue) -> String {
        guard let location = issue.location else { return issue.message }
        return "\(location.file):\(location.line): \(issue.message)"
    }

    /// The text up to its first line break (LF or CR), read as bytes.
    private static func firstLine(_ text: String) -> String {
        guard let end = text.utf8.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return String(decoding: text.utf8[..<end], as: UTF8.self)
    }

    /// The folder beside a JUnit file its copied attachments go in: `junit.xml` →
    /// `junit-attachments`.
    package static func attachmentsFolder(for output: String) -> String {
        var name = output.split(separator: "/").last.map(String.init) ?? output
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return name + "-attachments"
    }

    /// Seconds with at most three decimals ("0.062"), as JUnit readers parse them.
    package static func seconds(_ value: Double) -> String {
        var text = OutputBuffer()
        append(seconds: value, to: &text)
        return text.text
    }

    /// Appends `seconds(value)`.
    static func append(seconds value: Double, to xml: inout OutputBuffer) {
        // Up to a thousand years; anything else (a corrupt duration) is shown as 0.
        let milliseconds = value.isFinite && value > 0 && value < 3.2e13 ? UInt64((value * 1000).rounded()) : 0
        // Always three decimals.
        xml.append(thousandths: milliseconds)
    }
}
