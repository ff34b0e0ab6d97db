/// An `NSKeyedArchiver` archive: a binary property list whose `$objects` array holds the archived
/// objects, each a dictionary of fields whose references to other objects are UIDs, with its
/// class in `$class`. Read on demand: the caller walks from the root along the fields it knows,
/// so no cycle of references is ever followed further than the caller's schema goes.
package struct KeyedArchive: Sendable {
    /// What is wrong with the archive: the path of fields that leads to it and what was found.
    package struct DecodeError: Error, Equatable, CustomStringConvertible {
        package var path: String
        package var message: String
        package var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    /// One archived object: its class and where it is, for reading its fields.
    package struct Instance {
        package let className: String
        /// The field names and their values' indices in the property list.
        fileprivate let fields: [String: Int]
        /// How this object was reached, for messages ("root.targets[1].files[3]").
        package let path: String
    }

    private let list: BinaryPropertyList
    /// The indices in `list` of the entries of `$objects`.
    private let archived: [Int]
    private let rootUID: UInt64

    package init(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) {
        do throws(BinaryPropertyList.DecodeError) {
            list = try BinaryPropertyList(bytes)
        } catch {
            throw DecodeError(path: "", message: error.description)
        }
        guard case .dictionary(let keys, let values) = list.objects[list.top] else {
            throw DecodeError(path: "", message: "not a keyed archive (the top object is not a dictionary)")
        }
        var top: [String: Int] = [:]
        for (key, value) in zip(keys, values) {
            if case .string(let name) = list.objects[key] { top[name] = value }
        }
        guard let archiver = top["$archiver"], case .string("NSKeyedArchiver") = list.objects[archiver],
            let objectsIndex = top["$objects"], case .array(let archived) = list.objects[objectsIndex],
            let topIndex = top["$top"], case .dictionary(let topKeys, let topValues) = list.objects[topIndex]
        else { throw DecodeError(path: "", message: "not an NSKeyedArchiver archive") }
        self.archived = archived
        var root: UInt64?
        for (key, value) in zip(topKeys, topValues) {
            if case .string("root") = list.objects[key], case .uid(let uid) = list.objects[value] { root = uid }
        }
        guard let root else { throw DecodeError(path: "$top", message: "no root object") }
        rootUID = root
    }

    /// The root object.
    package func root() throws(DecodeError) -> Instance {
        try instance(uid: rootUID, path: "root")
    }

    private func archivedObject(uid: UInt64, path: String) throws(DecodeError) -> BinaryPropertyList.Object {
        guard uid < UInt64(archived.count) else {
            throw DecodeError(path: path, message: "a reference to object \(uid) of \(archived.count)")
        }
        return list.objects[archived[Int(uid)]]
    }

    private func instance(uid: UInt64, path: String) throws(DecodeError) -> Instance {
        guard case .dictionary(let keys, let values) = try archivedObject(uid: uid, path: path) else {
            throw DecodeError(path: path, message: "not an archived object")
        }
        var fields: [String: Int] = [:]
        for (key, value) in zip(keys, values) {
            guard case .string(let name) = list.objects[key] else { continue }
            fields[name] = value
        }
        guard let classIndex = fields["$class"], case .uid(let classUID) = list.objects[classIndex],
            case .dictionary(let classKeys, let classValues) = try archivedObject(uid: classUID, path: path + ".$class")
        else { throw DecodeError(path: path, message: "an archived object without a class") }
        var className: String?
        for (key, value) in zip(classKeys, classValues) {
            if case .string("$classname") = list.objects[key], case .string(let name) = list.objects[value] {
                className = name
            }
        }
        guard let className else { throw DecodeError(path: path, message: "a class without a name") }
        return Instance(className: className, fields: fields, path: path)
    }

    /// The value of `key` in `object`, with archived references followed once.
    private func value(_ key: String, in object: Instance) throws(DecodeError) -> BinaryPropertyList.Object? {
        guard let index = object.fields[key] else { return nil }
        if case .uid(let uid) = list.objects[index] {
            let target = try archivedObject(uid: uid, path: object.path + "." + key)
            if case .string("$null") = target { return nil }
            return target
        }
        return list.objects[index]
    }

    /// The integer field `key`; nil when absent.
    package func integer(_ key: String, in object: Instance) throws(DecodeError) -> Int64? {
        switch try value(key, in: object) {
        case nil: return nil
        case .integer(let value)?: return value
        default: throw DecodeError(path: object.path + "." + key, message: "not an integer")
        }
    }

    /// The string field `key` (a plain string or an archived `NSString`); nil when absent.
    package func string(_ key: String, in object: Instance) throws(DecodeError) -> String? {
        try scalar(key, in: object, wrappedIn: "NS.string", noun: "a string") {
            if case .string(let text) = $0 { return text } else { return nil }
        }
    }

    /// The data field `key` (plain data or an archived `NSData`); nil when absent.
    package func data(_ key: String, in object: Instance) throws(DecodeError) -> [UInt8]? {
        try scalar(key, in: object, wrappedIn: "NS.data", noun: "data") {
            if case .data(let bytes) = $0 { return bytes } else { return nil }
        }
    }

    /// The value of field `key` as `extract` takes it, stored plainly or in an archived object's
    /// field `wrapper` (an `NSString`, an `NSData`): one level down, never further, so that an
    /// archive whose wrapper refers back to its object is not followed without end.
    private func scalar<T>(
        _ key: String, in object: Instance, wrappedIn wrapper: String, noun: String,
        _ extract: (BinaryPropertyList.Object) -> T?
    ) throws(DecodeError) -> T? {
        guard let found = try value(key, in: object) else { return nil }
        if let value = extract(found) { return value }
        guard case .dictionary = found, let nested = try self.object(key, in: object) else {
            throw DecodeError(path: object.path + "." + key, message: "not \(noun)")
        }
        guard let inner = try value(wrapper, in: nested) else { return nil }
        guard let value = extract(inner) else {
            throw DecodeError(path: nested.path + "." + wrapper, message: "not \(noun)")
        }
        return value
    }

    /// The archived object in field `key`; nil when absent or `$null`.
    package func object(_ key: String, in object: Instance) throws(DecodeError) -> Instance? {
        guard let index = object.fields[key] else { return nil }
        guard case .uid(let uid) = list.objects[index] else {
            throw DecodeError(path: object.path + "." + key, message: "not an archived object")
        }
        if case .string("$null") = try archivedObject(uid: uid, path: object.path + "." + key) { return nil }
        return try instance(uid: uid, path: object.path + "." + key)
    }

    /// The archived objects of the array (`NSArray`, `NSMutableArray`, or a set) in field `key`;
    /// empty when absent.
    package func objects(_ key: String, in object: Instance) throws(DecodeError) -> [Instance] {
        guard let array = try self.object(key, in: object) else { return [] }
        let path = object.path + "." + key
        guard let index = array.fields["NS.objects"], case .array(let members) = list.objects[index] else {
            throw DecodeError(path: path, message: "a \(array.className), not an array")
        }
        var result: [Instance] = []
        result.reserveCapacity(members.count)
        for (position, member) in members.enumerated() {
            guard case .uid(let uid) = list.objects[member] else {
                throw DecodeError(path: "\(path)[\(position)]", message: "not an archived object")
            }
            result.append(try instance(uid: uid, path: "\(path)[\(position)]"))
        }
        return result
    }
}
