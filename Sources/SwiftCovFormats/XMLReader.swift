/// A small, strict pull reader of XML 1.0 documents, for the JUnit files swiftcov reads back
/// (its own, SwiftPM's `--xunit-output`, other tools'): start tags with their attributes, end
/// tags and text, in document order (long text in several pieces, one after the other).
///
/// It reads what such files use: the XML declaration, comments and processing instructions
/// (skipped), elements and attributes, the five predefined entities and character references,
/// CDATA sections, and a document type declaration without an internal subset (skipped). It
/// resolves nothing outside the document: a document type declaring entities (`[…]`) is an
/// error, as is any entity it does not know. Text and attribute values come out as XML defines
/// them: line ends normalized to `\n`, and white space in attribute values to spaces. The bytes
/// must be UTF-8 (the caller checks, to say where they are not); characters XML does not allow
/// (NUL and other controls) are errors, with the byte offset where they are.
package struct XMLReader {
    /// What the document holds next.
    package enum Event: Equatable {
        case start(name: String, attributes: [Attribute])
        case end(name: String)
        case text(String)
    }

    /// An attribute of a start tag, its value decoded.
    package struct Attribute: Equatable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Why the document is not well-formed XML, and the byte offset where that shows.
    package struct Error: Swift.Error, Equatable {
        package var offset: Int
        package var message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    /// The names of the elements open, innermost last.
    private var open: [String] = []
    private var sawRoot = false
    /// The end event of an empty-element tag (`<a/>`), given after its start.
    private var pendingEnd: String?
    private var finished = false

    /// A reader of `bytes`, which start with an optional byte order mark.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// Where the last event given starts: the `<` of its tag, or the first byte of its text.
    package private(set) var eventOffset = 0

    /// The next event, or nil after the root element has ended and only comments, processing
    /// instructions and white space follow.
    package mutating func next() throws(Error) -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            return close(name)
        }
        guard !finished else { return nil }
        if open.isEmpty {
            try skipMisc()
            if index >= bytes.count {
                finished = true
                guard sawRoot else { throw Error(offset: index, message: "the document is empty") }
                return nil
            }
            guard !sawRoot else { throw Error(offset: index, message: "content after the root element") }
            guard bytes[index] == UInt8(ascii: "<") else {
                throw Error(offset: index, message: "text outside the root element")
            }
            sawRoot = true
            eventOffset = index
            return try startTag()
        }
        var text: [UInt8] = []
        eventOffset = index
        while index < bytes.count {
            // Long text comes in pieces (each ends between characters): a test's megabytes of
            // output are never copied whole.
            if text.count >= XMLReader.textPieceSize { return .text(String(decoding: text, as: UTF8.self)) }
            if bytes[index] != UInt8(ascii: "<") {
                try readText(into: &text)
                continue
            }
            if starts(with: "<![CDATA[") {
                try readCDATA(into: &text)
                continue
            }
            if starts(with: "<!--") {
                try skipComment()
                continue
            }
            if starts(with: "<?") {
                try skipProcessingInstruction()
                continue
            }
            // A tag: the text before it comes first.
            if !text.isEmpty { return .text(String(decoding: text, as: UTF8.self)) }
            eventOffset = index
            if starts(with: "</") { return try endTag() }
            if starts(with: "<!") { throw Error(offset: index, message: "a declaration inside an element") }
            return try startTag()
        }
        throw Error(offset: bytes.count, message: "the document ends inside <\(open.last ?? "")>")
    }

    // MARK: Tags

    private mutating func startTag() throws(Error) -> Event {
        index += 1  // <
        let name = try readName()
        var attributes: [Attribute] = []
        var names: Set<String> = []
        while true {
            let hadSpace = skipSpace()
            guard index < bytes.count else { throw Error(offset: index, message: "the document ends inside a tag") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                open.append(name)
                return .start(name: name, attributes: attributes)
            }
            if starts(with: "/>") {
                index += 2
                open.append(name)
                pendingEnd = name
                return .start(name: name, attributes: attributes)
            }
            guard hadSpace else { throw Error(offset: index, message: "expected white space, '>' or '/>' in a tag") }
            let nameOffset = index
            let attributeName = try readName()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw Error(offset: index, message: "expected '=' after the attribute name \(attributeName)")
            }
            index += 1
            skipSpace()
            let value = try readAttributeValue()
            // A search of the few attributes most tags have; a set past those, so that a tag
            // with many attributes does not take quadratic time.
            if attributes.count == 16 { names = Set(attributes.map(\.name)) }
            let repeated =
                attributes.count < 16
                ? attributes.contains { $0.name == attributeName } : !names.insert(attributeName).inserted
            guard !repeated else {
                throw Error(offset: nameOffset, message: "the attribute \(attributeName) appears twice")
            }
            attributes.append(Attribute(name: attributeName, value: value))
        }
    }

    private mutating func endTag() throws(Error) -> Event {
        let tagOffset = index
        index += 2  // </
        let name = try readName()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw Error(offset: index, message: "expected '>' to end </\(name)")
        }
        index += 1
        guard name == open.last else {
            throw Error(offset: tagOffset, message: "an end tag does not match its start tag")
        }
        return close(name)
    }

    private mutating func close(_ name: String) -> Event {
        open.removeLast()
        return .end(name: name)
    }

    /// A name: letters, digits, `_`, `:`, `.`, `-` and any non-ASCII character, not starting
    /// with a digit, `.` or `-`.
    private mutating func readName() throws(Error) -> String {
        let start = index
        while index < bytes.count, XMLReader.isNameByte(bytes[index]) { index += 1 }
        guard index > start else { throw Error(offset: start, message: "expected a name") }
        let first = bytes[start]
        guard !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")), first != UInt8(ascii: "."),
            first != UInt8(ascii: "-")
        else { throw Error(offset: start, message: "a name cannot start with '\(Character(Unicode.Scalar(first)))'") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "."),
            UInt8(ascii: "-"), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    private mutating func readAttributeValue() throws(Error) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw Error(offset: index, message: "expected a quoted attribute value")
        }
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else { throw Error(offset: index, message: "an attribute value is not closed") }
            let byte = bytes[index]
            switch byte {
            case quote:
                index += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw Error(offset: index, message: "'<' in an attribute value")
            case UInt8(ascii: "&"):
                try readReference(into: &value)
            case 0x0D:
                // A line end, whatever its form, is one space in an attribute value.
                skipReturn()
                value.append(0x20)
            case 0x09, 0x0A:
                index += 1
                value.append(0x20)
            default:
                try copyCharacter(into: &value)
            }
        }
    }

    // MARK: Content

    /// Text comes in pieces of about this many bytes (a CDATA section whole).
    static let textPieceSize = 1 << 16

    private mutating func readText(into text: inout [UInt8]) throws(Error) {
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            // A piece is full: it ends before the next character.
            if text.count >= XMLReader.textPieceSize, bytes[index] & 0xC0 != 0x80 { return }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"):
                try readReference(into: &text)
            case 0x0D:
                skipReturn()
                text.append(0x0A)
            default:
                try copyCharacter(into: &text)
            }
        }
    }

    private mutating func readCDATA(into text: inout [UInt8]) throws(Error) {
        let start = index
        index += 9  // <![CDATA[
        while index < bytes.count {
            if starts(with: "]]>") {
                index += 3
                return
            }
            if bytes[index] == 0x0D {
                skipReturn()
                text.append(0x0A)
            } else {
                try copyCharacter(into: &text)
            }
        }
        throw Error(offset: start, message: "a CDATA section is not closed")
    }

    /// `&name;` or `&#…;` at `index`, decoded into `output`.
    private mutating func readReference(into output: inout [UInt8]) throws(Error) {
        let start = index
        index += 1
        guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw Error(offset: start, message: "'&' that starts no entity or character reference")
        }
        let body = bytes[index..<semicolon]
        index = semicolon + 1
        if body.first == UInt8(ascii: "#") {
            var digits = body.dropFirst()
            var radix: UInt32 = 10
            if digits.first == UInt8(ascii: "x") {
                radix = 16
                digits = digits.dropFirst()
            }
            var value: UInt32 = 0
            for digit in digits {
                guard let number = XMLReader.digitValue(digit, radix: radix), value < 0x11_0000 else {
                    throw Error(offset: start, message: "an invalid character reference")
                }
                value = value * radix + number
            }
            guard !digits.isEmpty, let scalar = Unicode.Scalar(value), XMLReader.isAllowed(scalar) else {
                throw Error(offset: start, message: "a character XML does not allow")
            }
            output.append(contentsOf: String(Character(scalar)).utf8)
            return
        }
        switch String(decoding: body, as: UTF8.self) {
        case "lt": output.append(UInt8(ascii: "<"))
        case "gt": output.append(UInt8(ascii: ">"))
        case "amp": output.append(UInt8(ascii: "&"))
        case "quot": output.append(UInt8(ascii: "\""))
        case "apos": output.append(UInt8(ascii: "'"))
        default: throw Error(offset: start, message: "an undeclared entity")
        }
    }

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        let value: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt32(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt32(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
        return value < radix ? value : nil
    }

    /// XML 1.0's `Char`: tab, line feed, carriage return, and everything from space up but the
    /// surrogates (never scalars) and U+FFFE, U+FFFF.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x20...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Consumes the return at `index` and a line feed after it: one line end.
    private mutating func skipReturn() {
        index += index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
    }

    /// Copies the byte at `index` into `output`, throwing at one XML does not allow.
    private mutating func copyCharacter(into output: inout [UInt8]) throws(Error) {
        try checkCharacter(bytes[index])
        output.append(bytes[index])
        index += 1
    }

    /// Throws at a control character XML does not allow (the bytes are UTF-8 already; U+FFFE
    /// and U+FFFF, `EF BF BE`/`EF BF BF`, are refused too).
    private func checkCharacter(_ byte: UInt8) throws(Error) {
        if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
            throw Error(offset: index, message: "a character XML does not allow")
        }
        if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
            throw Error(offset: index, message: "a character XML does not allow")
        }
    }

    // MARK: Outside elements

    /// White space, comments, processing instructions, the XML declaration and a document type
    /// declaration without an internal subset.
    private mutating func skipMisc() throws(Error) {
        while true {
            skipSpace()
            if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<?") {
                try skipProcessingInstruction()
            } else if starts(with: "<!DOCTYPE") {
                guard !sawRoot else { throw Error(offset: index, message: "a document type after the root element") }
                try skipDocumentType()
            } else {
                return
            }
        }
    }

    private mutating func skipComment() throws(Error) {
        let start = index
        index += 4
        // A comment holds no `--` but the one that ends it.
        try skip(to: "--", from: start, what: "a comment")
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw Error(offset: index - 2, message: "'--' inside a comment")
        }
        index += 1
    }

    private mutating func skipProcessingInstruction() throws(Error) {
        let start = index
        index += 2
        _ = try readName()
        try skip(to: "?>", from: start, what: "a processing instruction")
    }

    /// Skips characters to just past `terminator`; `what`, begun at `start`, is not closed when
    /// the document ends first.
    private mutating func skip(to terminator: StaticString, from start: Int, what: String) throws(Error) {
        while index < bytes.count {
            if starts(with: terminator) {
                index += terminator.utf8CodeUnitCount
                return
            }
            try checkCharacter(bytes[index])
            index += 1
        }
        throw Error(offset: start, message: "\(what) is not closed")
    }

    private mutating func skipDocumentType() throws(Error) {
        let start = index
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                throw Error(
                    offset: index - 1, message: "a document type with declarations (swiftcov resolves no entity)")
            } else if byte == UInt8(ascii: ">") {
                return
            }
        }
        throw Error(offset: start, message: "a document type declaration is not closed")
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index > start
    }

    private func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        return true
    }
}
