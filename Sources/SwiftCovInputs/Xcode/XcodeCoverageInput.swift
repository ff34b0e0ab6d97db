import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

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

    /// An input recognized as Xcode's; a JSON document is kept as it was parsed to tell its kind.
    package struct Input: Sendable {
        package var path: String
        package var kind: Kind
        fileprivate var document: JSONValue?

        /// Whether it holds a report (totals), not only per-line counts.
        package var isReport: Bool { kind != .json(.archive) }
    }

    /// The Xcode input at `path`, or nil when it is not one (an llvm-cov export, or nothing
    /// swiftcov reads: the llvm-cov reader then says what is wrong with it).
    package static func recognize(_ path: String) -> Input? {
        if path != "-", FileSystem.kind(of: path) == .directory {
            return XCResultBundle.isBundle(path) ? Input(path: path, kind: .bundle) : nil
        }
        guard path != "-", let file = try? MappedFile(path: path, reading: .inPlaces),
            let document = file.withUnsafeBytes(parseUnlessExport), let kind = XcodeCoverage.jsonKind(of: document)
        else { return nil }
        return Input(path: path, kind: .json(kind), document: document)
    }

    /// `bytes` parsed as JSON, unless they are an llvm-cov export (which names its type in its
    /// last bytes) or swiftcov's own report, or are not JSON at all.
    private static func parseUnlessExport(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        let start = bytes.firstIndex {
            $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
        }
        guard let start, bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else { return nil }
        let tail = UnsafeRawBufferPointer(rebasing: bytes[max(0, bytes.count - 256)...])
        if tail.firstRange(of: Array("llvm.coverage.json.export".utf8)) != nil { return nil }
        if SwiftCovReportDocument.recognizes(bytes) { return nil }
        return try? JSONValue.parse(bytes)
    }

    /// Reads the inputs (from `recognize`): one report (a bundle or xccov's report JSON) and any
    /// number of archives, whose per-line counts are added up.
    package static func read(_ inputs: [Input]) throws(CoverageInputError) -> (
        coverage: XcodeCoverage, workspace: String?, warnings: [Diagnostic]
    ) {
        var report: (path: String, coverage: XcodeCoverage)?
        var workspace: String?
        var warnings: [Diagnostic] = []
        var archives: [(path: String, lines: [String: [XcodeCoverage.Line]])] = []
        for input in inputs {
            let path = input.path
            var coverage: XcodeCoverage
            switch input.kind {
            case .bundle:
                let bundle = try wrap { () throws(XcodeInputError) in try XCResultBundle(path: path) }
                let read = try wrap { () throws(XcodeInputError) in try bundle.coverage() }
                coverage = read.coverage
                workspace = workspace ?? read.workspace
                if let warning = bundle.versionWarning { warnings.append(warning) }
            case .json(let jsonKind):
                guard let value = input.document else { continue }
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
