/// One line of SwiftPM's build progress, as `swift build` and `swift test` print it while they
/// build: `[12/57] Compiling Tiny Tiny.swift`, `[3/5] Emitting module Tiny`, `[5/5] Linking
/// TinyPackageTests.xctest`, `[0/1] Planning build`. A terminal shows it so that a long build
/// does not look hung.
package struct BuildProgress: Equatable, Sendable, CustomStringConvertible {
    /// The step, and the number of steps SwiftPM knows of so far (it grows as the build goes).
    package var step: Int
    package var total: Int
    /// What the step does (`Compiling Tiny Tiny.swift`).
    package var action: String
    /// The module it compiles, when it says (`Compiling Tiny …`, `Emitting module Tiny`).
    package var module: String?

    package init(step: Int, total: Int, action: String, module: String?) {
        self.step = step
        self.total = total
        self.action = action
        self.module = module
    }

    /// The progress a line reports; nil for any other line (a compiler's message, a test's output).
    package static func parse(_ line: Substring) -> BuildProgress? {
        var text = line
        while let last = text.last, last == "\r" || last == " " { text = text.dropLast() }
        guard text.first == "[", let close = text.firstIndex(of: "]"), let slash = text.firstIndex(of: "/"),
            slash < close
        else { return nil }
        let stepText = text[text.index(after: text.startIndex)..<slash]
        let totalText = text[text.index(after: slash)..<close]
        guard let step = number(stepText), let total = number(totalText), step <= total else { return nil }
        let rest = text[text.index(after: close)...]
        guard rest.first == " " else { return nil }
        let action = rest.dropFirst()
        // `swift test --parallel` counts tests the same way: `[3/12] Testing Module.Class/method`.
        guard let verb = action.split(separator: " ", maxSplits: 1).first, verb.first?.isUppercase == true,
            verb != "Testing"
        else { return nil }
        let words = action.split(separator: " ")
        var module: Substring?
        if words.count >= 3, words[0] == "Compiling" {
            module = words[1]  // Compiling MODULE FILE…
        } else if words.count >= 3, words[0] == "Emitting", words[1] == "module" {
            module = words[2]
        }
        // A module name is an identifier; `Compiling plugin X` names no module.
        if let name = module, name == "plugin" || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            module = nil
        }
        return BuildProgress(step: step, total: total, action: String(action), module: module.map(String.init))
    }

    /// What a status line shows: `Building 12/57: compiling Tiny`, or the action when it names
    /// no module (`Building 57/57: Linking TinyPackageTests.xctest`).
    package var description: String {
        "Building \(step)/\(total): " + (module.map { "compiling \($0)" } ?? action)
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
