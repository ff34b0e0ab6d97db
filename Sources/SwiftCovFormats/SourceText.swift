import SwiftCovPlatform

/// A source file's lines, as bytes, for rendering it beside its coverage.
///
/// Only regular files of at most `maximumSize` bytes are read: never a device (`/dev/zero`
/// would grow memory without end, opening some devices does something), a FIFO or a terminal
/// (`/dev/stdin` would wait for ever), whatever path an export names.
package struct SourceText: Sendable {
    private let file: MappedFile
    private let lineStarts: [Int]

    /// The largest source file read: 64 MiB, far more than any source file.
    package static let maximumSize = 64 << 20

    /// Why a source file was not read.
    package enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// It does not exist or cannot be opened: the system's reason.
        case unreadable(String)
        case notARegularFile
        case tooLarge(bytes: Int)
        /// Its real path (symlinks resolved) is outside the package root.
        case outsideRoot

        package var description: String {
            switch self {
            case .unreadable(let reason): reason
            case .notARegularFile: "not a regular file"
            case .tooLarge(let bytes): "larger than \(SourceText.maximumSize >> 20) MiB (\(bytes) bytes)"
            case .outsideRoot: "outside the package root"
            }
        }
    }

    /// Reads the file at `path`; nil when it cannot be read (see `read(_:)`).
    package init?(path: String) {
        guard case .success(let text) = SourceText.read(path) else { return nil }
        self = text
    }

    /// Reads the regular file at `path` (symlinks followed) of at most `maximumSize` bytes.
    package static func read(_ path: String) -> Result<SourceText, Problem> {
        // Look before opening: opening a FIFO blocks, opening a device may act.
        let found: (kind: FileKind, size: Int)
        do { found = try FileSystem.status(of: path) } catch { return .failure(.unreadable(error.reason)) }
        guard found.kind == .file else { return .failure(.notARegularFile) }
        let size = found.size
        guard size <= maximumSize else { return .failure(.tooLarge(bytes: size)) }
        do {
            return .success(SourceText(file: try MappedFile(path: path, regularFileOfAtMost: maximumSize)))
        } catch {
            return .failure(.unreadable(error.message))
        }
    }

    private init(file: MappedFile) {
        self.file = file
        var starts = [0]
        file.withUnsafeBytes { bytes in
            for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        }
        if starts.count > 1 && starts.last == file.count { starts.removeLast() }
        if file.count == 0 { starts = [] }
        lineStarts = starts
    }

    /// Number of lines (a last line without a newline counts).
    package var lineCount: Int { lineStarts.count }

    /// Calls `body` with the bytes of 1-based `line`, without its line break.
    package func withLine<R>(_ line: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        file.withUnsafeBytes { bytes in
            let start = lineStarts[line - 1]
            var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
            if end > start && bytes[end - 1] == 0x0A { end -= 1 }  // the last line's own newline
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            let buffer = UnsafeRawBufferPointer(rebasing: bytes[start..<max(start, end)]).bindMemory(to: UInt8.self)
            return body(buffer)
        }
    }

    /// Number of bytes in 1-based `line`.
    package func length(ofLine line: Int) -> Int {
        withLine(line) { $0.count }
    }
}

/// Reads the source files of a report, only from inside its package root: the real path of a
/// file (`..` and symlinks resolved) must lie inside the real path of the root, so that an
/// export naming `Sources/../../../etc/passwd`, or a symlink in a checkout, cannot put files
/// from elsewhere into a report. Relative paths are relative to the root. To show sources
/// outside the package, give a root that contains them.
package struct SourceFiles: Sendable {
    private let root: String?
    private let realRoot: String?

    /// Sources under `root` (absolute); without a root, any path is read, relative to the
    /// working directory.
    package init(root: String?) {
        self.root = root
        realRoot = root.flatMap(FileSystem.realPath)
    }

    /// The source text of the export's `path`, or why it was not read.
    package func read(_ path: String) -> Result<SourceText, SourceText.Problem> {
        guard let root else { return SourceText.read(path) }
        let absolute = path.hasPrefix("/") ? path : root + "/" + path
        let real: String
        do { real = try FileSystem.resolvedPath(absolute) } catch { return .failure(.unreadable(error.reason)) }
        guard let realRoot, real == realRoot || real.hasPrefix(realRoot == "/" ? "/" : realRoot + "/") else {
            return .failure(.outsideRoot)
        }
        return SourceText.read(real)
    }

}
