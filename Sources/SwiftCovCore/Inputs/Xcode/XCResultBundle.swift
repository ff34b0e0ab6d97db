/// An Xcode result bundle (`.xcresult`), read without Xcode: its `Info.plist` (format version and
/// the root object's id) and its objects, each a zstd-compressed file `Data/data.<id>`.
/// Nothing outside `Data/` is read, whatever an id says: ids are checked to be file names.
package struct XCResultBundle: Sendable {
    /// The bundle's folder, as given.
    package let path: String
    /// The format version, e.g. (3, 39).
    package let version: (major: Int, minor: Int)
    /// The id of the root object (an `ActionsInvocationRecord`).
    package let rootID: String

    /// The format versions this reader was checked against; newer minor versions are read
    /// with a warning (`versionWarning`).
    package static let knownVersions = (major: 3, minorRange: 39...60)

    /// The largest object read (decompressed): result bundles' objects are kilobytes to a few
    /// megabytes; an object claiming more is not read.
    static let maximumObjectSize = 1 << 30

    /// Whether `path` is a result bundle: a folder with an `Info.plist` and its results, a
    /// `Data` folder of objects or a `database.sqlite3` (all some bundles of Xcode 16+ keep).
    package static func isBundle(_ path: String) -> Bool {
        FileSystem.kind(of: path + "/Info.plist") == .file
            && (FileSystem.kind(of: path + "/Data") == .directory
                || FileSystem.kind(of: path + "/database.sqlite3") != nil)
    }

    /// Whether `path` is a bundle whose results are only in its `database.sqlite3` (no `Data`
    /// folder): it holds tests and no coverage.
    package static func holdsOnlyDatabase(_ path: String) -> Bool {
        isBundle(path) && FileSystem.kind(of: path + "/Data") != .directory
    }

    /// Opens the bundle at `path`: reads its `Info.plist`. A bundle with no `Data` folder (its
    /// tests are read from its database by `testRun(path:)`) is refused with what it holds and
    /// what is missing.
    package init(path: String) throws(XcodeInputError) {
        self.path = path
        guard FileSystem.kind(of: path + "/Data") == .directory else {
            let held = (FileSystem.entries(of: path) ?? []).filter { $0.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F } }
                .sorted().prefix(8)
            let store =
                held.contains("database.sqlite3")
                ? "its database.sqlite3 holds test results (swiftcov reads them: junit, check --tests) and no "
                    + "coverage; give the JSON of `xcrun xccov view --report --json BUNDLE` for coverage"
                : "nothing swiftcov can read; give the JSON of `xcrun xcresulttool get test-results tests --path "
                    + "BUNDLE` (tests) or `xcrun xccov view --report --json BUNDLE` (coverage) instead"
            throw XcodeInputError(
                path: path, "a result bundle holding \(held.joined(separator: ", ")) and no Data folder: \(store)")
        }
        let infoPath = path + "/Info.plist"
        let bytes = try Self.readFile(infoPath, limit: 1 << 20)
        let info = try InfoPropertyList.read(bytes, path: infoPath)
        guard let rootID = info.rootID else {
            throw XcodeInputError(path: infoPath, location: "rootId.hash", "missing")
        }
        guard Self.isObjectID(rootID) else {
            throw XcodeInputError(path: infoPath, location: "rootId.hash", "not an object id: \(rootID)")
        }
        guard let major = info.major, let minor = info.minor else {
            throw XcodeInputError(path: infoPath, location: "version", "no format version")
        }
        guard major == Self.knownVersions.major else {
            throw XcodeInputError(
                path: infoPath, location: "version", "format version \(major).\(minor); this reader knows 3.x")
        }
        self.rootID = rootID
        version = (major, minor)
    }

    /// A warning when the bundle's format is newer than any this reader was checked against.
    package var versionWarning: Diagnostic? {
        guard version.minor > Self.knownVersions.minorRange.upperBound else { return nil }
        return .warning(
            file: path,
            "format version \(version.major).\(version.minor) is newer than those swiftcov was checked against "
                + "(3.\(Self.knownVersions.minorRange.lowerBound)–3.\(Self.knownVersions.minorRange.upperBound)); "
                + "its objects are read as far as they are known")
    }

    /// Whether `id` can name an object file: `0~` and the hash's letters, nothing that leads
    /// elsewhere (no `/`, no `..`).
    static func isObjectID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (3...256).contains(bytes.count), bytes.starts(with: Array("0~".utf8)) else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "~")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "=")
        }
    }

    /// The object `id`, decompressed.
    package func object(_ id: String) throws(XcodeInputError) -> [UInt8] {
        guard Self.isObjectID(id) else {
            throw XcodeInputError(path: path, "a reference to `\(id)`, not an object id")
        }
        let file = path + "/Data/data." + id
        guard FileSystem.kind(of: file) == .file else {
            throw XcodeInputError(path: path, "the object \(id) is missing (Data/data.\(id))")
        }
        let compressed = try Self.readFile(file, limit: Self.maximumObjectSize)
        guard compressed.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) else {
            // Objects of bundles with `compression = none` are stored as they are.
            return compressed
        }
        do throws(Zstd.DecodeError) {
            return try compressed.withUnsafeBytes { bytes in
                Result { () throws(Zstd.DecodeError) in try Zstd.decompress(bytes, maximumSize: Self.maximumObjectSize)
                }
            }.get()
        } catch {
            throw XcodeInputError(path: file, "\(error.message) (byte offset \(error.offset) of the zstd frame)")
        }
    }

    private static func readFile(_ path: String, limit: Int) throws(XcodeInputError) -> [UInt8] {
        do {
            let file = try MappedFile(path: path, regularFileOfAtMost: limit)
            return file.withUnsafeBytes { Array($0) }
        } catch {
            throw XcodeInputError(path: path, "cannot read: \(error.message)")
        }
    }
}

