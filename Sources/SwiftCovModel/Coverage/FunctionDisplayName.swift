extension SwiftDemangler {
    /// The short, Xcode-style name of a function from its demangled name, for tables and pages
    /// (the full name stays in JSON and in the pages' hover text):
    ///
    /// - `TriviaCore.LaunchConfiguration.init(isUITesting: Swift.Bool) -> TriviaCore.LaunchConfiguration`
    ///   → `init(isUITesting:)`: the module and types go, each parameter becomes its label (`_` without one);
    /// - `TriviaCore.Letter.letter.getter : Swift.String` → `letter.getter`: an accessor keeps its property;
    /// - `closure #1 (Swift.Int) -> Swift.Bool in TriviaCore.Game.award(Swift.Int, Swift.String) -> ()`
    ///   → `closure #1 in award(_:_:)`: closures and local functions keep the chain of what they are in;
    /// - `Nimble.(poll in _E5F1…)(…)` → `poll(…)`, `static Foo.== infix(Foo, Foo) -> Swift.Bool` → `==(_:_:)`,
    ///   generic signatures, `static`, `async`, `throws` and result types dropped; a private
    ///   function's `File.swift:` prefix dropped.
    ///
    /// A name it cannot make sense of (not a Swift name, or hostile text) comes back as it is.
    /// Works on bytes, in one pass per level, never looks outside the text.
    package static func displayName(_ demangled: String) -> String {
        // Xcode's report leaves some functions' names empty.
        guard !demangled.isEmpty else { return "(unnamed)" }
        var bytes = Array(demangled.utf8)
        if let colon = privatePrefixEnd(bytes) { bytes.removeFirst(colon) }
        var output: [UInt8] = []
        output.reserveCapacity(min(bytes.count, 96))
        var position = 0
        var level = 0
        while position < bytes.count && level < 64 {
            level += 1
            var words = DisplayNameWords(bytes, from: position)
            guard let first = words.word(0) else { break }
            // `closure #1 SIGNATURE in …`, `implicit closure #2 … in …`, a local `walk #1 … in …`.
            var numbered = 0
            if equals(first, "implicit", in: bytes), let second = words.word(1), equals(second, "closure", in: bytes) {
                numbered = 2
            } else if isIdentifier(first, in: bytes) {
                numbered = 1
            }
            if isDigits(first, in: bytes), let of = words.word(1), equals(of, "of", in: bytes) {
                output += bytes[first.lowerBound..<of.upperBound]
                output.append(UInt8(ascii: " "))
                position = of.upperBound + 1
                continue
            }
            if numbered > 0, let number = words.word(numbered), bytes[number.lowerBound] == UInt8(ascii: "#") {
                output += bytes[first.lowerBound..<number.upperBound]
                guard let inWord = words.firstWord(equalTo: "in", after: numbered + 1) else { break }
                output += " in ".utf8
                position = inWord.upperBound + 1
                continue
            }
            // Phrases around the entity they are of: `default argument 0 of …`, `protocol witness for …`.
            if let phrase = descriptivePhrases.first(where: { startsWith($0, at: position, in: bytes) }) {
                output += phrase
                position += phrase.count
                continue
            }
            if let skipped = ignoredWords.first(where: { startsWith($0, at: position, in: bytes) }) {
                position += skipped.count
                continue
            }
            let entity = entityName(first, operatorWord: words.word(1), in: bytes)
            guard !entity.isEmpty else { break }
            output += entity
            return String(decoding: output, as: UTF8.self)
        }
        return demangled
    }

    private static let descriptivePhrases = [
        "default argument ", "variable initialization expression of ", "lazy property initializer of ",
        "property wrapper backing initializer of ", "property wrapper init from projected value of ",
        "protocol witness for ", "key path getter for ", "key path setter for ",
    ].map { Array($0.utf8) }
    private static let ignoredWords = ["static ", "class ", "merged ", "@objc ", "dynamic ", "@nonobjc "].map {
        Array($0.utf8)
    }

    private static let fixities = ["infix", "prefix", "postfix"].map { Array($0.utf8) }

    private static func startsWith(_ prefix: [UInt8], at position: Int, in bytes: [UInt8]) -> Bool {
        guard prefix.count <= bytes.count - position, prefix[0] == bytes[position] else { return false }
        return bytes[position..<position + prefix.count].elementsEqual(prefix)
    }

    fileprivate static func equals(_ range: Range<Int>, _ text: StaticString, in bytes: [UInt8]) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let pattern = UnsafeBufferPointer(start: text.utf8Start, count: range.count)
        return bytes[range].elementsEqual(pattern)
    }
    private static let accessors: Set<String> = [
        "getter", "setter", "modify", "read", "_modify", "_read", "didset", "willset", "init",
        "unsafeAddressor", "unsafeMutableAddressor", "nativeOwningAddressor", "nativePinningAddressor",
        "owningAddressor", "owningMutableAddressor", "yielding_borrow", "yielding_mutate",
    ]

    /// Where the `Path/File.swift:` prefix of a private function's profile name ends.
    private static func privatePrefixEnd(_ bytes: [UInt8]) -> Int? {
        let suffix: [UInt8] = Array(".swift".utf8)
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "("), UInt8(ascii: "<"): return nil
            case UInt8(ascii: ":"):
                guard index >= suffix.count, bytes[(index - suffix.count)..<index].elementsEqual(suffix) else {
                    return nil
                }
                return index + 1
            default: continue
            }
        }
        return nil
    }

    /// `Module.Type.name(label: Type, Type)` → `name(label:_:)`; `Type.property.getter` → `property.getter`.
    private static func entityName(_ word: Range<Int>, operatorWord: Range<Int>?, in bytes: [UInt8]) -> [UInt8] {
        // An operator: `Swift.Int.+ infix(Swift.Int, Swift.Int)`; its name is the operator characters.
        if let operatorWord,
            bytes[operatorWord.lowerBound] == UInt8(ascii: "i") || bytes[operatorWord.lowerBound] == UInt8(ascii: "p"),
            let fixity = fixities.first(where: { startsWith($0, at: operatorWord.lowerBound, in: bytes) })
        {
            var open = operatorWord.lowerBound + fixity.count
            if open < operatorWord.upperBound && bytes[open] == UInt8(ascii: "<") {
                open = (matching(open, in: bytes, until: operatorWord.upperBound) ?? operatorWord.upperBound - 1) + 1
            }
            guard open < operatorWord.upperBound, bytes[open] == UInt8(ascii: "(") else { return [] }
            var start = word.upperBound
            while start > word.lowerBound && isOperatorByte(bytes[start - 1]) { start -= 1 }
            if start < word.upperBound && bytes[start] == UInt8(ascii: ".") && start > word.lowerBound
                && !isOperatorByte(bytes[start - 1]) && word.upperBound - start > 1
            {
                start += 1
            }
            guard start < word.upperBound else { return [] }
            return Array(bytes[start..<word.upperBound]) + labels(open..<operatorWord.upperBound, in: bytes)
        }
        var components: [Range<Int>] = []
        var depth = 0
        var componentStart = word.lowerBound
        var index = word.lowerBound
        while index < word.upperBound {
            depth = max(0, depth + bracketDelta(at: index, in: bytes))
            if depth == 0 && bytes[index] == UInt8(ascii: ".") {
                components.append(componentStart..<index)
                componentStart = index + 1
            }
            index += 1
        }
        components.append(componentStart..<word.upperBound)
        guard let last = components.last, !last.isEmpty else { return [] }
        var result: [UInt8] = []
        if components.count > 1, accessors.contains(text(last, in: bytes)) {
            result = component(components[components.count - 2], in: bytes) + [UInt8(ascii: ".")]
        }
        return result + component(last, in: bytes)
    }

    /// One name component: `(name in _HASH)` → `name`, `name<A where …>(label: A)` → `name(label:)`.
    private static func component(_ range: Range<Int>, in bytes: [UInt8]) -> [UInt8] {
        var name: [UInt8] = []
        var index = range.lowerBound
        // A private name: `(name in _0123…)`.
        if index < range.upperBound, bytes[index] == UInt8(ascii: "("),
            let close = matching(index, in: bytes, until: range.upperBound)
        {
            var inner = DisplayNameWords(bytes, from: index + 1, until: close)
            if let first = inner.word(0), let second = inner.word(1), equals(second, "in", in: bytes) {
                name += bytes[first]
                index = close + 1
            }
        }
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                guard let close = matching(index, in: bytes, until: range.upperBound) else { break }
                index = close + 1
            } else if byte == UInt8(ascii: "(") {
                return name + labels(index..<range.upperBound, in: bytes)
            } else {
                name.append(byte)
                index += 1
            }
        }
        return name
    }

    /// `(label: Type, Type, _: Type)` → `(label:_:_:)`; `()` stays.
    private static func labels(_ range: Range<Int>, in bytes: [UInt8]) -> [UInt8] {
        guard let close = matching(range.lowerBound, in: bytes, until: range.upperBound) else { return [] }
        guard close > range.lowerBound + 1 else { return Array("()".utf8) }
        var result: [UInt8] = [UInt8(ascii: "(")]
        var parameterStart = range.lowerBound + 1
        var depth = 0
        for index in parameterStart..<close {
            depth = max(0, depth + bracketDelta(at: index, in: bytes))
            if depth == 0 && bytes[index] == UInt8(ascii: ",") {
                result += label(parameterStart..<index, in: bytes)
                parameterStart = index + 1
            }
        }
        result += label(parameterStart..<close, in: bytes)
        result.append(UInt8(ascii: ")"))
        return result
    }

    /// A parameter's label and colon (`label:`), or `_:`.
    private static func label(_ range: Range<Int>, in bytes: [UInt8]) -> [UInt8] {
        var start = range.lowerBound
        while start < range.upperBound && bytes[start] == UInt8(ascii: " ") { start += 1 }
        var end = start
        while end < range.upperBound && isIdentifierByte(bytes[end]) { end += 1 }
        guard end > start, end + 1 < range.upperBound, bytes[end] == UInt8(ascii: ":"),
            bytes[end + 1] == UInt8(ascii: " ")
        else { return Array("_:".utf8) }
        return Array(bytes[start...end])
    }

    /// The index of the bracket closing the one at `open`, before `limit`.
    private static func matching(_ open: Int, in bytes: [UInt8], until limit: Int) -> Int? {
        guard open < limit, bracketDelta(at: open, in: bytes) == 1 else { return nil }
        var depth = 1
        var index = open + 1
        while index < limit {
            depth += bracketDelta(at: index, in: bytes)
            if depth <= 0 { return depth == 0 ? index : nil }
            index += 1
        }
        return nil
    }

    /// +1 for an opening bracket (`(`, `[`, the `<` of generic arguments), -1 for a closing one,
    /// 0 for anything else: the `>` of `->` and the `<` and `>` of operators (`Swift.Int.<`) are no brackets.
    fileprivate static func bracketDelta(at index: Int, in bytes: [UInt8]) -> Int {
        switch bytes[index] {
        case UInt8(ascii: "("), UInt8(ascii: "["): return 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"): return -1
        case UInt8(ascii: "<"): return index > 0 && isIdentifierByte(bytes[index - 1]) ? 1 : 0
        case UInt8(ascii: ">"):
            guard index > 0 else { return 0 }
            let previous = bytes[index - 1]
            return previous == UInt8(ascii: "-") || previous == UInt8(ascii: ".") ? 0 : -1
        default: return 0
        }
    }

    private static func text(_ range: Range<Int>, in bytes: [UInt8]) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private static func isDigits(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        !range.isEmpty && bytes[range].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func isIdentifier(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        !range.isEmpty && bytes[range].allSatisfy(isIdentifierByte)
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
            true
        default: false
        }
    }

    private static func isOperatorByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || "/=-+!*%<>&|^~?.".utf8.contains(byte)
    }
}

