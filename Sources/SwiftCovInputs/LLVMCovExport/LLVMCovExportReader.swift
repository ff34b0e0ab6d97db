import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// Reads an llvm-cov JSON export (versions 2.x and 3.x) straight from its bytes.
///
/// This is swiftcov's hot path: exports of large packages run to hundreds of megabytes, so it
/// drives `JSONScanner` over the mapped document with no intermediate tree, summarizes each
/// function record as soon as it is read, and only notes where each file's `segments` are.
/// Errors carry a byte offset; `JSONKeyPath` turns it into a key path for the message.
package enum LLVMCovExportReader {
    /// The major versions this reader understands.
    package static let supportedMajorVersions: Set<Int> = [2, 3]

    /// Reads the export held in `document`. With `keepMappings`, function records keep their
    /// regions and file names so that they can be merged with another export's; without
    /// `names`, their names are left empty (a report without a function list needs none).
    ///
    /// With `summariesOnly` (a report that lists no functions and merges nothing), the function
    /// records are read and checked but neither kept nor summarized: each file's numbers are
    /// then the export's own `summary`, which llvm-cov computes from the same records as
    /// swiftcov does (§3). When a file has no summary or is named twice, the records are kept
    /// after all.
    package static func read(
        _ document: MappedFile, keepMappings: Bool = false, names: Bool = true, summariesOnly: Bool = false
    ) throws(JSONError) -> LLVMCovExport {
        try document.withUnsafeBytes { buffer throws(JSONError) -> LLVMCovExport in
            var reader = Reader(
                document: document, buffer: buffer, keepMappings: keepMappings, names: names || keepMappings,
                skipsRecords: summariesOnly && !keepMappings)
            do throws(JSONError) {
                try reader.readRoot()
            } catch {
                // Say "not an export" rather than a confusing detail when that is the real problem.
                if let header = try? readHeader(buffer), header.type != exportType {
                    throw notAnExport(header)
                }
                throw error
            }
            guard let type = reader.type, type == exportType else {
                throw notAnExport(Header(type: reader.type, version: reader.version))
            }
            guard let version = reader.version else {
                throw JSONError(offset: 0, message: "the export has no \"version\"")
            }
            guard let major = Int(version.prefix { $0 != "." }), supportedMajorVersions.contains(major) else {
                throw JSONError(
                    offset: 0, message: "unsupported llvm-cov export version \(version) (swiftcov reads 2.x and 3.x)")
            }
            guard reader.sawData else { throw JSONError(offset: 0, message: "the export has no \"data\"") }
            if reader.needsMappings && !reader.keepMappings {
                // A file named twice, after the function records: they must be read again to be merged.
                return try read(document, keepMappings: true, names: names)
            }
            if reader.skippedRecords && reader.files.contains(where: { $0.exportedSummary == nil }) {
                // A file without its own summary: its numbers come from the records.
                return try read(document, keepMappings: keepMappings, names: names)
            }
            if !reader.sawFunctions || reader.skippedRecords {
                // No records to count (or none kept): each file's numbers are its summary.
                for index in reader.files.indices { reader.files[index].hasFunctions = false }
            }
            var export = LLVMCovExport(
                version: version, files: reader.files, functions: reader.functions, filenames: reader.filenames.names,
                hasFunctions: reader.sawFunctions, document: document, needsMerging: reader.needsMappings)
            export.recordsSkipped = reader.skippedRecords
            return export
        }
    }

    private static let exportType = "llvm.coverage.json.export"

    /// Bytes of the shortest function record that has a region:
    /// `{"count":0,"filenames":[""],"name":"","regions":[[1,1,1,1,0,0,0,0]]}`.
    fileprivate static let smallestFunctionRecord = 64

    private struct Header {
        var type: String?
        var version: String?
    }

    private static func notAnExport(_ header: Header) -> JSONError {
        if let type = header.type {
            return JSONError(offset: 0, message: "not an llvm-cov export (its \"type\" is \"\(type)\")")
        }
        return JSONError(offset: 0, message: "not an llvm-cov export (no \"type\": \"\(exportType)\")")
    }

    /// Reads only the root's `type` and `version`, skipping everything else.
    private static func readHeader(_ buffer: UnsafeRawBufferPointer) throws(JSONError) -> Header {
        var scanner = JSONScanner(buffer)
        var header = Header()
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("type") {
                header.type = try scanner.readString()
            } else if key.equals("version") {
                header.version = try scanner.readString()
            } else {
                try scanner.skipValue()
            }
        }
        return header
    }

    /// Reads a `segments` array: 6-tuples, or 5-tuples (no gap flag) in early 2.0 exports.
    package static func readSegments(_ buffer: UnsafeRawBufferPointer) throws(JSONError) -> [CoverageSegment] {
        var scanner = JSONScanner(buffer)
        var segments: [CoverageSegment] = []
        try scanner.beginArray()
        var started = false
        while try scanner.nextElement(&started) {
            _ = scanner.peek()
            let tupleStart = scanner.offset
            try scanner.beginArray()
            let line = try readUInt32(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let column = try readUInt32(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let count = try readCount(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let hasCount = try scanner.readBool()
            try scanner.expect(UInt8(ascii: ","))
            let isRegionEntry = try scanner.readBool()
            var isGap = false
            if scanner.peek() == UInt8(ascii: ",") {
                try scanner.expect(UInt8(ascii: ","))
                isGap = try scanner.readBool()
            }
            try scanner.expect(UInt8(ascii: "]"))
            // llvm-cov writes segments in order; the line view walks them forwards.
            if let previous = segments.last,
                SourcePosition(line: line, column: column)
                    < SourcePosition(line: previous.line, column: previous.column)
            {
                throw JSONError(
                    offset: tupleStart,
                    message:
                        "segment at \(line):\(column) comes after one at \(previous.line):\(previous.column) (segments must be in order)"
                )
            }
            segments.append(
                CoverageSegment(
                    line: line, column: column, count: count, hasCount: hasCount, isRegionEntry: isRegionEntry,
                    isGapRegion: isGap))
        }
        return segments
    }

    @inline(__always)
    fileprivate static func readUInt32(_ scanner: inout JSONScanner) throws(JSONError) -> UInt32 {
        let offset = scanner.offset
        let value = try scanner.readInt()
        guard value >= 0 && value <= Int64(UInt32.max) else {
            throw JSONError(offset: offset, message: "expected a line or column number, found \(value)")
        }
        return UInt32(value)
    }

    @inline(__always)
    fileprivate static func readCount(_ scanner: inout JSONScanner) throws(JSONError) -> UInt64 {
        let offset = scanner.offset
        let value = try scanner.readInt()
        guard value >= 0 else { throw JSONError(offset: offset, message: "negative execution count \(value)") }
        return UInt64(value)
    }
}

/// The state of one pass over a document.
private struct Reader {
    var scanner: JSONScanner
    let document: MappedFile
    let buffer: UnsafeRawBufferPointer
    /// The window of the document read ahead (see `slideWindow`).
    var window = 0..<0
    /// Whether records keep their regions: asked for, or because a file is named twice.
    var keepMappings: Bool
    /// Whether a file is named twice, so that the export must be merged with itself.
    var needsMappings = false
    var readsNames: Bool
    /// Whether function records are only checked (`summariesOnly`), and whether they were.
    var skipsRecords: Bool
    var skippedRecords = false
    var type: String?
    var version: String?
    var sawData = false
    var sawFunctions = false
    var files: [LLVMCovExport.File] = []
    var fileIndices: [String: Int] = [:]
    var functions: [FunctionRecord] = []
    /// How many of `files` have had their function records reserved.
    var announcedFiles = 0

    // Scratch reused for every function record.
    var summarizer = FunctionSummarizer()
    var regions: [CountedRegion] = []
    /// Whether `regions` has an expansion region.
    var hasExpansions = false
    var branches: [BranchRegion] = []
    var filenameIDs: [UInt32] = []
    var filenames = FilenameTable()
    /// The file names of the last record that kept its mapping, and their numbers.
    var mappedFilenames: [String] = []
    var mappedFilenameIDs: [UInt32] = []
    /// The records kept with their mappings, to find the same function read again.
    var records = RecordTable()

    init(document: MappedFile, buffer: UnsafeRawBufferPointer, keepMappings: Bool, names: Bool, skipsRecords: Bool) {
        self.document = document
        self.buffer = buffer
        self.scanner = JSONScanner(buffer)
        self.keepMappings = keepMappings
        self.readsNames = names
        self.skipsRecords = skipsRecords
    }

    mutating func readRoot() throws(JSONError) {
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("data") {
                sawData = true
                try scanner.beginArray()
                var more = false
                while try scanner.nextElement(&more) { try readData() }
            } else if key.equals("type") {
                type = try scanner.readString()
            } else if key.equals("version") {
                version = try scanner.readString()
            } else {
                try scanner.skipValue()
            }
        }
        guard scanner.isAtEnd() else { throw scanner.error("unexpected data after the export") }
        var summarizer = FunctionSummarizer()
        for index in records.changed { functions[index].summarizeAgain(with: &summarizer) }
    }

    mutating func readData() throws(JSONError) {
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("files") {
                try scanner.beginArray()
                var more = false
                while try scanner.nextElement(&more) {
                    try readFile()
                    slideWindow()
                }
            } else if key.equals("functions") {
                sawFunctions = true
                skippedRecords = skipsRecords
                if !skipsRecords { reserveFunctions() }
                try scanner.beginArray()
                var more = false
                while try scanner.nextElement(&more) {
                    try readFunction()
                    slideWindow()
                }
            } else {
                try scanner.skipValue()
            }
        }
    }

    /// The bytes of the document read ahead of the reader (see `slideWindow`).
    static let windowSize = 1 << 20

    /// Keeps the document in memory a window at a time as it is read (`MappedFile.Reading
    /// .inWindows`): once the reader passes the window read ahead, the pages it read are
    /// dropped (a file's segments are read again from the file when asked for) and the next
    /// window is read ahead. An export of hundreds of megabytes is read through a few MiB of
    /// memory, not all of it.
    mutating func slideWindow() {
        guard scanner.offset >= window.upperBound else { return }
        document.drop(window.lowerBound..<scanner.offset)
        window = scanner.offset..<scanner.offset + Self.windowSize
        document.readAhead(window)
    }

    /// Makes room for the function records the files' summaries announce (llvm-cov writes the
    /// files first), so that the array is not copied as it grows; never more than the rest of
    /// the document could hold.
    mutating func reserveFunctions() {
        var announced = 0
        for file in files[announcedFiles...] {
            announced = announced.addingSaturating(file.exportedSummary?.instantiations.count ?? 0)
        }
        announcedFiles = files.count
        let fitting = (buffer.count - scanner.offset) / LLVMCovExportReader.smallestFunctionRecord
        functions.reserveCapacity(functions.count + min(announced, fitting))
    }

    mutating func readFile() throws(JSONError) {
        let objectStart = scanner.offset
        try scanner.beginObject()
        var filename: String?
        var summary: CoverageSummary?
        var segmentsRange: Range<Int>?
        var started = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("filename") {
                filename = try scanner.readString()
            } else if key.equals("segments") {
                _ = scanner.peek()
                let start = scanner.offset
                try scanner.skipValue()
                segmentsRange = start..<scanner.offset
            } else if key.equals("summary") {
                summary = try readSummary()
            } else {
                try scanner.skipValue()
            }
        }
        guard let filename else { throw JSONError(offset: objectStart, message: "file entry without a \"filename\"") }
        if let index = fileIndices[filename] {
            // Named again (exports of the same files put together): merged with itself, its
            // counts add up and its segments are rebuilt from the records' regions.
            files[index].occurrences += 1
            needsMappings = true
            if !sawFunctions {
                keepMappings = true
                readsNames = true
                skipsRecords = false
            }
            return
        }
        // Without its own summary, a file's numbers come from the records.
        if summary == nil && !sawFunctions { skipsRecords = false }
        fileIndices[filename] = files.count
        files.append(LLVMCovExport.File(filename: filename, exportedSummary: summary, segmentsRange: segmentsRange))
    }

    mutating func readSummary() throws(JSONError) -> CoverageSummary {
        var summary = CoverageSummary()
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("lines") {
                summary.lines = try readMetric()
            } else if key.equals("functions") {
                summary.functions = try readMetric()
            } else if key.equals("instantiations") {
                summary.instantiations = try readMetric()
            } else if key.equals("regions") {
                summary.regions = try readMetric()
            } else if key.equals("branches") {
                summary.branches = try readMetric()
            } else {
                try scanner.skipValue()
            }
        }
        return summary
    }

    mutating func readSummaryNumber() throws(JSONError) -> Int {
        let offset = scanner.offset
        let value = try scanner.readInt()
        guard value >= 0 else { throw JSONError(offset: offset, message: "negative count \(value)") }
        return Int(value)
    }

    mutating func readMetric() throws(JSONError) -> Metric {
        let objectStart = scanner.offset
        var metric = Metric()
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("count") {
                metric.count = try readSummaryNumber()
            } else if key.equals("covered") {
                metric.covered = try readSummaryNumber()
            } else {
                try scanner.skipValue()
            }
        }
        guard metric.covered <= metric.count else {
            throw JSONError(offset: objectStart, message: "\(metric.covered) covered of only \(metric.count)")
        }
        return metric
    }

    mutating func readFunction() throws(JSONError) {
        let objectStart = scanner.offset
        try scanner.beginObject()
        var rawName: JSONRawString?
        var executionCount: UInt64 = 0
        regions.removeAllKeepingStorage()
        hasExpansions = false
        branches.removeAllKeepingStorage()
        filenameIDs.removeAllKeepingStorage()
        var started = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("name") {
                rawName = try scanner.readRawString()
            } else if key.equals("count") {
                executionCount = try LLVMCovExportReader.readCount(&scanner)
            } else if key.equals("regions") {
                try readRegions()
            } else if key.equals("branches") {
                try readBranches()
            } else if key.equals("filenames") {
                try scanner.beginArray()
                var more = false
                while try scanner.nextElement(&more) {
                    filenameIDs.append(try filenames.intern(&scanner))
                }
            } else {
                try scanner.skipValue()
            }
        }
        guard let rawName else {
            throw JSONError(offset: objectStart, message: "function record without a \"name\"")
        }
        for region in regions where Int(region.fileID) >= filenameIDs.count {
            throw JSONError(
                offset: objectStart,
                message:
                    "function \(rawName.decoded()) has a region in file #\(region.fileID) but only \(filenameIDs.count) filenames"
            )
        }
        // Checked as every record is, then left: each file's numbers are its own summary.
        if skipsRecords { return }
        var key: RecordTable.Key?
        if keepMappings {
            // The same function read again (exports of the same files put together): its counts
            // are added to the first record's, which is summarized again once all are read.
            let found = RecordTable.Key(
                name: rawName, in: buffer, filenameIDs: filenameIDs, regions: regions, branches: branches)
            if let first = records.first(
                matching: found, filenameIDs: filenameIDs, regions: regions, branches: branches, in: functions,
                buffer: buffer)
            {
                functions[first.record].addCounts(
                    executionCount: executionCount, regions: regions, branches: branches)
                records.noteChanged(entry: first.entry)
                return
            }
            key = found
        }

        // Decoded only now: a record merged into an earlier one needs no name of its own.
        var record = FunctionRecord(
            name: readsNames ? rawName.decoded() : "", executionCount: executionCount, fileID: -1,
            start: SourcePosition(line: 0, column: 0),
            lines: Metric(), regions: Metric(), branches: Metric(), mapping: nil)
        // Without expansions (most functions), the main file is the first.
        let main =
            hasExpansions
            ? summarizer.mainFileID(regions: regions, fileCount: filenameIDs.count) : filenameIDs.isEmpty ? nil : 0
        if let main {
            let numbers = summarizer.summarize(regions: regions, branches: branches, mainFileID: main)
            record.fileID = Int32(filenameIDs[Int(main)])
            record.start = numbers.start
            record.end = numbers.end
            record.lines = numbers.lines
            record.regions = numbers.regions
            record.branches = numbers.branches
        }
        if let key {
            // Consecutive records mostly share their files: they share one array of names too.
            if filenameIDs != mappedFilenameIDs {
                mappedFilenameIDs = filenameIDs
                mappedFilenames = filenameIDs.map { filenames.names[Int($0)] }
            }
            record.mapping = FunctionRecord.Mapping(regions: regions, branches: branches, filenames: mappedFilenames)
            records.append(key, filenameIDs: mappedFilenameIDs, record: functions.count)
        }
        functions.append(record)
    }

    mutating func readRegions() throws(JSONError) {
        try scanner.beginArray()
        var more = false
        while try scanner.nextElement(&more) {
            _ = scanner.peek()
            if readCompactRegion() { continue }
            let tupleStart = scanner.offset
            try scanner.beginArray()
            let lineStart = try LLVMCovExportReader.readUInt32(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let columnStart = try LLVMCovExportReader.readUInt32(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let lineEnd = try LLVMCovExportReader.readUInt32(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let columnEnd = try LLVMCovExportReader.readUInt32(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let count = try LLVMCovExportReader.readCount(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let fileID = try LLVMCovExportReader.readUInt32(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let expandedFileID = try LLVMCovExportReader.readUInt32(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let kind = try scanner.readInt()
            try scanner.expect(UInt8(ascii: "]"))
            guard kind >= 0 && kind < 256 else {
                throw JSONError(offset: tupleStart, message: "region kind \(kind) is not a region kind")
            }
            guard
                SourcePosition(line: lineEnd, column: columnEnd) >= SourcePosition(line: lineStart, column: columnStart)
            else {
                throw JSONError(
                    offset: tupleStart,
                    message: "region ends at \(lineEnd):\(columnEnd), before it starts at \(lineStart):\(columnStart)")
            }
            var region = CountedRegion(
                start: SourcePosition(line: lineStart, column: columnStart),
                end: SourcePosition(line: lineEnd, column: columnEnd), executionCount: count, fileID: fileID,
                expandedFileID: expandedFileID)
            region.kind = UInt8(kind)
            if region.kind == RegionKind.expansion.rawValue { hasExpansions = true }
            regions.append(region)
        }
    }

    /// Reads a region as llvm-cov writes it, `[ls,cs,le,ce,count,file,expanded,kind]` with
    /// no whitespace, reporting whether it did; false leaves anything else to `readRegions`.
    @inline(__always)
    mutating func readCompactRegion() -> Bool {
        var fields: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        let tupleStart = scanner
        let read = withUnsafeMutableBytes(of: &fields) { bytes in
            scanner.readCompactUnsignedArray(into: bytes.bindMemory(to: UInt64.self))
        }
        let limit = UInt64(UInt32.max)
        guard read, fields.0 <= limit, fields.1 <= limit, fields.2 <= limit, fields.3 <= limit, fields.5 <= limit,
            fields.6 <= limit, fields.7 < 256
        else {
            // Out of range: read again value by value, for the error message.
            scanner = tupleStart
            return false
        }
        let start = SourcePosition(line: UInt32(fields.0), column: UInt32(fields.1))
        let end = SourcePosition(line: UInt32(fields.2), column: UInt32(fields.3))
        guard end >= start else {
            scanner = tupleStart
            return false
        }
        var region = CountedRegion(
            start: start, end: end, executionCount: fields.4, fileID: UInt32(fields.5), expandedFileID: UInt32(fields.6)
        )
        region.kind = UInt8(fields.7)
        if region.kind == RegionKind.expansion.rawValue { hasExpansions = true }
        regions.append(region)
        return true
    }

    mutating func readBranches() throws(JSONError) {
        try scanner.beginArray()
        var more = false
        while try scanner.nextElement(&more) {
            try scanner.beginArray()
            let line = try LLVMCovExportReader.readUInt32(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let column = try LLVMCovExportReader.readUInt32(&scanner)
            for _ in 0..<2 {
                try scanner.expect(UInt8(ascii: ","))
                _ = try scanner.readInt()
            }
            try scanner.expect(UInt8(ascii: ","))
            let trueCount = try LLVMCovExportReader.readCount(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let falseCount = try LLVMCovExportReader.readCount(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let fileID = try LLVMCovExportReader.readUInt32(&scanner)
            // expandedFileID, kind, and any fields later versions add.
            while scanner.peek() == UInt8(ascii: ",") {
                try scanner.expect(UInt8(ascii: ","))
                try scanner.skipValue()
            }
            try scanner.expect(UInt8(ascii: "]"))
            branches.append(
                BranchRegion(
                    start: SourcePosition(line: line, column: column), trueCount: trueCount, falseCount: falseCount,
                    fileID: fileID))
        }
    }
}

/// The function records a reader keeps with their mappings, by what makes two of them the same
/// function to `ExportMerger`: the same name, files and region layout. A record read again adds
/// its counts to the first instead of being kept, so that an export naming its files many times
/// takes the memory of one naming them once, and each function is summarized once more, not once
/// per copy. Names are compared by their raw bytes in the document: the same name escaped
/// differently is left to `ExportMerger`.
private struct RecordTable {
    /// A record's name in the document and a hash of its name, file numbers and region layout.
    struct Key {
        var nameOffset: Int
        var nameCount: Int
        var hash: UInt64

        /// The key of a record named `name`, a string of `document`.
        init(
            name: JSONRawString, in document: UnsafeRawBufferPointer, filenameIDs: [UInt32],
            regions: [CountedRegion], branches: [BranchRegion]
        ) {
            var hasher = TableHasher()
            hasher.combine(UnsafeBufferPointer(start: name.start, count: name.count))
            hasher.combine(UInt64(filenameIDs.count) << 32 | UInt64(regions.count))
            for id in filenameIDs { hasher.combine(UInt64(id)) }
            for region in regions {
                hasher.combine(UInt64(region.start.line) << 32 | UInt64(region.start.column))
                hasher.combine(UInt64(region.end.line) << 32 | UInt64(region.end.column))
                hasher.combine(UInt64(region.fileID) << 8 | UInt64(region.kind))
            }
            for branch in branches {
                hasher.combine(UInt64(branch.start.line) << 32 | UInt64(branch.start.column))
                hasher.combine(UInt64(branch.fileID))
            }
            self.nameOffset = UnsafeRawPointer(name.start) - document.baseAddress!
            self.nameCount = name.count
            self.hash = hasher.value
        }
    }

    private struct Entry {
        var key: Key
        var filenameIDs: [UInt32]
        var record: Int
        var isChanged = false
    }

    private var entries: [Entry] = []
    /// Open addressing over `entries`, -1 for a free slot.
    private var slots = [Int32](repeating: -1, count: 1024)
    /// The records that had counts added to them, each once.
    private(set) var changed: [Int] = []

    /// The record already read that is the same function as the one with `key`, `filenameIDs`,
    /// `regions` and `branches`, found in `records`; the entry's index is `entry`.
    func first(
        matching key: Key, filenameIDs: [UInt32], regions: [CountedRegion], branches: [BranchRegion],
        in records: [FunctionRecord], buffer: UnsafeRawBufferPointer
    ) -> (record: Int, entry: Int)? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: key.hash) & mask
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            let entry = entries[index]
            if entry.key.hash == key.hash, entry.key.nameCount == key.nameCount, entry.filenameIDs == filenameIDs,
                memcmp(buffer.baseAddress! + entry.key.nameOffset, buffer.baseAddress! + key.nameOffset, key.nameCount)
                    == 0,
                records[entry.record].mapping?.hasLayout(regions: regions, branches: branches) == true
            {
                return (entry.record, index)
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Notes that the record of `entry` had counts added to it.
    mutating func noteChanged(entry: Int) {
        guard !entries[entry].isChanged else { return }
        entries[entry].isChanged = true
        changed.append(entries[entry].record)
    }

    /// Adds `record`, the first with `key`.
    mutating func append(_ key: Key, filenameIDs: [UInt32], record: Int) {
        if (entries.count + 1) * 2 > slots.count { grow() }
        insert(hash: key.hash, entry: entries.count)
        entries.append(Entry(key: key, filenameIDs: filenameIDs, record: record))
    }

    private mutating func insert(hash: UInt64, entry: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(entry)
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for (index, entry) in entries.enumerated() { insert(hash: entry.key.hash, entry: index) }
    }
}

/// A fast, non-cryptographic hash of 64-bit words and bytes (multiply and fold), for tables
/// whose keys come from the document being read. It starts from a seed drawn once per process,
/// as Swift's own hashing does, so that no document can be made to collide in every run and
/// slow a table down to a search of all its entries.
private struct TableHasher {
    private static let seed = UInt64.random(in: .min ... .max)
    private(set) var value: UInt64 = TableHasher.seed

    @inline(__always)
    mutating func combine(_ word: UInt64) {
        let mixed = (value ^ word) &* 0xff51_afd7_ed55_8ccd
        value = mixed ^ (mixed >> 29)
    }

    mutating func combine(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            combine(UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)))
            index += 8
        }
        var tail: UInt64 = UInt64(count) << 56
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        combine(tail)
    }
}

/// Interns the file names of function records, which repeat in every record: each distinct
/// name is decoded into a `String` once, recognized afterwards by its raw bytes.
private struct FilenameTable {
    var names: [String] = []
    private var raw: [[UInt8]] = []
    private var slots = [Int32](repeating: -1, count: 1024)
    private var last: Int32 = -1

    /// The number of the string `scanner` is at, which it reads.
    mutating func intern(_ scanner: inout JSONScanner) throws(JSONError) -> UInt32 {
        // Consecutive records usually come from the same file: its bytes are compared where
        // they are, without scanning for the string's end first.
        if last >= 0, raw[Int(last)].withUnsafeBufferPointer({ scanner.skipString(equalTo: $0) }) {
            return UInt32(last)
        }
        return intern(try scanner.readRawString())
    }

    mutating func intern(_ string: JSONRawString) -> UInt32 {
        let hash = FilenameTable.hash(string)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] >= 0 {
            if matches(Int(slots[slot]), string) {
                last = slots[slot]
                return UInt32(last)
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        let id = Int32(names.count)
        names.append(string.decoded())
        raw.append(Array(UnsafeBufferPointer(start: string.start, count: string.count)))
        slots[slot] = id
        last = id
        if names.count * 2 > slots.count { grow() }
        return UInt32(id)
    }

    private func matches(_ id: Int, _ string: JSONRawString) -> Bool {
        let stored = raw[id]
        guard stored.count == string.count else { return false }
        guard string.count > 0 else { return true }
        return stored.withUnsafeBufferPointer { memcmp($0.baseAddress!, string.start, string.count) == 0 }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for id in raw.indices {
            let hash = FilenameTable.hash(raw[id])
            var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int32(id)
        }
    }

    private static func hash(_ string: JSONRawString) -> UInt64 {
        hash(UnsafeBufferPointer(start: string.start, count: string.count))
    }

    private static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { hash($0) }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = TableHasher()
        hasher.combine(bytes)
        return hasher.value
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
