/// Names (tests, classes, arguments) by their bytes, each numbered and made into a `String`
/// once: the log parser looks a name up in the line it reads without making a `String`, and
/// the thousands of tests of one name (a suite run again and again, shards, repetitions) share
/// one `String`'s storage.
struct NameTable {
    /// The names by number, in the order they were first seen.
    private(set) var strings: [String] = []
    /// Where each name's bytes start in `bytes` (one more entry: the end of the last).
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Every name's bytes, one after the other.
    private var bytes: [UInt8] = []
    /// Open addressing: a name's number plus one in the slot its hash leads to, 0 for none.
    private var slots: [Int32] = Array(repeating: 0, count: 64)

    var count: Int { strings.count }

    /// The name numbered `id`.
    subscript(id: Int) -> String { strings[id] }

    /// How many bytes the table holds for its names (beyond the strings themselves).
    var byteCount: Int { bytes.count }

    /// The number of `text`, nil when the table does not have it.
    func find(_ text: LineText) -> Int? {
        let hash = Self.hash(text)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return nil }
            if hashes[entry - 1] == hash, matches(entry - 1, text) { return entry - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// The number of `text`, added if the table does not have it yet.
    mutating func intern(_ text: LineText) -> Int {
        let hash = Self.hash(text)
        var mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { break }
            if hashes[entry - 1] == hash, matches(entry - 1, text) { return entry - 1 }
            slot = (slot + 1) & mask
        }
        let id = strings.count
        strings.append(text.string)
        hashes.append(hash)
        text.bytes.withMemoryRebound(to: UInt8.self) { bytes.append(contentsOf: $0) }
        starts.append(bytes.count)
        if 2 * (id + 1) > slots.count {
            grow()
            mask = slots.count - 1
            slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
        }
        slots[slot] = Int32(truncatingIfNeeded: id + 1)
        return id
    }

    /// The `String` of `text`: the table's, shared, when it has it.
    mutating func string(_ text: LineText) -> String { strings[intern(text)] }

    /// Forgets every name.
    mutating func removeAll() {
        self = NameTable()
    }

    private func matches(_ id: Int, _ text: LineText) -> Bool {
        let start = starts[id]
        let length = starts[id + 1] - start
        guard length == text.count else { return false }
        guard length > 0 else { return true }
        return bytes.withUnsafeBytes { stored in
            LineText.equal(stored.baseAddress! + start, text.bytes.baseAddress!, count: length)
        }
    }

    private mutating func grow() {
        var larger = [Int32](repeating: 0, count: slots.count * 2)
        let mask = larger.count - 1
        for id in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while larger[slot] != 0 { slot = (slot + 1) & mask }
            larger[slot] = Int32(truncatingIfNeeded: id + 1)
        }
        slots = larger
    }

    /// A hash of the bytes, eight at a time (multiply and fold; not for adversaries, who can at
    /// worst make lookups slower).
    static func hash(_ text: LineText) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: text.count)
        guard let base = text.bytes.baseAddress else { return hash }
        var index = 0
        let count = text.count
        func mix(_ value: UInt64) {
            let product = (hash ^ value).multipliedFullWidth(by: 0xBF58_476D_1CE4_E5B9)
            hash = product.high ^ product.low
        }
        while index + 8 <= count {
            mix(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        if index < count {
            if count >= 8 {
                // The last eight bytes (the length is in the seed).
                mix(base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            } else {
                var tail: UInt64 = 0
                var shift: UInt64 = 0
                while index < count {
                    tail |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << shift
                    shift += 8
                    index += 1
                }
                mix(tail)
            }
        }
        return hash ^ (hash >> 29)
    }
}
