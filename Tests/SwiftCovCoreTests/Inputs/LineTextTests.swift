import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

@Suite("Log line bytes")
struct LineTextTests {
    @Test(
        "numbers read from bytes equal Double's and Int's own parsing",
        arguments: [
            "0.001", "0.005", "1.0", "12.345", "0", "7", "1.", ".5", ".", "", "0.1", "0.3", "123456789012345",
            "1234567890123456", "0.000000000000001", "99999.99999", "1e3", "-1.5", "+2", "1.2.3", "nan", "inf",
            "0x10", " 1", "1 ", "00000000000000001", "3.14159265358979", "18446744073709551616",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "-", "+",
            "--1", "+-1", "-0", "12a", "١٢",
        ])
    func numbers(text: String) {
        LineText.with(text) { bytes in
            #expect(bytes.double.map(\.bitPattern) == Double(text).map(\.bitPattern), "\(text)")
            #expect(bytes.int == Int(text), "\(text)")
        }
    }

    @Test("split cuts like the standard library's split, empty pieces and maxSplits included")
    func split() {
        for text in ["a b  c", " a b ", "", "   ", "one", "a b c d e f g h"] {
            for maxSplits in [0, 1, 2, 5, Int.max] {
                for omitting in [true, false] {
                    let expected = text.utf8.split(
                        separator: 0x20, maxSplits: maxSplits, omittingEmptySubsequences: omitting
                    ).map { String(decoding: $0, as: UTF8.self) }
                    let pieces = LineText.with(text) {
                        $0.split(0x20, maxSplits: maxSplits, omittingEmpty: omitting).map(\.string)
                    }
                    #expect(pieces == expected, "\(text) \(maxSplits) \(omitting)")
                }
            }
        }
    }

