import SwiftCovCommandLine
import SwiftCovCore

/// `swiftcov html`: a static site to browse coverage down to every line's execution count.
enum HTMLCommand {
    static let spec = CommandSpec(
        name: "html",
        abstract: "Write an HTML report: modules, files, and every line with its execution count.",
        positional: "PATH…",
        positionalHelp: "Same as --coverage PATH.",
        options: CoverageInputOptions.specs + [
            output.spec, timestamp.spec, tests.spec,
        ] + EvidenceOptions.specs
            // `diff --base-coverage`'s: the same baseline and change, read the same way.
            + ChangeInput.baseCoverage.specs + [ChangeInput.base.spec, ChangeInput.diff.spec],
        examples: [
            "swiftcov html SampleReports/coverage.json --output coverage-html",
            "swiftcov html --coverage . && open .build/swiftcov/html/index.html",
            "swiftcov html . --base-coverage main-coverage.json --base origin/main",
            "swiftcov html App.xcresult --tests App.xcresult --evidence all --evidence-limit 500MB",
            "swiftcov run --per-test && swiftcov html .build/swiftcov",
        ])

    static func run(_ arguments: ParsedArguments, _ terminal: inout Terminal) throws -> ExitCode {
        let options = try Options(arguments)
        // Before reading: a folder that may not be replaced fails at once.
        let site = try HTMLSite(directory: options.output)
        let (report, testLogs, tests, extra) = try readInputs(options, terminal)
        var htmlOptions = HTMLReport.Options()
        if options.timestamp {
            htmlOptions.generatedAt =
                Clock.system(sourceDateEpoch: terminal.environment("SOURCE_DATE_EPOCH"))
                .utcTimestamp
        }
        var annotations = HTMLReport.SiteAnnotations()
        if let differential = options.differential {
            let root = report.scope.root ?? terminal.workingDirectory
            let (diff, prefix) = try ChangeInput.read(
                differential.change, root: root, of: report, terminal: terminal)
            annotations.differential = try ChangeInput.differentialCoverage(
                baseline: differential.baseline, report: report, diff: diff, pathPrefix: prefix, root: root,
                terminal: terminal)
            annotations.baselineName = differential.baseline
            annotations.changes = differential.change.reportOptions.changesPhrase
        }
        if let tests, options.evidence.scope != .none {
            let runs = try TestResultsInput.evidence(of: tests, inputs: testLogs, command: "html", terminal: terminal)
            if !runs.isEmpty { annotations.evidence = HTMLReport.Evidence(runs: runs, policy: options.evidence) }
        }
        let stores = PerTestData.stores(beside: options.coverage.inputs)
        if !stores.isEmpty {
            let perTest = try PerTestData.load(stores, command: "html", terminal: terminal, ownFiles: report.ownFiles)
            annotations.perTest = PerTestData.fitting(
                perTest, report: report, stores: stores, command: "html", terminal: terminal)
        }
        let written = try site.write(
            report, tests: tests, extraFiles: extra, annotations: annotations, options: htmlOptions)
        for warning in written.warnings { terminal.emit(warning) }
        terminal.status(wrote: [options.output + "/index.html"], "\(report.files.count) files")
        return .success
    }

    /// `.build/swiftcov/html` in the package the coverage is of (the working directory's when unknown).
    static func defaultOutput(_ coverage: CoverageInputOptions) -> String {
        let cwd = Terminal.currentDirectory
        guard let root = coverage.packageRoot, root != cwd else { return ".build/swiftcov/html" }
        return root + "/.build/swiftcov/html"
    }

    /// The report, the test results' files, the tests resolved against the report, and the files
    /// their failures point at that the report leaves out, made from the coverage read once; that
    /// coverage (an export's records are megabytes for a large package) is let go when this
    /// returns, before the pages are written.
    private static func readInputs(
        _ options: Options, _ terminal: Terminal
    ) throws -> (report: CoverageReport, testLogs: [String], tests: TestRun?, extra: [FileCoverage]) {
        let (report, request, coverage) = try options.coverage.makeReportKeepingCoverage(terminal)
        let testLogs =
            options.testLogs.isEmpty ? try runTestResults(options.coverage.inputs, terminal) : options.testLogs
        guard !testLogs.isEmpty else { return (report, testLogs, nil, []) }
        let tests = try TestResultsInput.read(
            testLogs, resolvingWith: .report(report), command: "html", terminal: terminal)
        return (report, testLogs, tests, request.failureFiles(of: tests, report: report, coverage: coverage))
    }

    /// The test results `swiftcov run` left beside the coverage, when every input is a run's
    /// (its output folder, its export, the package it ran in): a site rebuilt from a run's
    /// output keeps the run's tests. Result bundles' own tests when every input is a bundle.
    /// None when an input is neither.
    private static func runTestResults(_ inputs: [String], _ terminal: Terminal) throws -> [String] {
        // Xcode's result bundles hold their tests beside their coverage.
        if inputs.allSatisfy({ $0 != "-" && XCResultBundle.isBundle($0) }) {
            terminal.emit(
                .note("with the tests of the result bundle\(inputs.count == 1 ? "" : "s"); give --tests for others"))
            return inputs
        }
        var folders: [String] = []
        for input in inputs {
            guard input != "-", let folder = RunWorkflow.outputFolder(ofExport: try CoverageInput.locateExport(input))
            else { return [] }
            if !folders.contains(folder) { folders.append(folder) }
        }
        let logs = folders.flatMap(RunWorkflow.testResults(in:))
        guard !logs.isEmpty else { return [] }
        terminal.emit(
            .note(
                "with the test results of the `swiftcov run` that wrote the coverage ("
                    + logs.map(terminal.displayPath).joined(separator: ", ") + "); give --tests LOG for others"))
        return logs
    }
}
