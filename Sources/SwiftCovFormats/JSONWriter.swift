import SwiftCovPlatform

/// Builds JSON text: the one place swiftcov writes JSON punctuation and escapes strings for JSON.
///
/// The writer knows the structure it is in, so it places the commas, the line breaks and the
/// indentation itself; a report says only what it writes:
///
///     json.beginObject(.block)
///     json.member("schemaVersion", 1)
///     json.key("files")
///     json.beginArray(.block)
///     json.beginObject()
///     json.member("path", "Sources/A.swift")
///     json.endObject()
///     json.endArray()
///     json.endObject()
///
/// gives
///
///     {
///       "schemaVersion": 1,
///       "files": [
///         {"path": "Sources/A.swift"}
///       ]
///     }
///
/// A `.block` container puts each element on a line of its own, indented two spaces deeper than
/// the line it opened on; an `.inline` one keeps its elements on one line, separated by `, `,
/// except where a member's `Placement` says otherwise. A document ends with a line break when its outermost container closes.
package struct JSONWriter: ~Copyable {
    /// How a container lays out its elements.
    package enum Layout: Sendable {
        /// Every element on a line of its own.
        case block
        /// Elements on one line, `, ` between them.
        case inline
    }

    /// Where a member goes, when it should not follow its container's layout.
    package enum Placement: Sendable {
        /// As the container's layout says.
        case byLayout
        /// On a line of its own (a long inline object broken over lines).
        case newLine
        /// On the line of the member before it (related members of a block object kept together).
        case sameLine
    }

    private struct Container {
        var isObject: Bool
        var layout: Layout
        /// The indentation of the line the container opened on.
        var indent: Int
        var count = 0
    }

    private var buffer: OutputBuffer
    private var open: [Container] = []
    /// The indentation of the line being written.
    private var lineIndent = 0
    /// A key was written; its value comes next.
    private var awaitingValue = false
    /// No spaces and no line breaks inside the document (one JSON Lines record).
    private let isCompact: Bool

    /// A writer; a `compact` one writes the document on one line without spaces
    /// (`{"a":1,"b":[2,3]}`), whatever the layouts asked for.
    package init(reservingCapacity capacity: Int = 0, compact: Bool = false) {
        buffer = OutputBuffer(reservingCapacity: capacity)
        isCompact = compact
    }

    /// A writer that appends to `buffer` (a streaming one, for a large document).
    package init(_ buffer: consuming OutputBuffer) {
        self.buffer = buffer
        isCompact = false
    }

    /// The buffer written to, given back.
    package consuming func finish() -> OutputBuffer {
        assert(open.isEmpty, "a JSON container was left open")
        return buffer
    }

    /// The text written so far.
    package var output: String {
        assert(open.isEmpty, "a JSON container was left open")
        return buffer.text
    }

    // MARK: Structure

    /// Opens an object (as a value: at the top level, after a key, or in an array).
    package mutating func beginObject(_ layout: Layout = .inline) {
        begin(isObject: true, layout: layout)
        buffer.append(byte: UInt8(ascii: "{"))
    }

    /// Closes the innermost container, which must be an object.
    package mutating func endObject() {
        end(isObject: true, closing: UInt8(ascii: "}"))
    }

    /// Opens an array (as a value).
    package mutating func beginArray(_ layout: Layout = .inline) {
        begin(isObject: false, layout: layout)
        buffer.append(byte: UInt8(ascii: "["))
    }

    /// Closes the innermost container, which must be an array.
    package mutating func endArray() {
        end(isObject: false, closing: UInt8(ascii: "]"))
    }

    /// Writes the key of the next member of the innermost object; its value follows.
    package mutating func key(_ name: StaticString, _ placement: Placement = .byLayout) {
        startMember(placement)
        buffer.append(byte: UInt8(ascii: "\""))
        buffer.append(name)
        buffer.append(isCompact ? "\":" : "\": ")
    }

    /// Writes a key known only at run time (escaped like any string).
    package mutating func key(_ name: String, _ placement: Placement = .byLayout) {
        startMember(placement)
        writeString(name)
        buffer.append(isCompact ? ":" : ": ")
    }

    private mutating func startMember(_ placement: Placement) {
        precondition(!awaitingValue && open.last?.isObject == true, "a JSON key outside an object")
        switch placement {
        case .byLayout: separate(breakingLine: open[open.count - 1].layout == .block)
        case .newLine: separate(breakingLine: true)
        case .sameLine: separate(breakingLine: false)
        }
        awaitingValue = true
    }

    private mutating func begin(isObject: Bool, layout: Layout) {
        startValue()
        open.append(Container(isObject: isObject, layout: layout, indent: lineIndent))
    }

    private mutating func end(isObject: Bool, closing: UInt8) {
        precondition(!awaitingValue, "a JSON key without its value")
        guard let container = open.popLast(), container.isObject == isObject else {
            preconditionFailure("JSON containers closed out of order")
        }
        if container.layout == .block && container.count > 0 && !isCompact {
            newLine(indent: container.indent)
        }
        lineIndent = container.indent
        buffer.append(byte: closing)
        if open.isEmpty { buffer.append(byte: UInt8(ascii: "\n")) }
    }

    /// Places what comes before a value: nothing after a key or at the top level; in an array,
    /// the separator its layout asks for.
    private mutating func startValue() {
        if awaitingValue {
            awaitingValue = false
            return
        }
        guard let container = open.last else { return }
        precondition(!container.isObject, "a JSON value in an object without a key")
        separate(breakingLine: container.layout == .block)
    }

    /// Writes the separator before the next element of the innermost container.
    private mutating func separate(breakingLine: Bool) {
        let index = open.count - 1
        if open[index].count > 0 { buffer.append(byte: UInt8(ascii: ",")) }
        if isCompact {
            // Nothing between elements.
        } else if breakingLine {
            newLine(indent: open[index].indent + 2)
        } else if open[index].count > 0 {
            buffer.append(byte: UInt8(ascii: " "))
        }
        open[index].count += 1
    }

    private mutating func newLine(indent: Int) {
        buffer.append(byte: UInt8(ascii: "\n"))
        for _ in 0..<indent { buffer.append(byte: UInt8(ascii: " ")) }
        lineIndent = indent
    }

    // MARK: Values

    /// Writes `value` as a JSON string literal; control characters are escaped, never dropped.
    package mutating func string(_ value: String) {
        startValue()
        writeString(value)
    }

    /// Writes `value`, or `null` when there is none.
    package mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes an `Int` (the common case, without the generic version's calls through witness
    /// tables from other targets, where it is not specialized).
    package mutating func number(_ value: Int) {
        startValue()
        if value < 0 { buffer.append(byte: UInt8(ascii: "-")) }
        buffer.append(decimal: UInt64(value.magnitude))
    }

    /// Writes a `UInt64` (execution counts), as `number(_: Int)`.
    package mutating func number(_ value: UInt64) {
        startValue()
        buffer.append(decimal: value)
    }

    /// Writes an integer.
    package mutating func number<T: BinaryInteger>(_ value: T) {
        startValue()
        if let small = UInt64(exactly: value) {
            buffer.append(decimal: small)
        } else {
            buffer.append(unescaped: String(value))
        }
    }

    /// Writes a Double as the shortest text that reads back as the same value (`null` when it is
    /// not finite, which JSON cannot say).
    package mutating func number(_ value: Double) {
        startValue()
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            if value < 0 { buffer.append(byte: UInt8(ascii: "-")) }
            buffer.append(decimal: UInt64(abs(value)))
        } else if value.isFinite {
            buffer.append(unescaped: value.description)
        } else {
            buffer.append("null")
        }
    }

    /// Writes `value`, or `null` when there is none.
    package mutating func number(_ value: Double?) {
        if let value { number(value) } else { null() }
    }

    /// Writes number text formatted elsewhere (e.g. seconds with a fixed number of decimals);
    /// it must be a valid JSON number.
    package mutating func number(formatted text: String) {
        startValue()
        buffer.append(unescaped: text)
    }

    package mutating func bool(_ value: Bool) {
        startValue()
        buffer.append(value ? "true" : "false")
    }

    package mutating func null() {
        startValue()
        buffer.append("null")
    }

    /// Writes a parsed or built document as it is (members in their order), every container
    /// with elements in `layout`; without recursion, whatever its depth.
    package mutating func value(_ value: JSONValue, _ layout: Layout = .block) {
        // Containers being written, with what is left of them.
        var stack: [(isObject: Bool, members: ArraySlice<(key: String, value: JSONValue)>)] = []
        var next: JSONValue? = value
        while true {
            if let current = next {
                next = nil
                switch current {
                case .null: null()
                case .bool(let flag): bool(flag)
                case .number(let number): self.number(number)
                case .string(let text): string(text)
                case .array(let elements):
                    beginArray(layout)
                    stack.append((false, ArraySlice(elements.map { (key: "", value: $0) })))
                case .object(let members):
                    beginObject(layout)
                    stack.append((true, ArraySlice(members)))
                }
            }
            guard let top = stack.last else { return }
            if let member = top.members.first {
                stack[stack.count - 1].members = top.members.dropFirst()
                if top.isObject { key(member.key) }
                next = member.value
            } else {
                stack.removeLast()
                if top.isObject { endObject() } else { endArray() }
            }
        }
    }

    // MARK: Members

    /// `"key": value`, for the common member types.
    package mutating func member(_ name: StaticString, _ value: String, _ placement: Placement = .byLayout) {
        key(name, placement)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: String?, _ placement: Placement = .byLayout) {
        key(name, placement)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int, _ placement: Placement = .byLayout) {
        key(name, placement)
        number(value)
    }

    package mutating func member(_ name: StaticString, _ value: UInt64, _ placement: Placement = .byLayout) {
        key(name, placement)
        number(value)
    }

    package mutating func member<T: BinaryInteger>(_ name: StaticString, _ value: T, _ placement: Placement = .byLayout)
    {
        key(name, placement)
        number(value)
    }

    package mutating func member(_ name: StaticString, _ value: Double, _ placement: Placement = .byLayout) {
        key(name, placement)
        number(value)
    }

    package mutating func member(_ name: StaticString, _ value: Bool, _ placement: Placement = .byLayout) {
        key(name, placement)
        bool(value)
    }

    // MARK: Text

    private mutating func writeString(_ value: String) {
        buffer.append(byte: UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                buffer.append(bytes: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): buffer.append("\\\"")
                case UInt8(ascii: "\\"): buffer.append("\\\\")
                case 0x0A: buffer.append("\\n")
                case 0x0D: buffer.append("\\r")
                case 0x09: buffer.append("\\t")
                case 0..<0x20:
                    buffer.append("\\u00")
                    buffer.append(byte: JSONWriter.hexDigits[Int(byte >> 4)])
                    buffer.append(byte: JSONWriter.hexDigits[Int(byte & 0xF)])
                default: buffer.append(byte: byte)
                }
            }
        }
        buffer.append(byte: UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `value` as JSON number text: integers without a fraction, others in shortest round-trip form.
    package static func format(_ value: Double) -> String {
        var writer = JSONWriter()
        writer.number(value)
        return writer.output
    }

    /// `value` as a quoted JSON string literal.
    package static func quoted(_ value: String) -> String {
        var writer = JSONWriter()
        writer.string(value)
        return writer.output
    }
}
