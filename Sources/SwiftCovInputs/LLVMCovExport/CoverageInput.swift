import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// Finds and reads the llvm-cov exports a report is built from.
package enum CoverageInput {
    /// The export file for `path` (see `locate`).
    package static func locateExport(_ path: String) throws(CoverageInputError) -> String {
        try locate(path).path
    }

    /// The export for `path`: the file itself, or, in a folder, the export of the last whole
    /// run that SwiftPM or `swiftcov run` wrote under a package root, its `.build` folder, or a
    /// `codecov` folder; a folder inside a package without one stands for the package.
    /// `swiftcov run` keeps the export beside its own `coverage.json` report, as `runExportName`:
    /// that report, or the folder, stands for the export.
    ///
    /// A partial export — a shard's, a filtered run's, SwiftPM's after a retry's `swift test
    /// --filter …` (`RunRecord` says which) — is read only when there is no whole one, and
    /// `choice` says which export was read and why when others were there.
    package static func locate(_ path: String) throws(CoverageInputError) -> LocatedExport {
        if path == "-" { return LocatedExport(path: path) }
        guard let kind = FileSystem.kind(of: path) else { throw .notFound(path: path) }
        if kind == .loop { throw .unreadable(path: path, reason: kind.noun) }
        if kind == .directory && XCResultBundle.isBundle(path) { return LocatedExport(path: path) }
        guard kind == .directory else {
            let sibling = (path.lastIndex(of: "/").map { String(path[...$0]) } ?? "") + runExportName
            guard SwiftCovReportDocument.recognizes(path: path) else { return described(path) }
            if path.hasSuffix("coverage.json"), FileSystem.kind(of: sibling) == .file { return described(sibling) }
            throw .reportWithoutExport(path: path, export: path.hasSuffix("coverage.json") ? sibling : nil)
        }
        let patterns = [
            runExportName, "*.json", "codecov/*.json", "*/codecov/*.json", "*/*/codecov/*.json",
            ".build/*/codecov/*.json", ".build/*/*/codecov/*.json", ".build/*/" + runExportName,
        ]
        typealias Candidate = (located: LocatedExport, modified: Int, supersededBy: String?)
        var candidates: [Candidate] = []
        var seen = Set<String>()
        for pattern in patterns {
            // "*.json" only counts inside a codecov folder: a package root has other JSON files.
            if pattern == "*.json" && !path.split(separator: "/").last.map({ $0 == "codecov" }).isTrue { continue }
            for match in FileSystem.glob(path + "/" + pattern) {
                guard let real = FileSystem.realPath(match), seen.insert(real).inserted,
                    FileSystem.kind(of: match) == .file
                else {
                    continue
                }
                var located = described(match)
                var supersededBy: String?
                switch RunRecord.mark(of: match) {
                case .superseded(let export)?: supersededBy = export
                case .partial(let what)?: located.partial = "SwiftPM's export, " + what
                case nil: break
                }
                candidates.append((located, FileSystem.modificationTime(of: match), supersededBy))
            }
        }
        // SwiftPM's export that a run's export replaces is no other choice while that one is there.
        let present = Set(candidates.compactMap { FileSystem.realPath($0.located.path) })
        candidates.removeAll { candidate in
            candidate.supersededBy.map { export in FileSystem.realPath(export).map(present.contains) ?? false } ?? false
        }
        func newer(
            _ a: Candidate, than b: Candidate
        ) -> Bool {
            a.modified != b.modified ? a.modified > b.modified : a.located.path < b.located.path
        }
        let whole = candidates.filter { $0.located.partial == nil }
        guard let chosen = (whole.isEmpty ? candidates : whole).min(by: newer) else {
            let profraws = [
                "*.profraw", "codecov/*.profraw", "*/*/codecov/*.profraw", ".build/*/*/codecov/*.profraw",
                ".build/*/codecov/*.profraw",
            ]
            .flatMap { FileSystem.glob(path + "/" + $0) }
            // A folder inside a package that holds no export stands for its package.
            if let folder = FileSystem.realPath(path), FileSystem.kind(of: folder + "/Package.swift") != .file,
                let package = PackageManifest.root(around: folder)
            {
                return try locate(package)
            }
            throw .noExport(directory: path, profrawCount: Set(profraws.compactMap(FileSystem.realPath)).count)
        }
        var located = chosen.located
        let others = candidates.filter { $0.located.path != located.path }
        if !others.isEmpty {
            let skipped = others.sorted(by: newer).map { other in
                CoverageScope.normalized(other.located.path) + (other.located.partial.map { " (\($0))" } ?? "")
            }
            located.choice =
                "read \(CoverageScope.normalized(located.path)), "
                + (located.partial == nil
                    ? "the newest export of a whole run" : "the newest export, of part of the tests only")
                + "; also there: " + skipped.joined(separator: ", ")
        }
        return located
    }

    /// The export at `path` with its run's record, when `swiftcov run` wrote it.
    private static func described(_ path: String) -> LocatedExport {
        guard path == runExportName || path.hasSuffix("/" + runExportName) else { return LocatedExport(path: path) }
        let folder = path == runExportName ? "." : String(path.dropLast(runExportName.count + 1))
        let record = RunRecord.read(inFolder: folder.isEmpty ? "/" : folder)
        return LocatedExport(
            path: path, record: record,
            partial: record.flatMap { $0.isPartial ? "`swiftcov run` for \($0.scope.description)" : nil })
    }

    /// The name of the llvm-cov export in `swiftcov run`'s output folder.
    package static let runExportName = "llvm-cov-export.json"

    /// Reads the export at `path` (already located). `keepMappings` keeps what merging needs;
    /// `names` can be false when no function list will be shown, and `summariesOnly` true when
    /// nothing is merged either (see `LLVMCovExportReader.read`).
    package static func readExport(
        _ path: String, keepMappings: Bool, names: Bool = true, summariesOnly: Bool = false
    ) throws(CoverageInputError) -> LLVMCovExport {
        let document = try map(path, reading: .inWindows)
        let result = Result { () throws(JSONError) in
            try LLVMCovExportReader.read(
                document, keepMappings: keepMappings, names: names, summariesOnly: summariesOnly)
        }
        // Zeros past the new end read as a shorter document or as an error: neither is the file.
        guard !document.shrankWhileRead else { throw .unreadable(path: path, reason: MappedFile.shrankMessage) }
        do {
            var export = try result.get()
            export.path = path
            // What the report needs is read; a file's segments are read again when asked for.
            document.drop(0..<document.count)
            return export
        } catch {
            throw malformed(error, in: document, path: path)
        }
    }

    /// The file at `path`, mapped to be read as `reading` says.
    package static func map(_ path: String, reading: MappedFile.Reading = .whole) throws(CoverageInputError)
        -> MappedFile
    {
        do {
            return try MappedFile(path: path, reading: reading)
        } catch {
            throw .unreadable(path: path, reason: error.message)
        }
    }

    /// A JSON input's error at its byte offset, with the key path leading there.
    package static func malformed(_ error: JSONError, in document: MappedFile, path: String) -> CoverageInputError {
        let keyPath = document.withUnsafeBytes { JSONKeyPath.path(at: error.offset, in: $0) }
        return .malformed(path: path, offset: error.offset, keyPath: keyPath, message: error.message)
    }

    /// The package root to use for `inputs` when none is given (see `inferRoot`).
    package static func defaultRoot(for inputs: [String], exportPaths: [String], workingDirectory: String) -> String {
        inferRoot(for: inputs, exportPaths: exportPaths, workingDirectory: workingDirectory).path
    }

    /// The package root for `inputs` when none is given, the same from whichever folder swiftcov
    /// runs in: the package folder an input lies in or names (a folder inside a package: that
    /// package, when the export's paths are in it); else the folder holding the
    /// `Sources`, `Tests` and `.build` folders of the export's absolute paths; else the working
    /// directory. `guessed` says that the root came from the export's paths and is not the
    /// working directory (worth telling the user).
    package static func inferRoot(
        for inputs: [String], exportPaths: [String], workingDirectory: String
    ) -> (path: String, guessed: Bool) {
        let absolutePaths = exportPaths.filter { $0.hasPrefix("/") }
        for input in inputs where input != "-" {
            let absolute = CoverageScope.normalized(input.hasPrefix("/") ? input : workingDirectory + "/" + input)
            if FileSystem.kind(of: absolute + "/Package.swift") == .file { return (absolute, false) }
            if let range = absolute.firstRange(of: "/.build/")
                ?? (absolute.hasSuffix("/.build") ? absolute.firstRange(of: "/.build") : nil)
            {
                return (String(absolute[..<range.lowerBound]), false)
            }
            // A folder inside a package: that package, when the export is of it.
            if FileSystem.kind(of: absolute) == .directory, let package = PackageManifest.root(around: absolute),
                absolutePaths.isEmpty || absolutePaths.contains(where: { $0.hasPrefix(package + "/") })
            {
                return (package, false)
            }
        }
        let cwd = CoverageScope.normalized(workingDirectory)
        guard !absolutePaths.isEmpty else { return (cwd, false) }
        if let inferred = CoverageScope.inferredRoot(from: absolutePaths) { return (inferred, inferred != cwd) }
        return (cwd, false)
    }
}

