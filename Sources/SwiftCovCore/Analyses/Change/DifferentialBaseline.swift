/// The per-line coverage of the base revision a change is measured against: read from an
/// llvm-cov export, or from a `swiftcov report --format json --show lines` document (small
/// enough to keep as a CI artifact of the main branch). Which one a file is, is detected.
package struct DifferentialBaseline: Sendable {
    /// What the baseline was read from.
    package enum Format: String, Sendable {
        case llvmCovExport = "llvm-cov export"
        case swiftcovJSON = "swiftcov JSON report"
    }

    /// One file of the baseline.
    package struct File: Sendable {
        /// The path as the baseline writes it (absolute, on the machine that made it).
        package var path: String
        fileprivate var source: Source

        fileprivate enum Source: Sendable {
            case export(FileCoverage)
            case lines([LineCount])
        }

        /// A file with these line counts (for tests).
        package init(path: String, lineCounts: [LineCount]) {
            self.init(path: path, source: .lines(lineCounts))
        }

        fileprivate init(path: String, source: Source) {
            self.path = path
            self.source = source
        }

        /// Its executable lines and their counts: the line view, as in the current report.
        package func lineCounts() throws(CoverageInputError) -> [LineCount] {
            switch source {
            case .export(let file): try file.lineCounts()
            case .lines(let counts): counts
            }
        }
    }

    /// The baseline's name in messages (its path as given).
    package var name: String
    package var format: Format
    package var files: [File]

    package init(name: String, format: Format, files: [File]) {
        self.name = name
        self.format = format
        self.files = files
    }
}

extension DifferentialBaseline {
    /// Reads the baseline at `path` (a file, "-" for standard input).
    package static func read(path: String) throws(CoverageInputError) -> DifferentialBaseline {
        let document: MappedFile
        do {
            document = try MappedFile(path: path)
        } catch {
            throw .unreadable(path: path, reason: error.message)
        }
        return try read(document, name: path)
    }

    /// Reads a baseline held in `document`; `name` names it in errors.
    package static func read(_ document: MappedFile, name: String) throws(CoverageInputError) -> DifferentialBaseline {
        let isSwiftcovJSON = document.withUnsafeBytes { buffer in
            var scanner = JSONScanner(buffer)
            var started = false
            guard (try? scanner.beginObject()) != nil, let key = try? scanner.nextMember(&started) else {
                return false
            }
            return key.equals("schemaVersion")
        }
        do throws(JSONError) {
            if isSwiftcovJSON {
                let files = try document.withUnsafeBytes { buffer throws(JSONError) in try readReport(buffer) }
                return DifferentialBaseline(name: name, format: .swiftcovJSON, files: files)
            }
            let export = try LLVMCovExportReader.read(document, names: false)
            let report = try? CoverageReport.build(
                exports: [export], scope: CoverageScope(root: nil, allFiles: true), includeFunctions: false)
            let files = (report?.files ?? []).map { File(path: $0.path, source: .export($0)) }
            return DifferentialBaseline(name: name, format: .llvmCovExport, files: files)
        } catch {
            let keyPath = document.withUnsafeBytes { JSONKeyPath.path(at: error.offset, in: $0) }
            throw .malformed(path: name, offset: error.offset, keyPath: keyPath, message: error.message)
        }
    }

    /// Reads the files and line counts of a `swiftcov report --format json --show lines`
    /// document, skipping everything else.
    static func readReport(_ buffer: UnsafeRawBufferPointer) throws(JSONError) -> [File] {
        var scanner = JSONScanner(buffer)
        try scanner.beginObject()
        var started = false
        var files: [File] = []
        var sawFiles = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("schemaVersion") {
                let offset = scanner.offset
                let version = try scanner.readInt()
                guard version == Int64(CoverageJSONReport.schemaVersion) else {
                    throw JSONError(
                        offset: offset,
                        message: "schema version \(version) of a swiftcov JSON report; this swiftcov reads version "
                            + "\(CoverageJSONReport.schemaVersion)")
                }
            } else if key.equals("files") {
                sawFiles = true
                try scanner.beginArray()
                var more = false
                while try scanner.nextElement(&more) { files.append(try readFile(&scanner)) }
            } else {
                try scanner.skipValue()
            }
        }
        guard scanner.isAtEnd() else { throw scanner.error("unexpected data after the document") }
        guard sawFiles else { throw JSONError(offset: 0, message: "not a swiftcov JSON report: it has no \"files\"") }
        return files
    }

    private static func readFile(_ scanner: inout JSONScanner) throws(JSONError) -> File {
        let start = scanner.offset
        try scanner.beginObject()
        var started = false
        var path: String?
        var counts: [LineCount]?
        while let key = try scanner.nextMember(&started) {
            if key.equals("path") {
                path = try scanner.readString()
            } else if key.equals("lineCounts") {
                counts = try readLineCounts(&scanner)
            } else {
                try scanner.skipValue()
            }
        }
        guard let path else { throw JSONError(offset: start, message: "a file without \"path\"") }
        guard let counts else {
            throw JSONError(
                offset: start,
                message: "a file without \"lineCounts\": make the baseline with "
                    + "`swiftcov report --format json --show lines`")
        }
        return File(path: path, lineCounts: counts)
    }

    /// `[[line, count], …]`, lines ascending.
    private static func readLineCounts(_ scanner: inout JSONScanner) throws(JSONError) -> [LineCount] {
        try scanner.beginArray()
        var counts: [LineCount] = []
        var more = false
        while try scanner.nextElement(&more) {
            let offset = scanner.offset
            try scanner.beginArray()
            var pair = false
            guard try scanner.nextElement(&pair) else {
                throw JSONError(offset: offset, message: "expected [line, count]")
            }
            let line = try scanner.readInt()
            guard try scanner.nextElement(&pair) else {
                throw JSONError(offset: offset, message: "expected [line, count]")
            }
            let count = try scanner.readInt()
            guard !(try scanner.nextElement(&pair)) else {
                throw JSONError(offset: offset, message: "expected [line, count]")
            }
            guard line >= 1, line <= Int64(UInt32.max), count >= 0 else {
                throw JSONError(
                    offset: offset, message: "expected a line number and a count, found [\(line), \(count)]")
            }
            if let last = counts.last, last.line >= UInt32(line) {
                throw JSONError(offset: offset, message: "line \(line) after line \(last.line): lines must ascend")
            }
            guard counts.count < LineCoverage.maximumExecutableLines else {
                throw JSONError(offset: offset, message: "more than \(LineCoverage.maximumExecutableLines) lines")
            }
            counts.append(LineCount(line: UInt32(line), count: UInt64(count)))
        }
        return counts
    }
}
