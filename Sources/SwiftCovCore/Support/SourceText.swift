/// A source file's lines, as bytes, for rendering it beside its coverage.
package struct SourceText: Sendable {
    private let file: MappedFile
    private let lineStarts: [Int]

    /// Reads the file at `path`; nil when it cannot be read.
    package init?(path: String) {
        guard let file = try? MappedFile(path: path) else { return nil }
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
