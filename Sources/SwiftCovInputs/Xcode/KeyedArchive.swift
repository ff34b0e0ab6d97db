/// An `NSKeyedArchiver` archive: a binary property list whose `$objects` array holds the archived
/// objects, each a dictionary of fields whose references to other objects are UIDs, with its
/// class in `$class`. Read on demand: the caller walks from the root along the fields it knows,
/// so no cycle of references is ever followed further than the caller's schema goes. Each
/// archived object's fields are read once, whatever number of references name it: references
/// resolve to shared instances, and walking is linear in the archive's size.
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
        /// Its entry in `$objects`: the same for every reference to it.
        package let uid: UInt64
        /// The field names and their values' indices in the property list (shared storage).
        fileprivate let fields: [String: Int]
        /// How this object was reached first, for messages ("root.targets[1].files[3]").
        package let path: String
    }

    private let list: BinaryPropertyList
    /// The indices in `list` of the entries of `$objects`.
    private let archived: [Int]
    private let rootUID: UInt64
    /// The fields of each dictionary of the list that `$objects` names, by its index in `list`.
    private let fieldsByIndex: [Int: [String: Int]]
    /// Field names longer than this are no archiver's, and are not read (hashing them for every
    /// object naming them would cost the square of the archive's size).
    static let maximumFieldName = 256

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
        var fieldsByIndex: [Int: [String: Int]] = [:]
        for index in archived where fieldsByIndex[index] == nil {
            guard case .dictionary(let keys, let values) = list.objects[index] else { continue }
            var fields: [String: Int] = [:]
            for (key, value) in zip(keys, values) {
                guard case .string(let name) = list.objects[key], name.utf8.count <= Self.maximumFieldName else {
                    continue
                }
                fields[name] = value
            }
            fieldsByIndex[index] = fields
        }
        self.fieldsByIndex = fieldsByIndex
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
        guard uid < UInt64(archived.count), let fields = fieldsByIndex[archived[Int(uid)]] else {
            _ = try archivedObject(uid: uid, path: path)
            throw DecodeError(path: path, message: "not an archived object")
        }
        guard let classIndex = fields["$class"], case .uid(let classUID) = list.objects[classIndex],
            classUID < UInt64(archived.count), let classFields = fieldsByIndex[archived[Int(classUID)]]
        else {
            if let classIndex = fields["$class"], case .uid(let classUID) = list.objects[classIndex] {
                _ = try archivedObject(uid: classUID, path: path + ".$class")
            }
            throw DecodeError(path: path, message: "an archived object without a class")
        }
        guard let nameIndex = classFields["$classname"], case .string(let className) = list.objects[nameIndex] else {
            throw DecodeError(path: path, message: "a class without a name")
        }
        return Instance(className: className, uid: uid, fields: fields, path: path)
    }

    /// The value of `key` in `object`, with archived references followed once.
    private func value(_ key: String, in object: Instance) throws(DecodeError) -> BinaryPropertyList.Object? {
        try indexedValue(key, in: object).map { list.objects[$0] }
    }

    /// The index in the list of the value of `key` in `object`, with archived references followed
    /// once; nil when absent or `$null`.
    private func indexedValue(_ key: String, in object: Instance) throws(DecodeError) -> Int? {
        guard let index = object.fields[key] else { return nil }
        if case .uid(let uid) = list.objects[index] {
            let target = try archivedObject(uid: uid, path: object.path + "." + key)
            if case .string("$null") = target { return nil }
            return archived[Int(uid)]
        }
        return index
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
        }?.value
    }

    /// The data field `key` (plain data or an archived `NSData`); nil when absent.
    package func data(_ key: String, in object: Instance) throws(DecodeError) -> [UInt8]? {
        try dataWithIdentity(key, in: object)?.bytes
    }

    /// The data field `key` and the index of the list's object that holds its bytes: the same
    /// for every field that names those bytes, so that a reader can tell one block of data named
    /// twice from two.
    package func dataWithIdentity(_ key: String, in object: Instance) throws(DecodeError) -> (
        bytes: [UInt8], identity: Int
    )? {
        try scalar(key, in: object, wrappedIn: "NS.data", noun: "data") {
            if case .data(let bytes) = $0 { return bytes } else { return nil }
        }.map { ($0.value, $0.identity) }
    }

    /// The value of field `key` as `extract` takes it, stored plainly or in an archived object's
    /// field `wrapper` (an `NSString`, an `NSData`): one level down, never further, so that an
    /// archive whose wrapper refers back to its object is not followed without end. With it, the
    /// index in the list of the object it was taken from.
    private func scalar<T>(
        _ key: String, in object: Instance, wrappedIn wrapper: String, noun: String,
        _ extract: (BinaryPropertyList.Object) -> T?
    ) throws(DecodeError) -> (value: T, identity: Int)? {
        guard let found = try indexedValue(key, in: object) else { return nil }
        if let value = extract(list.objects[found]) { return (value, found) }
        guard case .dictionary = list.objects[found], let nested = try self.object(key, in: object) else {
            throw DecodeError(path: object.path + "." + key, message: "not \(noun)")
        }
        guard let inner = try indexedValue(wrapper, in: nested) else { return nil }
        guard let value = extract(list.objects[inner]) else {
            throw DecodeError(path: nested.path + "." + wrapper, message: "not \(noun)")
        }
        return (value, inner)
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
