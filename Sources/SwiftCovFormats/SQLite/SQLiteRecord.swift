/// One value of an SQLite record, as its serial type stores it.
package enum SQLiteValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// Equal as stored: reals by their bits, so that a NaN a file holds equals itself and -0.0
    /// is not 0.0.
    package static func == (left: SQLiteValue, right: SQLiteValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): a == b
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }

    package var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The value as a number: an integer, or a real (as SQLite compares them).
    package var real: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    package var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    package var blob: [UInt8]? {
        if case .blob(let value) = self { return value }
        return nil
    }
}

extension SQLiteDatabase {
    /// The values of a record (sqlite.org/fileformat2.html#record_format): a header of serial
    /// types, then each value's bytes. `offset` is where the record's cell is, for errors.
    package func values(ofRecord payload: [UInt8], at offset: Int) throws(DecodeError) -> [SQLiteValue] {
        func fail(_ message: String) -> DecodeError { DecodeError(offset: offset, message: "a record with \(message)") }
        var cursor = 0
        func varint() throws(DecodeError) -> UInt64 {
            guard let value = Self.varint(payload, at: &cursor, end: payload.count) else {
                throw fail("a header that runs past its end")
            }
            return value
        }
        let headerSize = try varint()
        guard headerSize >= UInt64(cursor), headerSize <= UInt64(payload.count) else {
            throw fail("a header of \(headerSize) bytes in \(payload.count)")
        }
        var types: [UInt64] = []
        while cursor < Int(headerSize) { types.append(try varint()) }
        guard cursor == Int(headerSize) else { throw fail("serial types that run past its header") }
        var body = cursor
        return try types.map { (type) throws(DecodeError) -> SQLiteValue in
            let size: Int
            switch type {
            case 0, 8, 9: size = 0
            case 1...4: size = Int(type)
            case 5: size = 6
            case 6, 7: size = 8
            case 10, 11: throw fail("reserved serial type \(type)")
            default:
                guard (type - 12) / 2 <= UInt64(payload.count - body) else {
                    throw fail("a value of \((type - 12) / 2) bytes where \(payload.count - body) are left")
                }
                size = Int((type - 12) / 2)
            }
            guard size <= payload.count - body else { throw fail("a value that runs past its end") }
            let bytes = payload[body..<body + size]
            body += size
            switch type {
            case 0: return .null
            case 8: return .integer(0)
            case 9: return .integer(1)
            case 1...6:
                // Big-endian two's complement, sign-extended from its width.
                var value = UInt64(0)
                for byte in bytes { value = value << 8 | UInt64(byte) }
                let shift = UInt64(64 - 8 * size)
                return .integer(Int64(bitPattern: value << shift) >> Int64(shift))
            case 7:
                var value = UInt64(0)
                for byte in bytes { value = value << 8 | UInt64(byte) }
                return .real(Double(bitPattern: value))
            default:
                return type % 2 == 0 ? .blob(Array(bytes)) : .text(text(bytes))
            }
        }
    }

    /// Text in the database's encoding; invalid sequences become U+FFFD.
    func text(_ bytes: ArraySlice<UInt8>) -> String {
        switch textEncoding {
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .utf16LittleEndian, .utf16BigEndian:
            let little = textEncoding == .utf16LittleEndian
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
                units.append(little ? second << 8 | first : first << 8 | second)
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
    }
}
