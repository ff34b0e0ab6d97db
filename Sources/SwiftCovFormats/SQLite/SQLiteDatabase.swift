/// A read-only reader of the SQLite database file format (sqlite.org/fileformat2.html), for the
/// `database.sqlite3` of Xcode 16 and later's result bundles. No SQL engine: the schema is read
/// from `sqlite_schema`, and a table is scanned front to back (rowid tables in rowid order,
/// `WITHOUT ROWID` tables and indexes in key order), each row decoded from the record format.
///
/// Every page number, cell offset, payload size and overflow chain is checked against the file;
/// each page is visited at most once per scan (so a cycle of page pointers is an error, never a
/// hang), and a payload is only ever as large as the pages that hold it. Freelist and pointer-map
/// pages are not read; a write-ahead log beside the file is not applied (a closed bundle has none).
///
/// The reader keeps the bytes it is given without copying them: use it inside the closure that
/// lends them (`MappedFile.withUnsafeBytes`).
package struct SQLiteDatabase {
    /// What is wrong with the file, and where (a byte offset into it).
    package struct DecodeError: Error, Equatable, CustomStringConvertible {
        package var offset: Int
        package var message: String
        package var description: String { "\(message) (byte offset \(offset))" }

        package init(offset: Int, message: String) {
            self.offset = offset
            self.message = message
        }
    }

    /// How text values are stored (header byte 56).
    package enum TextEncoding: Sendable { case utf8, utf16LittleEndian, utf16BigEndian }

    let bytes: UnsafeRawBufferPointer
    package let pageSize: Int
    /// The bytes of a page that hold b-tree content (the page size less the reserved bytes).
    package let usableSize: Int
    package let pageCount: Int
    package let textEncoding: TextEncoding

    package init(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) {
        self.bytes = bytes
        guard bytes.count >= 100 else {
            throw DecodeError(
                offset: 0, message: "a database of \(bytes.count) bytes, shorter than its 100-byte header")
        }
        let magic: [UInt8] = Array("SQLite format 3".utf8) + [0]
        guard bytes.prefix(16).elementsEqual(magic) else {
            throw DecodeError(offset: 0, message: "not an SQLite database (no \"SQLite format 3\" header)")
        }
        let rawPageSize = Self.bigEndian(bytes, at: 16, count: 2)
        let pageSize = rawPageSize == 1 ? 65536 : Int(rawPageSize)
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw DecodeError(
                offset: 16, message: "a page size of \(rawPageSize), not a power of two from 512 to 65,536")
        }
        let usableSize = pageSize - Int(bytes[20])
        guard usableSize >= 480 else {
            throw DecodeError(offset: 20, message: "\(bytes[20]) reserved bytes a page, leaving fewer than 480")
        }
        guard bytes[21] == 64, bytes[22] == 32, bytes[23] == 32 else {
            throw DecodeError(offset: 21, message: "payload fractions other than 64, 32 and 32")
        }
        // The header's page count holds when the version-valid-for number matches the change
        // counter; otherwise (files written by old versions) the file's size decides.
        let pagesInFile = bytes.count / pageSize
        let declared = Int(Self.bigEndian(bytes, at: 28, count: 4))
        let headerIsCurrent = Self.bigEndian(bytes, at: 24, count: 4) == Self.bigEndian(bytes, at: 92, count: 4)
        let pageCount = headerIsCurrent && declared > 0 ? declared : pagesInFile
        guard pageCount <= pagesInFile else {
            throw DecodeError(
                offset: 28, message: "a database of \(pageCount) pages in a file that holds \(pagesInFile)")
        }
        switch Self.bigEndian(bytes, at: 56, count: 4) {
        case 0, 1: textEncoding = .utf8
        case 2: textEncoding = .utf16LittleEndian
        case 3: textEncoding = .utf16BigEndian
        case let other: throw DecodeError(offset: 56, message: "text encoding \(other), not 1, 2 or 3")
        }
        self.pageSize = pageSize
        self.usableSize = usableSize
        self.pageCount = pageCount
    }

    /// The big-endian number in `count` (at most 8) bytes at `offset`, which are inside `bytes`.
    static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<count { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    /// Where page `number` (from 1) starts in the file.
    func start(ofPage number: Int) -> Int { (number - 1) * pageSize }
}

// MARK: - B-trees

extension SQLiteDatabase {
    /// The kinds of b-tree page (byte 0 of the page's header).
    enum PageKind: UInt8 {
        case indexInterior = 2, tableInterior = 5, indexLeaf = 10, tableLeaf = 13
        var isLeaf: Bool { self == .indexLeaf || self == .tableLeaf }
        var isTable: Bool { self == .tableLeaf || self == .tableInterior }
    }

