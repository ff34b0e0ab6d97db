import SwiftCovModel

extension TestRun {
    /// Keeps each test's failure text (its issues, its earlier attempts' and its skip reason) and
    /// its output, and each suite's output, within the log reader's limits per test
    /// (`TextBudget`: `TestLogParser.outputLineLimit` lines, `outputByteLimit` bytes), saying
    /// after the last kept issue how much was left out. For readers of inputs that hold their
    /// texts apart from the log (Xcode's result bundles, whose objects may repeat one text from
    /// thousands of places): what is written from them is then as bounded as from a log.
    /// Statuses are never changed: a failure whose text is left out still fails.
    package mutating func boundText() {
        for suite in suites.indices {
            suites[suite].output = Self.bounded(output: suites[suite].output)
            for index in suites[suite].cases.indices where !suites[suite].cases[index].isBare {
                suites[suite].cases[index].boundText()
            }
        }
    }

    /// `output` within one test's limits, with the log reader's note when some was left out.
    static func bounded(output: String) -> String {
        guard !output.isEmpty else { return output }
        var budget = TextBudget()
        var kept = budget.admit(output)
        kept += budget.endElement()
        if budget.isExhausted { kept.appendLines(TextBudget.outputLeftOut) }
        return kept
    }
}

extension TestRun.Case {
    /// See `TestRun.boundText`: one budget for the test's failure texts, its last run's first.
    mutating func boundText() {
        var budget = TextBudget()
        var keptIssues = 0
        func admit(_ issues: [TestRun.Issue]) -> [TestRun.Issue] {
            var kept: [TestRun.Issue] = []
            for var issue in issues {
                guard keptIssues < budget.lineLimit, !budget.isExhausted else {
                    budget.leaveOutLine()
                    _ = budget.admit(issue.message)
                    continue
                }
                issue.message = budget.admit(issue.message) + budget.endElement()
                kept.append(issue)
                keptIssues += 1
            }
            return kept
        }
        issues = admit(issues)
        if let reason = skipReason { skipReason = budget.admit(reason) + budget.endElement() }
        if !attempts.isEmpty {
            attempts = attempts.map { attempt in
                var attempt = attempt
                attempt.issues = admit(attempt.issues)
                return attempt
            }
        }
        if budget.isExhausted {
            let note = budget.leftOutNote(of: "failure text")
            if let last = issues.indices.last {
                issues[last].message.appendLines(note)
            } else if skipReason != nil {
                skipReason!.appendLines(note)
            } else {
                issues.append(TestRun.Issue(kind: .warning, message: note))
            }
        }
        if !output.isEmpty { output = TestRun.bounded(output: output) }
    }
}
