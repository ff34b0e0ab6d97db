/// One identifier of a mangled Swift symbol, read as the runtime's demangler reads it
/// (`Demangler::demangleIdentifier` in swift/lib/Demangling/Demangler.cpp).
///
/// An identifier is either `<length><text>`, or `0` followed by word substitutions (a letter
/// naming a word met earlier in the symbol; an upper-case letter is the last one) and literal
/// chunks `<length><text>`, closed by `0` unless it ends with a literal after an upper-case
/// word. `00` starts a Punycode identifier, which this reader does not decode.
package struct MangledIdentifier: Equatable, Sendable {
    /// Where the encoding lies in the symbol's bytes.
    package var range: Range<Int>
    /// The identifier's text, word substitutions expanded.
    package var text: [UInt8]
    /// Where a suffix can be appended to the text without changing the demangler's word list.
    package var suffixPoint: SuffixPoint

    /// How to append a suffix to the identifier's text.
    package enum SuffixPoint: Equatable, Sendable {
        /// Extend the final literal chunk, whose `<length><text>` encoding spans `range`.
        case extendChunk(range: Range<Int>, text: Range<Int>)
        /// The identifier ends with a word substitution and a closing `0` at `offset`: put a new
        /// literal chunk there, keeping the `0` when the demangler still expects one after it.
        case insertChunk(offset: Int, keepsTerminator: Bool)
    }

    /// The demangler's limit on remembered words.
    static let maximumWordCount = 26

    /// Reads the identifier at `offset` of `symbol`, if one starts there. `words` holds the
    /// words of the identifiers read before it (as byte ranges of `symbol`) and gets this one's.
    package static func read(_ symbol: [UInt8], at offset: Int, words: inout [Range<Int>]) -> MangledIdentifier? {
        var position = offset
        guard position < symbol.count, symbol[position].isDigit else { return nil }
        var hasWordSubstitutions = false
        if symbol[position] == UInt8(ascii: "0") {
            position += 1
            guard position < symbol.count, symbol[position] != UInt8(ascii: "0") else { return nil }  // Punycode
            hasWordSubstitutions = true
        }
        var text: [UInt8] = []
        var newWords = words
        var lastChunk: (range: Range<Int>, text: Range<Int>)?
        var endsWithWord = false
        var stillSubstituting = hasWordSubstitutions
        repeat {
            while stillSubstituting, position < symbol.count, symbol[position].isLetter {
                let letter = symbol[position]
                position += 1
                let index: Int
                if letter.isLowercaseLetter {
                    index = Int(letter - UInt8(ascii: "a"))
                } else {
                    index = Int(letter - UInt8(ascii: "A"))
                    stillSubstituting = false
                }
                guard index < newWords.count else { return nil }
                text.append(contentsOf: symbol[newWords[index]])
                endsWithWord = true
            }
            if hasWordSubstitutions, position < symbol.count, symbol[position] == UInt8(ascii: "0") {
                let keepsTerminator = stillSubstituting
                position += 1
                let suffixPoint: SuffixPoint
                if endsWithWord {
                    suffixPoint = .insertChunk(offset: position - 1, keepsTerminator: keepsTerminator)
                } else if let lastChunk {
                    suffixPoint = .extendChunk(range: lastChunk.range, text: lastChunk.text)
                } else {
                    return nil
                }
                words = newWords
                return MangledIdentifier(range: offset..<position, text: text, suffixPoint: suffixPoint)
            }
            let chunkStart = position
            guard let (length, textStart) = readNatural(symbol, at: position), length > 0,
                textStart + length <= symbol.count
            else { return nil }
            let chunk = textStart..<(textStart + length)
            text.append(contentsOf: symbol[chunk])
            addWords(of: chunk, in: symbol, to: &newWords)
            lastChunk = (chunkStart..<chunk.upperBound, chunk)
            endsWithWord = false
            position = chunk.upperBound
        } while stillSubstituting
        guard let lastChunk else { return nil }
        words = newWords
        return MangledIdentifier(
            range: offset..<position, text: text,
            suffixPoint: .extendChunk(range: lastChunk.range, text: lastChunk.text))
    }

    /// The symbol with `suffix` appended to this identifier's text, split around the point
    /// where the copy number goes: `head + String(length) + chunk + suffix + tail`.
    package func suffixTemplate(in symbol: [UInt8]) -> (
        head: ArraySlice<UInt8>, chunk: ArraySlice<UInt8>, tail: ArraySlice<UInt8>
    ) {
        switch suffixPoint {
        case .extendChunk(let range, let text):
            return (symbol[..<range.lowerBound], symbol[text], symbol[range.upperBound...])
        case .insertChunk(let offset, let keepsTerminator):
            let tail = keepsTerminator ? symbol[offset...] : symbol[(offset + 1)...]
            return (symbol[..<offset], [], tail)
        }
    }

    /// A decimal number and the offset after it.
    private static func readNatural(_ symbol: [UInt8], at offset: Int) -> (Int, Int)? {
        var position = offset
        var value = 0
        while position < symbol.count, symbol[position].isDigit {
            value = value * 10 + Int(symbol[position] - UInt8(ascii: "0"))
            guard value < 1 << 24 else { return nil }
            position += 1
        }
        return position > offset ? (value, position) : nil
    }

    /// Adds the words of a literal chunk as the demangler splits them: a word starts at a
    /// character that is neither a digit nor `_`, ends before `_`, before an upper-case letter
    /// that follows a non-upper-case one, or at the chunk's end, and counts from two characters.
    /// So `Module_3` has the same words as `Module`, which is why copies append `_<k>`.
    static func addWords(of chunk: Range<Int>, in symbol: [UInt8], to words: inout [Range<Int>]) {
        var wordStart: Int?
        for index in chunk.lowerBound...chunk.upperBound {
            let byte = index < chunk.upperBound ? symbol[index] : 0
            if let start = wordStart, isWordEnd(byte, after: symbol[index - 1]) {
                if index - start >= 2 && words.count < maximumWordCount { words.append(start..<index) }
                wordStart = nil
            }
            if wordStart == nil && !byte.isDigit && byte != UInt8(ascii: "_") && byte != 0 {
                wordStart = index
            }
        }
    }

    private static func isWordEnd(_ byte: UInt8, after previous: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte == 0 || (!previous.isUppercaseLetter && byte.isUppercaseLetter)
    }
}

extension UInt8 {
    /// An ASCII decimal digit.
    var isDigit: Bool { self &- UInt8(ascii: "0") < 10 }
    /// An ASCII upper-case letter.
    var isUppercaseLetter: Bool { self &- UInt8(ascii: "A") < 26 }
    /// An ASCII lower-case letter.
    var isLowercaseLetter: Bool { self &- UInt8(ascii: "a") < 26 }
    /// An ASCII letter.
    var isLetter: Bool { isUppercaseLetter || isLowercaseLetter }
}
