/// A test as `swift test list` names it, and which library runs it.
package struct TestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Which test library runs a test.
    package enum Library: String, Sendable {
        case xctest
        case swiftTesting = "swift-testing"
    }

    /// The ID exactly as listed.
    package var id: String
    /// Swift Testing's IDs end with the function's argument labels in parentheses; XCTest's never do.
    package var library: Library { id.hasSuffix(")") ? .swiftTesting : .xctest }

    /// `text` as a test ID: a module name, a `.`, then at least a name, without spaces at either
    /// end or control characters. Nil for anything else (a progress line, `Build complete!`).
    package init?(_ text: Substring) {
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex
        else { return nil }
        let module = text[..<dot]
        guard module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
            !text.contains(where: { $0.isNewline || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) })
        else { return nil }
        let name = text[text.index(after: dot)...]
        // XCTest: Class/method; Swift Testing: a function call, perhaps under suites.
        guard name.contains("/") || name.hasSuffix(")") else { return nil }
        id = String(text)
    }

    package init?(_ text: String) { self.init(Substring(text)) }

    package var description: String { id }

    /// The target (module) the test is in: the ID up to its first `.`.
    package var module: Substring { id[..<(id.firstIndex(of: ".") ?? id.endIndex)] }

    /// A regular expression matching this test alone in `swift test --filter`.
    package var filterPattern: String { Self.filterPattern(of: id) }

    /// A regular expression matching the test `id` alone in `swift test --filter`.
    package static func filterPattern(of id: String) -> String { "^" + escapedForRegex(id) + "(/|$)" }

    package static func < (lhs: TestID, rhs: TestID) -> Bool { lhs.id < rhs.id }

    /// `text` with every character that means something in a regular expression escaped.
    package static func escapedForRegex(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
