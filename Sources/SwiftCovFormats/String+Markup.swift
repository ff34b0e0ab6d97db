/// Escaping of text from the inputs (file, test and function names, messages, source code) for
/// each kind of output, one function a context, used by every output of that kind:
///
/// - a terminal (tables, diagnostics, progress): `terminalSafe` (`TextTable.swift`), every
///   control character (C0, DEL, C1, so ESC and CSI) replaced by U+FFFD;
/// - GitHub workflow commands (annotations): `githubCommandData`, `githubCommandProperty`;
/// - Markdown (job summaries, comments): `CoverageMarkdownReport.escape`;
/// - XML (JUnit, Cobertura, SonarQube): `xmlEscaped`, `xmlAttributeEscaped` (and
///   `OutputBuffer`'s streaming forms of them);
/// - HTML: `htmlEscaped`.
///
/// None lets a control character of the input through, but the line breaks a context can carry.
/// A terminal, Markdown and HTML show a format character (bidirectional overrides and isolates
/// such as U+202E, the marks U+200E, U+200F and U+061C, zero-width and other invisible
/// characters: Unicode's category Cf) as its code, `\u{202E}`, so that no name reads in another
/// order than it is, or hides a character (CVE-2021-42574, "Trojan Source").
extension Unicode.Scalar {
    /// A control character: C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F, which
    /// terminals may obey like ESC sequences — U+009B is CSI). Every output replaces those
    /// it does not allow with U+FFFD.
    package var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }

    /// A format character (Unicode's general category Cf): invisible, and some reorder the text
    /// around them (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C).
    package var isFormat: Bool { value >= 0xAD && properties.generalCategory == .format }

    /// How a terminal, Markdown and HTML show a format character: `\u{202E}`.
    package var visibleCode: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether no byte of UTF-8 `self` needs escaping in XML element content (or, with
    /// `attribute`, in an attribute value): see `String.xmlEscaped`.
    package func isInertInXML(attribute: Bool) -> Bool { firstXMLEscapeCandidate(attribute: attribute) == nil }

    /// Where the first byte of UTF-8 `self` that may need escaping in XML is (see
    /// `isInertInXML`): every byte before it is written as it is. Nil when there is none.
    package func firstXMLEscapeCandidate(attribute: Bool) -> Int? {
        guard let base = baseAddress else { return nil }
        // Eight bytes at a time while they are plain printable ASCII other than `" & ' < >`
        // (most text), byte by byte through eight that may need escaping (a line break, a
        // symbol), then eight at a time again; the last bytes as the last eight when there are.
        var start = 0
        while start < count {
            if start + 8 <= count {
                guard Self.mayNeedXMLEscape(UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)) else {
                    start += 8
                    continue
                }
            } else if count >= 8,
                !Self.mayNeedXMLEscape(UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self))
            {
                return nil
            }
            let end = Swift.min(start + 8, count)
            for index in start..<end {
                switch self[index] {
                case 0x26, 0x3C, 0x3E, 0x22, 0x27, 0x7F: return index  // & < > " ' DEL
                case 0x0D: return index  // a parser reads a return itself as a line feed
                case 0x09, 0x0A: if attribute { return index }
                case 0..<0x20: return index  // controls, ESC
                case 0xC2, 0xEF: return index  // may start a C1 control, U+FFFE or U+FFFF
                default: continue
                }
            }
            start = end
        }
        return nil
    }

    /// Whether a byte of `word` (eight bytes of text) is not plain printable ASCII, or is one of
    /// `" & ' < >`: eight bytes that need no escaping anywhere when false. (A byte may be
    /// reported wrongly only beside one reported rightly: the borrows and carries of the
    /// arithmetic cross into the next byte only from a byte that matches.)
    @inline(__always)
    static func mayNeedXMLEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        /// The high bit of each byte of `word` that is zero, as below.
        func zeros(_ word: UInt64) -> UInt64 { (word &- ones) & ~word }
        // Below 0x20 (the subtraction borrows), from 0x7F on (the addition reaches the high bit, or
        // it is set), `"`, `&` or `'` (0x26 and 0x27 differ in the low bit), `<` or `>` (0x3C and
        // 0x3E differ in bit 1).
        let flagged =
            ((word &- ones &* 0x20) & ~word) | word | (word &+ ones) | zeros(word ^ (ones &* 0x22))
            | zeros((word | ones) ^ (ones &* 0x27)) | zeros((word | ones &* 0x02) ^ (ones &* 0x3E))
        return flagged & 0x8080_8080_8080_8080 != 0
    }

    /// Whether UTF-8 `self` may hold a C1 control (U+0080–U+009F, encoded as C2 80…C2 9F).
    package var mayHoldC1Control: Bool {
        guard count > 1 else { return false }
        for index in 0..<(count - 1) where self[index] == 0xC2 && self[index + 1] & 0xE0 == 0x80 { return true }
        return false
    }
}

