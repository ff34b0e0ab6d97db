import SwiftCovAnalyses
import SwiftCovModel

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
    /// The last line, when the annotation covers a range of lines.
    package var endLine: Int?
    package var title: String
    package var message: String

    package init(
        _ severity: Severity, file: String? = nil, line: Int? = nil, endLine: Int? = nil, title: String,
        message: String
    ) {
        self.severity = severity
        self.file = file
        self.line = line
        self.endLine = endLine
        self.title = title
        self.message = message
    }
}

package enum GitHubAnnotations {
    /// How many annotations of one severity GitHub shows for a step.
    package static let limitPerSeverity = 10

    /// One annotation per failing issue of every failed test (a test with three failed
    /// expectations gets three), crashes and errors first; a failure `judgement` excuses
    /// (quarantined, order-dependent) is a warning that says why.
    package static func failures(
        of run: TestRun, judgement: TestJudgement = TestJudgement()
    ) -> [GitHubAnnotation] {
        var errors: [GitHubAnnotation] = []
        var failures: [GitHubAnnotation] = []
        var excused: [GitHubAnnotation] = []
        // Suite by suite: the run's cases are not copied into one array.
        for suite in run.suites {
            for test in suite.cases where test.status == .failed || test.status == .error {
                let name =
                    test.className == TestRun.swiftTestingSuiteName ? test.name : "\(test.className).\(test.name)"
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
                            title: "Test \(test.status == .error ? "error" : "failed"): \(name)", message: issue.message
                        )
                    }
                if let excuse = judgement.excuse(for: test) {
                    excused += made.map { annotation in
                        var warning = annotation
                        warning.severity = .warning
                        warning.title += " (\(excuse.label): does not fail the gate)"
                        return warning
                    }
                } else if test.status == .error {
                    errors += made
                } else {
                    failures += made
                }
            }
        }
        return errors + failures + excused
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

    /// One annotation per range of lines a change left untested (UNC) or made untested (LBC):
    /// errors for the categories that fail the gate (`failOn`), warnings for the others; UNC
    /// before LBC, then the longest ranges first.
    package static func untestedLines(
        of coverage: DifferentialCoverage, failOn: Set<DifferentialCategory>
    ) -> [GitHubAnnotation] {
        var ranges: [(category: DifferentialCategory, path: String, lines: ClosedRange<UInt32>)] = []
        for category in [DifferentialCategory.UNC, .LBC] {
            for file in coverage.files where !file.lines[category].isEmpty {
                ranges += file.ranges(category).map { (category, file.path, $0) }
            }
        }
        ranges.sort {
            if $0.category != $1.category { return $0.category < $1.category }
            if $0.lines.count != $1.lines.count { return $0.lines.count > $1.lines.count }
            return ($0.path, $0.lines.lowerBound) < ($1.path, $1.lines.lowerBound)
        }
        return ranges.map { range in
            let count = range.lines.count
            let lines = count == 1 ? "this line" : "these \(count) lines"
            let (title, message) =
                range.category == .UNC
                ? ("New code no test runs (UNC)", "The tests run none of \(lines), which this change adds.")
                : ("Lost coverage (LBC)", "The tests ran \(lines) before this change and no longer do.")
            return GitHubAnnotation(
                failOn.contains(range.category) ? .error : .warning, file: range.path,
                line: Int(range.lines.lowerBound), endLine: Int(range.lines.upperBound), title: title, message: message)
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
            if let endLine = annotation.endLine { properties.append(("endLine", String(endLine))) }
            properties.append(("title", annotation.title))
            text += workflowCommand(annotation.severity.rawValue, properties: properties, message: annotation.message)
        }
        return (text, leftOut)
    }

    /// One GitHub workflow command line: `::error file=…,line=…::message`.
    package static func workflowCommand(_ command: String, properties: [(String, String)], message: String) -> String {
        let list = properties.map { $0.0 + "=" + $0.1.githubCommandProperty }.joined(separator: ",")
        return "::" + command + " " + list + "::" + message.githubCommandData + "\n"
    }

    /// The annotations GitHub would not show, as Markdown for the job summary.
    package static func markdown(leftOut: [GitHubAnnotation]) -> String {
        guard !leftOut.isEmpty else { return "" }
        var text = "\n<details><summary>\(leftOut.count) more problem\(leftOut.count == 1 ? "" : "s") "
        text += "(GitHub shows \(limitPerSeverity) annotations of each kind)</summary>\n\n"
        text += "| | Where | What |\n|:--|:--|:--|\n"
        for annotation in leftOut {
            let lines = annotation.line.map { line in
                annotation.endLine.map { $0 > line ? ":\(line)–\($0)" : ":\(line)" } ?? ":\(line)"
            }
            let place = annotation.file.map { $0 + (lines ?? "") } ?? ""
            text +=
                "| \(annotation.severity.rawValue) | \(CoverageMarkdownReport.escape(place)) | "
                + "\(CoverageMarkdownReport.escape(annotation.title + ": " + annotation.message.replacingNewlines)) |\n"
        }
        return text + "\n</details>\n"
    }
}