    @Test("searching: first and last occurrences, prefixes, suffixes")
    func searching() {
        LineText.with("a: b: error: c") { text in
            #expect(text.find(": ") == 1)
            #expect(text.lastFind(": ") == 11)
            #expect(text.find(": error: ") == 4)
            #expect(text.find("missing") == nil)
            #expect(text.lastIndex(of: UInt8(ascii: ":")) == 11)
            #expect(text.firstIndex(of: UInt8(ascii: "b")) == 3)
            #expect(text.hasPrefix("a: ") && text.hasSuffix(": c") && !text.hasSuffix("x"))
            #expect(text.after("a: ")?.string == "b: error: c")
            #expect(text.trimmingParentheses.string == "a: b: error: c")
        }
        LineText.with("((12),.") { #expect($0.trimmingParentheses.string == "12") }
        LineText.with("") { text in
            #expect(text.find(": ") == nil && text.lastFind(": ") == nil && text.lastIndex(of: 0x3A) == nil)
            #expect(text.firstScalar == nil)
        }
    }

    @Test("find gives the first occurrence at every place, as a search byte by byte does")
    func findEverywhere() {
        // Texts of many lengths with the needle at each place, after its first bytes or bytes
        // one off them.
        // Texts longer than sixteen places too, where places are looked at sixteen at once (by the
        // needle's first and last bytes: "!r!" and "q q" have them all over the fillers).
        let needles = [" recorded a", ": ", "ab", " r", "x", "!r!", "q q"]
        for needle in needles {
            for length in 0..<42 {
                for place in 0...length {
                    for filler in ["q", " ", "!", "\u{1}", " q", "!r", " r"] {
                        var text = String(repeating: filler, count: length)
                        text = String(text.utf8.prefix(place).map { Character(Unicode.Scalar($0)) }) + needle + " tail"
                        let bytes = Array(text.utf8)
                        let expected = bytes.indices.first { start in
                            start + needle.utf8.count <= bytes.count
                                && bytes[start..<(start + needle.utf8.count)].elementsEqual(needle.utf8)
                        }
                        let found = LineText.with(text) { line in
                            needle.utf8.withContiguousStorageIfAvailable { line.find(UnsafeRawBufferPointer($0)) }!
                        }
                        guard found == expected else {
                            Issue.record("\(needle) in \(text.debugDescription): \(String(describing: found))")
                            return
                        }
                    }
                }
            }
        }
    }

    @Test("the last of a byte, eight bytes at a time: at every place, once or twice, beside look-alike bytes")
    func lastIndexEverywhere() {
        for length in 0..<40 {
            for filler: UInt8 in [0x00, 0x26, 0x28, 0xA7, 0xFF] {
                for (first, second) in [(nil, nil), (0, nil), (length / 3, length - 1), (length - 1, nil)]
                    as [(Int?, Int?)]
                {
                    var bytes = [UInt8](repeating: filler, count: length)
                    for place in [first, second].compactMap({ $0 }) where place >= 0 && place < length {
                        bytes[place] = 0x27
                    }
                    let found = bytes.withUnsafeBytes { LineText($0).lastIndex(of: 0x27) }
                    #expect(found == bytes.lastIndex(of: 0x27), "\(length) \(filler) \(bytes)")
                }
            }
        }
    }

    @Test("the first scalar of a line: ASCII, two, three and four bytes")
    func firstScalar() {
        for text in ["A", "é", "✔ x", "\u{10065F} x"] {
            LineText.with(text) { bytes in
                #expect(bytes.firstScalar?.0 == text.unicodeScalars.first, "\(text)")
                #expect(bytes.firstScalar?.1 == String(text.unicodeScalars.first!).utf8.count)
            }
        }
    }

    @Test("plain lines (valid UTF-8, no ESC) are told from lines with ESC or bad UTF-8, in any position")
    func plainText() {
        // Past 32 bytes: the sixteen- and eight-byte steps, and the last bytes, each hit.
        for length in 0..<40 {
            // Lines, and pieces of many lines (LF among the bytes), told alike.
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(plain.withUnsafeBytes { LineText.isPlainText($0) })
            #expect(plain.withUnsafeBytes { LineText.isPlainLines($0) })
            for position in 0..<length {
                for odd: UInt8 in [0x1B, 0x80, 0xC3, 0xFF] {
                    var line = plain
                    line[position] = odd
                    #expect(!line.withUnsafeBytes { LineText.isPlainText($0) }, "\(length) \(position) \(odd)")
                    if position > 0 { line[position - 1] = 0x0A }
                    #expect(!line.withUnsafeBytes { LineText.isPlainLines($0) }, "\(length) \(position) \(odd)")
                }
                for scalar in ["é", "✔", "\u{1D11E}", "\u{10FFFF}"] {
                    var line = plain
                    line.replaceSubrange(position..<position + 1, with: Array(scalar.utf8))
                    #expect(line.withUnsafeBytes { LineText.isPlainText($0) }, "\(length) \(position) \(scalar)")
                    if position > 0 { line[position - 1] = 0x0A }
                    #expect(line.withUnsafeBytes { LineText.isPlainLines($0) }, "\(length) \(position) \(scalar)")
                }
            }
        }
    }

    @Test("a plain line is exactly one String(validating:) accepts, without ESC (random bytes)")
    func plainTextAgainstTheStandardLibrary() {
        var generator = SplitMix64(seed: 0x5EED)
        // Bytes drawn mostly from the edges of UTF-8's ranges, where validators go wrong.
        let interesting: [UInt8] = [
            0x00, 0x1B, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED,
            0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF, 0x0A,
        ]
        for round in 0..<50_000 {
            // Short lines of edge bytes; longer ones (many lines, past sixteen bytes) mostly ASCII,
            // so that they are often valid.
            let long = round % 2 == 1
            let length = Int(generator.next() % (long ? 80 : 12))
            let bytes = (0..<length).map { _ in
                long && generator.next() % 8 != 0
                    ? UInt8(ascii: "a") : interesting[Int(generator.next() % UInt64(interesting.count))]
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil && !bytes.contains(0x1B)
            #expect(bytes.withUnsafeBytes { LineText.isPlainText($0) } == expected, "\(bytes)")
            #expect(bytes.withUnsafeBytes { LineText.isPlainLines($0) } == expected, "\(bytes)")
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failure can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
