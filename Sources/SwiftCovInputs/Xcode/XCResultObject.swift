/// One value of an Xcode result bundle's object graph, as the bundle stores it (a typed key/value
/// text encoding) and as `xcresulttool get --legacy --format json` prints it: a typed object with
/// fields, an array with elements, or a primitive with its text. Both encodings read into this one
/// type, and `XcodeTestResults` reads tests from it whichever it came from.
package struct XCResultObject: Sendable, Equatable {
    /// One field of an object, in the order the encoding gives it.
    package struct Field: Sendable, Equatable {
        /// The field's name (`testStatus`, `summaryRef`, …).
        package var key: String
        /// Its value.
        package var value: XCResultObject

        /// A field from its parts.
        package init(key: String, value: XCResultObject) {
            self.key = key
            self.value = value
        }
    }

    /// The type's name (`ActionTestMetadata`, `String`, `Array`, …).
    package var type: String
    /// The type's supertypes, nearest first (`ActionTestSummaryIdentifiableObject`, …).
    package var supertypes: [String]
    /// An object's fields.
    package var fields: [Field]
    /// An array's elements.
    package var elements: [XCResultObject]
    /// A primitive's text (`_v` in the bundle, `_value` in JSON).
    package var value: String?

    /// A value from its parts.
    package init(
        type: String, supertypes: [String] = [], fields: [Field] = [], elements: [XCResultObject] = [],
        value: String? = nil
    ) {
        self.type = type
        self.supertypes = supertypes
        self.fields = fields
        self.elements = elements
        self.value = value
    }

    /// The deepest nesting either reader accepts: far beyond any real result (about 12 levels),
    /// and within the stack of a reading thread.
    package static let maximumDepth = 256

    /// Whether the value is of type `name` or has it as a supertype.
    package func isA(_ name: String) -> Bool { type == name || supertypes.contains(name) }

    /// The field `key`, when present.
    package subscript(key: String) -> XCResultObject? {
        fields.first { $0.key == key }?.value
    }

    /// The text of the primitive field `key`.
    package func string(_ key: String) -> String? { self[key]?.value }

    /// The primitive field `key` as a number (`Double`, `Int`), when it reads as one.
    package func number(_ key: String) -> Double? {
        guard let text = string(key), let number = Double(text), number.isFinite else { return nil }
        return number
    }

    /// The elements of the array field `key` (none when it is missing).
    package func array(_ key: String) -> [XCResultObject] { self[key]?.elements ?? [] }

    /// The identifier a `Reference` field points to.
    package func reference(_ key: String) -> String? {
        guard let id = self[key]?.string("id"), !id.isEmpty else { return nil }
        return id
    }
}
