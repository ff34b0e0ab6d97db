/// The files a unified diff changes and the lines it adds to each: what `git diff` prints (also
/// with renames, copies, binary files, `--no-prefix` and quoted names) and what `diff -u` prints.
package struct UnifiedDiff: Equatable, Sendable {
    /// The files in the order the diff lists them.
    package var files: [FileDiff]

    package init(files: [FileDiff]) {
        self.files = files
    }
}

/// One file of a diff.
package struct FileDiff: Equatable, Sendable {
    /// What happened to the file.
    package enum Status: String, Sendable {
        case added, modified, deleted, renamed, copied
    }

    /// Its path before the change, relative to the diff's root; nil for a new file.
    package var oldPath: String?
    /// Its path after the change; nil for a deleted file.
    package var newPath: String?
    /// Whether it was added, modified, deleted, renamed or copied.
    package var status: Status
    /// A binary file: git shows no lines for it.
    package var isBinary: Bool
    /// The line numbers, in the new file, of the lines the diff adds (`+`): the added and the
    /// changed lines, as a changed line is removed and added again. Ascending.
    package var addedLines: [UInt32]
    /// The line numbers, in the old file, of the lines the diff removes (`-`): the removed and
    /// the changed lines. Ascending. With `addedLines` they say where every other line went:
    /// the lines neither list names are the same lines on both sides, in order (`LineMap`).
    package var removedLines: [UInt32]
    /// The new side's lines the hunks show (context and added lines), with their text: what the
    /// current source file must hold for the diff to be of it. Empty when the diff names the file
    /// more than once (diffs pasted together), as their lines are then of several revisions.
    package var shownLines: [ShownLine]

    /// A line of the new side as the diff shows it, without its `+` or space.
    package struct ShownLine: Equatable, Sendable {
        package var line: UInt32
        package var text: Substring

        package init(line: UInt32, text: Substring) {
            self.line = line
            self.text = text
        }
    }

    package init(
        oldPath: String?, newPath: String?, status: Status, isBinary: Bool = false, addedLines: [UInt32] = [],
        removedLines: [UInt32] = [], shownLines: [ShownLine] = []
    ) {
        self.oldPath = oldPath
        self.newPath = newPath
        self.status = status
        self.isBinary = isBinary
        self.addedLines = addedLines
        self.removedLines = removedLines
        self.shownLines = shownLines
    }

    /// The path the file has after the change, or had before it when deleted.
    package var path: String { newPath ?? oldPath ?? "" }
}

/// Why a diff could not be read, and on which of its lines (1-based).
package struct DiffParseError: Error, Equatable, CustomStringConvertible {
    /// The 1-based line of the diff.
    package var line: Int
    /// What is wrong there.
    package var message: String

    package init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// "line 12: …"; the command line puts the diff's name in front.
    package var description: String { "line \(line): \(message)" }
}

extension UnifiedDiff {
    /// A line of text for a message: quoted, cut to 60 characters, control characters made visible.
    package static func quoted(_ line: Substring) -> String {
        let shown = line.prefix(60)
        return "'" + String(shown).terminalSafe + (shown.count < line.count ? "…'" : "'")
    }

    /// Reads a unified diff. Lines outside a file's headers and hunks (a commit message from
    /// `git show` or `git format-patch`, `index` lines) are skipped; a hunk cut short or a
    /// malformed hunk header is an error, as it would silently lose changed lines.
    ///
    /// Text that is not a diff is refused rather than read as "no changes", which would pass
    /// any threshold: NUL bytes (UTF-16 text, a binary file), or text with no file header, hunk
    /// or commit header at all. Empty text (or only blank lines) is a diff without changes.
    /// Lines may end in LF, CRLF or, when the text has no LF at all, CR.
    package static func parse(_ text: String) throws(DiffParseError) -> UnifiedDiff {
        let utf8 = text.utf8
        if let nul = utf8.firstIndex(of: 0) {
            let line = utf8[..<nul].lazy.filter { $0 == UInt8(ascii: "\n") }.count + 1
            throw DiffParseError(
                line: line, message: "not a unified diff: it contains NUL bytes (UTF-16 text or a binary file?)")
        }
        var parser = DiffParser()
        var number = 0
        // "\r\n" is one Character: a CRLF diff splits there too.
        let crOnly = !utf8.contains(UInt8(ascii: "\n"))
        var lines = text.split(omittingEmptySubsequences: false) {
            $0 == "\n" || $0 == "\r\n" || (crOnly && $0 == "\r")
        }
        // The newline that ends the last line does not start another one.
        if lines.last?.isEmpty == true { lines.removeLast() }
        for rawLine in lines {
            number += 1
            var line = rawLine
            if line.utf8.contains(0x1B) { line = Substring(String(line).strippingANSIEscapes) }
            try parser.consume(line, number: number)
        }
        let diff = try parser.finish(lineCount: number)
        guard parser.sawDiff || lines.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) || isCommitHeader(lines.first)
        else {
            throw DiffParseError(
                line: 1, message: "not a unified diff: no 'diff --git', '---' and '+++', or '@@' line in it")
        }
        return diff
    }

    /// Whether a text without file changes starts like `git show` or `git format-patch` output
    /// (an empty commit): `commit <hash>` or `From <hash> `.
    private static func isCommitHeader(_ line: Substring?) -> Bool {
        guard let line else { return false }
        for prefix in ["commit ", "From "] where line.hasPrefix(prefix) {
            let hash = line.dropFirst(prefix.count).prefix { $0 != " " }
            return hash.count >= 7 && hash.allSatisfy(\.isHexDigit)
        }
        return false
    }
}

