import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov diff`: how much of what a change adds or modifies ran in the tests; with
/// `--base-coverage`, differential coverage (see `DiffCommand+Baseline.swift`).
enum DiffCommand {
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Coverage of the lines a change adds or modifies, listing those that did not run.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageInputOptions.specs + [
            ChangeInput.base.spec, ChangeInput.diff.spec, failUnder.spec, format.spec, OutputOption.file.spec,
            ColorChoice.option.spec,
        ] + ChangeInput.baseCoverage.specs + [failOn.spec, urlTemplate.spec],
        examples: [
            "swiftcov diff --coverage . --base origin/main --fail-under 80",
            "git diff --merge-base origin/main > change.diff; swiftcov diff . --diff change.diff --format markdown",
            "swiftcov diff . --base-coverage main-coverage.json --base origin/main --fail-on UNC,LBC -f markdown",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        let destination = try terminal.output(options.output)
        let (report, _) = try options.coverage.makeReport(terminal)
        if options.failUnder != nil {
            try CoverageInputOptions.requireMeasured(report, inputs: options.coverage.inputs)
        }
        let root = report.scope.root ?? terminal.workingDirectory

        var reportOptions = options.change.reportOptions
        reportOptions.failUnder = options.failUnder
        // A gate refuses changed files newer than their coverage; a report warns about them.
        let failOn = try options.differential.map { try $0.failOn ?? GateOptions.configuration(root: root).failOn }
        let (diff, prefix) = try ChangeInput.read(
            options.change, root: root, of: report, gating: options.failUnder != nil || failOn?.isEmpty == false,
            terminal: terminal)
        reportOptions.colors = options.color.usesColor(terminal, writesToFile: options.output != nil)
        if let differential = options.differential {
            return try differentialReport(
                differential, failOn: failOn ?? [], format: options.format, report: report, diff: diff,
                pathPrefix: prefix,
                changes: reportOptions, root: root, destination: destination, terminal: terminal)
        }
        let coverage = try ChangedLineCoverage.compute(diff: diff, report: report, pathPrefix: prefix)
        let changes = ChangedLineCoverageReport(coverage, options: reportOptions)
        try destination.finish(writing: changes, as: options.format)
        try terminal.github.addToStepSummary(changes)
        if let failUnder = options.failUnder, !coverage.meets(failUnder) { return .gateFailed }
        return .success
    }
}
