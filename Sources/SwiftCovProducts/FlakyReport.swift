import SwiftCovAnalyses
import SwiftCovFormats
import SwiftCovModel

/// `swiftcov flaky`'s verdicts as a terminal table, JSON and Markdown (a pull-request comment):
/// a headline on the newest run's failures ("3 failures: 2 known flaky, 1 new"), then each test
/// with its verdict and its evidence.
package enum FlakyReport {
    /// The headline: the newest run's failures by what the history knows of them.
    package static func headline(_ analysis: FlakyVerdicts.Analysis) -> String {
        // The newest run is described, even when it says nothing about single tests.
        if let leftOut = analysis.newestLeftOut {
            let considered = "\(analysis.runs) \(plural(analysis.runs, "run")) considered"
            switch leftOut.reason {
            case .everythingFailed(let failed, let tests):
                return
                    "Everything failed in the newest run, \(leftOut.run.id) (\(failed) of \(tests) tests): a build, "
                    + "machine or change that breaks every test; left out of the verdicts (\(considered))."
            case .buildFailed:
                return
                    "The build failed in the newest run, \(leftOut.run.id): no test ran; left out of the verdicts "
                    + "(\(considered))."
            case .didNotEnd:
                return
                    "The newest run, \(leftOut.run.id), did not end (a crash, a cut log or a build failure): left out of "
                    + "the verdicts (\(considered))."
            }
        }
        guard analysis.runs > 0 else { return "No runs to judge yet." }
        let failures = analysis.newestFailures
        guard !failures.isEmpty else {
            return "The newest run had no failures (\(analysis.runs) \(plural(analysis.runs, "run")) considered)."
        }
        let verdicts = Dictionary(
            analysis.findings.map { ($0.test, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        var flaky = 0
        var broken = 0
        var orderDependent = 0
        for test in failures {
            switch verdicts[test] {
            case .flaky?, .flakyStatistically?: flaky += 1
            case .broken?, .brokenIn?: broken += 1
            case .orderDependent?: orderDependent += 1
            case .maybeOrderDependent?, .healed?, nil: break
            }
        }
        let likelyFlaky = analysis.newFailures.filter { if case .ranNone? = $0.coverage { true } else { false } }.count
        let maybe = failures.filter { if case .maybeOrderDependent? = verdicts[$0] { true } else { false } }.count
        let new = failures.count - flaky - broken - orderDependent - maybe - likelyFlaky
        var parts: [String] = []
        if flaky > 0 { parts.append("\(flaky) known flaky") }
        if broken > 0 { parts.append("\(broken) broken") }
        if orderDependent > 0 { parts.append("\(orderDependent) order-dependent") }
        if maybe > 0 { parts.append("\(maybe) maybe order-dependent") }
        if likelyFlaky > 0 { parts.append("\(likelyFlaky) likely flaky (ran no changed line)") }
        if new > 0 { parts.append("\(new) new") }
        return "\(failures.count) \(plural(failures.count, "failure")): " + parts.joined(separator: ", ")
    }

    /// The evidence of a verdict, in one line.
    package static func evidence(_ verdict: FlakyVerdicts.Verdict) -> String {
        switch verdict {
        case .flaky(let failed, let passed):
            if failed.id == passed.id {
                return "failed, then passed on retry, in run \(failed.id) (\(short(failed.commit)))"
            }
            return "failed in run \(failed.id) and passed in run \(passed.id), same code (\(short(failed.commit)))"
        case .flakyStatistically(let branch, let runs, let failures, let flips, let interval):
            let where_ = branch.isEmpty ? "" : " on \(branch)"
            return
                "\(failures) of \(runs) runs failed\(where_), \(flips) flips; failure rate \(percent(Double(failures) / Double(runs))) "
                + "(95% interval \(percent(interval.lowerBound))–\(percent(interval.upperBound)))"
        case .orderDependent(let alone, let inSuite, let runs):
            return
                "\(alone.rawValue) alone in every run alone (\(runs.map(\.id).joined(separator: ", "))), "
                + "\(inSuite.rawValue) in every run of the whole suite, on one tree; never both in one kind of run"
        case .maybeOrderDependent(let alone, let inSuite, let run):
            return
                "\(alone.rawValue) alone, \(inSuite.rawValue) in the whole suite (run \(run.id)), too few times to rule "
                + "out chance: order-dependent once it does so in \(FlakyVerdicts.orderDependenceRuns) runs of each kind"
        case .broken(let since, let runs):
            return
                "failed every attempt of the last \(runs) \(plural(runs, "run")), since \(short(since.commit)) (run \(since.id))"
        case .brokenIn(let environment, let since, let runs, let passed):
            return
                "failed every attempt of all \(runs) \(plural(runs, "run")) in \(environment), since \(short(since.commit)) "
                + "(run \(since.id)); passed all \(passed) \(plural(passed, "run")) in other environments: not flaky"
        case .healed(let lastFailure, let passes):
            return "passed \(passes) runs in a row since its last failure (run \(lastFailure.id))"
        }
    }

    /// The evidence of a finding: its verdict's, and the observations it rests on.
    package static func evidence(_ finding: FlakyVerdicts.Finding) -> String {
        var text = evidence(finding.verdict)
        if let dependence = dependence(finding), let role = dependence.role, let run = finding.dependsOn?.run {
            text += "; in run \(run.id) it \(dependence.summary): \(role)"
        }
        return text + "; " + tally(finding.tally)
    }

    /// An order-dependent finding's dependence on the test `run --per-test` found, as the run
    /// said it ("fails alone (4 of 4 runs), passes after M.C/testA (2 of 2)").
    static func dependence(_ finding: FlakyVerdicts.Finding) -> OrderDependence? {
        guard let found = finding.dependsOn, case .orderDependent(let alone, let inSuite, _) = finding.verdict else {
            return nil
        }
        return OrderDependence(
            id: finding.test, alone: alone, inSuite: inSuite, aloneRuns: found.aloneRuns,
            aloneAgreeing: found.aloneAgreeing,
            cause: OrderDependence.Cause(id: found.test, runs: found.runs, agreeing: found.agreeing))
    }

    /// "seen in 17 runs: suite 9 passed, 8 failed; alone 1 failed".
    package static func tally(_ tally: FlakyVerdicts.Tally) -> String {
        func kind(_ name: String, _ passed: Int, _ failed: Int) -> String? {
            var counts: [String] = []
            if passed > 0 { counts.append("\(passed) passed") }
            if failed > 0 { counts.append("\(failed) failed") }
            return counts.isEmpty ? nil : name + " " + counts.joined(separator: ", ")
        }
        let kinds = [
            kind("suite", tally.suitePassed, tally.suiteFailed), kind("alone", tally.alonePassed, tally.aloneFailed),
        ].compactMap { $0 }
        return kinds.isEmpty ? "no runs" : "runs: " + kinds.joined(separator: "; ")
    }

    // MARK: Table

    /// The verdicts as a table for a terminal.
    package static func table(_ analysis: FlakyVerdicts.Analysis) -> String {
        var text = headline(analysis).terminalSafe + "\n"
        if !analysis.findings.isEmpty || !analysis.newFailures.isEmpty {
            var table = TextTable(columns: [.init("Test", .left), .init("Verdict", .left), .init("Evidence", .left)])
            for finding in analysis.findings {
                table.add([
                    .init(finding.test.terminalSafe), .init(finding.name.terminalSafe),
                    .init(evidence(finding).terminalSafe),
                ])
            }
            for failure in analysis.newFailures {
                let (verdict, text) = evidence(failure)
                table.add([.init(failure.test.terminalSafe), .init(verdict), .init(text.terminalSafe)])
            }
            text += "\n" + table.render()
        }
        text += quarantineSection(analysis, markdown: false)
        text += footer(analysis).terminalSafeKeepingLines
        return text
    }

    /// What the change's coverage says of a new failure, in one line.
    package static func evidence(_ failure: FlakyVerdicts.NewFailure) -> (verdict: String, evidence: String) {
        switch failure.coverage {
        case .ranNone(let changed, let total)?:
            let more = total > changed.count ? ", …" : ""
            return (
                "likely flaky (coverage)",
                "ran none of the \(total) changed \(plural(total, "line")) (\(changed.joined(separator: ", "))\(more))"
            )
        case .ran(let lines, let total)?:
            let more = total > lines.count ? ", …" : ""
            return (
                "new failure", "ran \(total) changed \(plural(total, "line")) (\(lines.joined(separator: ", "))\(more))"
            )
        case .notRecorded?:
            return ("new failure", "not in the per-test data: cannot tell by coverage")
        case nil:
            return ("new failure", "cannot tell flaky from broken yet: give per-test data and the change")
        }
    }

    /// What the history says of a quarantined test, in one line.
    package static func quarantineLine(_ quarantined: FlakyVerdicts.QuarantineState) -> String {
        switch quarantined.state {
        case .release(let runs):
            return "\(quarantined.id): passed its last \(runs) runs: release it from the quarantine"
        case .broken(let since, let runs):
            return
                "\(quarantined.id): broken, not flaky (failed every attempt of the last \(runs) runs, since "
                + "\(short(since.commit))): the quarantine hides a real failure"
        case .stays(let verdict):
            return "\(quarantined.id): stays quarantined" + (verdict.map { " (\($0))" } ?? "")
        case .notInHistory:
            return "\(quarantined.id): no run of the history has it"
        }
    }

    private static func quarantineSection(_ analysis: FlakyVerdicts.Analysis, markdown: Bool) -> String {
        guard !analysis.quarantine.isEmpty else { return "" }
        var text = markdown ? "\n**Quarantine**\n\n" : "\nQuarantine:\n"
        for quarantined in analysis.quarantine {
            let line = quarantineLine(quarantined)
            text += markdown ? "- \(cell(line))\n" : "  \(line.terminalSafe)\n"
        }
        return text
    }

    private static func footer(_ analysis: FlakyVerdicts.Analysis) -> String {
        var text = "\n\(analysis.runs) \(plural(analysis.runs, "run")) considered"
        let named = Set(analysis.everythingFailed.map(\.id) + analysis.buildFailed.map(\.id))
        let didNotEnd = analysis.excluded.filter { !named.contains($0.id) }
        if !analysis.buildFailed.isEmpty {
            text += "; left out, the build failed: " + analysis.buildFailed.map(\.id).joined(separator: ", ")
        }
        if !didNotEnd.isEmpty {
            text +=
                "; left out as infrastructure failures (the run did not end): "
                + didNotEnd.map(\.id).joined(separator: ", ")
        }
        if !analysis.everythingFailed.isEmpty {
            text +=
                "; left out, everything failed (more than 80% of the tests at once): "
                + analysis.everythingFailed.map(\.id).joined(separator: ", ")
        }
        text += ".\n"
        if analysis.runsWithoutTree > 0 {
            text +=
                "\(analysis.runsWithoutTree) of them \(analysis.runsWithoutTree == 1 ? "has" : "have") no commit (outside "
                + "git, no --commit): with no known code, a pass and a failure in two such runs prove nothing (the code "
                + "may have changed), so their tests are judged statistically only, and proven flaky only by a pass on "
                + "retry.\n"
        }
        return text
    }

    // MARK: Markdown

    /// The verdicts as GitHub-flavoured Markdown, for a job summary or a pull-request comment.
    package static func markdown(_ analysis: FlakyVerdicts.Analysis) -> String {
        var text = "### \(cell(headline(analysis)))\n\n"
        if !analysis.findings.isEmpty || !analysis.newFailures.isEmpty {
            text += "| Test | Verdict | Evidence |\n|:--|:--|:--|\n"
            for finding in analysis.findings {
                let marker = finding.failedLast ? " ❌" : ""
                text += "| \(cell(finding.test))\(marker) | \(cell(finding.name)) | \(cell(evidence(finding))) |\n"
            }
            for failure in analysis.newFailures {
                let (verdict, evidence) = evidence(failure)
                text += "| \(cell(failure.test)) ❌ | \(verdict) | \(cell(evidence)) |\n"
            }
        }
        text += quarantineSection(analysis, markdown: true)
        text += "\n" + footer(analysis).split(separator: "\n").map { cell(String($0)) + "\n" }.joined()
        return text
    }

    private static func cell(_ text: String) -> String { CoverageMarkdownReport.escape(text.strippingANSIEscapes) }

    // MARK: JSON

    /// The verdicts as JSON: `{"runs", "excluded", "everythingFailed", "runsWithoutTree",
    /// "newestFailures", "headline", "tests": [{"test", "verdict", "failedLast", "evidence",
    /// "observations", …the verdict's numbers and runs}]}`.
    package static func json(_ analysis: FlakyVerdicts.Analysis) -> String {
        var writer = JSONWriter()
        writer.beginObject(.block)
        writer.member("runs", analysis.runs)
        writer.key("excluded")
        writer.beginArray()
        for run in analysis.excluded { write(run, to: &writer) }
        writer.endArray()
        writer.key("everythingFailed")
        writer.beginArray()
        for run in analysis.everythingFailed { write(run, to: &writer) }
        writer.endArray()
        writer.key("buildFailed")
        writer.beginArray()
        for run in analysis.buildFailed { write(run, to: &writer) }
        writer.endArray()
        writer.member("runsWithoutTree", analysis.runsWithoutTree)
        writer.key("newestFailures")
        writer.beginArray()
        for test in analysis.newestFailures { writer.string(test) }
        writer.endArray()
        writer.member("headline", headline(analysis))
        if !analysis.quarantine.isEmpty {
            writer.key("quarantine")
            writer.beginArray(.block)
            for quarantined in analysis.quarantine {
                writer.beginObject()
                writer.member("id", quarantined.id)
                let state: String
                switch quarantined.state {
                case .release: state = "release"
                case .broken: state = "broken"
                case .stays: state = "stays"
                case .notInHistory: state = "not in history"
                }
                writer.member("state", state)
                writer.member("evidence", quarantineLine(quarantined))
                writer.endObject()
            }
            writer.endArray()
        }
        writer.key("tests")
        writer.beginArray(.block)
        for finding in analysis.findings {
            writer.beginObject()
            writer.member("test", finding.test)
            writer.member("verdict", finding.name)
            writer.key("failedLast")
            writer.bool(finding.failedLast)
            writer.member("evidence", evidence(finding))
            writer.key("observations")
            writer.beginObject()
            writer.member("suitePassed", finding.tally.suitePassed)
            writer.member("suiteFailed", finding.tally.suiteFailed)
            writer.member("alonePassed", finding.tally.alonePassed)
            writer.member("aloneFailed", finding.tally.aloneFailed)
            writer.endObject()
            switch finding.verdict {
            case .flaky(let failed, let passed):
                writer.key("failedIn")
                write(failed, to: &writer)
                writer.key("passedIn")
                write(passed, to: &writer)
            case .flakyStatistically(let branch, let runs, let failures, let flips, let interval):
                writer.member("branch", branch)
                writer.member("runs", runs)
                writer.member("failures", failures)
                writer.member("flips", flips)
                writer.key("failureRateInterval")
                writer.beginArray()
                writer.number(interval.lowerBound)
                writer.number(interval.upperBound)
                writer.endArray()
            case .orderDependent(let alone, let inSuite, let runs):
                writer.member("alone", alone.rawValue)
                writer.member("inSuite", inSuite.rawValue)
                writer.key("runs")
                writer.beginArray()
                for run in runs { write(run, to: &writer) }
                writer.endArray()
                if let found = finding.dependsOn, let dependence = dependence(finding) {
                    writer.key("dependsOn")
                    writer.beginObject()
                    writer.member("test", found.test)
                    if let kind = dependence.causeKind { writer.member("kind", kind) }
                    writer.member("runs", found.runs)
                    writer.member("agreeing", found.agreeing)
                    writer.member("aloneRuns", found.aloneRuns)
                    writer.member("aloneAgreeing", found.aloneAgreeing)
                    writer.key("foundIn")
                    write(found.run, to: &writer)
                    writer.endObject()
                }
            case .maybeOrderDependent(let alone, let inSuite, let run):
                writer.member("alone", alone.rawValue)
                writer.member("inSuite", inSuite.rawValue)
                writer.key("run")
                write(run, to: &writer)
            case .broken(let since, let runs):
                writer.key("since")
                write(since, to: &writer)
                writer.member("runs", runs)
            case .brokenIn(let environment, let since, let runs, let passed):
                writer.member("environment", environment)
                writer.key("since")
                write(since, to: &writer)
                writer.member("runs", runs)
                writer.member("passedElsewhere", passed)
            case .healed(let lastFailure, let passes):
                writer.key("lastFailure")
                write(lastFailure, to: &writer)
                writer.member("passes", passes)
            }
            writer.endObject()
        }
        for failure in analysis.newFailures {
            let (verdict, evidence) = evidence(failure)
            writer.beginObject()
            writer.member("test", failure.test)
            writer.member("verdict", verdict)
            writer.key("failedLast")
            writer.bool(true)
            writer.member("evidence", evidence)
            switch failure.coverage {
            case .ranNone(let changed, let total)?:
                writer.member("changedLines", total)
                writer.key("notRun")
                writer.beginArray()
                for line in changed { writer.string(line) }
                writer.endArray()
            case .ran(let lines, let total)?:
                writer.member("changedLines", total)
                writer.key("ran")
                writer.beginArray()
                for line in lines { writer.string(line) }
                writer.endArray()
            case .notRecorded?, nil:
                break
            }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.output
    }

    private static func write(_ run: FlakyVerdicts.RunReference, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("id", run.id)
        writer.member("commit", run.commit)
        writer.member("time", run.time)
        writer.endObject()
    }

    // MARK: Helpers

    private static func short(_ commit: String) -> String { TestHistory.shortCommit(commit) }

    private static func percent(_ value: Double) -> String {
        let tenths = Int((value * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }

    private static func plural(_ count: Int, _ word: String) -> String { count == 1 ? word : word + "s" }
}