    /// One entry of a b-tree: a table row's rowid and record, or an index key's record.
    package struct Entry {
        package var rowid: Int64?
        package var payload: [UInt8]
        /// Where the cell starts in the file, for errors about its record.
        package var offset: Int
    }

    /// Pages already read in one scan: a page met twice is a cycle or a shared page, both corrupt.
    struct VisitedPages {
        private var words: [UInt64]
        init(pageCount: Int) { words = Array(repeating: 0, count: pageCount / 64 + 1) }
        /// Marks `page`; false if it was already marked.
        mutating func insert(_ page: Int) -> Bool {
            let (word, bit) = (page / 64, UInt64(1) << UInt64(page % 64))
            guard words[word] & bit == 0 else { return false }
            words[word] |= bit
            return true
        }
    }

    /// Every entry of the b-tree rooted at `rootPage`, in key order, to `body` until it returns
    /// false. `table` says which kind of tree the root must be.
    package func forEachEntry(
        inTreeAt rootPage: Int, table: Bool, _ body: (Entry) -> Bool
    ) throws(DecodeError) {
        enum Step {
            case page(Int, referencedAt: Int)
            case cell(page: Int, offset: Int)
        }
        var visited = VisitedPages(pageCount: pageCount)
        // Payload bytes given so far: no more than the database holds. Cells that overlap on a
        // page (each pointer of a page's array at the same bytes) would otherwise give the same
        // bytes again and again: a page of 64 KiB read as 256 MiB.
        var given = 0
        let capacity = pageCount * usableSize
        func counted(_ entry: Entry) throws(DecodeError) -> Entry {
            given += entry.payload.count
            guard given <= capacity else {
                throw DecodeError(
                    offset: entry.offset,
                    message:
                        "cells overlap: the b-tree at page \(rootPage) holds more than the database's \(capacity) bytes"
                )
            }
            return entry
        }
        var steps: [Step] = [.page(rootPage, referencedAt: 0)]
        while let step = steps.popLast() {
            switch step {
            case .cell(let page, let offset):
                let entry = try counted(try entry(at: offset, onPage: page, kind: .indexInterior, visited: &visited))
                guard body(entry) else { return }
            case .page(let page, let reference):
                try checkPageNumber(page, referencedAt: reference)
                guard visited.insert(page) else {
                    throw DecodeError(
                        offset: reference, message: "page \(page) is reached twice (a cycle in the b-tree)")
                }
                let header = start(ofPage: page) + (page == 1 ? 100 : 0)
                guard let kind = PageKind(rawValue: bytes[header]), kind.isTable == table else {
                    throw DecodeError(
                        offset: header,
                        message:
                            "page \(page) is not a \(table ? "table" : "index") b-tree page (type \(bytes[header]))")
                }
                let cells = try cellOffsets(ofPage: page, header: header, kind: kind)
                if kind.isLeaf {
                    for offset in cells {
                        guard body(try counted(try entry(at: offset, onPage: page, kind: kind, visited: &visited)))
                        else { return }
                    }
                    continue
                }
                // Interior: each cell's left child, then (in an index) the cell's own key; the
                // right-most child last. Pushed in reverse, as the stack pops them.
                let rightMost = header + 8
                steps.append(.page(Int(Self.bigEndian(bytes, at: rightMost, count: 4)), referencedAt: rightMost))
                for offset in cells.reversed() {
                    if kind == .indexInterior { steps.append(.cell(page: page, offset: offset)) }
                    try need(4, at: offset, onPage: page, "a cell")
                    steps.append(.page(Int(Self.bigEndian(bytes, at: offset, count: 4)), referencedAt: offset))
                }
            }
        }
    }

    func checkPageNumber(_ page: Int, referencedAt offset: Int) throws(DecodeError) {
        guard page >= 1, page <= pageCount else {
            throw DecodeError(offset: offset, message: "page \(page) is outside the database's \(pageCount) pages")
        }
    }

    /// Fails unless `count` bytes at `offset` lie inside the usable part of `page`.
    func need(_ count: Int, at offset: Int, onPage page: Int, _ what: String) throws(DecodeError) {
        guard count <= start(ofPage: page) + usableSize - offset else {
            throw DecodeError(offset: offset, message: "\(what) runs past the end of page \(page)")
        }
    }

