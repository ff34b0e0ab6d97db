/// GitHub Actions annotations (`::error file=…,line=…::message` workflow commands): what
/// failed, attached to the lines of the pull request. GitHub shows at most 10 error and 10
/// warning annotations of a step (and 50 of a job), so they are ordered most important first
/// (crashes and failed tests, then coverage rules, then warnings) and whatever does not fit is
/// listed in the job summary instead of being lost.
package struct GitHubAnnotation: Equatable, Sendable {
    package enum Severity: String, Sendable, Comparable {
        case error, warning, notice

        package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.order < rhs.order }
        private var order: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .notice: 2
            }
        }
    }

    package var severity: Severity
    /// The file, relative to the package root.
    package var file: String?
    package var line: Int?
    package var title: String
    package var message: String

    package init(_ severity: Severity, file: String? = nil, line: Int? = nil, title: String, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.title = title
        self.message = message
    }
}

package enum GitHubAnnotations {
    /// How many annotations of one severity GitHub shows for a step.
    package static let limitPerSeverity = 10

    /// One annotation per failing issue of every failed test (a test with three failed
    /// expectations gets three), crashes and errors first.
    package static func failures(of run: TestRun) -> [GitHubAnnotation] {
        var errors: [GitHubAnnotation] = []
        var failures: [GitHubAnnotation] = []
        for test in run.cases where test.status == .failed || test.status == .error {
            let name =
                test.className == TestLogParser.swiftTestingSuiteName ? test.name : "\(test.className).\(test.name)"
            let issues = test.failingIssues
            let made =
                issues.isEmpty
                ? [
                    GitHubAnnotation(
                        .error, file: test.primaryLocation?.file, line: test.primaryLocation?.line,
                        title: "Test \(test.status.rawValue): \(name)", message: test.status.rawValue)
                ]
                : issues.map { issue in
                    GitHubAnnotation(
                        .error, file: issue.location?.file ?? test.location?.file,
                        line: issue.location?.line ?? test.location?.line,
                        title: "Test \(test.status == .error ? "error" : "failed"): \(name)", message: issue.message)
                }
            if test.status == .error { errors += made } else { failures += made }
        }
        return errors + failures
    }

    /// One annotation per failed rule of the gate that is not a test (tests are annotated from
    /// the run, with every issue).
    package static func failures(of result: GateResult) -> [GitHubAnnotation] {
        result.failures.filter { $0.level != .tests }.map { failure in
            GitHubAnnotation(
                .error, file: failure.file, line: failure.line,
                title: "Coverage \(failure.level.rawValue) \(failure.name)", message: failure.detail)
        }
    }

    /// The workflow commands for `annotations`, in order of severity (stable within one), at
    /// most `limitPerSeverity` of each; and the ones left out. `pathPrefix` turns a path relative
    /// to the package root into one relative to the repository (`GITHUB_WORKSPACE`), which is
    /// what GitHub attaches annotations by: "" when the package is the repository.
    package static func commands(
        _ annotations: [GitHubAnnotation], pathPrefix: String = ""
    ) -> (commands: String, leftOut: [GitHubAnnotation]) {
        var text = ""
        var leftOut: [GitHubAnnotation] = []
        var shown: [GitHubAnnotation.Severity: Int] = [:]
        let ordered = annotations.enumerated().sorted {
            $0.element.severity != $1.element.severity
                ? $0.element.severity < $1.element.severity : $0.offset < $1.offset
        }.map(\.element)
        for annotation in ordered {
            guard shown[annotation.severity, default: 0] < limitPerSeverity else {
                leftOut.append(annotation)
                continue
            }
            shown[annotation.severity, default: 0] += 1
            var properties: [(String, String)] = []
            if let file = annotation.file {
                properties.append(("file", file.hasPrefix("/") ? file : pathPrefix + file))
            }
            if let line = annotation.line { properties.append(("line", String(line))) }
            properties.append(("title", annotation.title))
            text += workflowCommand(annotation.severity.rawValue, properties: properties, message: annotation.message)
        }
        return (text, leftOut)
    }

    /// One GitHub workflow command line: `::error file=…,line=…::message`.
    package static func workflowCommand(_ command: String, properties: [(String, String)], message: String) -> String {
        let list = properties.map { $0.0 + "=" + escapeProperty($0.1) }.joined(separator: ",")
        return "::" + command + " " + list + "::" + escapeData(message) + "\n"
    }

    /// The annotations GitHub would not show, as Markdown for the job summary.
    package static func markdown(leftOut: [GitHubAnnotation]) -> String {
        guard !leftOut.isEmpty else { return "" }
        var text = "\n<details><summary>\(leftOut.count) more problem\(leftOut.count == 1 ? "" : "s") "
        text += "(GitHub shows \(limitPerSeverity) annotations of each kind)</summary>\n\n"
        text += "| | Where | What |\n|:--|:--|:--|\n"
        for annotation in leftOut {
            let place = annotation.file.map { $0 + (annotation.line.map { ":\($0)" } ?? "") } ?? ""
            text +=
                "| \(annotation.severity.rawValue) | \(CoverageMarkdownReport.escape(place)) | "
                + "\(CoverageMarkdownReport.escape(annotation.title + ": " + annotation.message.replacingNewlines)) |\n"
        }
        return text + "\n</details>\n"
    }

    // GitHub's workflow commands escape `%`, CR and LF in messages, and also `:` and `,` in properties.
    private static func escapeData(_ text: String) -> String {
        text.strippingANSIEscapes.replacingOccurrences("%", "%25").replacingOccurrences("\r", "%0D")
            .replacingOccurrences("\n", "%0A")
    }

    private static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(":", "%3A").replacingOccurrences(",", "%2C")
    }
}
