import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

@Suite("Escaping for XML and HTML")
struct MarkupEscapingTests {
    @Test("XML: markup characters escaped, forbidden characters replaced, ANSI codes removed")
    func xml() {
        #expect("a<b>&\"c\"'d'".xmlEscaped == "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;")
        #expect("nul\u{0}bell\u{7}".xmlEscaped == "nul\u{FFFD}bell\u{FFFD}")
        #expect("\u{1B}[31mred\u{1B}[0m text\ttab\nline".xmlEscaped == "red text\ttab\nline")
        #expect("\u{FFFE}x".xmlEscaped == "\u{FFFD}x")
    }

    @Test("HTML: a file named <script>alert(1)</script>.swift cannot inject markup")
    func html() {
        #expect("<script>alert(1)</script>.swift".htmlEscaped == "&lt;script&gt;alert(1)&lt;/script&gt;.swift")
        #expect("\"onload='x'".htmlEscaped == "&quot;onload=&#39;x&#39;")
        #expect("a\u{0}b".htmlEscaped == "a\u{FFFD}b")
    }

    @Test("ANSI escape sequences of every kind are stripped")
    func ansi() {
        #expect("\u{1B}[1;32m✔\u{1B}[0m Test".strippingANSIEscapes == "✔ Test")
        #expect("\u{1B}]0;title\u{7}after".strippingANSIEscapes == "after")
        #expect("cut\u{1B}".strippingANSIEscapes == "cut")
        #expect("plain".strippingANSIEscapes == "plain")
    }

    /// An invented name with C1 controls (U+0085 NEL, U+009B CSI), which some terminals obey.
    static let c1 = "a\u{85}b\u{9B}31mc\u{80}\u{9F}d"
    static let c1Replaced = "a\u{FFFD}b\u{FFFD}31mc\u{FFFD}\u{FFFD}d"

    @Test("C1 controls are replaced like C0 ones: terminal, lcov, Markdown, HTML, XML")
    func c1Controls() {
        #expect(Self.c1.terminalSafe == Self.c1Replaced)
        #expect(LcovReport.field(Self.c1) == Self.c1Replaced)
        #expect(CoverageMarkdownReport.escape(Self.c1) == Self.c1Replaced)
        #expect(Self.c1.htmlEscaped == Self.c1Replaced)
        #expect(Self.c1.xmlEscaped == Self.c1Replaced)
        #expect("é\u{A0}€".terminalSafe == "é\u{A0}€")  // C2 A0 (no-break space) is no control
        var buffer = OutputBuffer(reservingCapacity: 64)
        buffer.append(escapingHTML: "é" + Self.c1)
        #expect(buffer.text == "é" + Self.c1Replaced)
    }

    @Test(
        "source bytes escape the same whole or in pieces, also invalid UTF-8 beside an escape sequence (found by fuzzing highlight)"
    )
    func bytesInPieces() {
        let bytes: [UInt8] = Array(" sp\u{1B}\u{1B}[31m\"".utf8) + [0xDB, 0xDB, 0x20, 0x1D, 0x24, 0xDB, 0x3C]
        func escaped(_ pieces: [Range<Int>]) -> String {
            var buffer = OutputBuffer(reservingCapacity: 64)
            bytes.withUnsafeBufferPointer { all in
                for piece in pieces { buffer.append(escapingHTML: UnsafeBufferPointer(rebasing: all[piece])) }
            }
            return buffer.text
        }
        let whole = escaped([0..<bytes.count])
        #expect(whole == " sp\u{FFFD}\u{FFFD}[31m&quot;\u{FFFD}\u{FFFD} \u{FFFD}$\u{FFFD}&lt;")
        for split in 1..<bytes.count { #expect(escaped([0..<split, split..<bytes.count]) == whole, "\(split)") }
    }

    @Test("XML attributes keep tab, newline and return as character references; text keeps a return so")
    func xmlAttributes() throws {
        #expect("a\tb\nc\rd".xmlAttributeEscaped == "a&#9;b&#10;c&#13;d")
        // A parser reads a return written as itself as a line feed, in text too.
        #expect("a\tb\nc\rd".xmlEscaped == "a\tb\nc&#13;d")
        var reader = XMLReader(
            Array("<a x=\"\("a\tb\nc\rd".xmlAttributeEscaped)\">\("a\tb\nc\rd\r\n".xmlEscaped)</a>".utf8))
        #expect(
            try reader.next()
                == .start(name: "a", attributes: [XMLReader.Attribute(name: "x", value: "a\tb\nc\rd")]))
        #expect(try reader.next() == .text("a\tb\nc\rd\r\n"))
        #expect("<\"&'>".xmlAttributeEscaped == "&lt;&quot;&amp;&apos;&gt;")
    }

