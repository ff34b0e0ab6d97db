/// A table of an SQLite database, as its `CREATE TABLE` statement declares it: the columns in
/// order, where its b-tree starts, and how a stored record maps to the columns.
package struct SQLiteTable: Equatable, Sendable {
    package var name: String
    package var rootPage: Int
    package var columns: [String]
    /// The column declared `INTEGER PRIMARY KEY`, which stores nothing: its value is the rowid.
    package var rowidColumn: Int?
    /// A `WITHOUT ROWID` table, stored as an index keyed by its primary key.
    package var withoutRowid: Bool
    /// For each value of a stored record, the column it belongs to (a `WITHOUT ROWID` table
    /// stores its primary key first; virtual generated columns store nothing).
    package var storedColumns: [Int]
    /// The columns of REAL affinity, where SQLite stores a whole number as an integer and reads
    /// it back as a real.
    package var realColumns: Set<Int>

    /// The index of the column named `name` (case-insensitive, as SQL names are).
    package func column(_ name: String) -> Int? {
        let wanted = name.lowercased()
        return columns.firstIndex { $0.lowercased() == wanted }
    }
}

/// One row of a table: its rowid (none in a `WITHOUT ROWID` table) and a value for every
/// column, `.null` for a column added after the row was written.
package struct SQLiteRow: Equatable, Sendable {
    package var rowid: Int64?
    package var values: [SQLiteValue]
}

/// An entry of `sqlite_schema`: a table, index, view or trigger.
package struct SQLiteSchemaEntry: Equatable, Sendable {
    package var type: String
    package var name: String
    package var tableName: String
    package var rootPage: Int
    package var sql: String
}

