import SwiftCovCore

/// Builds a large llvm-cov export from a real one: the files and function records of every
/// `data` entry are repeated, copy `k` under new module names (`PathRenamer`, `SymbolRenamer`),
/// until the output reaches a size. Copy 0 is the original.
///
/// The input is read once into a template: the document as byte ranges, with the places that
/// change per copy (file names, function names) marked. The output is streamed from the
/// template, so memory stays at the input's size whatever the output's. `totals` are the
/// input's multiplied by the number of copies (percentages unchanged): exact when the input's
/// totals are the sum of its files, as in any export llvm-cov wrote.
package struct ExportReplicator {
    /// What a replication produced.
    package struct Summary: Sendable, Equatable {
        /// Number of copies, the original included.
        package var copies: Int
        /// Bytes written.
        package var bytes: Int
        /// File entries written.
        package var files: Int
        /// Function records written.
        package var functions: Int
        /// Function names renamed through their module's identifier.
        package var moduleRenames: Int
        /// Function names renamed through another identifier (no module identifier worked).
        package var otherRenames: Int
        /// Function names given a plain `_k` suffix (not Swift symbols).
        package var appendedNames: Int
    }

    /// A function name, split for writing copy `k` fast: JSON-escaped parts around the copy number.
    private struct EncodedSymbol {
        /// Opening quote and everything before the length of the renamed chunk.
        var head: [UInt8]
        /// The renamed chunk's length before the suffix, or -1 when the suffix is just appended.
        var chunkLength: Int
        var chunk: [UInt8]
        /// Everything after the suffix, closing quote included.
        var tail: [UInt8]
    }

    /// Whether copies keep the original's file and function names: one export naming every
    /// file and function many times, as exports of the same files put together do.
    package var samePaths = false
    private let document: MappedFile
    private let template: ExportTemplate
    private var symbols: [EncodedSymbol] = []
    private var renamer: SymbolRenamer

    /// Reads the export at `path` into a template.
    package init(input path: String) throws(BenchmarkError) {
        do {
            document = try MappedFile(path: path)
        } catch {
            throw BenchmarkError("\(path): \(error.message)")
        }
        do {
            template = try document.withUnsafeBytes { (buffer) throws(JSONError) in try ExportTemplate(buffer) }
        } catch {
            throw BenchmarkError("\(path): not an llvm-cov export: \(error.description)")
        }
        guard template.sawData else { throw BenchmarkError("\(path): not an llvm-cov export (no \"data\")") }
        renamer = SymbolRenamer(names: template.names)
        for name in template.names {
            symbols.append(ExportReplicator.encode(renamer.template(for: name)))
        }
    }

    /// Distinct file names of the input.
    package var fileNames: [String] { template.paths }

    /// Writes the replicated export to `path`: `copies` copies, or as many as it takes to reach
    /// `targetSize` bytes.
    package func write(to path: String, targetSize: Int? = nil, copies: Int? = nil) throws(BenchmarkError) -> Summary {
        let count = copies ?? copiesNeeded(for: targetSize ?? 0)
        guard count >= 1 else { throw BenchmarkError("the number of copies must be at least 1") }
        let output = try BufferedOutput(path: path)
        try document.withUnsafeBytes { (buffer) throws(BenchmarkError) in
            for piece in template.pieces {
                switch piece {
                case .raw(let range):
                    try output.write(UnsafeRawBufferPointer(rebasing: buffer[range]))
                case .copies(let range, _):
                    try writeCopies(of: range, count: count, from: buffer, to: output)
                case .totals(let range):
                    try output.write(scaledTotals(range, by: count, in: buffer))
                }
            }
        }
        try output.flush()
        let (fileItems, functionItems) = itemCounts()
        return Summary(
            copies: count, bytes: output.count, files: fileItems * count, functions: functionItems * count,
            moduleRenames: renamer.moduleRenames, otherRenames: renamer.otherRenames,
            appendedNames: renamer.appendedNames)
    }

    /// The size of the output with `copies` copies, computed without writing it.
    package func outputSize(copies: Int) -> Int {
        var size = 0
        document.withUnsafeBytes { buffer in
            for piece in template.pieces {
                switch piece {
                case .raw(let range): size += range.count
                case .copies(let range, _):
                    for copy in 0..<copies { size += copySize(of: range, copy: copy) }
                    size += max(0, range.count * copies - 1)
                case .totals(let range): size += scaledTotals(range, by: copies, in: buffer).count
                }
            }
        }
        return size
    }

    /// The fewest copies whose output reaches `targetSize` bytes (at least 1).
    package func copiesNeeded(for targetSize: Int) -> Int {
        var size = 0
        var perCopy: [Range<Int>] = []
        var totals: [Range<Int>] = []
        for piece in template.pieces {
            switch piece {
            case .raw(let range): size += range.count
            case .copies(let range, _): perCopy.append(range)
            case .totals(let range): totals.append(range)
            }
        }
        func totalsSize(copies: Int) -> Int {
            document.withUnsafeBytes { buffer in
                totals.reduce(0) { $0 + scaledTotals($1, by: copies, in: buffer).count }
            }
        }
        var copies = 0
        repeat {
            for range in perCopy {
                size += copySize(of: range, copy: copies) + (copies == 0 ? max(0, range.count - 1) : range.count)
            }
            copies += 1
        } while size + totalsSize(copies: copies) < targetSize
        return copies
    }

    private func itemCounts() -> (files: Int, functions: Int) {
        var files = 0
        var functions = 0
        for piece in template.pieces {
            guard case .copies(let range, let isFunctions) = piece else { continue }
            if isFunctions { functions += range.count } else { files += range.count }
        }
        return (files, functions)
    }

    /// Bytes of copy `copy` of the items `range`, separators not included.
    private func copySize(of range: Range<Int>, copy: Int) -> Int {
        var size = 0
        for item in template.items[range] { size += item.bytes.count }
        guard copy > 0, !samePaths else { return size }
        let suffix = SymbolRenamer.suffix(copy: copy)
        var pathSizes: [Int: Int] = [:]
        for item in template.items[range] {
            for splice in template.splices[item.splices] {
                size -= splice.bytes.count
                if splice.symbol >= 0 {
                    size += ExportReplicator.size(of: symbols[Int(splice.symbol)], suffix: suffix)
                } else {
                    let id = Int(splice.path)
                    if let known = pathSizes[id] {
                        size += known
                    } else {
                        let bytes = renamedPath(id, copy: copy).count
                        pathSizes[id] = bytes
                        size += bytes
                    }
                }
            }
        }
        return size
    }

    private func writeCopies(
        of range: Range<Int>, count: Int, from buffer: UnsafeRawBufferPointer, to output: BufferedOutput
    )
        throws(BenchmarkError)
    {
        var first = true
        for copy in 0..<count {
            let suffix = SymbolRenamer.suffix(copy: copy)
            let renamedPaths =
                copy == 0 || samePaths ? [] : template.paths.indices.map { renamedPath($0, copy: copy) }
            for item in template.items[range] {
                if !first { try output.write(byte: UInt8(ascii: ",")) }
                first = false
                guard copy > 0, !samePaths else {
                    try output.write(UnsafeRawBufferPointer(rebasing: buffer[item.bytes]))
                    continue
                }
                var cursor = item.bytes.lowerBound
                for splice in template.splices[item.splices] {
                    try output.write(UnsafeRawBufferPointer(rebasing: buffer[cursor..<splice.bytes.lowerBound]))
                    if splice.symbol >= 0 {
                        try ExportReplicator.write(symbols[Int(splice.symbol)], suffix: suffix, to: output)
                    } else {
                        try output.write(renamedPaths[Int(splice.path)])
                    }
                    cursor = splice.bytes.upperBound
                }
                try output.write(UnsafeRawBufferPointer(rebasing: buffer[cursor..<item.bytes.upperBound]))
            }
        }
    }

    /// The JSON string literal of copy `copy` of file name `id`.
    private func renamedPath(_ id: Int, copy: Int) -> [UInt8] {
        Array(JSONText.quoted(PathRenamer.renamed(template.paths[id], copy: copy)).utf8)
    }

    private static func encode(_ template: SymbolRenamer.Template) -> EncodedSymbol {
        let quote = UInt8(ascii: "\"")
        switch template {
        case .identifier(let head, let chunk, let tail, _):
            return EncodedSymbol(
                head: [quote] + JSONText.escaped(head), chunkLength: chunk.count, chunk: JSONText.escaped(chunk),
                tail: JSONText.escaped(tail) + [quote])
        case .appended(let name):
            return EncodedSymbol(head: [quote] + JSONText.escaped(name), chunkLength: -1, chunk: [], tail: [quote])
        }
    }

    private static func size(of symbol: EncodedSymbol, suffix: [UInt8]) -> Int {
        var size = symbol.head.count + symbol.chunk.count + suffix.count + symbol.tail.count
        if symbol.chunkLength >= 0 { size += decimalDigits(symbol.chunkLength + suffix.count) }
        return size
    }

    private static func write(_ symbol: EncodedSymbol, suffix: [UInt8], to output: BufferedOutput)
        throws(BenchmarkError)
    {
        try output.write(symbol.head)
        if symbol.chunkLength >= 0 { try output.write(decimal: symbol.chunkLength + suffix.count) }
        try output.write(symbol.chunk)
        try output.write(suffix)
        try output.write(symbol.tail)
    }

    private static func decimalDigits(_ value: Int) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// The `totals` object with every `count`, `covered` and `notcovered` multiplied by `factor`.
    private func scaledTotals(_ range: Range<Int>, by factor: Int, in buffer: UnsafeRawBufferPointer) -> [UInt8] {
        let totals = UnsafeRawBufferPointer(rebasing: buffer[range])
        var scanner = JSONScanner(totals)
        var output: [UInt8] = []
        do {
            try ExportReplicator.scale(&scanner, totals, by: factor, into: &output, depth: 0)
            return output
        } catch {
            return Array(totals)  // Cannot happen: the template builder read it.
        }
    }

    private static func scale(
        _ scanner: inout JSONScanner, _ bytes: UnsafeRawBufferPointer, by factor: Int, into output: inout [UInt8],
        depth: Int
    ) throws(JSONError) {
        guard depth < 32, scanner.peek() == UInt8(ascii: "{") else {
            let start = scanner.offset
            try scanner.skipValue()
            output.append(contentsOf: bytes[start..<scanner.offset])
            return
        }
        try scanner.beginObject()
        output.append(UInt8(ascii: "{"))
        var started = false
        while let key = try scanner.nextMember(&started) {
            if output.last != UInt8(ascii: "{") { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: UnsafeBufferPointer(start: key.start, count: key.count))
            output.append(contentsOf: "\":".utf8)
            let next = scanner.peek() ?? 0
            if key.equals("count") || key.equals("covered") || key.equals("notcovered"), next.isDigit,
                let value = try? scanner.readInt()
            {
                let (product, overflow) = Int(value).multipliedReportingOverflow(by: factor)
                output.append(contentsOf: String(overflow ? Int.max : product).utf8)
            } else {
                try scale(&scanner, bytes, by: factor, into: &output, depth: depth + 1)
            }
        }
        output.append(UInt8(ascii: "}"))
    }
}
