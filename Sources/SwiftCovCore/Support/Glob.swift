/// A path pattern: `*` matches within one path component, `**` across components, `?` one
/// character. A pattern without `/` matches a file name at any depth, as in `.gitignore`.
package struct Glob: Equatable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    package let pattern: String
    private let components: [Substring]
    private let matchesNameAnywhere: Bool

    package init(_ pattern: String) {
        self.pattern = pattern
        var trimmed = pattern[...]
        while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2) }
        if trimmed.hasSuffix("/") { trimmed = trimmed + "**" }
        matchesNameAnywhere = !trimmed.contains("/")
        components = trimmed.split(separator: "/", omittingEmptySubsequences: true)
    }

    package var description: String { pattern }

    /// Whether `path` (components separated by `/`) matches.
    package func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        if matchesNameAnywhere, let name = parts.last {
            return Glob.matchComponent(Array((components.first ?? "").utf8), Array(name.utf8))
        }
        return Glob.match(components[...], parts[...])
    }

    private static func match(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            if rest.isEmpty { return true }
            var remaining = path
            while true {
                if match(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let component = path.first, matchComponent(Array(first.utf8), Array(component.utf8)) else {
            return false
        }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// `*` and `?` matching within one component, with backtracking over the last `*`.
    private static func matchComponent(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
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