extension String {
    /// The text made safe for XML 1.0 element content and attribute values (quoted with `"`
    /// or `'`): `& < > " '` escaped, ANSI escape sequences removed, and characters XML 1.0
    /// forbids or discourages (NUL, other C0 controls except tab/newline/return, DEL, C1
    /// controls, U+FFFE/U+FFFF) replaced by U+FFFD, so the document is always well-formed.
    package var xmlEscaped: String { xmlEscaped(attribute: false) }

    /// The text made safe for an XML attribute value: as `xmlEscaped`, and tab and newline
    /// written as `&#9;` and `&#10;`, which a parser keeps (it turns the characters themselves
    /// into spaces when it normalizes the attribute). A return is `&#13;` everywhere: a parser
    /// reads a return itself as a line feed.
    package var xmlAttributeEscaped: String { xmlEscaped(attribute: true) }

    private func xmlEscaped(attribute: Bool) -> String {
        if isInertInXML(attribute: attribute) { return self }
        var result = ""
        result.reserveCapacity(utf8.count)
        var scalars = strippingANSIEscapes.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\r":
                // Written as itself, a parser would read it as a line feed.
                result += "&#13;"
            case "\t", "\n":
                if attribute {
                    result += "&#\(scalar.value);"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            default:
                if scalar.isControl || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Whether no byte of the text needs escaping in XML: most names and messages, which are
    /// then written as they are (a byte scan instead of a copy character by character).
    private func isInertInXML(attribute: Bool) -> Bool {
        var copy = self
        return copy.withUTF8 { $0.isInertInXML(attribute: attribute) }
    }

    /// The text made safe for HTML element content and double- or single-quoted attribute
    /// values: ANSI escape sequences removed, control characters (C0, DEL, C1) other than tab
    /// and newline replaced by U+FFFD, format characters shown as their code (`\u{202E}`).
    /// Never put input text inside `<script>` or `<style>`.
    package var htmlEscaped: String { strippingANSIEscapes.escapingMarkupScalars }

    /// Markup characters as entities, control characters but tab and newline as U+FFFD, format
    /// characters as their code; ANSI
    /// escape sequences are not removed (their ESC becomes U+FFFD), so that a text escapes the
    /// same whether whole or in pieces.
    package var escapingMarkupScalars: String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.isFormat {
                    result += scalar.visibleCode
                } else {
                    result.unicodeScalars.append(scalar.isControl ? "\u{FFFD}" : scalar)
                }
            }
        }
        return result
    }

    /// The text without ANSI escape sequences (colours, cursor moves): what a terminal shows.
    package var strippingANSIEscapes: String {
        let hasEscape = utf8.withContiguousStorageIfAvailable { $0.contains(0x1B) } ?? utf8.contains(0x1B)
        guard hasEscape else { return self }
        var result = String.UnicodeScalarView()
        var scalars = Array(unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\u{1B}" else {
                result.append(scalar)
                continue
            }
            guard let next = scalars.first else { break }
            if next == "[" {
                // CSI: parameters and intermediates, then one final byte in @…~.
                scalars.removeFirst()
                while let byte = scalars.popFirst(), !(0x40...0x7E).contains(byte.value) {}
            } else if next == "]" {
                // OSC: up to BEL or ESC \.
                scalars.removeFirst()
                while let byte = scalars.popFirst() {
                    if byte == "\u{7}" { break }
                    if byte == "\u{1B}" {
                        if scalars.first == "\\" { scalars.removeFirst() }
                        break
                    }
                }
            } else {
                scalars.removeFirst()
            }
        }
        return String(result)
    }
}

extension String {
    /// The text as the message of a GitHub workflow command (`::error …::MESSAGE`): ANSI escape
    /// sequences removed, `%`, return and line feed percent-encoded (GitHub decodes them: a
    /// message keeps its lines, and no line of it can start a command of its own), and every
    /// other control character (C0, DEL, C1 such as U+0085 NEL or U+009B CSI) replaced by U+FFFD.
    package var githubCommandData: String { githubCommandEscaped(property: false) }

    /// The text as a property value of a GitHub workflow command (`file=`, `title=`): as
    /// `githubCommandData`, and `:` and `,` percent-encoded too.
    package var githubCommandProperty: String { githubCommandEscaped(property: true) }

    private func githubCommandEscaped(property: Bool) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in strippingANSIEscapes.unicodeScalars {
            switch scalar {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            case ":" where property: result += "%3A"
            case "," where property: result += "%2C"
            default: result.unicodeScalars.append(scalar.isControl ? "\u{FFFD}" : scalar)
            }
        }
        return result
    }
}
