/// Swift syntax colouring for the HTML report's source lines: keywords, strings (with their
/// interpolations), comments, numbers, attributes and `#` directives. A small tokenizer of our
/// own, not a parser: it reads a line's bytes once, carries what spans lines (block comments,
/// multi-line and raw strings, interpolations) to the next line, and never looks outside the
/// line. Any bytes are fine: it only marks ranges, the report escapes the text.
package struct SwiftHighlighter {
    /// What a token is; `rawValue` is its CSS class.
    package enum Kind: String, Sendable {
        case keyword = "kw"
        case string = "st"
        case comment = "cm"
        case number = "nu"
        case attribute = "at"
        case directive = "pp"
        /// The `\(` and `)` around an interpolation.
        case interpolation = "ip"
    }

    /// A coloured range of a line's bytes; the bytes between tokens are plain.
    package struct Token: Equatable, Sendable {
        package var range: Range<Int>
        package var kind: Kind
    }

    /// What is open at the end of a line.
    private enum Context {
        case string(multiline: Bool, hashes: Int)
        /// Code inside `\(…)`, with its own open parentheses.
        case interpolation(parentheses: Int)
    }

    private var contexts: [Context] = []
    private var commentDepth = 0
    /// Deeper nesting than this is not followed (hostile input cannot grow the stack).
    private static let maximumDepth = 32

    package init() {}

    /// The tokens of the next line of a file, in order and not overlapping; `tokens` is emptied first.
    package mutating func tokens(of line: UnsafeBufferPointer<UInt8>, into tokens: inout [Token]) {
        tokens.removeAll(keepingCapacity: true)
        var index = 0
        let count = line.count
        func add(_ start: Int, _ end: Int, _ kind: Kind) {
            guard end > start else { return }
            if let last = tokens.last, last.kind == kind, last.range.upperBound == start {
                tokens[tokens.count - 1].range = last.range.lowerBound..<end
            } else {
                tokens.append(Token(range: start..<end, kind: kind))
            }
        }
        func starts(_ text: StaticString, at position: Int) -> Bool {
            let length = text.utf8CodeUnitCount
            guard position + length <= count else { return false }
            let pattern = UnsafeBufferPointer(start: text.utf8Start, count: length)
            for offset in 0..<length where line[position + offset] != pattern[offset] { return false }
            return true
        }
        func hashes(at position: Int) -> Int {
            var end = position
            while end < count && line[end] == UInt8(ascii: "#") { end += 1 }
            return end - position
        }

        while index < count {
            if commentDepth > 0 {
                let start = index
                while index < count && commentDepth > 0 {
                    if starts("/*", at: index) {
                        commentDepth = min(commentDepth + 1, Self.maximumDepth)
                        index += 2
                    } else if starts("*/", at: index) {
                        commentDepth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                }
                add(start, index, .comment)
                continue
            }
            if case .string(let multiline, let hashCount) = contexts.last {
                let start = index
                var closed = false
                while index < count {
                    let byte = line[index]
                    if byte == UInt8(ascii: "\\") && hashes(at: index + 1) >= hashCount {
                        let afterHashes = index + 1 + hashCount
                        if afterHashes < count && line[afterHashes] == UInt8(ascii: "(")
                            && contexts.count < Self.maximumDepth
                        {
                            add(start, index, .string)
                            add(index, afterHashes + 1, .interpolation)
                            index = afterHashes + 1
                            contexts.append(.interpolation(parentheses: 0))
                            break
                        }
                        index = min(count, afterHashes + 1)
                    } else if byte == UInt8(ascii: "\"") && (!multiline || starts("\"\"\"", at: index))
                        && hashes(at: index + (multiline ? 3 : 1)) >= hashCount
                    {
                        index += (multiline ? 3 : 1) + hashCount
                        closed = true
                        break
                    } else {
                        index += 1
                    }
                }
                if case .interpolation = contexts.last { continue }
                add(start, index, .string)
                // A one-line string ends with its line even when it is not closed (it would not compile).
                if closed || !multiline { contexts.removeLast() }
                continue
            }
            let byte = line[index]
            let start = index
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
            case UInt8(ascii: "/") where starts("//", at: index):
                add(index, count, .comment)
                index = count
            case UInt8(ascii: "/") where starts("/*", at: index):
                commentDepth = 1
                index += 2
                add(start, index, .comment)
            case UInt8(ascii: "\""),
                UInt8(ascii: "#") where byte == UInt8(ascii: "\"") || Self.startsString(line, hashesAt: index):
                let hashCount = hashes(at: index)
                index += hashCount
                let multiline = starts("\"\"\"", at: index)
                index += multiline ? 3 : 1
                add(start, index, .string)
                if contexts.count < Self.maximumDepth {
                    contexts.append(.string(multiline: multiline, hashes: hashCount))
                }
            case UInt8(ascii: "#"), UInt8(ascii: "@"):
                index += 1
                while index < count && Self.isIdentifierByte(line[index]) { index += 1 }
                add(start, index, byte == UInt8(ascii: "#") ? .directive : .attribute)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                index += 1
                while index < count {
                    let next = line[index]
                    if Self.isIdentifierByte(next) && next < 0x80 {
                        index += 1
                        let exponent = next | 0x20 == UInt8(ascii: "e") || next | 0x20 == UInt8(ascii: "p")
                        if exponent && index < count
                            && (line[index] == UInt8(ascii: "-") || line[index] == UInt8(ascii: "+"))
                        {
                            index += 1
                        }
                    } else if next == UInt8(ascii: ".") && index + 1 < count
                        && line[index + 1] >= UInt8(ascii: "0") && line[index + 1] <= UInt8(ascii: "9")
                    {
                        index += 1
                    } else {
                        break
                    }
                }
                add(start, index, .number)
            case UInt8(ascii: "`"):
                index += 1
                while index < count && line[index] != UInt8(ascii: "`") { index += 1 }
                index = min(count, index + 1)
            case UInt8(ascii: "("):
                if case .interpolation(let parentheses) = contexts.last {
                    contexts[contexts.count - 1] = .interpolation(parentheses: parentheses + 1)
                }
                index += 1
            case UInt8(ascii: ")"):
                index += 1
                if case .interpolation(let parentheses) = contexts.last {
                    if parentheses == 0 {
                        contexts.removeLast()
                        add(start, index, .interpolation)
                    } else {
                        contexts[contexts.count - 1] = .interpolation(parentheses: parentheses - 1)
                    }
                }
            default:
                guard Self.isIdentifierByte(byte) else {
                    index += 1
                    continue
                }
                while index < count && Self.isIdentifierByte(line[index]) { index += 1 }
                if Self.isKeyword(UnsafeBufferPointer(rebasing: line[start..<index])) { add(start, index, .keyword) }
            }
        }
    }

    /// Whether the `#`s at `index` open a raw string (`#"`, `##"""`).
    private static func startsString(_ line: UnsafeBufferPointer<UInt8>, hashesAt index: Int) -> Bool {
        var end = index
        while end < line.count && line[end] == UInt8(ascii: "#") { end += 1 }
        return end < line.count && line[end] == UInt8(ascii: "\"")
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...:
            true
        default: false
        }
    }

    /// Swift's keywords and the contextual ones that read as keywords, by first letter.
    private static let keywords: [[[UInt8]]] = {
        let words = """
            actor any as associatedtype async await borrowing break case catch class consume consuming continue \
            convenience default defer deinit didSet do dynamic each else enum extension fallthrough false \
            fileprivate final for func get guard if import in indirect infix init inout internal is isolated lazy \
            let macro mutating nil nonisolated nonmutating open operator optional override package postfix \
            precedencegroup prefix private protocol public repeat required rethrows return self sending set some \
            static struct subscript super switch throw throws true try typealias unowned var weak where while \
            willSet Any Self
            """
        var table = [[[UInt8]]](repeating: [], count: 128)
        for word in words.split(separator: " ") { table[Int(word.utf8.first!)].append(Array(word.utf8)) }
        return table
    }()

    private static func isKeyword(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = word.first, first < 128, word.count <= 15 else { return false }
        for keyword in keywords[Int(first)] where keyword.count == word.count && keyword.elementsEqual(word) {
            return true
        }
        return false
    }
}
