import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// Where a history is kept, and how runs are added to it: a file (which CI keeps as a cache or an
/// artifact), or git notes (`refs/notes/swiftcov`, pushed and fetched with the repository).
/// Both hold `HistoryFormat`'s lines.
package enum HistoryStore {
    /// A history's home.
    package enum Home: Equatable, Sendable, CustomStringConvertible {
        /// A file of history lines, made on the first run.
        case file(String)
        /// Git notes under `ref`: each run's lines in the note of the commit it ran on.
        case gitNotes(ref: String)

        /// The notes ref swiftcov uses unless told another.
        package static let defaultNotesRef = "refs/notes/swiftcov"

        /// `git-notes` (or `git-notes:REF`) for git notes, anything else a file's path (`./git-notes`
        /// is a file).
        package init(parsing text: String) {
            if text == "git-notes" {
                self = .gitNotes(ref: Self.defaultNotesRef)
            } else if text.hasPrefix("git-notes:"), text.count > "git-notes:".count {
                let ref = String(text.dropFirst("git-notes:".count))
                self = .gitNotes(ref: ref.hasPrefix("refs/notes/") ? ref : "refs/notes/" + ref)
            } else {
                self = .file(text)
            }
        }

        /// The file's path, or the ref.
        package var description: String {
            switch self {
            case .file(let path): path
            case .gitNotes(let ref): ref
            }
        }
    }

    /// Why a history cannot be read or added to.
    package struct Failure: Error, Equatable, DiagnosticConvertible {
        package var file: String
        package var message: String

        package init(file: String, message: String) {
            self.file = file
            self.message = message
        }

        package var diagnostic: Diagnostic { Diagnostic(file: file, message) }
    }

    // MARK: Reading

    /// The history at `home` (empty when it does not exist yet), with the runs dated after
    /// `latestTime` skipped; git runs in `root`.
    package static func read(_ home: Home, root: String, latestTime: Int64) throws -> HistoryFormat.Reading {
        switch home {
        case .file(let path):
            guard FileSystem.kind(of: path) != nil else {
                return HistoryFormat.Reading(history: TestHistory(), warnings: [])
            }
            let file: MappedFile
            do {
                file = try MappedFile(path: path, reading: .inOrder)
            } catch {
                throw CoverageInputError.unreadable(path: path, reason: error.message)
            }
            return try read(file, path: path, latestTime: latestTime)
        case .gitNotes(let ref):
            let notes = try noteContents(ref: ref, root: root)
            var text = ""
            var starts: [(line: Int, commit: String)] = []
            var line = 1
            for (commit, content) in notes {
                starts.append((line, commit))
                var content = content
                if !content.isEmpty, !content.hasSuffix("\n") { content += "\n" }
                line += content.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                text += content
            }
            func place(_ line: Int) -> (commit: String, line: Int) {
                let start = starts.last { $0.line <= line } ?? (1, "")
                return (start.commit, line - start.line + 1)
            }
            func name(_ commit: String) -> String { "\(ref) (note of \(commit.prefix(12)))" }
            do throws(HistoryFormat.ReadError) {
                var reading = try text.withUTF8 { bytes in
                    Result { () throws(HistoryFormat.ReadError) in
                        try HistoryFormat.read(UnsafeRawBufferPointer(bytes), path: ref, latestTime: latestTime)
                    }
                }.get()
                reading.warnings = reading.warnings.map { warning in
                    guard case .line(let line, _)? = warning.location else { return warning }
                    let (commit, inNote) = place(line)
                    var moved = warning
                    moved.file = name(commit)
                    moved.location = .line(inNote)
                    return moved
                }
                return reading
            } catch {
                let (commit, inNote) = place(error.line)
                throw HistoryFormat.ReadError(path: name(commit), line: inNote, message: error.message)
            }
        }
    }

    /// The history in `file`, mapped from `path`: an error saying so when the file shrank while it
    /// was read (the zeros past its new end read as damage, and the file is not damaged).
    package static func read(_ file: MappedFile, path: String, latestTime: Int64) throws -> HistoryFormat.Reading {
        let result = file.withUnsafeBytes { bytes in
            Result { () throws(HistoryFormat.ReadError) in
                try HistoryFormat.read(bytes, path: path, latestTime: latestTime, done: file.drop)
            }
        }
        guard !file.shrankWhileRead else {
            throw CoverageInputError.unreadable(path: path, reason: MappedFile.shrankMessage)
        }
        return try result.get()
    }

    /// Every note under `ref`: the commit it annotates and its text.
    private static func noteContents(ref: String, root: String) throws -> [(commit: String, text: String)] {
        let list = try Git.run(["notes", "--ref=\(ref)", "list"], in: root)
        guard list.status == 0 else { throw Failure(file: ref, message: "git notes: \(list.firstErrorLine)") }
        var notes: [(commit: String, text: String)] = []
        for line in list.trimmedOutput.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { continue }
            let blob = String(parts[0])
            let content = try Git.run(["cat-file", "blob", blob], in: root)
            guard content.status == 0 else {
                throw Failure(file: ref, message: "git cat-file: \(content.firstErrorLine)")
            }
            notes.append((String(parts[1]), content.output))
        }
        return notes
    }

    // MARK: Adding

    /// Adds `runs` of `history` at `home`, whose present names are `known` (those of the history
    /// read from it): to a file, by appending their lines in one write; to git notes, into the
    /// note of each run's commit, retrying when another process added to the notes meanwhile, so
    /// that no run is lost.
    package static func append(
        _ runs: [TestHistory.Run], of history: TestHistory, to home: Home, known: Set<String>, root: String
    ) throws {
        switch home {
        case .file(let path):
            try AppendOnlyFile.withLock(of: path) {
                // The names the file holds now: a compaction since `history` was read may have
                // dropped some of `known`'s.
                var known = Set(try read(home, root: root, latestTime: .max).history.names)
                try AppendOnlyFile.append(HistoryFormat.lines(of: runs, in: history, skippingNames: &known), to: path)
            }
        case .gitNotes(let ref):
            for run in runs {
                guard !run.commit.isEmpty else {
                    throw Failure(file: ref, message: "run \(run.id) has no commit: git notes need a git repository")
                }
                try appendToNote(run, of: history, ref: ref, root: root)
            }
        }
    }

    /// Git's identity for the notes' commits (a CI machine often has none configured).
    private static let identity = [
        "GIT_AUTHOR_NAME": "swiftcov", "GIT_AUTHOR_EMAIL": "swiftcov@localhost",
        "GIT_COMMITTER_NAME": "swiftcov", "GIT_COMMITTER_EMAIL": "swiftcov@localhost",
    ]

    /// Adds `run`'s lines to its commit's note.
    private static func appendToNote(_ run: TestHistory.Run, of history: TestHistory, ref: String, root: String) throws
    {
        try changeNotes(ref: ref, root: root, what: "run \(run.id) was added") { scratch, write in
            var note = ""
            var known = Set<String>()
            let shown = try Git.run(["notes", "--ref=\(scratch)", "show", run.commit], in: root)
            if shown.status == 0 {
                note = shown.output
                // The names this note already defines (a damaged note defines none: all are written).
                if let reading = try? note.withUTF8({ bytes throws(HistoryFormat.ReadError) in
                    try HistoryFormat.read(UnsafeRawBufferPointer(bytes), path: ref)
                }) {
                    known = Set(reading.history.names)
                }
            }
            if !note.isEmpty, !note.hasSuffix("\n") { note += "\n" }
            note += HistoryFormat.lines(of: [run], in: history, skippingNames: &known)
            try write(run.commit, note)
        }
    }

    /// Changes the notes under `ref` as `change` does on a private ref made from them (given its
    /// name, and a function writing a commit's note; "" removes it), then moves `ref` to the
    /// result only if no one moved it meanwhile (`git update-ref REF NEW OLD`); if someone did,
    /// again from the notes as they are now. No other process's change is lost.
    private static func changeNotes(
        ref: String, root: String, what: String,
        _ change: (_ scratch: String, _ write: (_ commit: String, _ note: String) throws -> Void) throws -> Void
    ) throws {
        // Private to this call, even among threads of one process.
        let unique = "\(CurrentProcess.id)-\(UInt64.random(in: 0...UInt64.max))"
        let scratch = "refs/notes/swiftcov-changing-" + unique
        let noteFile = CurrentProcess.temporaryFolder + "/swiftcov-note-" + unique
        TemporaryPaths.register(noteFile)
        defer {
            FileSystem.remove(noteFile)
            TemporaryPaths.unregister(noteFile)
            _ = try? Git.run(["update-ref", "-d", scratch], in: root)
        }
        func write(_ commit: String, _ note: String) throws {
            let result: Git.Result
            if note.isEmpty {
                result = try Git.run(["notes", "--ref=\(scratch)", "remove", commit], in: root, environment: identity)
            } else {
                try AtomicFile.write(note, to: noteFile)
                result = try Git.run(
                    ["notes", "--ref=\(scratch)", "add", "-f", "-F", noteFile, commit], in: root, environment: identity)
            }
            guard result.status == 0 else { throw Failure(file: ref, message: "git notes: \(result.firstErrorLine)") }
        }
        for attempt in 0..<20 {
            let current = try Git.run(["rev-parse", "-q", "--verify", ref], in: root)
            let old = current.status == 0 ? current.trimmedOutput : nil
            if let old {
                let copied = try Git.run(["update-ref", scratch, old], in: root)
                guard copied.status == 0 else { throw Failure(file: ref, message: "git: \(copied.firstErrorLine)") }
            } else {
                _ = try Git.run(["update-ref", "-d", scratch], in: root)
            }
            try change(scratch, write)
            let made = try Git.run(["rev-parse", "-q", "--verify", scratch], in: root)
            guard made.status == 0 else { return }  // nothing was, or is, there
            if made.trimmedOutput == old { return }  // nothing changed
            let moved = try Git.run(
                [
                    "update-ref", ref, made.trimmedOutput,
                    old ?? String(repeating: "0", count: made.trimmedOutput.count),
                ],
                in: root)
            if moved.status == 0 { return }
            // Another process changed the notes meanwhile: again, from its notes.
            CurrentProcess.sleep(microseconds: 10_000 + (attempt * 7919 + Int(CurrentProcess.id)) % 40_000)
        }
        throw Failure(file: ref, message: "the notes kept changing while \(what); try again")
    }

    // MARK: Compacting

    /// Which runs of `history` compaction keeps: the newest `runs` runs and those of the last
    /// `days` days (each when given).
    static func kept(_ history: TestHistory, runs: Int?, days: Int?, now: Int64) -> Set<String> {
        let cutoff = days.map { now - Int64($0) * 86_400 }
        let firstKept = runs.map { max(0, history.runs.count - $0) } ?? 0
        var ids = Set<String>()
        for (index, run) in history.runs.enumerated()
        where index >= firstKept && (cutoff.map { run.time >= $0 } ?? true) {
            ids.insert(run.id)
        }
        return ids
    }

    /// Keeps, of `history` (read from `home`), the newest `runs` runs and those of the last `days`
    /// days: a file is rewritten atomically; in git notes each note keeps its kept runs (a note
    /// left with none is removed), in one change of the notes. Returns how many runs were dropped.
    package static func compact(
        _ history: TestHistory, at home: Home, root: String, keepingRuns runs: Int?, days: Int?, now: Int64
    ) throws -> Int {
        let keep = kept(history, runs: runs, days: days, now: now)
        switch home {
        case .file(let path):
            // Under the lock, from the file as it is now: runs added since `history` was read are
            // kept (they are the newest).
            return try AppendOnlyFile.withLock(of: path) {
                let current = try read(home, root: root, latestTime: .max).history
                let keep = kept(current, runs: runs, days: days, now: now)
                try AtomicFile.write(HistoryFormat.encode(current.filter { keep.contains($0.id) }), to: path)
                return current.runs.count - keep.count
            }
        case .gitNotes(let ref):
            try changeNotes(ref: ref, root: root, what: "the notes were compacted") { scratch, write in
                for (commit, text) in try noteContents(ref: scratch, root: root) {
                    var text = text
                    let reading = try text.withUTF8 { bytes in
                        Result { () throws(HistoryFormat.ReadError) in
                            try HistoryFormat.read(UnsafeRawBufferPointer(bytes), path: ref)
                        }
                    }.get()
                    let remaining = reading.history.filter { keep.contains($0.id) }
                    guard remaining.runs.count < reading.history.runs.count else { continue }
                    try write(commit, remaining.runs.isEmpty ? "" : HistoryFormat.encode(remaining))
                }
            }
        }
        return history.runs.count - keep.count
    }
}
