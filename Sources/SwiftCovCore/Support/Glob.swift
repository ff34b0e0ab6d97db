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
        var p = 0
        var t = 0
        var starP = -1  // the last `**` seen, and where in the path it stopped matching
        var starT = 0
        while t < path.count {
            if p < pattern.count, let component = pattern[p], matchComponent(component, path[t]) {
                p += 1
                t += 1
            } else if p < pattern.count && pattern[p] == nil {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                // Let the last `**` take one more component and try again from there.
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == nil { p += 1 }
        return p == pattern.count
    }

    /// `*` and `?` matching within one component, going back only to the last `*`.
    private static func matchComponent(_ pattern: [UInt8], _ text: some Collection<UInt8>) -> Bool {
        let text = Array(text)
        var p = 0
        var t = 0
        var starP = -1
        var starT = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t]) {
                p += 1
                t += 1
            } else if p < pattern.count && pattern[p] == UInt8(ascii: "*") {
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
        while p < pattern.count && pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
