import SwiftCovCore

/// An llvm-cov export as byte ranges of its document, with the strings that change from one
/// copy to the next marked: file names (`filename`, `filenames`, also inside `expansions`) and
/// function names. Built in one pass of `JSONScanner`; holds no copy of the document.
struct ExportTemplate {
    /// A stretch of the output document.
    enum Piece {
        /// Input bytes written as they are.
        case raw(Range<Int>)
        /// The elements `items[range]` of a `files` or `functions` array, written once per copy.
        case copies(Range<Int>, functions: Bool)
        /// A `totals` object, its counts multiplied by the number of copies.
        case totals(Range<Int>)
    }

    /// An array element (file entry or function record) and its changing strings.
    struct Item {
        /// The element's bytes.
        var bytes: Range<Int>
        /// Its strings that change, as a range of `splices`, in document order.
        var splices: Range<Int>
    }

    /// A string literal (quotes included) that changes per copy.
    struct Splice {
        /// The literal's bytes.
        var bytes: Range<Int>
        /// The file name it holds (index into `paths`), or -1.
        var path: Int32
        /// The function name it holds (index into `names`), or -1.
        var symbol: Int32
    }

    private(set) var pieces: [Piece] = []
    private(set) var items: [Item] = []
    private(set) var splices: [Splice] = []
    /// Distinct file names, decoded.
    private(set) var paths: [String] = []
    /// Function names, decoded, one per function record.
    private(set) var names: [[UInt8]] = []
    /// Whether the root has a `data` array.
    private(set) var sawData = false

    private var pathIDs: [String: Int32] = [:]
    private var cursor = 0

    /// Reads the export in `buffer`.
    init(_ buffer: UnsafeRawBufferPointer) throws(JSONError) {
        var scanner = JSONScanner(buffer)
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            guard key.equals("data"), scanner.peek() == UInt8(ascii: "[") else {
                try scanner.skipValue()
                continue
            }
            sawData = true
            try scanner.beginArray()
            var more = false
            while try scanner.nextElement(&more) { try readData(&scanner) }
        }
        guard scanner.isAtEnd() else { throw scanner.error("unexpected data after the export") }
        if cursor < buffer.count { pieces.append(.raw(cursor..<buffer.count)) }
    }

    /// Ends the raw stretch at `offset`.
    private mutating func cut(at offset: Int) {
        if offset > cursor { pieces.append(.raw(cursor..<offset)) }
        cursor = offset
    }

    private mutating func readData(_ scanner: inout JSONScanner) throws(JSONError) {
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            let isFiles = key.equals("files")
            let isFunctions = key.equals("functions")
            if (isFiles || isFunctions), scanner.peek() == UInt8(ascii: "[") {
                try scanner.beginArray()
                cut(at: scanner.offset)
                let first = items.count
                var more = false
                while try scanner.nextElement(&more) {
                    _ = scanner.peek()
                    let start = scanner.offset
                    let firstSplice = splices.count
                    if isFiles { try readFile(&scanner) } else { try readFunction(&scanner) }
                    items.append(Item(bytes: start..<scanner.offset, splices: firstSplice..<splices.count))
                }
                pieces.append(.copies(first..<items.count, functions: isFunctions))
                cursor = scanner.offset - 1  // The closing bracket.
            } else if key.equals("totals"), scanner.peek() == UInt8(ascii: "{") {
                let start = scanner.offset
                try scanner.skipValue()
                cut(at: start)
                pieces.append(.totals(start..<scanner.offset))
                cursor = scanner.offset
            } else {
                try scanner.skipValue()
            }
        }
    }

    private mutating func readFile(_ scanner: inout JSONScanner) throws(JSONError) {
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("filename"), scanner.peek() == UInt8(ascii: "\"") {
                try readPath(&scanner)
            } else if key.equals("expansions") {
                try readPaths(&scanner, depth: 0)
            } else {
                try scanner.skipValue()
            }
        }
    }

    private mutating func readFunction(_ scanner: inout JSONScanner) throws(JSONError) {
        try scanner.beginObject()
        var started = false
        while let key = try scanner.nextMember(&started) {
            if key.equals("name"), scanner.peek() == UInt8(ascii: "\"") {
                let start = scanner.offset
                let name = try scanner.readRawString()
                splices.append(Splice(bytes: start..<scanner.offset, path: -1, symbol: Int32(names.count)))
                names.append(Array(name.decoded().utf8))
            } else if key.equals("filenames"), scanner.peek() == UInt8(ascii: "[") {
                try readPathArray(&scanner)
            } else {
                try scanner.skipValue()
            }
        }
    }

    /// Marks the `filename` and `filenames` strings anywhere in the value (an `expansions` array).
    private mutating func readPaths(_ scanner: inout JSONScanner, depth: Int) throws(JSONError) {
        switch scanner.peek() {
        case UInt8(ascii: "{") where depth < 64:
            try scanner.beginObject()
            var started = false
            while let key = try scanner.nextMember(&started) {
                if key.equals("filename"), scanner.peek() == UInt8(ascii: "\"") {
                    try readPath(&scanner)
                } else if key.equals("filenames"), scanner.peek() == UInt8(ascii: "[") {
                    try readPathArray(&scanner)
                } else {
                    try readPaths(&scanner, depth: depth + 1)
                }
            }
        case UInt8(ascii: "[") where depth < 64:
            try scanner.beginArray()
            var more = false
            while try scanner.nextElement(&more) { try readPaths(&scanner, depth: depth + 1) }
        default:
            try scanner.skipValue()
        }
    }

    private mutating func readPathArray(_ scanner: inout JSONScanner) throws(JSONError) {
        try scanner.beginArray()
        var more = false
        while try scanner.nextElement(&more) {
            if scanner.peek() == UInt8(ascii: "\"") {
                try readPath(&scanner)
            } else {
                try scanner.skipValue()
            }
        }
    }

    private mutating func readPath(_ scanner: inout JSONScanner) throws(JSONError) {
        _ = scanner.peek()
        let start = scanner.offset
        let path = try scanner.readString()
        let id: Int32
        if let known = pathIDs[path] {
            id = known
        } else {
            id = Int32(paths.count)
            pathIDs[path] = id
            paths.append(path)
        }
        splices.append(Splice(bytes: start..<scanner.offset, path: id, symbol: -1))
    }
}