    /// The file offsets of the page's cells, from its cell pointer array.
    func cellOffsets(ofPage page: Int, header: Int, kind: PageKind) throws(DecodeError) -> [Int] {
        let headerSize = kind.isLeaf ? 8 : 12
        try need(headerSize, at: header, onPage: page, "the page header")
        let count = Int(Self.bigEndian(bytes, at: header + 3, count: 2))
        let pointers = header + headerSize
        try need(2 * count, at: pointers, onPage: page, "a cell pointer array of \(count) cells")
        let pageStart = start(ofPage: page)
        return try (0..<count).map { (index) throws(DecodeError) -> Int in
            let pointer = pointers + 2 * index
            let offset = Int(Self.bigEndian(bytes, at: pointer, count: 2))
            guard offset >= pointers + 2 * count - pageStart, offset < usableSize else {
                throw DecodeError(
                    offset: pointer, message: "cell \(index) of page \(page) points outside the page's content")
            }
            return pageStart + offset
        }
    }

    /// The entry in the cell at `offset`: its rowid (table leaves) and its whole payload, gathered
    /// from the overflow pages when it does not fit on its page.
    func entry(
        at offset: Int, onPage page: Int, kind: PageKind, visited: inout VisitedPages
    ) throws(DecodeError) -> Entry {
        var cursor = offset + (kind == .indexInterior ? 4 : 0)
        let payloadSize = try varint(at: &cursor, onPage: page)
        let rowid = kind == .tableLeaf ? Int64(bitPattern: try varint(at: &cursor, onPage: page)) : nil
        let maximum = UInt64(pageCount) * UInt64(usableSize)
        guard payloadSize <= maximum else {
            throw DecodeError(
                offset: offset, message: "a payload of \(payloadSize) bytes, more than the whole database")
        }
        let size = Int(payloadSize)
        let local = localSize(ofPayload: size, table: kind.isTable)
        try need(local + (local < size ? 4 : 0), at: cursor, onPage: page, "a cell's payload")
        var payload = Array(bytes[cursor..<cursor + local])
        if local < size {
            let pointer = cursor + local
            try appendOverflow(
                from: Int(Self.bigEndian(bytes, at: pointer, count: 4)), referencedAt: pointer, to: &payload,
                size: size, visited: &visited)
        }
        return Entry(rowid: rowid, payload: payload, offset: offset)
    }

    /// How much of a payload of `size` bytes is stored on the b-tree page itself.
    func localSize(ofPayload size: Int, table: Bool) -> Int {
        let maximumLocal = table ? usableSize - 35 : (usableSize - 12) * 64 / 255 - 23
        guard size > maximumLocal else { return size }
        let minimumLocal = (usableSize - 12) * 32 / 255 - 23
        let local = minimumLocal + (size - minimumLocal) % (usableSize - 4)
        return local <= maximumLocal ? local : minimumLocal
    }

    /// Follows the overflow chain from `first`, appending to `payload` until it holds `size` bytes.
    func appendOverflow(
        from first: Int, referencedAt reference: Int, to payload: inout [UInt8], size: Int,
        visited: inout VisitedPages
    ) throws(DecodeError) {
        var (page, reference) = (first, reference)
        while payload.count < size {
            guard page != 0 else {
                throw DecodeError(
                    offset: reference, message: "an overflow chain that ends \(size - payload.count) bytes early")
            }
            try checkPageNumber(page, referencedAt: reference)
            guard visited.insert(page) else {
                throw DecodeError(offset: reference, message: "overflow page \(page) is reached twice (a cycle)")
            }
            let pageStart = start(ofPage: page)
            let count = min(usableSize - 4, size - payload.count)
            payload.append(contentsOf: bytes[pageStart + 4..<pageStart + 4 + count])
            (page, reference) = (Int(Self.bigEndian(bytes, at: pageStart, count: 4)), pageStart)
        }
    }

    /// SQLite's variable-length integer at `cursor` on `page`.
    func varint(at cursor: inout Int, onPage page: Int) throws(DecodeError) -> UInt64 {
        guard let value = Self.varint(bytes, at: &cursor, end: start(ofPage: page) + usableSize) else {
            throw DecodeError(offset: cursor, message: "a number runs past the end of page \(page)")
        }
        return value
    }

    /// SQLite's variable-length integer at `cursor` in `bytes`, before `end`: 1 to 9 bytes,
    /// big-endian, 7 bits a byte but all 8 in the ninth; nil when it runs past `end`.
    static func varint<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at cursor: inout Int, end: Int
    ) -> UInt64? where Bytes.Index == Int {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard cursor < end else { return nil }
            let byte = bytes[cursor]
            cursor += 1
            if index == 8 { return value << 8 | UInt64(byte) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte < 0x80 { return value }
        }
        return value
    }
}
