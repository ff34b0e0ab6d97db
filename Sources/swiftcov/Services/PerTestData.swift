import SwiftCovCore

/// The per-test data of `run --per-test` (`per-test.swiftcov`) a command reads: found beside its
/// coverage inputs or given, merged across shards, and refused when it is of another package.
enum PerTestData {
    /// The files of the package per-test data is used for: data that shares none of them is of
    /// another package, and would make every line look run by no test.
    struct OwnFiles {
        /// What the files are, for the error ("this coverage").
        var description: String
        /// Whether a package-relative path is one of them.
        var contains: (String) -> Bool

        init(_ description: String, _ contains: @escaping (String) -> Bool) {
            self.description = description
            self.contains = contains
        }
    }

    /// The stores at `paths` (each the file, or a folder holding `per-test.swiftcov`), merged
    /// (shards: every test once; a test recorded twice is a warning). Exit 2 with how to make one
    /// when one is missing, and when one shares no file with `ownFiles`.
    static func load(_ paths: [String], command: String, terminal: Terminal, ownFiles: OwnFiles) throws
        -> PerTestCoverage
    {
        var stores: [PerTestCoverage] = []
        for path in paths {
            let file = (FileSystem.size(of: path) ?? 0) > 0 ? path : path + "/" + PerTestStore.fileName
            guard (FileSystem.size(of: file) ?? 0) > 0 else {
                throw Diagnostic(
                    file: file, "no per-test data; record it with `swiftcov run --per-test` in the package root")
            }
            let store = try PerTestStore.read(path: file)
            guard store.files.contains(where: { ownFiles.contains($0.path) }) else {
                throw Diagnostic(
                    file: file,
                    "per-test data of \(store.files.count) files"
                        + (store.files.first.map { " (such as \($0.path.terminalSafe))" } ?? "")
                        + ", none of them in \(ownFiles.description): recorded in another package?")
            }
            stores.append(store)
        }
        let (merged, duplicates) = PerTestCoverage.merged(stores)
        for duplicate in duplicates.prefix(10) { terminal.emit(.warning(duplicate.description), command: command) }
        if duplicates.count > 10 {
            terminal.emit(.warning("… and \(duplicates.count - 10) more tests recorded twice"), command: command)
        }
        return merged
    }

    /// The per-test data beside coverage inputs (`run --per-test`'s output folders, or their
    /// exports), merged: a store in each input's folder that has one; `.build/swiftcov`'s when none has.
    static func load(beside inputs: [String], command: String, terminal: Terminal, ownFiles: OwnFiles) throws
        -> PerTestCoverage
    {
        let found = stores(beside: inputs)
        return try load(
            found.isEmpty ? [inputs.first ?? ".build/swiftcov"] : found, command: command, terminal: terminal,
            ownFiles: ownFiles)
    }

    /// The stores in the folders of coverage inputs (`run --per-test`'s output folders, or their
    /// exports' folders; for a package, the folder of the export found in it, as `run`'s), each once.
    static func stores(beside inputs: [String]) -> [String] {
        var found: [String] = []
        func folder(of file: String) -> String {
            let folder = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
            return folder.isEmpty ? "." : folder
        }
        for input in inputs where input != "-" {
            var folders = [(FileSystem.size(of: input) ?? 0) > 0 ? folder(of: input) : input]
            if let located = try? CoverageInput.locateExport(input) { folders.append(folder(of: located)) }
            for folder in folders {
                let store = folder + "/" + PerTestStore.fileName
                if (FileSystem.size(of: store) ?? 0) > 0 && !found.contains(store) {
                    found.append(store)
                    break
                }
            }
        }
        return found
    }
}

extension PerTestData {
    /// `perTest` (read from `stores`) without the files whose lines differ from `report`'s (data of
    /// an earlier run, at other code), with a note naming them, so that no test is shown on a line
    /// it did not run.
    static func fitting(
        _ perTest: PerTestCoverage, report: CoverageReport, stores: [String], command: String, terminal: Terminal
    ) -> PerTestCoverage {
        let differing = perTest.filesDiffering(from: report)
        guard let first = differing.first else { return perTest }
        let recording = perTest.recording
        let commit = recording.commit.isEmpty ? "outside git" : "at commit " + recording.commit.prefix(12)
        terminal.emit(
            .note(
                "the per-test data in \(stores.map(terminal.displayPath).joined(separator: ", ")) is of an earlier run "
                    + "(\(commit)\(recording.dirty ? " with changes" : ""), \(recording.date)): the lines of "
                    + "\(differing.count) of its files (such as \(first.terminalSafe)) have moved since, and their pages "
                    + "show no tests; `swiftcov run --per-test` records this code's"),
            command: command)
        return perTest.removingFiles(Set(differing))
    }
}

extension CoverageReport {
    /// The report's files, for per-test data read beside it (any data, when it has none).
    var ownFiles: PerTestData.OwnFiles {
        let paths = Set(files.map(\.displayPath))
        return PerTestData.OwnFiles("this coverage") { paths.isEmpty || paths.contains($0) }
    }
}