/// The few values of a bundle's `Info.plist` the reader needs, from its XML (or binary) form.
private struct InfoPropertyList {
    var rootID: String?
    var major: Int?
    var minor: Int?

    static func read(_ bytes: [UInt8], path: String) throws(XcodeInputError) -> InfoPropertyList {
        bytes.starts(with: Array("bplist00".utf8))
            ? try InfoPropertyList(binary: bytes, path: path) : try InfoPropertyList(xml: bytes, path: path)
    }

    init(xml bytes: [UInt8], path: String) throws(XcodeInputError) {
        var reader = XMLReader(bytes)
        // The keys leading to the current value: ["rootId", "hash"].
        var keys: [String] = []
        var pendingKey: String?
        var text = ""
        do {
            while let event = try reader.next() {
                switch event {
                case .start(let name, _):
                    text = ""
                    if name == "dict" {
                        keys.append(pendingKey ?? "")
                        pendingKey = nil
                    }
                case .text(let piece):
                    text += piece
                case .end(let name):
                    switch name {
                    case "dict": _ = keys.popLast()
                    case "key": pendingKey = text
                    case "string", "integer":
                        let path = (keys.dropFirst() + [pendingKey ?? ""]).joined(separator: ".")
                        switch path {
                        case "rootId.hash": rootID = text
                        case "version.major": major = Int(text)
                        case "version.minor": minor = Int(text)
                        default: break
                        }
                        pendingKey = nil
                    default:
                        pendingKey = nil
                    }
                    text = ""
                }
            }
        } catch {
            throw XcodeInputError(path: path, "not a property list: \(error.message) (byte offset \(error.offset))")
        }
    }

    init(binary bytes: [UInt8], path: String) throws(XcodeInputError) {
        let list: BinaryPropertyList
        do throws(BinaryPropertyList.DecodeError) {
            list = try bytes.withUnsafeBytes { buffer in
                Result { () throws(BinaryPropertyList.DecodeError) in try BinaryPropertyList(buffer) }
            }.get()
        } catch {
            throw XcodeInputError(path: path, error.description)
        }
        func member(_ object: Int, _ key: String) -> Int? {
            guard case .dictionary(let keys, let values) = list.objects[object] else { return nil }
            return zip(keys, values).first { list.objects[$0.0] == .string(key) }?.1
        }
        if let root = member(list.top, "rootId"), let hash = member(root, "hash"),
            case .string(let id) = list.objects[hash]
        {
            rootID = id
        }
        if let version = member(list.top, "version") {
            if let index = member(version, "major"), case .integer(let value) = list.objects[index] {
                major = Int(value)
            }
            if let index = member(version, "minor"), case .integer(let value) = list.objects[index] {
                minor = Int(value)
            }
        }
    }
}
