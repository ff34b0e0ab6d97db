import SwiftCovCommandLine
import SwiftCovCore

/// The report formats `report`, `diff` and `flaky` write to stdout or a file, and their other names.
extension ReportFormat: AliasedChoice {
    package static let aliases: [String: ReportFormat] = ["md": .markdown, "text": .table, "txt": .table]
}

/// `--color WHEN`.
enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never

    static let option = ValueOption<ColorChoice>(
        ["--color"], value: "WHEN", help: "Colour percentages. Default: auto (terminal, no NO_COLOR).")

    /// Whether to colour output: `auto` colours only what goes to a terminal that may be
    /// coloured, never what goes to a file (`writesToFile`).
    func usesColor(_ terminal: Terminal, writesToFile: Bool = false) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: !writesToFile && terminal.stdoutSupportsColor
        }
    }
}

/// Which files a report covers: `--include`, `--exclude`, `--all-files` (also for `run`, which
/// makes its own export).
struct ScopeOptions {
    static let include = ValueOption<Glob>(
        ["--include"], value: "GLOB", repeatable: true,
        help: "Report only files matching GLOB (relative to the package root).", convert: Glob.init)
    static let exclude = ValueOption<Glob>(
        ["--exclude"], value: "GLOB", repeatable: true, help: "Leave out files matching GLOB.", convert: Glob.init)
    static let allFiles = FlagOption(
        ["--all-files"], help: "Also report Tests/, .build/ (generated files, dependencies) and files outside the root."
    )
    static let specs = [include.spec, exclude.spec, allFiles.spec]

    var includes: [Glob]
    var excludes: [Glob]
    var allFiles: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        includes = try arguments.values(Self.include)
        excludes = try arguments.values(Self.exclude)
        allFiles = arguments.has(Self.allFiles)
    }

    /// A request for `inputs` in this scope; modules are named after the package's targets
    /// (`swift package describe`, cached in `.build/swiftcov`).
    func request(inputs: [String], root: String?) -> CoverageRequest {
        var request = CoverageRequest(
            inputs: inputs, root: root, includes: includes, excludes: excludes, allFiles: allFiles)
        request.describer = .swiftPM
        return request
    }
}

/// `--root DIR`: the package root. Checked to be a folder, so that a typo is an error rather than
/// a report of nothing.
enum RootOption {
    static let option = ValueOption<String>(
        ["--root"], value: "DIR", help: "The package root. Default: inferred from the inputs.")

    /// The root given with `option` (this one, or a command's own wording of it), checked.
    static func value(_ arguments: ParsedArguments, option: ValueOption<String> = option) throws(UsageError)
        -> String?
    {
        guard let root = try arguments.value(option) else { return nil }
        guard FileSystem.kind(of: root) == .directory else { throw UsageError("--root '\(root)' is not a folder") }
        return root
    }
}

/// The inputs every coverage command shares: which exports to read (`--coverage`, positional
/// paths) and which files to cover. Declared once so that `report`, `html`, `check`, `export`
/// and `diff` accept the same inputs.
struct CoverageInputOptions {
    static let coverage = ValueOption<String>(
        ["--coverage", "-c"], value: "PATH", repeatable: true,
        help:
            "An llvm-cov JSON export, or a folder to find one in (package root, .build, codecov); '-' reads stdin. Several are merged. "
            + "Or Xcode's: a result bundle (.xcresult), `xccov view --report --json` and `--archive --json` output."
    )
    static let specs = [coverage.spec] + ScopeOptions.specs + [RootOption.option.spec]

    var inputs: [String]
    var root: String?
    var scope: ScopeOptions

    /// Without an input, the package around the working directory (`report` is `report .` in
    /// the package root, and in any folder inside it).
    init(_ arguments: ParsedArguments) throws(UsageError) {
        inputs = try arguments.values(Self.coverage) + arguments.positionals
        if inputs.isEmpty {
            let cwd = Terminal.currentDirectory
            guard let package = PackageManifest.root(around: cwd) else { throw Self.noPackage }
            inputs = [package == cwd ? "." : package]
        }
        guard inputs.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("standard input ('-') can be read only once")
        }
        root = try RootOption.value(arguments)
        scope = try ScopeOptions(arguments)
    }

    var readsStandardInput: Bool { inputs.contains("-") }

    /// No input and no package around the working directory: what to do instead.
    static let noPackage = UsageError(
        "no coverage input and no Package.swift here or above: in your package, run `swiftcov run` "
            + "(or `swift test --enable-code-coverage`, then this command), or give an export with --coverage PATH")

    /// The package the inputs are of, as far as it is known before they are read: the package
    /// around `--root`, else around a folder input (or the one whose `.build` an input is in),
    /// else around the working directory (an export file elsewhere is not taken for its
    /// folder's package: fixtures, downloaded artifacts). Nil when none of them is in a package.
    var packageRoot: String? {
        let cwd = Terminal.currentDirectory
        func absolute(_ path: String) -> String {
            CoverageScope.normalized(path.hasPrefix("/") ? path : cwd + "/" + path)
        }
        if let root { return PackageManifest.root(around: absolute(root)) ?? absolute(root) }
        for input in inputs where input != "-" {
            let path = absolute(input)
            if let build = path.firstRange(of: "/.build/")
                ?? (path.hasSuffix("/.build") ? path.firstRange(of: "/.build") : nil)
            {
                return String(path[..<build.lowerBound])
            }
            if FileSystem.kind(of: path) == .directory, let package = PackageManifest.root(around: path) {
                return package
            }
        }
        return PackageManifest.root(around: cwd)
    }

    var request: CoverageRequest { scope.request(inputs: inputs, root: root) }
}

