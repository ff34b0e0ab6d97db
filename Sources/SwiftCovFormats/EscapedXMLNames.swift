/// Names escaped for XML attribute values once each: a JUnit file of a million cases names a few
/// thousand tests (and parameterized tests' arguments) again and again, and the log's reader gives
/// every case of one name the same `String` (one storage). So a name is looked up by where its
/// bytes are, no byte read, and its escaped bytes are copied: less than the scan for what to
/// escape costs.
///
/// A place identifies the bytes only while their storage lives, so the table keeps each name's
/// `String` (its storage cannot be freed and reused while the table holds it), and only names
/// stored apart from the `String` value (more than 15 bytes: shorter ones are held inside it, in
/// no fixed place) are kept; the rest, and a name of another storage with the same text, are
/// escaped as they come. Bounded: emptied when it holds many names, and no longer used once a
/// fill found them repeated too rarely to pay (names that never repeat).
package struct EscapedXMLNames {
    /// The names kept, each with where its bytes are.
    private var names: [String] = []
    private var places: [UnsafeRawPointer] = []
    /// Every name's escaped bytes, one after the other, and where each starts (one more entry:
    /// the end of the last).
    private var escaped: [UInt8] = []
    private var starts: [Int] = [0]
    /// Open addressing: a name's number plus one in the slot its place leads to, 0 for none.
    private var slots: [Int32] = Array(repeating: 0, count: 64)
    /// Names found since the table was last emptied.
    private var hits = 0
    private var isUsed = true

    /// At most this many names are kept (then the table is emptied).
    static let nameLimit = 1 << 14
    /// At most this many escaped bytes are kept.
    static let byteLimit = 4 << 20
    /// Names of at most this many bytes are held inside a `String` value, not in a storage.
    static let inlineLength = 15

    package init() {}

    /// Appends `text` escaped for an XML attribute value to `xml`, as
    /// `OutputBuffer.append(escapingXMLAttribute:)` does: copied from the table when it has
    /// `text`'s storage, else escaped, and kept.
    package mutating func append(_ text: String, to xml: inout OutputBuffer) {
        // Where the bytes of `text`'s storage are (read in place, no copy of the string made):
        // they stay there while the string lives.
        guard isUsed, text.utf8.count > Self.inlineLength,
            let place = text.utf8.withContiguousStorageIfAvailable({ UnsafeRawPointer($0.baseAddress!) })
        else { return xml.append(escapingXMLAttribute: text) }
        if appendKept(at: place, to: &xml) { return }
        var scratch = OutputBuffer()
        scratch.append(escapingXMLAttribute: text)
        scratch.withBytes { bytes in
            xml.append(bytes: bytes)
            add(text, at: place, escaped: bytes)
        }
    }

    /// Appends the escaped bytes of the name at `place` when the table has it.
    private mutating func appendKept(at place: UnsafeRawPointer, to xml: inout OutputBuffer) -> Bool {
        let mask = slots.count - 1
        var slot = Self.slot(place, mask: mask)
        while slots[slot] != 0 {
            let id = Int(slots[slot]) - 1
            if places[id] == place {
                hits += 1
                escaped.withUnsafeBufferPointer {
                    xml.append(bytes: UnsafeBufferPointer(rebasing: $0[starts[id]..<starts[id + 1]]))
                }
                return true
            }
            slot = (slot + 1) & mask
        }
        return false
    }

    /// The slot where the table looks for the name at `place` first.
    private static func slot(_ place: UnsafeRawPointer, mask: Int) -> Int {
        // Storages are aligned to 16 bytes and far apart: the bits above, mixed.
        let mixed = (UInt(bitPattern: place) >> 4) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    /// Keeps `name`, whose bytes are at `place`, with its escaped bytes.
    private mutating func add(_ name: String, at place: UnsafeRawPointer, escaped bytes: UnsafeBufferPointer<UInt8>) {
        if names.count >= Self.nameLimit || escaped.count + bytes.count > Self.byteLimit {
            // Full: names repeated often enough to pay start over, others are escaped each time.
            let used = hits >= names.count
            self = EscapedXMLNames()
            isUsed = used
            guard used else { return }
        }
        names.append(name)
        places.append(place)
        escaped.append(contentsOf: bytes)
        starts.append(escaped.count)
        if 2 * names.count > slots.count {
            slots = [Int32](repeating: 0, count: slots.count * 2)
            for id in places.indices { insert(id) }
        } else {
            insert(names.count - 1)
        }
    }

    private mutating func insert(_ id: Int) {
        let mask = slots.count - 1
        var slot = Self.slot(places[id], mask: mask)
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(truncatingIfNeeded: id + 1)
    }
}