/// The state of `UnifiedDiff.parse` between two lines.
private struct DiffParser {
    /// A file being read.
    struct Entry {
        var isGit: Bool
        /// The path `diff --git` names when both of its sides name the same file.
        var headerPath: String?
        /// Whether the paths carry git's `a/` and `b/` (or other) prefixes.
        var prefixed = true
        /// The paths of `---` and `+++`; `.some(nil)` for /dev/null.
        var minusPath: String??
        var plusPath: String??
        var renameFrom: String?
        var renameTo: String?
        var isCopy = false
        var isNew = false
        var isDeleted = false
        var isBinary = false
        var addedLines: [UInt32] = []
        var removedLines: [UInt32] = []
        var shownLines: [FileDiff.ShownLine] = []
    }

    /// The hunk being read: how many old and new lines are still to come.
    struct Hunk {
        var header: Int
        var oldRemaining: Int
        var newRemaining: Int
        var newLine: UInt32
        var oldLine: UInt32
    }

    var files: [FileDiff] = []
    /// Whether any file header or hunk was seen.
    var sawDiff = false
    var entry: Entry? {
        didSet { if entry != nil { sawDiff = true } }
    }
    var hunk: Hunk?
    var inBinaryPatch = false

    mutating func consume(_ line: Substring, number: Int) throws(DiffParseError) {
        if var current = hunk {
            switch line.utf8.first {
            case UInt8(ascii: " "), nil, UInt8(ascii: "\r"):
                // An empty line is a context line whose space an editor or mailer trimmed.
                entry?.shownLines.append(FileDiff.ShownLine(line: current.newLine, text: line.dropFirst()))
                current.oldRemaining -= 1
                current.newRemaining -= 1
                current.newLine &+= 1  // past the hunk's last line only when the hunk ends
                current.oldLine &+= 1
            case UInt8(ascii: "-"):
                entry?.removedLines.append(current.oldLine)
                current.oldLine &+= 1
                current.oldRemaining -= 1
            case UInt8(ascii: "+"):
                entry?.addedLines.append(current.newLine)
                entry?.shownLines.append(FileDiff.ShownLine(line: current.newLine, text: line.dropFirst()))
                current.newLine &+= 1
                current.newRemaining -= 1
            case UInt8(ascii: "\\"):
                return  // "\ No newline at end of file"
            default:
                throw DiffParseError(
                    line: number,
                    message: "the hunk that starts on line \(current.header) ends early: \(describe(line))")
            }
            guard current.oldRemaining >= 0, current.newRemaining >= 0 else {
                throw DiffParseError(
                    line: number, message: "the hunk that starts on line \(current.header) has more lines than it says")
            }
            hunk = current.oldRemaining == 0 && current.newRemaining == 0 ? nil : current
            return
        }
        let line = line.utf8.last == UInt8(ascii: "\r") ? line.dropLast() : line
        if line.hasPrefix("diff --git ") {
            finishEntry()
            inBinaryPatch = false
            var started = Entry(isGit: true)
            if let (path, prefixed) = Self.headerPath(line.dropFirst("diff --git ".count)) {
                started.headerPath = path
                started.prefixed = prefixed
            }
            entry = started
            return
        }
        if line.hasPrefix("diff --cc ") || line.hasPrefix("diff --combined ") {
            throw DiffParseError(
                line: number, message: "combined diffs of a merge are not supported; diff against one parent")
        }
        if inBinaryPatch { return }
        if line.hasPrefix("--- ") {
            if entry == nil || entry?.plusPath != nil { startPlainEntry() }
            entry?.minusPath = .some(Self.path(line.dropFirst(4)))
        } else if line.hasPrefix("+++ "), entry != nil, entry?.plusPath == nil {
            entry?.plusPath = .some(Self.path(line.dropFirst(4)))
        } else if line.hasPrefix("@@ ") {
            guard entry != nil else {
                throw DiffParseError(line: number, message: "a hunk before any file header ('diff --git' or '---')")
            }
            guard let parsed = Self.hunkHeader(line) else {
                throw DiffParseError(line: number, message: "malformed hunk header: \(describe(line))")
            }
            guard parsed.new == 0 || Int(parsed.start) + parsed.new - 1 <= Int(UInt32.max),
                parsed.old == 0 || Int(parsed.oldStart) + parsed.old - 1 <= Int(UInt32.max)
            else {
                throw DiffParseError(
                    line: number, message: "hunk header out of range (lines past 4294967295): \(describe(line))")
            }
            if parsed.old > 0 || parsed.new > 0 {
                hunk = Hunk(
                    header: number, oldRemaining: parsed.old, newRemaining: parsed.new, newLine: parsed.start,
                    oldLine: parsed.oldStart)
            }
        } else if entry?.isGit == true {
            consumeGitHeader(line)
        }
    }

