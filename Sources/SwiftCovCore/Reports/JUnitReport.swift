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
    /// a million tests is never held as text).
    package static func write(_ run: TestRun, options: Options, to xml: inout OutputBuffer) {
        let totals = run.totals
        xml += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(options.name.xmlAttributeEscaped)\" tests=\"\(totals.tests)\""
        xml += " failures=\"\(totals.failed)\" errors=\"\(totals.errors)\" time=\"\(seconds(run.duration))\">\n"
        for suite in run.suites {
            let counts = suite.totals
            xml += "  <testsuite name=\"\(suite.name.xmlAttributeEscaped)\" tests=\"\(counts.tests)\""
            xml += " failures=\"\(counts.failed)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\""
            xml += " time=\"\(seconds(suite.duration))\""
            xml += " timestamp=\"\((suite.timestamp ?? options.timestamp).xmlAttributeEscaped)\""
            xml += " hostname=\"\(options.hostname.xmlAttributeEscaped)\">\n"
            var properties = [("framework", suite.framework.rawValue)]
            if let displayName = suite.displayName { properties.append(("displayName", displayName)) }
            xml += "    <properties>\n"
            for (name, value) in properties {
                xml += "      <property name=\"\(name)\" value=\"\(value.xmlAttributeEscaped)\"/>\n"
            }
            xml += "    </properties>\n"
            for testCase in suite.cases { write(testCase, strict: options.strict, to: &xml) }
            if !suite.output.isEmpty {
                xml += "    <system-out>\(suite.output.xmlEscaped)</system-out>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
    }

    private static func write(_ testCase: TestRun.Case, strict: Bool, to xml: inout OutputBuffer) {
        xml +=
            "    <testcase classname=\"\(testCase.className.xmlAttributeEscaped)\" name=\"\(testCase.name.xmlAttributeEscaped)\""
        if let duration = testCase.duration { xml += " time=\"\(seconds(duration))\"" }
        if !strict, let location = testCase.primaryLocation {
            xml += " file=\"\(location.file.xmlAttributeEscaped)\" line=\"\(location.line)\""
        }
        var body = ""
        switch testCase.status {
        case .failed, .error:
            let failing = testCase.failingIssues
            let element = testCase.status == .error ? "error" : "failure"
            let first = failing.first { $0.kind != .failure } ?? failing.first
            let type = testCase.status == .error ? (first?.kind == .crash ? "crash" : "error") : "failure"
            let message = first.map { firstLine($0.message) } ?? ""
            // Every issue with where it happened: CI shows this text; the attributes keep one line.
            let text = failing.map(describe).joined(separator: "\n")
            body +=
                "      <\(element) message=\"\(message.xmlAttributeEscaped)\" type=\"\(type)\">\(text.xmlEscaped)</\(element)>\n"
        case .skipped:
            if let reason = testCase.skipReason {
                body += "      <skipped message=\"\(reason.xmlAttributeEscaped)\"/>\n"
            } else {
                body += "      <skipped/>\n"
            }
        case .passed:
            break
        }
        var output = testCase.output
        for issue in testCase.issues where !issue.isFailing {
            output.appendLines((issue.kind == .warning ? "warning: " : "known issue: ") + describe(issue))
        }
        if !output.isEmpty {
            body += "      <system-out>\(output.xmlEscaped)</system-out>\n"
        }
        xml += body.isEmpty ? "/>\n" : ">\n" + body + "    </testcase>\n"
    }

    /// `file:line: message`, or the message alone when the location is not known.
    static func describe(_ issue: TestRun.Issue) -> String {
        guard let location = issue.location else { return issue.message }
        return "\(location.file):\(location.line): \(issue.message)"
    }

    private static func firstLine(_ text: String) -> String {
        String(text.prefix { $0 != "\n" && $0 != "\r" })
    }

    /// Seconds with at most three decimals ("0.062"), as JUnit readers parse them.
    package static func seconds(_ value: Double) -> String {
        // Up to a thousand years; anything else (a corrupt duration) is shown as 0.
        let milliseconds = value.isFinite && value > 0 && value < 3.2e13 ? Int((value * 1000).rounded()) : 0
        let fraction = milliseconds % 1000
        return "\(milliseconds / 1000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
    }
}
