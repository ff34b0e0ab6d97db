import Testing

@testable import SwiftCovCore

/// Glob matching without backtracking: the same answers as the obvious recursive matcher, in
/// time proportional to pattern × path even for patterns made to be slow.
@Suite("Glob")
struct GlobTests {
    /// The obvious recursive definition (exponential on many `**`), as the reference.
    static func reference(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            return reference(pattern.dropFirst(), path) || (!path.isEmpty && reference(pattern, path.dropFirst()))
        }
        guard let component = path.first, referenceComponent(Array(first), Array(component)) else { return false }
        return reference(pattern.dropFirst(), path.dropFirst())
    }

    static func referenceComponent(_ pattern: [Character], _ text: [Character]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" {
            return referenceComponent(Array(pattern.dropFirst()), text)
                || (!text.isEmpty && referenceComponent(pattern, Array(text.dropFirst())))
        }
        guard let character = text.first, first == "?" || first == character else { return false }
        return referenceComponent(Array(pattern.dropFirst()), Array(text.dropFirst()))
    }

    @Test("every pattern of up to 4 invented components agrees with the recursive definition on paths of up to 3")
    func agreesWithReference() {
        let patternParts = ["**", "a", "*", "b*", "?"]
        let pathParts = ["a", "b", "ab", "ba"]
        func sequences(_ parts: [String], upTo length: Int) -> [[String]] {
            var all: [[String]] = [[]]
            var current: [[String]] = [[]]
            for _ in 0..<length {
                current = current.flatMap { prefix in parts.map { prefix + [$0] } }
                all += current
            }
            return all
        }
        let paths = sequences(pathParts, upTo: 3)
        var disagreements: [String] = []
        for pattern in sequences(patternParts, upTo: 4) where !pattern.isEmpty {
            let text = pattern.joined(separator: "/") + (pattern.count == 1 ? "/" : "")
            let glob = Glob(text)
            // A single component gets a trailing "/", which means "/**" (without it, it would match names).
            let components = (pattern + (pattern.count == 1 ? ["**"] : [])).map { Substring($0) }
            for path in paths where !path.isEmpty {
                let expected = GlobTests.reference(components[...], path.map { Substring($0) }[...])
                if glob.matches(path.joined(separator: "/")) != expected {
                    disagreements.append("\(text) vs \(path.joined(separator: "/"))")
                }
            }
        }
        #expect(disagreements.isEmpty)
    }

    @Test("twelve ** against a path 40 folders deep that almost matches (invented)")
    func manyDoubleStars() {
        let pattern = Array(repeating: "**/a", count: 12).joined(separator: "/") + "/**/z.swift"
        let deep = Array(repeating: "a", count: 40).joined(separator: "/")
        #expect(!Glob(pattern).matches(deep + "/y.swift"))
        #expect(Glob(pattern).matches(deep + "/z.swift"))
        let stars = String(repeating: "*a", count: 30) + "*b"
        #expect(!Glob(stars).matches(String(repeating: "a", count: 200)))
    }
}