    mutating func consumeGitHeader(_ line: Substring) {
        if line.hasPrefix("new file mode ") {
            entry?.isNew = true
        } else if line.hasPrefix("deleted file mode ") {
            entry?.isDeleted = true
        } else if line.hasPrefix("rename from ") {
            entry?.renameFrom = Self.unquoted(line.dropFirst("rename from ".count))
        } else if line.hasPrefix("rename to ") {
            entry?.renameTo = Self.unquoted(line.dropFirst("rename to ".count))
        } else if line.hasPrefix("copy from ") {
            entry?.renameFrom = Self.unquoted(line.dropFirst("copy from ".count))
            entry?.isCopy = true
        } else if line.hasPrefix("copy to ") {
            entry?.renameTo = Self.unquoted(line.dropFirst("copy to ".count))
            entry?.isCopy = true
        } else if line.hasPrefix("Binary files ") && line.hasSuffix(" differ") {
            entry?.isBinary = true
        } else if line == "GIT binary patch" {
            entry?.isBinary = true
            inBinaryPatch = true
        }
    }

    mutating func startPlainEntry() {
        finishEntry()
        entry = Entry(isGit: false)
    }

    mutating func finishEntry() {
        guard let entry else { return }
        self.entry = nil
        var oldPath: String?
        var newPath: String?
        if entry.isGit {
            let strip = { (path: String) in entry.prefixed ? Self.droppingFirstComponent(path) : path }
            oldPath = entry.renameFrom ?? entry.minusPath.map { $0.map(strip) } ?? entry.headerPath
            newPath = entry.renameTo ?? entry.plusPath.map { $0.map(strip) } ?? entry.headerPath
        } else {
            oldPath = entry.minusPath ?? nil
            newPath = entry.plusPath ?? nil
            // `diff -u a/x b/x`: the same a/ and b/ prefixes git writes.
            if oldPath?.hasPrefix("a/") ?? true, newPath?.hasPrefix("b/") ?? true {
                oldPath = oldPath.map { String($0.dropFirst(2)) }
                newPath = newPath.map { String($0.dropFirst(2)) }
            }
        }
        let status: FileDiff.Status
        if entry.isNew || (entry.minusPath.map { $0 == nil } ?? false) {
            status = .added
            oldPath = nil
        } else if entry.isDeleted || (entry.plusPath.map { $0 == nil } ?? false) {
            status = .deleted
            newPath = nil
        } else if entry.renameTo != nil {
            status = entry.isCopy ? .copied : .renamed
        } else {
            status = .modified
        }
        guard oldPath != nil || newPath != nil else { return }
        files.append(
            FileDiff(
                oldPath: oldPath, newPath: newPath, status: status, isBinary: entry.isBinary,
                addedLines: entry.addedLines, removedLines: entry.removedLines, shownLines: entry.shownLines))
    }