/// `--output FILE`: where a report goes (stdout when absent).
enum OutputOption {
    static let file = ValueOption<String>(
        ["--output", "-o"], value: "FILE", help: "Write the report to FILE (atomically) instead of stdout.")
}

/// `--tests LOG`: `swift test` console output or Swift Testing event streams.
enum TestsOption {
    static func option(help: String) -> ValueOption<String> {
        ValueOption<String>(["--tests", "-t"], value: "LOG", repeatable: true, help: help)
    }
}

/// Which test evidence (steps, screenshots, attachments) a report copies in: `--evidence` and
/// `--evidence-limit` (`html`, `junit`, `run`).
enum EvidenceOptions {
    static let scope = ValueOption<EvidencePolicy.Scope>(
        ["--evidence"], value: "WHICH",
        help:
            "Which tests' attachments (screenshots, recordings, files) to copy into the report: failures (default), all or none."
    )
    static let limit = ValueOption<Int>(
        ["--evidence-limit"], value: "SIZE",
        help:
            "The most bytes of attachments to copy (failures first; the rest is listed as left out): 500MB, 2GB, 0. Default: 100MB.",
        expected: "a size such as 100MB, 1.5GB or 250000", convert: EvidencePolicy.byteCount)
    static let specs = [scope.spec, limit.spec]

    static func policy(_ arguments: ParsedArguments) throws(UsageError) -> EvidencePolicy {
        EvidencePolicy(
            scope: try arguments.value(scope) ?? .failures,
            byteLimit: try arguments.value(limit) ?? EvidencePolicy.defaultByteLimit)
    }
}

/// An option given a clearer name: the old spelling still works, with a warning that names the
/// new one (`RenamedOption.deprecations`).
struct RenamedOption {
    let option: ValueOption<String>
    let old: ValueOption<String>

    init(_ name: String, formerly old: String, value: String, help: String) {
        option = ValueOption<String>([name], value: value, help: help)
        self.old = ValueOption<String>([old], value: value, help: "The old name of \(name) (deprecated).")
    }

    var specs: [CommandSpec.Option] { [option.spec, old.spec] }

    /// The value given under either name; both is a usage error.
    func value(_ arguments: ParsedArguments) throws(UsageError) -> String? {
        switch (try arguments.value(option), try arguments.value(old)) {
        case (_?, _?): throw UsageError("give \(option.spec.key) once (\(old.spec.key) is its old name)")
        case (let value?, nil), (nil, let value?): return value
        case (nil, nil): return nil
        }
    }

    /// Every renamed option.
    static let all = [GateOptions.ratchet, ChangeInput.baseCoverage]

    /// A warning for each old name in `arguments`, parsed for a command declaring `spec`.
    static func deprecations(in arguments: ParsedArguments, spec: CommandSpec) -> [Diagnostic] {
        all.compactMap { renamed in
            let keys = Set(spec.options.map(\.key))
            guard keys.contains(renamed.option.spec.key), keys.contains(renamed.old.spec.key),
                (try? arguments.value(renamed.old)) != nil
            else { return nil }
            let new = renamed.option.spec
            return .warning(
                "\(renamed.old.spec.key) is deprecated: use \(new.key)" + (new.valueName.map { " " + $0 } ?? ""))
        }
    }
}

/// The gate's inputs: `--config` and `--ratchet` (`check` and `run`).
struct GateOptions {
    static let config = ValueOption<String>(
        ["--config"], value: "FILE",
        help: "The gate configuration. Default: .swiftcov.json in the package root, if any.")
    static let ratchet = RenamedOption(
        "--ratchet", formerly: "--baseline", value: "FILE",
        help:
            "Fail when coverage dropped below FILE's, an earlier `swiftcov report --format json` (tolerance: \"ratchet\" in .swiftcov.json, else 0)."
    )
    static let specs = [config.spec] + ratchet.specs

