/// Xcode's coverage as a coverage input: a result bundle (`.xcresult`), the JSON of
/// `xcrun xccov view --report --json` (or `--only-targets`), and that of
/// `xcrun xccov view --archive --json` for per-line counts. Told apart from llvm-cov exports by
/// their content, and read into one `XcodeCoverage`.
package enum XcodeCoverageInput {
    /// What an input is.
    package enum Kind: Equatable, Sendable {
        case bundle
        case json(XcodeCoverage.JSONKind)
    }

    /// The kind of Xcode input at `path`, or nil when it is not one (an llvm-cov export, or
    /// nothing swiftcov reads: the llvm-cov reader then says what is wrong with it).
    package static func kind(of path: String) -> Kind? {
        if path != "-", CoverageInput.fileKind(path) == .directory {
            return XCResultBundle.isBundle(path) ? .bundle : nil
        }
        guard path != "-", let document = try? MappedFile(path: path) else { return nil }
        return document.withUnsafeBytes { bytes -> Kind? in
            guard let kind = jsonKind(bytes) else { return nil }
            return .json(kind)
        }
    }

    /// Which of xccov's JSON documents `bytes` is. An llvm-cov export names its type in its
    /// last bytes; anything else that parses as JSON is asked its shape.
    private static func jsonKind(_ bytes: UnsafeRawBufferPointer) -> XcodeCoverage.JSONKind? {
        let start = bytes.firstIndex {
            $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
        }
        guard let start, bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else { return nil }
        let tail = UnsafeRawBufferPointer(rebasing: bytes[max(0, bytes.count - 256)...])
        if tail.firstRange(of: Array("llvm.coverage.json.export".utf8)) != nil { return nil }
        // swiftcov's own report is not Xcode's.
        if CoverageInput.isSwiftCovReport(start: bytes) { return nil }
        guard let value = try? JSONValue.parse(bytes) else { return nil }
        return XcodeCoverage.jsonKind(of: value)
    }

    /// Reads the inputs (their kinds from `kind(of:)`): one report (a bundle or xccov's report
    /// JSON) and any number of archives, whose per-line counts are added up.
    package static func read(_ inputs: [(path: String, kind: Kind)]) throws(CoverageInputError) -> (
        coverage: XcodeCoverage, workspace: String?, warnings: [Diagnostic]
    ) {
        var report: (path: String, coverage: XcodeCoverage)?
        var workspace: String?
        var warnings: [Diagnostic] = []
        var archives: [(path: String, lines: [String: [XcodeCoverage.Line]])] = []
        for (path, kind) in inputs {
            var coverage: XcodeCoverage
            switch kind {
            case .bundle:
                let bundle = try wrap { () throws(XcodeInputError) in try XCResultBundle(path: path) }
                let read = try wrap { () throws(XcodeInputError) in try bundle.coverage() }
                coverage = read.coverage
                workspace = workspace ?? read.workspace
                if let warning = bundle.versionWarning { warnings.append(warning) }
            case .json(let jsonKind):
                let value = try parse(path)
                if jsonKind == .archive {
                    archives.append(
                        (
                            path,
                            try wrap { () throws(XcodeInputError) in
                                try XcodeCoverage.readArchiveJSON(value, path: path)
                            }
                        ))
                    continue
                }
                coverage = try wrap { () throws(XcodeInputError) in
                    try XcodeCoverage.readReportJSON(value, path: path)
                }
            }
            if let first = report {
                throw .xcode(
                    XcodeInputError(
                        path: path,
                        "a second Xcode coverage report (the first is \(first.path)): reports hold totals, which "
                            + "cannot be added up; merge the bundles with `xcrun xcresulttool merge`, or give one report "
                            + "and the `xccov view --archive --json` output of each run"))
            }
            report = (path, coverage)
        }
        guard var (_, coverage) = report else {
            throw .xcode(
                XcodeInputError(
                    path: archives.first?.path ?? "-",
                    "per-line counts without Xcode's report: give the bundle or `xcrun xccov view --report --json` output too"
                ))
        }
        for (_, lines) in archives {
            for (file, fileLines) in lines {
                if let existing = coverage.lines[file] {
                    coverage.lines[file] = added(existing, fileLines)
                } else {
                    coverage.lines[file] = fileLines
                }
            }
        }
        return (coverage, workspace, warnings)
    }

    /// Two runs' lines of one file, counts added up (a line is executable when it is in either).
    static func added(_ first: [XcodeCoverage.Line], _ second: [XcodeCoverage.Line]) -> [XcodeCoverage.Line] {
        var byLine: [UInt32: XcodeCoverage.Line] = [:]
        for line in first { byLine[line.line] = line }
        for line in second {
            guard var known = byLine[line.line] else {
                byLine[line.line] = line
                continue
            }
            if let count = line.executionCount {
                known.executionCount =
                    (known.executionCount ?? 0).addingReportingOverflow(count).overflow
                    ? UInt64.max : (known.executionCount ?? 0) + count
            }
            known.subranges = known.subranges.isEmpty ? line.subranges : known.subranges
            byLine[line.line] = known
        }
        return byLine.values.sorted { $0.line < $1.line }
    }

    private static func parse(_ path: String) throws(CoverageInputError) -> JSONValue {
        let document = try CoverageInput.map(path)
        do {
            return try document.withUnsafeBytes { (bytes) throws(JSONError) in try JSONValue.parse(bytes) }
        } catch {
            throw CoverageInput.malformed(error, in: document, path: path)
        }
    }

    private static func wrap<T>(_ body: () throws(XcodeInputError) -> T) throws(CoverageInputError) -> T {
        do {
            return try body()
        } catch {
            throw .xcode(error)
        }
    }

    /// The project root for Xcode's files when none is given: the folder of the workspace or
    /// project the bundle was made from, else the folder holding `Sources`/`Tests` of most files,
    /// else the deepest folder all files (of targets that are not test bundles) share.
    package static func inferRoot(_ coverage: XcodeCoverage, workspace: String?) -> String? {
        if let workspace { return workspace }
        let targets =
            coverage.targets.contains { !$0.isTestBundle }
            ? coverage.targets.filter { !$0.isTestBundle } : coverage.targets
        let paths = targets.flatMap { $0.files.map(\.path) }.filter { $0.hasPrefix("/") }
        if let root = CoverageScope.inferredRoot(from: paths) { return root }
        guard let first = paths.first, let firstSlash = first.lastIndex(of: "/") else { return nil }
        var common = first[..<firstSlash]
        for path in paths.dropFirst() {
            while !path.hasPrefix(common + "/") {
                guard let slash = common.lastIndex(of: "/") else { return nil }
                common = common[..<slash]
            }
        }
        return common.isEmpty ? "/" : String(common)
    }
}