/// Puts the exports of one package (from test shards that may have run in different folders or
/// on different machines) on one package root, one export at a time, so that the same file has
/// the same name in all of them and their counts add up.
///
/// An export's own root is the folder its absolute paths go through to `Sources`, `Tests` or
/// `.build`; its files are moved from there to the shared root, unless some are under that root
/// already. Exports that share no file under the root with the first are of another package.
package struct SharedPackageRoot {
    /// The shared root: the one given, or, when it was inferred and lies above the first
    /// export's own root (a folder holding the shards' checkouts), that export's own root.
    package private(set) var root: String
    private let scope: CoverageScope
    private let firstPath: String
    private var firstFiles: Set<String>?

    /// The shared root for exports of which `first` is the first; `root` as given or inferred.
    package init(first: LLVMCovExport, root: String, rootIsGiven: Bool) {
        var target = CoverageScope.normalized(root)
        if !rootIsGiven, let own = SharedPackageRoot.ownRoot(of: first),
            own != target, target == "/" || own.hasPrefix(target + "/")
        {
            target = own
        }
        self.root = target
        scope = CoverageScope(root: target)
        firstPath = first.path
    }

    /// Moves `export`'s files onto the shared root (call it for the first export too).
    package mutating func align(_ export: inout LLVMCovExport) throws(CoverageInputError) {
        if !export.files.contains(where: { $0.filename.hasPrefix("/") && scope.relativePath($0.filename) != nil }),
            let own = SharedPackageRoot.ownRoot(of: export)
        {
            export.moveFiles(from: own, to: root)
        }
        let files = Set(export.files.compactMap { scope.relativePath($0.filename) })
        guard let firstFiles else {
            firstFiles = files
            return
        }
        if !files.isEmpty, !firstFiles.isEmpty, firstFiles.isDisjoint(with: files) {
            throw .differentPackages(path: export.path, otherPath: firstPath)
        }
    }

    private static func ownRoot(of export: LLVMCovExport) -> String? {
        CoverageScope.inferredRoot(from: export.files.map(\.filename).filter { $0.hasPrefix("/") })
    }
}

extension Optional where Wrapped == Bool {
    fileprivate var isTrue: Bool { self == true }
}
