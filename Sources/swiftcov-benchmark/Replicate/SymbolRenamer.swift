import SwiftCovCore

/// Gives each function record of a copied export a new, unique name that still demangles.
///
/// Copy `k` appends `_k` to the identifier of the function's module, wherever the symbol
/// first names it: `$s15BasicContainers10RigidArrayV…` becomes `$s17BasicContainers_310RigidArrayV…`,
/// which demangles to `BasicContainers_3.RigidArray…`. `_k` adds no word to the demangler's
/// word list, so the later word substitutions of the symbol still expand to the same text.
/// Every template is checked with the runtime's demangler once, on copy 1.
package struct SymbolRenamer {
    /// How the names of one function's copies are spelled.
    package enum Template: Sendable {
        /// `head + String(chunk.count + suffix.count) + chunk + suffix + tail`: an identifier
        /// (the module's, or another one when no module is named) gains the suffix.
        case identifier(head: [UInt8], chunk: [UInt8], tail: [UInt8], module: Bool)
        /// `name + suffix`: names that are not Swift symbols (C functions) or that no
        /// identifier change keeps demanglable.
        case appended([UInt8])
    }

    /// Module names: the first identifier of symbols that start with one (`$s<module>…`) or
    /// with a standard type extended in a module (`$sSa<module>…E`).
    package private(set) var modules: Set<[UInt8]> = []

    /// How many templates of each kind were made (for the replicator's summary).
    package private(set) var moduleRenames = 0
    /// Symbols renamed through an identifier that is not a module's.
    package private(set) var otherRenames = 0
    /// Names copied with a plain suffix (they did not demangle, or no rename kept them demanglable).
    package private(set) var appendedNames = 0

    /// Learns the module names from every original symbol of the export.
    package init(names: [[UInt8]]) {
        for name in names {
            let symbol = SymbolRenamer.mangledPart(of: name)
            guard symbol.count > 2, name[symbol.lowerBound] == UInt8(ascii: "$"),
                name[symbol.lowerBound + 1] == UInt8(ascii: "s")
            else { continue }
            var offset = symbol.lowerBound + 2
            if offset < symbol.upperBound, name[offset] == UInt8(ascii: "S") {
                // A standard substitution (`Sa`, `SS`, `ScM`…) names the extended type.
                offset += 1
                if offset < symbol.upperBound, name[offset] == UInt8(ascii: "c") { offset += 1 }
                guard offset < symbol.upperBound, name[offset].isLetter else { continue }
                offset += 1
            }
            var words: [Range<Int>] = []
            if let identifier = MangledIdentifier.read(name, at: offset, words: &words) {
                modules.insert(identifier.text)
            }
        }
    }

    /// The template for `name`, checked with the demangler.
    package mutating func template(for name: [UInt8]) -> Template {
        let symbol = SymbolRenamer.mangledPart(of: name)
        let original = String(decoding: name, as: UTF8.self)
        let demangled = SwiftDemangler.demangle(original)
        guard demangled != original, symbol.count > 2 else {
            appendedNames += 1
            return .appended(name)
        }
        let candidates = SymbolRenamer.identifiers(in: name, from: symbol.lowerBound + 2)
        for identifier in candidates where modules.contains(identifier.text) {
            if let template = checkedTemplate(identifier, name, demangled, module: true) {
                moduleRenames += 1
                return template
            }
        }
        for identifier in candidates where !modules.contains(identifier.text) {
            if let template = checkedTemplate(identifier, name, demangled, module: false) {
                otherRenames += 1
                return template
            }
        }
        appendedNames += 1
        return .appended(name)
    }

    /// The template that renames `identifier`, if copy 1's name demangles to the original's
    /// demangled name with only that identifier changed.
    private func checkedTemplate(_ identifier: MangledIdentifier, _ name: [UInt8], _ demangled: String, module: Bool)
        -> Template?
    {
        let parts = identifier.suffixTemplate(in: name)
        let template = Template.identifier(
            head: Array(parts.head), chunk: Array(parts.chunk), tail: Array(parts.tail), module: module)
        let suffix = SymbolRenamer.suffix(copy: 1)
        let renamed = String(decoding: template.bytes(suffix: suffix), as: UTF8.self)
        let renamedDemangled = SwiftDemangler.demangle(renamed)
        let oldText = String(decoding: identifier.text, as: UTF8.self)
        let newText = oldText + String(decoding: suffix, as: UTF8.self)
        guard renamedDemangled != renamed, renamedDemangled.contains(newText),
            renamedDemangled.replacing(newText, with: oldText) == demangled
        else { return nil }
        return template
    }

    /// The suffix of copy `k`: `_k`.
    package static func suffix(copy: Int) -> [UInt8] {
        Array("_\(copy)".utf8)
    }

    /// The identifiers found scanning `name` from `offset`: at every run of digits that starts
    /// an identifier. Not a full parse of the mangling, so some may be misread; the demangler
    /// check of each template rejects those.
    static func identifiers(in name: [UInt8], from offset: Int) -> [MangledIdentifier] {
        var found: [MangledIdentifier] = []
        var words: [Range<Int>] = []
        var position = offset
        while position < name.count {
            if name[position].isDigit, !name[position - 1].isDigit,
                let identifier = MangledIdentifier.read(name, at: position, words: &words)
            {
                found.append(identifier)
                position = identifier.range.upperBound
            } else {
                position += 1
            }
        }
        return found
    }

    /// The symbol part of a profile name: llvm prefixes local symbols with `file.swift:`.
    static func mangledPart(of name: [UInt8]) -> Range<Int> {
        let colon = name.lastIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? 0
        return colon..<name.count
    }
}

extension SymbolRenamer.Template {
    /// The name of the copy with `suffix`.
    package func bytes(suffix: [UInt8]) -> [UInt8] {
        switch self {
        case .identifier(let head, let chunk, let tail, _):
            return head + Array(String(chunk.count + suffix.count).utf8) + chunk + suffix + tail
        case .appended(let name):
            return name + suffix
        }
    }
}
