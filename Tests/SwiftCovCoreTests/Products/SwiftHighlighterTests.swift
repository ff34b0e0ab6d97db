import Testing

@testable import SwiftCovCore

@Suite("Swift syntax colouring")
struct SwiftHighlighterTests {
    /// Each line's tokens as `kind:text`, the highlighter's state carried from line to line.
    func tokens(_ lines: [String]) -> [[String]] {
        var highlighter = SwiftHighlighter()
        var tokens: [SwiftHighlighter.Token] = []
        return lines.map { line in
            let bytes = Array(line.utf8)
            return bytes.withUnsafeBufferPointer { buffer in
                highlighter.tokens(of: buffer, into: &tokens)
                return tokens.map { "\($0.kind.rawValue):" + String(decoding: bytes[$0.range], as: UTF8.self) }
            }
        }
    }

    @Test("keywords, numbers, attributes, directives and comments on one line")
    func oneLine() {
        #expect(
            tokens([#"@MainActor public func f(`class`: Int = 0x1F, e: Double = 1.5e-3) -> Self? { #if os(Linux) // x"#]
            )
                == [
                    [
                        "at:@MainActor", "kw:public", "kw:func", "nu:0x1F", "nu:1.5e-3", "kw:Self", "pp:#if",
                        "cm:// x",
                    ]
                ])
    }

    @Test("strings with interpolations, nested, and the code inside them")
    func interpolation() {
        #expect(
            tokens([#"let a = "x \(f(1) + "y \(z)") w" + 2"#])
                == [
                    [
                        "kw:let", #"st:"x "#, #"ip:\("#, "nu:1", #"st:"y "#, #"ip:\("#, "ip:)", #"st:""#, "ip:)",
                        #"st: w""#, "nu:2",
                    ]
                ])
    }

    @Test("block comments, multi-line and raw strings carry over to the next lines")
    func acrossLines() {
        #expect(
            tokens([
                "/* a /* nested */", "still */ let x = 1", #"let s = """"#, #"  "quoted" \(v) if"#,
                ###"  """ + ##"raw \(no) \##(yes)"##"###,
            ])
                == [
                    ["cm:/* a /* nested */"],
                    ["cm:still */", "kw:let", "nu:1"],
                    ["kw:let", #"st:""""#],
                    [#"st:  "quoted" "#, #"ip:\("#, "ip:)", "st: if"],
                    [#"st:  """"#, ###"st:##"raw \(no) "###, ###"ip:\##("###, "ip:)", ###"st:"##"###],
                ])
    }

    @Test("an unclosed one-line string ends with its line; hostile bytes are only ranges")
    func hostile() {
        let lines = tokens([#"let s = "open \(f("#, "let t = 1", "\u{0}\u{1B}[31m<script>\u{FF}\"", ")))))"])
        #expect(lines[1] == ["kw:let", "nu:1"])
        var highlighter = SwiftHighlighter()
        var output: [SwiftHighlighter.Token] = []
        let deep = Array(String(repeating: #""\("#, count: 200).utf8)
        deep.withUnsafeBufferPointer { highlighter.tokens(of: $0, into: &output) }
        #expect(output.allSatisfy { $0.range.upperBound <= deep.count })
    }
}
