/// Escaping for XML and HTML output: the one place swiftcov makes text from its inputs (file,
/// test and function names, messages, source code) inert in markup.
extension String {
    /// The text made safe for XML 1.0 element content and attribute values (quoted with `"`
    /// or `'`): `& < > " '` escaped, ANSI escape sequences removed, and characters XML 1.0
    /// forbids (NUL, other C0 controls except tab/newline/return, U+FFFE/U+FFFF, lone
    /// surrogates) replaced by U+FFFD, so the document is always well-formed.
    package var xmlEscaped: String {
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
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF || (0x7F...0x84).contains(value)
                    || (0x86...0x9F).contains(value)
                {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// The text made safe for HTML element content and double- or single-quoted attribute
    /// values: ANSI escape sequences removed, control characters other than tab and newline
    /// replaced by U+FFFD. Never put input text inside `<script>` or `<style>`.
    package var htmlEscaped: String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in strippingANSIEscapes.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
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