extension SQLiteDatabase {
    /// The entries of `sqlite_schema` (the table on page 1).
    package func schema() throws(DecodeError) -> [SQLiteSchemaEntry] {
        var entries: [SQLiteSchemaEntry] = []
        var failure: DecodeError?
        try forEachEntry(inTreeAt: 1, table: true) { entry in
            do throws(DecodeError) {
                let values = try values(ofRecord: entry.payload, at: entry.offset)
                guard values.count >= 5, let type = values[0].text, let name = values[1].text else {
                    throw DecodeError(offset: entry.offset, message: "a schema entry without a type and a name")
                }
                entries.append(
                    SQLiteSchemaEntry(
                        type: type, name: name, tableName: values[2].text ?? "",
                        rootPage: Int(clamping: values[3].integer ?? 0), sql: values[4].text ?? ""))
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        return entries
    }

    /// The table named `name` (case-insensitive), or nil when the database has none.
    package func table(named name: String) throws(DecodeError) -> SQLiteTable? {
        let wanted = name.lowercased()
        guard let entry = try schema().first(where: { $0.type == "table" && $0.name.lowercased() == wanted }) else {
            return nil
        }
        guard let table = SQLiteTable(name: entry.name, rootPage: entry.rootPage, sql: entry.sql) else {
            throw DecodeError(
                offset: 0, message: "table \(entry.name) has a CREATE TABLE statement this reader cannot read")
        }
        return table
    }

    /// Every row of `table` in the order it is stored, to `body` until it returns false.
    package func forEachRow(in table: SQLiteTable, _ body: (SQLiteRow) -> Bool) throws(DecodeError) {
        var failure: DecodeError?
        try forEachEntry(inTreeAt: table.rootPage, table: !table.withoutRowid) { entry in
            do throws(DecodeError) {
                let stored = try values(ofRecord: entry.payload, at: entry.offset)
                guard stored.count <= table.storedColumns.count else {
                    throw DecodeError(
                        offset: entry.offset,
                        message:
                            "a row of \(stored.count) values in table \(table.name) of \(table.columns.count) columns")
                }
                var values = [SQLiteValue](repeating: .null, count: table.columns.count)
                for (value, column) in zip(stored, table.storedColumns) {
                    if case .integer(let whole) = value, table.realColumns.contains(column) {
                        values[column] = .real(Double(whole))
                    } else {
                        values[column] = value
                    }
                }
                if let column = table.rowidColumn, let rowid = entry.rowid { values[column] = .integer(rowid) }
                return body(SQLiteRow(rowid: entry.rowid, values: values))
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
    }

    /// Every row of `table`, in the order it is stored.
    package func rows(of table: SQLiteTable) throws(DecodeError) -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        try forEachRow(in: table) { row in
            rows.append(row)
            return true
        }
        return rows
    }
}

// MARK: - CREATE TABLE

extension SQLiteTable {
    /// The table that `sql` (a `CREATE TABLE` statement as `sqlite_schema` keeps it) declares,
    /// or nil when it is not one (`CREATE TABLE … AS SELECT` keeps no column list).
    package init?(name: String, rootPage: Int, sql: String) {
        let tokens = SQLTokens(sql)
        guard let open = tokens.items.firstIndex(where: { $0 == .punctuation("(") }) else { return nil }
        // Split the parenthesised list at its top-level commas.
        var definitions: [[SQLTokens.Token]] = [[]]
        var depth = 0
        var close: Int?
        for index in tokens.items.indices.dropFirst(open + 1) {
            let token = tokens.items[index]
            if token == .punctuation("(") { depth += 1 }
            if token == .punctuation(")") {
                if depth == 0 {
                    close = index
                    break
                }
                depth -= 1
            }
            if depth == 0, token == .punctuation(",") {
                definitions.append([])
            } else {
                definitions[definitions.count - 1].append(token)
            }
        }
        guard let close else { return nil }
        let options = tokens.items[(close + 1)...].compactMap(\.word)
        let withoutRowid = zip(options, options.dropFirst()).contains { $0 == "WITHOUT" && $1 == "ROWID" }

        var columns: [String] = []
        var types: [String] = []
        var virtual: Set<Int> = []
        var primaryKey: [String] = []
        var primaryKeyDescending = false
        let constraints: Set<String> = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
        for definition in definitions where !definition.isEmpty {
            let words = definition.map(\.word)
            if let first = words[0], constraints.contains(first) {
                // A table constraint: only PRIMARY KEY (…) matters here.
                if let key = words.firstIndex(of: "PRIMARY"), let open = definition.firstIndex(of: .punctuation("(")),
                    open > key
                {
                    primaryKey = Self.columnNames(in: Array(definition[(open + 1)...]))
                }
                continue
            }
            guard let column = definition[0].name else { return nil }
            // The declared type: the words after the name, up to the first constraint keyword.
            let typeWords = words.dropFirst().prefix { word in
                guard let word else { return false }
                return ![
                    "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE",
                    "REFERENCES", "GENERATED", "AS",
                ].contains(word)
            }
            if let key = words.firstIndex(of: "PRIMARY"), words.indices.contains(key + 1), words[key + 1] == "KEY" {
                primaryKey = [column]
                primaryKeyDescending = words.indices.contains(key + 2) && words[key + 2] == "DESC"
            }
            if let generated = words.firstIndex(of: "AS"), !words[generated...].contains("STORED") {
                virtual.insert(columns.count)
            }
            columns.append(column)
            types.append(typeWords.compactMap { $0 }.joined(separator: " "))
        }
        guard !columns.isEmpty else { return nil }

        self.name = name
        self.rootPage = rootPage
        self.columns = columns
        self.withoutRowid = withoutRowid
        let lowered = columns.map { $0.lowercased() }
        let keyColumns = primaryKey.compactMap { lowered.firstIndex(of: $0.lowercased()) }
        // `INTEGER PRIMARY KEY` (exactly that type, not DESC on the column) names the rowid.
        if !withoutRowid, keyColumns.count == 1, types[keyColumns[0]] == "INTEGER", !primaryKeyDescending {
            rowidColumn = keyColumns[0]
        } else {
            rowidColumn = nil
        }
        var stored = withoutRowid ? keyColumns : []
        for column in columns.indices where !stored.contains(column) && !virtual.contains(column) {
            stored.append(column)
        }
        storedColumns = stored
        realColumns = Set(types.indices.filter { Self.hasRealAffinity(types[$0]) })
    }

    /// Whether a column declared with `type` has REAL affinity (sqlite.org/datatype3.html 3.1:
    /// the first rule that matches decides, and INT, CHAR, CLOB, TEXT and BLOB come first).
    static func hasRealAffinity(_ type: String) -> Bool {
        let type = type.uppercased()
        if ["INT", "CHAR", "CLOB", "TEXT", "BLOB"].contains(where: type.contains) || type.isEmpty { return false }
        return ["REAL", "FLOA", "DOUB"].contains(where: type.contains)
    }

    /// The names in a parenthesised column list (`id, "name" COLLATE NOCASE DESC`), up to its `)`.
    static func columnNames(in tokens: [SQLTokens.Token]) -> [String] {
        var names: [String] = []
        var expectName = true
        var depth = 0
        for token in tokens {
            if token == .punctuation("(") { depth += 1 }
            if token == .punctuation(")") {
                if depth == 0 { break }
                depth -= 1
            }
            if depth == 0, token == .punctuation(",") {
                expectName = true
            } else if expectName, depth == 0, let name = token.name {
                names.append(name)
                expectName = false
            }
        }
        return names
    }
}

/// The tokens of an SQL statement, enough to read a `CREATE TABLE`: names (bare or quoted with
/// `"`, `` ` ``, `[…]` or `'`), punctuation, and everything else as words. Comments are skipped.
struct SQLTokens {
    enum Token: Equatable {
        case bare(String)
        case quoted(String)
        case punctuation(Character)

        /// A bare word in upper case, for matching keywords.
        var word: String? {
            if case .bare(let text) = self { return text.uppercased() }
            return nil
        }

        /// The token as a name: a bare word as written, or a quoted name without its quotes.
        var name: String? {
            switch self {
            case .bare(let text), .quoted(let text): text
            case .punctuation: nil
            }
        }
    }

    var items: [Token] = []

    static let closingQuote: [Character: Character] = ["\"": "\"", "`": "`", "[": "]", "'": "'"]

    init(_ sql: String) {
        let characters = Array(sql)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if character == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                index += 2
                while index < characters.count,
                    !(characters[index] == "*" && index + 1 < characters.count
                        && characters[index + 1] == "/")
                {
                    index += 1
                }
                index += 2
            } else if let close = Self.closingQuote[character] {
                // A quoted name; a doubled closing quote inside stands for one.
                var text = ""
                index += 1
                while index < characters.count {
                    if characters[index] == close {
                        if close != "]", index + 1 < characters.count, characters[index + 1] == close {
                            text.append(close)
                            index += 2
                            continue
                        }
                        break
                    }
                    text.append(characters[index])
                    index += 1
                }
                index += 1
                items.append(.quoted(text))
            } else if "(),;".contains(character) {
                items.append(.punctuation(character))
                index += 1
            } else {
                var text = ""
                while index < characters.count, !characters[index].isWhitespace,
                    !"(),;\"`['".contains(characters[index])
                {
                    text.append(characters[index])
                    index += 1
                }
                if text.isEmpty {
                    index += 1
                } else {
                    items.append(.bare(text))
                }
            }
        }
    }
}
