/// A binary property list (`bplist00`, as Apple's CoreFoundation writes it), read whole into a
/// flat table of objects. Containers hold the indices of their members, not the members, so a
/// list whose references form a cycle is read like any other: whoever walks it decides how deep
/// to go (see `KeyedArchive`). Every count, offset and reference is checked against the bytes,
/// and objects at one offset are read once: the time and memory taken are linear in the bytes.
///
/// Layout: the 8-byte magic, the objects, a table of their offsets, and a 32-byte trailer (sizes
/// of the offsets and of object references, the object count, the top object, the table's place).
package struct BinaryPropertyList: Sendable {
    /// One object of the list.
    package enum Object: Sendable, Equatable {
        case null
        case bool(Bool)
        /// An integer; 16-byte integers keep their low 64 bits only when the high ones are zero.
        case integer(Int64)
        case real(Double)
        /// Seconds since 2001-01-01 00:00:00 UTC.
        case date(Double)
        case data([UInt8])
        case string(String)
        /// An `NSKeyedArchiver` reference to an entry of its `$objects`.
        case uid(UInt64)
        /// The indices of the members in `objects` (an array or a set).
        case array([Int])
        /// The indices of the keys and of the values in `objects`, pairwise.
        case dictionary(keys: [Int], values: [Int])
    }

    /// What is wrong with the bytes, and where.
    package struct DecodeError: Error, Equatable, CustomStringConvertible {
        package var offset: Int
        package var message: String
        package var description: String { "\(message) (byte offset \(offset))" }
    }

    package var objects: [Object]
    /// The index of the top object.
    package var top: Int

    /// Whether `bytes` starts as a binary property list does.
    package static func hasMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 8 && bytes.prefix(8).elementsEqual("bplist00".utf8)
    }

    /// Reads the list in `bytes`.
    package init(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) {
        guard Self.hasMagic(bytes) else { throw DecodeError(offset: 0, message: "not a binary property list") }
        guard bytes.count >= 8 + 32 else {
            throw DecodeError(offset: bytes.count, message: "a binary property list shorter than its trailer")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = Self.bigEndian(bytes, at: trailer + 8, size: 8)
        let topObject = Self.bigEndian(bytes, at: trailer + 16, size: 8)
        let tableOffset = Self.bigEndian(bytes, at: trailer + 24, size: 8)
        guard [1, 2, 4, 8].contains(offsetSize), [1, 2, 4, 8].contains(referenceSize) else {
            throw DecodeError(
                offset: trailer + 6, message: "offsets of \(offsetSize) or references of \(referenceSize) bytes")
        }
        // Every object takes at least one byte between the magic and the offset table.
        guard tableOffset >= 8, tableOffset <= UInt64(trailer), objectCount >= 1,
            objectCount <= tableOffset - 8,
            objectCount <= UInt64(trailer - Int(tableOffset)) / UInt64(offsetSize)
        else {
            throw DecodeError(
                offset: trailer + 8, message: "\(objectCount) objects and an offset table at \(tableOffset) do not fit")
        }
        guard topObject < objectCount else {
            throw DecodeError(offset: trailer + 16, message: "top object \(topObject) of \(objectCount)")
        }
        let count = Int(objectCount)
        let table = Int(tableOffset)
        var reader = Reader(bytes: bytes, end: table, referenceSize: referenceSize, objectCount: count)
        var objects: [Object] = []
        objects.reserveCapacity(count)
        // Objects at an offset read before share what was read there (the table may name one
        // object of kilobytes thousands of times): reading stays linear in the list's size.
        var read: [Int: Int] = [:]
        for index in 0..<count {
            let position = table + index * offsetSize
            let offset = Self.bigEndian(bytes, at: position, size: offsetSize)
            guard offset >= 8, offset < UInt64(table) else {
                throw DecodeError(offset: position, message: "object \(index) at offset \(offset), outside the objects")
            }
            if let first = read.updateValue(index, forKey: Int(offset)) {
                objects.append(objects[first])
                read[Int(offset)] = first
                continue
            }
            objects.append(try reader.object(at: Int(offset)))
        }
        self.objects = objects
        top = Int(topObject)
    }

    /// The unsigned big-endian number of `size` bytes at `offset` (checked by the caller).
    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// Reads single objects from the part of the list before the offset table.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        /// Where the objects end (the offset table).
        let end: Int
        let referenceSize: Int
        let objectCount: Int

        func error(_ offset: Int, _ message: String) -> DecodeError { DecodeError(offset: offset, message: message) }

        /// The `size` bytes at `offset` as a big-endian number, if they are before `end`.
        func number(at offset: Int, size: Int) throws(DecodeError) -> UInt64 {
            guard offset <= end - size else { throw error(offset, "the object runs past the objects") }
            return BinaryPropertyList.bigEndian(bytes, at: offset, size: size)
        }

        mutating func object(at start: Int) throws(DecodeError) -> Object {
            let marker = bytes[start]
            let low = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw error(start, "an unknown object marker 0x\(String(marker, radix: 16))")
                }
            case 0x1:
                guard low <= 4 else { throw error(start, "an integer of 2^\(low) bytes") }
                let size = 1 << low
                if size == 16 {
                    let high = try number(at: start + 1, size: 8)
                    let value = try number(at: start + 9, size: 8)
                    guard high == 0, value <= UInt64(Int64.max) else { throw error(start, "an integer beyond 64 bits") }
                    return .integer(Int64(value))
                }
                let value = try number(at: start + 1, size: size)
                // 8-byte integers are signed; shorter ones are unsigned.
                return .integer(size == 8 ? Int64(bitPattern: value) : Int64(value))
            case 0x2:
                guard low == 2 || low == 3 else { throw error(start, "a real of 2^\(low) bytes") }
                let value = try number(at: start + 1, size: 1 << low)
                return .real(low == 2 ? Double(Float(bitPattern: UInt32(value))) : Double(bitPattern: value))
            case 0x3:
                guard marker == 0x33 else { throw error(start, "a date marker 0x\(String(marker, radix: 16))") }
                return .date(Double(bitPattern: try number(at: start + 1, size: 8)))
            case 0x4:
                let (count, first) = try length(at: start, unit: 1)
                return .data(Array(bytes[first..<first + count]))
            case 0x5:
                let (count, first) = try length(at: start, unit: 1)
                return .string(
                    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[first..<first + count]), as: UTF8.self))
            case 0x6:
                let (count, first) = try length(at: start, unit: 2)
                var units: [UInt16] = []
                units.reserveCapacity(count)
                for index in 0..<count {
                    units.append(UInt16(bytes[first + 2 * index]) << 8 | UInt16(bytes[first + 2 * index + 1]))
                }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                return .uid(try number(at: start + 1, size: low + 1))
            case 0xA, 0xC:
                let (count, first) = try length(at: start, unit: referenceSize)
                return .array(try references(count, at: first))
            case 0xD:
                let (count, first) = try length(at: start, unit: 2 * referenceSize)
                let keys = try references(count, at: first)
                return .dictionary(keys: keys, values: try references(count, at: first + count * referenceSize))
            default:
                throw error(start, "an unknown object marker 0x\(String(marker, radix: 16))")
            }
        }

        /// The element count of the object at `start` (in its marker, or in an integer object
        /// after it when the marker says 15) and where its elements begin; the elements, of
        /// `unit` bytes each, must fit before `end`.
        func length(at start: Int, unit: Int) throws(DecodeError) -> (count: Int, first: Int) {
            var count = UInt64(bytes[start] & 0x0F)
            var first = start + 1
            if count == 15 {
                guard first < end, bytes[first] >> 4 == 0x1, bytes[first] & 0x0F <= 3 else {
                    throw error(first, "a length that is not an integer")
                }
                let size = 1 << Int(bytes[first] & 0x0F)
                count = try number(at: first + 1, size: size)
                first += 1 + size
            }
            guard count <= UInt64(end - first) / UInt64(unit) else {
                throw error(start, "\(count) elements with \(end - first) bytes left")
            }
            return (Int(count), first)
        }

        /// `count` object references at `offset`, each a valid object index.
        func references(_ count: Int, at offset: Int) throws(DecodeError) -> [Int] {
            var result: [Int] = []
            result.reserveCapacity(count)
            for index in 0..<count {
                let position = offset + index * referenceSize
                let reference = try number(at: position, size: referenceSize)
                guard reference < UInt64(objectCount) else {
                    throw error(position, "a reference to object \(reference) of \(objectCount)")
                }
                result.append(Int(reference))
            }
            return result
        }
    }
}
