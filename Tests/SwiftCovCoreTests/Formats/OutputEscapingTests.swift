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

    /// Every bidirectional control and mark (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
    /// U+061C) and other format characters (zero-width space, word joiner, BOM, a tag character).
    static let formatCharacters: [Unicode.Scalar] =
        (0x202A...0x202E).map { Unicode.Scalar($0)! } + (0x2066...0x2069).map { Unicode.Scalar($0)! }
        + ["\u{200E}", "\u{200F}", "\u{061C}", "\u{200B}", "\u{2060}", "\u{FEFF}", "\u{AD}", "\u{E0041}"]

    @Test("a terminal, Markdown and HTML show format and bidirectional characters as their code, never raw")
    func formatCharactersShown() {
        for scalar in Self.formatCharacters {
            let text = "test" + String(Character(scalar)) + "Name"
            for output in [text.terminalSafe, CoverageMarkdownReport.escape(text), text.htmlEscaped] {
                #expect(!output.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16)) in \(output)")
            }
        }
        // The code, as Swift writes it: `\u{202E}` (Markdown escapes its backslash).
        #expect("a\u{202E}b".terminalSafe == #"a\u{202E}b"#)
        #expect("a\u{202E}b".htmlEscaped == #"a\u{202E}b"#)
        #expect(CoverageMarkdownReport.escape("a\u{202E}b") == #"a\\u{202E}b"#)
        #expect("\u{E0041}".terminalSafe == #"\u{E0041}"#)
        // Letters, accents and emoji stay as they are.
        #expect("Ünïcødé ✓ 日本 🙂".terminalSafe == "Ünïcødé ✓ 日本 🙂")
    }

    @Test("a hostile history: test, branch, environment and run names with bidi overrides reach no report raw")
    func hostileHistory() {
        let override = "\u{202E}"
        var history = TestHistory()
        let test = history.intern("M.T/test" + override + "evil\u{2066}")
        for index in 0..<4 {
            var run = TestHistory.Run(
                id: "run" + override + "\(index)", time: Int64(1_000 + index), commit: "c" + override,
                tree: "t", branch: "main" + override, environment: "Linux")
            run.environmentName = ["tz" + override, "utc"][index % 2]
            let failed = index % 2 == 0
            run.executions = [TestHistory.Execution(test: test, status: failed ? .failed : .passed)]
            run.totals.tests = 1
            run.totals.failed = failed ? 1 : 0
            history.add(run)
        }
        let analysis = FlakyVerdicts.analyze(history)
        #expect(analysis.findings.first?.name == "broken in tz" + override)
        let trends = HistoryTrends(history)
        for output in [
            FlakyReport.table(analysis), FlakyReport.markdown(analysis), TrendsReport.table(trends),
            TrendsReport.markdown(trends), TrendsReport.html(trends),
        ] {
            #expect(!output.unicodeScalars.contains { $0.isFormat }, "\(output)")
        }
    }
}