/// The words of a demangled name at bracket depth 0: `closure #1 (A, B) -> C in X` has the words
/// `closure`, `#1`, `(A, B)`, `->`, `C`, `in`, `X`. Found as they are asked for: most names need two.
private struct DisplayNameWords {
    private var words: [Range<Int>] = []
    private let bytes: [UInt8]
    private let end: Int
    private var index: Int
    private var wordStart: Int
    private var depth = 0

    init(_ bytes: [UInt8], from start: Int, until end: Int? = nil) {
        self.bytes = bytes
        self.end = min(end ?? bytes.count, bytes.count)
        index = start
        wordStart = start
    }

    /// Scans until the next word is found (or the end); false at the end.
    private mutating func scan() -> Bool {
        while index < end {
            depth = max(0, depth + SwiftDemangler.bracketDelta(at: index, in: bytes))
            let isSpace = depth == 0 && bytes[index] == UInt8(ascii: " ")
            index += 1
            if isSpace {
                defer { wordStart = index }
                if index - 1 > wordStart {
                    words.append(wordStart..<(index - 1))
                    return true
                }
            }
        }
        guard end > wordStart else { return false }
        words.append(wordStart..<end)
        wordStart = end
        return true
    }

    mutating func word(_ position: Int) -> Range<Int>? {
        while words.count <= position { guard scan() else { return nil } }
        return words[position]
    }

    mutating func firstWord(equalTo text: StaticString, after position: Int) -> Range<Int>? {
        var current = position
        while let word = word(current) {
            if SwiftDemangler.equals(word, text, in: bytes) { return word }
            current += 1
        }
        return nil
    }
}
