/// Words of a sentence: run by WordsTests (Swift Testing).
public func words(_ text: String) -> [Substring] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
}

/// Each word with its first letter in upper case.
public func titleCased(_ text: String) -> String {
    words(text).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
}

/// A URL slug: lower-case ASCII letters and digits, words joined by "-".
public func slug(_ text: String) -> String {
    let kept = words(text).map { word in
        String(word.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
    return kept.filter { !$0.isEmpty }.joined(separator: "-")
}

/// The words in reverse order.
public func reversedWords(_ text: String) -> String {
    words(text).reversed().joined(separator: " ")
}
