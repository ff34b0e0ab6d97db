import Testing

@testable import SwiftCovCore

/// One escaping function per output context: none lets a control character of the input through.
@Suite("escaping text from the inputs, one function per output context")
struct OutputEscapingTests {
    /// C0, DEL and C1 controls (U+0085 NEL, U+009B CSI), an ANSI sequence, and the characters
    /// each context must encode.
    static let hostile = "a\u{9B}31m b\u{85}c\u{1B}[2Jd\u{0}e\u{7F}f%g:h,i\rj\nk"

    @Test("GitHub workflow commands: % CR LF encoded (and : , in properties), other controls U+FFFD")
    func github() {
        #expect(Self.hostile.githubCommandData == "a\u{FFFD}31m b\u{FFFD}cd\u{FFFD}e\u{FFFD}f%25g:h,i%0Dj%0Ak")
        #expect(
            Self.hostile.githubCommandProperty == "a\u{FFFD}31m b\u{FFFD}cd\u{FFFD}e\u{FFFD}f%25g%3Ah%2Ci%0Dj%0Ak")
        let command = GitHubAnnotations.workflowCommand(
            "error", properties: [("title", "t\u{9B}"), ("file", "a,b:c")], message: "m\u{85}\n::warning::x")
        #expect(command == "::error title=t\u{FFFD},file=a%2Cb%3Ac::m\u{FFFD}%0A::warning::x\n")
    }

    @Test("every context replaces C1 controls and never passes ESC")
    func everyContext() {
        let outputs = [
            Self.hostile.githubCommandData, Self.hostile.githubCommandProperty, Self.hostile.terminalSafe,
            CoverageMarkdownReport.escape(Self.hostile), Self.hostile.xmlEscaped, Self.hostile.xmlAttributeEscaped,
            Self.hostile.htmlEscaped,
        ]
        for output in outputs {
            #expect(
                !output.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value < 0x09 }, "\(output)")
            #expect(!output.contains("\u{1B}"))
        }
    }
}