    /// Texts where each kind of byte that needs escaping sits inside, at the start and end of,
    /// and across the eight-byte words the fast path reads.
    static let escapingCases = [
        "", "plain", "exactly8", "sixteen bytes ok", "a<b", "0123456<", "01234567<", "<01234567", "01234567&890123",
        "tab\there", "line\nbreak", "cr\rhere", "quote\"", "apos'", "amp&", "gt>", "del\u{7F}x", "nul\u{0}x",
        "bell\u{7}0123456789", "é and ü", "01234567é", "nbsp\u{A0}x", "c1\u{85}x", "0123456\u{9B}x", "\u{FFFE}",
        "x\u{FFFF}y", "\u{FFFD}ok", "\u{EFFF}ok", "€uro", "emoji 🎉 <b>", "\u{1B}[31mred\u{1B}[0m <x>",
        "012345678901234567890123\u{1F}",
    ]

    @Test("Appending escaped XML to a buffer writes exactly what String's escaping gives", arguments: escapingCases)
    func bufferXMLEscaping(text: String) {
        var content = OutputBuffer()
        content.append(escapingXML: text)
        #expect(content.text == text.xmlEscaped)
        var attribute = OutputBuffer()
        attribute.append(escapingXMLAttribute: text)
        #expect(attribute.text == text.xmlAttributeEscaped)
    }

    @Test("Names escaped once: each name, seen once or again, is written as escaping it writes it")
    func escapedNamesOnce() {
        var names = EscapedXMLNames()
        // Each case three times, the second and third read from the table, and a long name
        // escaped each time.
        let texts = Self.escapingCases + [String(repeating: "<long> ", count: 200)]
        for _ in 0..<3 {
            for text in texts {
                var cached = OutputBuffer()
                names.append(text, to: &cached)
                #expect(cached.text == text.xmlAttributeEscaped, "\(text)")
            }
        }
        var known = OutputBuffer()
        names.append("a \"b\" & <c>", to: &known)
        names.append("a \"b\" & <c>", to: &known)
        #expect(known.text == "a &quot;b&quot; &amp; &lt;c&gt;a &quot;b&quot; &amp; &lt;c&gt;")
    }

    @Test("Names escaped once: a table filled with names that repeat, or that never repeat, writes every name right")
    func escapedNamesFilled() {
        for repeats in [false, true] {
            var names = EscapedXMLNames()
            var previous = ""
            for index in 0..<(2 * EscapedXMLNames.nameLimit + 10) {
                // Repeated: each name (the same string) a second time at once, so the table pays;
                // else every name new.
                let text = repeats && index % 2 == 1 ? previous : "name <\(index)> é"
                previous = text
                var cached = OutputBuffer()
                names.append(text, to: &cached)
                guard cached.text == text.xmlAttributeEscaped else {
                    Issue.record("\(text): \(cached.text)")
                    return
                }
            }
        }
    }

    @Test("Names escaped once: a name is told by its text, whichever string holds it")
    func escapedNamesByText() {
        var names = EscapedXMLNames()
        var written = OutputBuffer()
        // The same text in strings of their own, and texts that differ only in their last byte.
        for text in ["a long name <1> & more", "a long name <1> & more", "a long name <2> & more"] {
            names.append(String(decoding: Array(text.utf8), as: UTF8.self), to: &written)
            names.append(text, to: &written)
        }
        #expect(
            written.text
                == "a long name &lt;1&gt; &amp; more" + "a long name &lt;1&gt; &amp; more"
                + "a long name &lt;1&gt; &amp; more" + "a long name &lt;1&gt; &amp; more"
                + "a long name &lt;2&gt; &amp; more" + "a long name &lt;2&gt; &amp; more")
    }

    @Test("Eight bytes of text: every byte that may need escaping is found at every place, and no other")
    func wordTest() {
        let specials: Set<UInt8> = [0x22, 0x26, 0x27, 0x3C, 0x3E]
        for byte in UInt8.min...UInt8.max {
            let mayNeed = byte < 0x20 || byte >= 0x7F || specials.contains(byte)
            for place in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[place] = byte
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(UnsafeBufferPointer<UInt8>.mayNeedXMLEscape(word) == mayNeed, "byte \(byte) at \(place)")
            }
        }
    }

    @Test("Each character up to U+00FF, at every place of texts of 1 to 24 bytes, escapes as String's escaping")
    func everyPlace() {
        for value in UInt32(0)...0xFF {
            let character = String(Character(Unicode.Scalar(value)!))
            for length in 1...24 {
                for place in 0..<length {
                    let text =
                        String(repeating: "a", count: place) + character
                        + String(repeating: "b", count: length - place - 1)
                    var attribute = OutputBuffer()
                    attribute.append(escapingXMLAttribute: text)
                    #expect(attribute.text == text.xmlAttributeEscaped, "U+\(value) at \(place) of \(length)")
                }
            }
        }
    }

    @Test("Markdown: @user cannot mention anyone; the text still reads @user")
    func mentions() {
        let escaped = CoverageMarkdownReport.escape("test_@octocat(x@y.com)")
        #expect(escaped == "test\\_@\u{200B}octocat(x@\u{200B}y.com)")
        #expect(!escaped.contains("@o"))
    }
}
