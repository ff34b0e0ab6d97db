/// A path pattern: `*` matches within one path component, `**` across components, `?` one
/// character. A pattern without `/` matches a file name at any depth, as in `.gitignore`.
///
/// Matching takes time proportional to the pattern's length times the path's, whatever the
/// pattern: `**` is matched like `*` in the classic wildcard algorithm, which only ever goes
/// back to the last `**` (and `*` within a component likewise), so many `**` against a deep
/// path cannot make it exponential.
package struct Glob: Equatable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    package let pattern: String
    /// The pattern's components as bytes; nil for `**`.
    private let components: [[UInt8]?]
    private let matchesNameAnywhere: Bool

    package init(_ pattern: String) {
        self.pattern = pattern
        var trimmed = pattern[...]
        while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
        if trimmed.hasSuffix("/") { trimmed = trimmed + "**" }
        matchesNameAnywhere = !trimmed.contains("/")
        components = trimmed.split(separator: "/", omittingEmptySubsequences: true).map {
            $0 == "**" ? nil : Array($0.utf8)
        }
    }

    package var description: String { pattern }

    /// Whether `path` (components separated by `/`) matches.
    package func matches(_ path: String) -> Bool {
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        if matchesNameAnywhere, let name = parts.last {
            return Glob.matchComponent((components.first ?? []) ?? Array("**".utf8), name)
        }
        return Glob.match(components, parts)
    }

    /// Components against components: a `**` matches any number of them, anything else one.
    private static func match(_ pattern: [[UInt8]?], _ path: [Substring.UTF8View.SubSequence]) -> Bool {
        wildcardMatch(patternCount: pattern.count, textCount: path.count, isStar: { pattern[$0] == nil }) {
            matchComponent(pattern[$0]!, path[$1])
        }
    }

    /// `*` and `?` matching within one component.
    private static func matchComponent(_ pattern: [UInt8], _ text: some Collection<UInt8>) -> Bool {
        let text = Array(text)
        return wildcardMatch(
            patternCount: pattern.count, textCount: text.count, isStar: { pattern[$0] == UInt8(ascii: "*") }
        ) { pattern[$0] == UInt8(ascii: "?") || pattern[$0] == text[$1] }
    }

    /// The classic wildcard match, in time at most the pattern's length times the text's (never
    /// exponential, however many stars): a star element
    /// (`isStar`) matches any run of text elements, any other one element where `matches` says
    /// so. On a mismatch it goes back only to the last star, letting it take one more element:
    /// an earlier star could never do better, so there is no backtracking beyond it.
    private static func wildcardMatch(
        patternCount: Int, textCount: Int, isStar: (Int) -> Bool, matches: (Int, Int) -> Bool
    ) -> Bool {
        var p = 0
        var t = 0
        var starP = -1  // the last star seen, and where in the text it stopped matching
        var starT = 0
        while t < textCount {
            if p < patternCount && !isStar(p) && matches(p, t) {
                p += 1
                t += 1
            } else if p < patternCount && isStar(p) {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < patternCount && isStar(p) { p += 1 }
        return p == patternCount
    }
}