    mutating func finish(lineCount: Int) throws(DiffParseError) -> UnifiedDiff {
        if let hunk {
            throw DiffParseError(
                line: lineCount,
                message: "the diff ends inside the hunk that starts on line \(hunk.header) (truncated?)")
        }
        finishEntry()
        return UnifiedDiff(files: files)
    }

    private func describe(_ line: Substring) -> String {
        UnifiedDiff.quoted(line)
    }

    /// `@@ -l[,s] +l[,s] @@`: the new and old file's first lines and the old and new line counts.
    static func hunkHeader(_ line: Substring) -> (start: UInt32, oldStart: UInt32, old: Int, new: Int)? {
        let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard fields.count == 4, fields[0] == "@@", fields[1].hasPrefix("-"), fields[2].hasPrefix("+"),
            fields[3].hasPrefix("@@"),
            let old = range(fields[1].dropFirst()), let new = range(fields[2].dropFirst())
        else { return nil }
        return (new.start, old.start, old.count, new.count)
    }

    private static func range(_ text: Substring) -> (start: UInt32, count: Int)? {
        // Line numbers and counts are 32-bit, as in git; a larger one is not a line number.
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= 2, let start = UInt32(parts[0]) else { return nil }
        guard parts.count == 2 else { return (start, 1) }
        guard let count = UInt32(parts[1]) else { return nil }
        return (start, Int(count))
    }

    /// The path of a `---`/`+++` line: unquoted, without the tab and timestamp `diff -u` adds
    /// (git adds a tab after names with spaces); nil for /dev/null.
    static func path(_ text: Substring) -> String? {
        let path: String
        if text.first == "\"", let end = closingQuote(text) {
            path = unquoted(text[...end])
        } else {
            path = String(text.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)[0])
        }
        return path == "/dev/null" ? nil : path
    }

    /// The file both sides of `diff --git A B` name, and whether they carry prefixes (`a/x b/x`)
    /// or not (`--no-prefix`: `x x`); nil when the sides differ (a rename), as a name with
    /// spaces cannot be split then: the `rename`, `---` and `+++` lines give the paths.
    static func headerPath(_ text: Substring) -> (String, Bool)? {
        var sides: [String] = []
        if text.first == "\"" || text.hasSuffix("\"") {
            var rest = text
            while !rest.isEmpty {
                if rest.first == "\"" {
                    guard let end = closingQuote(rest) else { return nil }
                    sides.append(unquoted(rest[...end]))
                    rest = rest[rest.index(after: end)...].drop { $0 == " " }
                } else if rest.hasSuffix("\"") {
                    guard let space = rest.firstIndex(of: " ") else { return nil }
                    sides.append(String(rest[..<space]))
                    rest = rest[rest.index(after: space)...]
                } else {
                    sides.append(String(rest))
                    rest = ""
                }
            }
            guard sides.count == 2 else { return nil }
            return match(sides[0], sides[1])
        }
        // Unquoted: try each space as the separator.
        var index = text.startIndex
        while let space = text[index...].firstIndex(of: " ") {
            if let found = match(String(text[..<space]), String(text[text.index(after: space)...])) { return found }
            index = text.index(after: space)
        }
        return nil
    }

    /// The index of the quote that closes the quoted string `text` starts with.
    static func closingQuote(_ text: Substring) -> Substring.Index? {
        var escaped = false
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            if !escaped && text[index] == "\"" { return index }
            escaped = !escaped && text[index] == "\\"
            index = text.index(after: index)
        }
        return nil
    }

    private static func match(_ a: String, _ b: String) -> (String, Bool)? {
        if a == b { return (a, false) }
        let strippedA = droppingFirstComponent(a)
        let strippedB = droppingFirstComponent(b)
        if strippedA != a, strippedA == strippedB { return (strippedA, true) }
        return nil
    }

    static func droppingFirstComponent(_ path: String) -> String {
        guard let slash = path.firstIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// A path as git writes it: in double quotes with C escapes (`\t`, `\"`, `\303\251` for the
    /// bytes of é) when it has special characters; as is otherwise.
    static func unquoted(_ text: Substring) -> String {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8.dropFirst().dropLast())[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = utf8.popFirst() else {
                bytes.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "a"): bytes.append(0x07)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "v"): bytes.append(0x0B)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(next - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let digit = utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { break }
                    value = value * 8 + Int(digit - UInt8(ascii: "0"))
                    utf8.removeFirst()
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            default: bytes.append(next)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
