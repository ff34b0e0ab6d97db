/// Small text helpers.
public enum Phrases {
    public static func words(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }

    public static func initials(_ text: String) -> String { String(words(text).compactMap(\.first)) }

    public static func reversed(_ text: String) -> String { words(text).reversed().joined(separator: " ") }

    public static func shout(_ text: String) -> String { text.uppercased() + "!" }
}