    var configPath: String?
    var baselinePath: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        configPath = try arguments.value(Self.config)
        baselinePath = try Self.ratchet.value(arguments)
    }

    /// The configuration at `--config`, or `.swiftcov.json` in `root` when there is one, or none.
    func loadConfiguration(root: String) throws -> GateConfiguration {
        try Self.configuration(at: configPath, root: root)
    }

    /// The configuration at `path`, or `.swiftcov.json` in `root` when there is one, or none.
    static func configuration(at path: String? = nil, root: String) throws -> GateConfiguration {
        let file = path ?? root + "/.swiftcov.json"
        guard path != nil || (FileSystem.size(of: file) ?? 0) > 0 else { return GateConfiguration() }
        let name = path ?? (root == Terminal.currentDirectory || root == "." ? ".swiftcov.json" : file)
        var configuration = try GateConfiguration.parse(try Terminal.readFile(file, name: name), path: name)
        if let quarantine = configuration.quarantineFile {
            configuration.quarantine = try GateConfiguration.parseQuarantine(
                try Terminal.readFile(quarantine, name: quarantine), path: quarantine)
        }
        return configuration
    }

    /// How the package's `.swiftcov.json` judges tests (quarantine, flaky), for the commands that
    /// read test results without a gate of their own: the package around `folder`, if any.
    static func testJudgement(around folder: String) throws -> TestJudgement {
        guard let root = PackageManifest.root(around: folder) else { return TestJudgement() }
        return TestJudgement(configuration: try configuration(root: root))
    }

    /// The ratchet's baseline, when `--ratchet` is given.
    func loadBaseline() throws -> CoverageBaseline? {
        guard let baselinePath else { return nil }
        return try CoverageBaseline.read(path: baselinePath)
    }
}

extension CoverageInputOptions {
    /// Reads the exports and builds the report, showing progress on a terminal and saying which
    /// package root was used when it had to be guessed. Without `includeFunctions`, function
    /// names are not read (a table of files needs none).
    func makeReport(
        _ terminal: Terminal, includeFunctions: Bool = true, configuration: GateConfiguration? = nil
    ) throws -> (report: CoverageReport, request: CoverageRequest) {
        let made = try makeReportKeepingCoverage(
            terminal, includeFunctions: includeFunctions, configuration: configuration)
        return (made.report, made.request)
    }

    /// `makeReport`, with the coverage the report was built from, for another report of the same
    /// coverage without reading the inputs again (`failureFiles`).
    func makeReportKeepingCoverage(
        _ terminal: Terminal, includeFunctions: Bool = true, configuration: GateConfiguration? = nil
    ) throws -> (report: CoverageReport, request: CoverageRequest, coverage: CoverageRequest.ReadCoverage) {
        var request = self.request
        request.includeFunctions = includeFunctions
        if let configuration { request.adopt(configuration) }
        let progress = Progress(terminal: terminal, inputs: request.inputs)
        defer { progress.finish() }
        let (report, coverage) = try request.makeReportKeepingCoverage(workingDirectory: terminal.workingDirectory)
        KeptUntilExit.keep(report)
        for warning in report.warnings { terminal.emit(warning) }
        Self.tellWhatWasRead(report, terminal)
        if report.scope.rootWasGuessed, let root = report.scope.root {
            terminal.emit(
                .note(
                    (report.origin == .xcode
                        ? "project root \(terminal.displayPath(root)) inferred from the paths in Xcode's report; "
                        : "package root \(terminal.displayPath(root)) inferred from the export's paths; ")
                        + "give --root DIR to choose another"))
        }
        return (report, request, coverage)
    }
}

extension CoverageInputOptions {
    /// One note for each export chosen among several (which, and why), for a part of the tests
    /// read because no whole run was there, and for test code told by folder (no manifest).
    static func tellWhatWasRead(_ report: CoverageReport, _ terminal: Terminal) {
        for input in report.inputs {
            if let choice = input.choice {
                terminal.emit(.note(choice))
            } else if let partial = input.partial {
                terminal.emit(.note("\(input.path) holds the coverage of part of the tests only (\(partial))"))
            }
        }
        // Without a manifest, test code outside `Tests/` (a folder `SwiftCSVTests/`) looks like the
        // package's own: say so, and how to have the manifest decide.
        if report.origin == .llvmCov, report.scope.targets == nil, report.scope.includes.isEmpty,
            let suspect = report.files.first(where: {
                $0.displayPath.split(separator: "/").dropLast().contains { $0.hasSuffix("Tests") }
            })
        {
            terminal.emit(
                .note(
                    "no package manifest for \(terminal.displayPath(report.scope.root ?? ".")): test code is told by "
                        + "its folder (Tests/), and \(suspect.displayPath) is counted as the package's own; give "
                        + "--root PACKAGE (the folder of its Package.swift) or --exclude GLOB"))
        }
    }

    /// Stops with an input error (exit 2) when no source file of the package is in `report`'s
    /// scope: a gate with nothing to judge would pass on nothing.
    static func requireMeasured(_ report: CoverageReport, inputs: [String]) throws {
        guard let why = Gate.nothingToJudge(report) else { return }
        throw Diagnostic(file: inputs.joined(separator: ", "), why)
    }
}

/// Values the process keeps until it exits instead of freeing them: a report of a large export
/// holds hundreds of thousands of function records, and releasing them one by one just before
/// `exit` costs several percent of the run for nothing.
enum KeptUntilExit {
    nonisolated(unsafe) private static var values: [Any] = []

    /// Keeps `value` (one more reference) until the process exits. Call it from the main thread only.
    static func keep(_ value: Any) {
        values.append(value)
    }
}
