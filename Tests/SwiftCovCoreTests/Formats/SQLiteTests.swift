import Foundation
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// The SQLite reader against the reference implementation: databases Python's `sqlite3` wrote
/// (Fixtures/sqlite, made by `make-databases.py`, with what `sqlite3` reads back from each), row
/// for row and value for value; and damaged databases, which must end in one clean error.
@Suite("SQLite: reading what sqlite3 writes, and nothing it does not")
struct SQLiteTests {
    static let directory = Fixture(name: "sqlite").directory
    static let databases: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(".sqlite3") }.map { String($0.dropLast(".sqlite3".count)) }.sorted()
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/" + name + ".sqlite3")))
    }

    /// What sqlite3 read back from the fixture `name` (its `.json`).
    static func expected(_ name: String) throws -> [String: Any] {
        let url = URL(fileURLWithPath: directory + "/" + name + ".json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// A value as the fixture's JSON writes it: `[type, text]`.
    static func expectedValue(_ pair: Any) throws -> SQLiteValue {
        let pair = try #require(pair as? [String])
        switch pair[0] {
        case "null": return .null
        case "integer": return .integer(try #require(Int64(pair[1])))
        case "real": return .real(try #require(Double(pair[1])))
        case "text": return .text(pair[1])
        default:
            var bytes: [UInt8] = []
            var index = pair[1].startIndex
            while index < pair[1].endIndex {
                let next = pair[1].index(index, offsetBy: 2)
                bytes.append(try #require(UInt8(pair[1][index..<next], radix: 16)))
                index = next
            }
            return .blob(bytes)
        }
    }

    static func read<R>(_ bytes: [UInt8], _ body: (SQLiteDatabase) throws -> R) throws -> R {
        try bytes.withUnsafeBytes { raw in try body(try SQLiteDatabase(raw)) }
    }

    static func failure(
        _ bytes: [UInt8],
        reading: (SQLiteDatabase) throws(SQLiteDatabase.DecodeError) -> Void = {
            database throws(SQLiteDatabase.DecodeError) in
            for entry in try database.schema() where entry.type == "table" {
                if let table = try database.table(named: entry.name) { _ = try database.rows(of: table) }
            }
        }
    ) -> SQLiteDatabase.DecodeError? {
        bytes.withUnsafeBytes { raw in
            do throws(SQLiteDatabase.DecodeError) {
                try reading(try SQLiteDatabase(raw))
                return nil
            } catch {
                return error
            }
        }
    }

    @Test("the fixtures cover every page size, both UTF-16 orders, reserved bytes and auto-vacuum")
    func fixtures() throws {
        let sizes = try Self.databases.map { name in try Self.read(try Self.bytes(name)) { $0.pageSize } }
        #expect(Set(sizes) == [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536])
        let encodings = try Self.databases.map { name in try Self.read(try Self.bytes(name)) { "\($0.textEncoding)" } }
        #expect(Set(encodings) == ["utf8", "utf16LittleEndian", "utf16BigEndian"])
        #expect(try Self.read(try Self.bytes("reserved-32")) { $0.usableSize } == 1024 - 32)
    }

    @Test("every table, row for row, as sqlite3 reads it", arguments: databases)
    func tables(_ name: String) throws {
        let json = try Self.expected(name)
        let tables = try #require(json["tables"] as? [String: [String: Any]])
        #expect(tables.count == 3)
        try Self.read(try Self.bytes(name)) { database in
            for (tableName, expected) in tables {
                let table = try #require(try database.table(named: tableName), "\(tableName)")
                #expect(table.columns == expected["columns"] as? [String])
                let rows = try database.rows(of: table)
                let expectedRows = try #require(expected["rows"] as? [[Any]])
                #expect(rows.count == expectedRows.count, "\(tableName)")
                for (row, expectedRow) in zip(rows, expectedRows) {
                    let rowid = try Self.expectedValue(expectedRow[0])
                    #expect(rowid == (row.rowid.map(SQLiteValue.integer) ?? .null))
                    let values = try expectedRow.dropFirst().map(Self.expectedValue)
                    #expect(row.values.count == values.count)
                    for (value, expectedValue) in zip(row.values, values) {
                        #expect(value == expectedValue, "\(tableName) row \(String(describing: row.rowid))")
                    }
                }
            }
        }
    }

    @Test("every index, entry for entry in key order", arguments: databases)
    func indexes(_ name: String) throws {
        let json = try Self.expected(name)
        let indexes = try #require(json["indexes"] as? [String: [String: Any]])
        #expect(!indexes.isEmpty)
        try Self.read(try Self.bytes(name)) { database in
            let schema = try database.schema()
            for (indexName, expected) in indexes {
                let entry = try #require(schema.first { $0.type == "index" && $0.name == indexName })
                var keys: [[SQLiteValue]] = []
                try database.forEachEntry(inTreeAt: entry.rootPage, table: false) { entry in
                    keys.append((try? database.values(ofRecord: entry.payload, at: entry.offset)) ?? [])
                    return true
                }
                let expectedRows = try #require(expected["rows"] as? [[Any]])
                #expect(keys.count == expectedRows.count)
                for (key, expectedKey) in zip(keys, expectedRows) {
                    let values = try expectedKey.map(Self.expectedValue)
                    #expect(key.count == values.count && zip(key, values).allSatisfy(==), "\(indexName)")
                }
            }
        }
    }

    @Test("the fixtures hold interior pages and overflow chains, so both are read")
    func pageKinds() throws {
        let bytes = try Self.bytes("page-512")
        try Self.read(bytes) { database in
            let kinds = (2...database.pageCount).map { bytes[database.start(ofPage: $0)] }
            #expect(kinds.contains(SQLiteDatabase.PageKind.tableInterior.rawValue))
            #expect(kinds.contains(SQLiteDatabase.PageKind.indexInterior.rawValue))
            let table = try #require(try database.table(named: "Values"))
            let longest = try database.rows(of: table).compactMap { $0.values[5].blob?.count }.max() ?? 0
            #expect(longest > 3 * 512)
        }
    }

    @Test("a row stops the scan when the body says so")
    func stopping() throws {
        try Self.read(try Self.bytes("page-1024")) { database in
            let table = try #require(try database.table(named: "TestCases"))
            var seen = 0
            try database.forEachRow(in: table) { _ in
                seen += 1
                return seen < 3
            }
            #expect(seen == 3)
        }
    }

    // MARK: Damaged databases

    @Test("a file too short, not SQLite, or with a bad page size is one error at its header")
    func headers() throws {
        #expect(Self.failure([0x53])?.message == "a database of 1 bytes, shorter than its 100-byte header")
        #expect(Self.failure([UInt8](repeating: 0, count: 512))?.message.hasPrefix("not an SQLite database") == true)
        var bytes = try Self.bytes("page-512")
        bytes[16] = 0x03  // 0x0300 = 768, not a power of two
        #expect(Self.failure(bytes)?.offset == 16)
        bytes = try Self.bytes("page-512")
        bytes[20] = 40  // 512 - 40 = 472 usable bytes, fewer than 480
        #expect(Self.failure(bytes)?.offset == 20)
    }

    @Test("a truncated database says how many pages it lacks")
    func truncated() throws {
        let bytes = try Self.bytes("page-512")
        let error = try #require(Self.failure(Array(bytes.prefix(bytes.count / 2))))
        #expect(error.offset == 28)
        #expect(error.message.contains("in a file that holds \(bytes.count / 2 / 512)"))
    }

    /// The pages of `bytes` whose b-tree page type is `kind`.
    static func pages(of kind: SQLiteDatabase.PageKind, in bytes: [UInt8]) throws -> [Int] {
        try read(bytes) { database in
            (2...database.pageCount).filter { bytes[database.start(ofPage: $0)] == kind.rawValue }
        }
    }

    @Test("a cycle of page pointers is an error, not a hang")
    func cycle() throws {
        var bytes = try Self.bytes("page-512")
        let page = try #require(try Self.pages(of: .tableInterior, in: bytes).first)
        let rightMost = (page - 1) * 512 + 8
        bytes.replaceSubrange(rightMost..<rightMost + 4, with: [0, 0, UInt8(page >> 8), UInt8(page & 0xFF)])
        let error = try #require(Self.failure(bytes))
        #expect(error.message == "page \(page) is reached twice (a cycle in the b-tree)")
        #expect(error.offset == rightMost)
    }

    @Test("a child page outside the file, and a page of the wrong kind, are errors")
    func badChildren() throws {
        var bytes = try Self.bytes("page-512")
        let page = try #require(try Self.pages(of: .tableInterior, in: bytes).first)
        let rightMost = (page - 1) * 512 + 8
        bytes.replaceSubrange(rightMost..<rightMost + 4, with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(Self.failure(bytes)?.message == "page 2147483647 is outside the database's 106 pages")
        bytes = try Self.bytes("page-512")
        bytes[(page - 1) * 512] = 0x0A  // a table's interior page turned into an index leaf
        #expect(Self.failure(bytes)?.message.hasPrefix("page \(page) is not a table b-tree page") == true)
    }

    /// The file offset of the 4-byte overflow pointer of the longest cell that spills out of its
    /// page (a chain of several pages), in the tables of `bytes`.
    static func longestOverflowPointer(in bytes: [UInt8]) throws -> Int {
        try read(bytes) { database in
            var longest = (size: 0, pointer: 0)
            for page in try pages(of: .tableLeaf, in: bytes) {
                let header = database.start(ofPage: page)
                for offset in try database.cellOffsets(ofPage: page, header: header, kind: .tableLeaf) {
                    var cursor = offset
                    let size = Int(try database.varint(at: &cursor, onPage: page))
                    _ = try database.varint(at: &cursor, onPage: page)
                    let local = database.localSize(ofPayload: size, table: true)
                    if local < size, size > longest.size { longest = (size, cursor + local) }
                }
            }
            return longest.pointer
        }
    }

    @Test("an overflow chain that ends early, loops, or leaves the file is an error")
    func overflowChains() throws {
        let original = try Self.bytes("page-512")
        let pointer = try Self.longestOverflowPointer(in: original)
        var bytes = original
        bytes.replaceSubrange(pointer..<pointer + 4, with: [0, 0, 0, 0])
        #expect(Self.failure(bytes)?.message.hasPrefix("an overflow chain that ends") == true)
        bytes = original
        bytes.replaceSubrange(pointer..<pointer + 4, with: [0, 0, 0x10, 0])
        #expect(Self.failure(bytes)?.message == "page 4096 is outside the database's 106 pages")
        // The first overflow page pointing back at itself: a chain longer than the file.
        let first =
            Int(original[pointer]) << 24 | Int(original[pointer + 1]) << 16 | Int(original[pointer + 2]) << 8
            | Int(original[pointer + 3])
        bytes = original
        let next = (first - 1) * 512
        bytes.replaceSubrange(next..<next + 4, with: original[pointer..<pointer + 4])
        #expect(Self.failure(bytes)?.message == "overflow page \(first) is reached twice (a cycle)")
    }

    @Test("a payload size larger than the database is an error at its cell")
    func payloads() throws {
        let original = try Self.bytes("page-512")
        let page = try #require(try Self.pages(of: .tableLeaf, in: original).first)
        let offset = try Self.read(original) { database in
            try database.cellOffsets(ofPage: page, header: database.start(ofPage: page), kind: .tableLeaf)[0]
        }
        var bytes = original
        // A 9-byte varint: the largest payload size there is.
        bytes.replaceSubrange(offset..<offset + 9, with: [UInt8](repeating: 0xFF, count: 9))
        #expect(Self.failure(bytes)?.message.contains("more than the whole database") == true)
        #expect(Self.failure(bytes)?.offset == offset)
    }

    @Test("a record whose header or values run past its payload, or with a reserved type, is an error")
    func records() throws {
        try Self.read(try Self.bytes("page-512")) { database in
            func message(_ payload: [UInt8]) -> String? {
                do {
                    _ = try database.values(ofRecord: payload, at: 7)
                    return nil
                } catch {
                    #expect(error.offset == 7)
                    return error.message
                }
            }
            #expect(message([0x7F, 1, 1]) == "a record with a header of 127 bytes in 3")
            #expect(message([0x02, 0x0A]) == "a record with reserved serial type 10")
            #expect(message([0x02, 0x06, 1, 2]) == "a record with a value that runs past its end")
            #expect(message([0x02, 0x81, 0x01]) == "a record with serial types that run past its header")
            // A 9-byte serial type: a blob of about 2^63 bytes, in a payload of 11.
            #expect(
                message([0x0A] + [UInt8](repeating: 0xFF, count: 9))
                    == "a record with a value of 9223372036854775801 bytes where 0 are left")
            let values = try database.values(ofRecord: [0x04, 0x01, 0x08, 0x0F, 0xFF, 0x61], at: 0)
            #expect(values == [.integer(-1), .integer(0), .text("a")])
        }
    }

    @Test("every single-byte change to a database ends in rows or one clean error")
    func everyByte() throws {
        let original = try Self.bytes("reserved-32")
        for offset in stride(from: 0, to: original.count, by: 7) {
            var bytes = original
            bytes[offset] ^= 0xA5
            if let error = Self.failure(bytes) { #expect(error.offset >= 0 && error.offset <= bytes.count) }
        }
    }

    // MARK: CREATE TABLE

    @Test("column lists: quoted names, table constraints, the rowid alias, WITHOUT ROWID key order")
    func createTable() throws {
        let table = try #require(
            SQLiteTable(
                name: "t", rootPage: 2,
                sql: #"CREATE TABLE "t" ( "a ""b""" INTEGER PRIMARY KEY, [c d] TEXT DEFAULT 'x,y', `e` "#
                    + "CHECK (e > (1)), /* note, */ f AS (e + 1), g -- , h\n, UNIQUE (g))"))
        #expect(table.columns == [#"a "b""#, "c d", "e", "f", "g"])
        #expect(table.rowidColumn == 0)
        #expect(table.storedColumns == [0, 1, 2, 4])
        let keyed = try #require(
            SQLiteTable(
                name: "k", rootPage: 3, sql: "CREATE TABLE k (b TEXT, a INT, c, PRIMARY KEY (a, b)) WITHOUT ROWID"))
        #expect(keyed.withoutRowid && keyed.rowidColumn == nil)
        #expect(keyed.storedColumns == [1, 0, 2])
        #expect(table.realColumns.isEmpty)
        let real = try #require(
            SQLiteTable(
                name: "r", rootPage: 7, sql: "CREATE TABLE r (a REAL, b DOUBLE PRECISION, c FLOATING POINT, d INT, e)"))
        #expect(real.realColumns == [0, 1])  // "FLOATING POINT" holds "INT": integer affinity
        let descending = try #require(
            SQLiteTable(name: "d", rootPage: 4, sql: "CREATE TABLE d (id INTEGER PRIMARY KEY DESC)"))
        #expect(descending.rowidColumn == nil)
        let notInteger = try #require(SQLiteTable(name: "i", rootPage: 5, sql: "CREATE TABLE i (id INT PRIMARY KEY)"))
        #expect(notInteger.rowidColumn == nil)
        #expect(SQLiteTable(name: "s", rootPage: 6, sql: "CREATE TABLE s AS SELECT 1") == nil)
    }
}
