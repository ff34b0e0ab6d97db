import Testing

@testable import SwiftCovCore

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
}
