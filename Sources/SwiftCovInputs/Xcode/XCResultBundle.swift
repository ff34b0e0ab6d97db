import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// An Xcode result bundle (`.xcresult`), read without Xcode: its `Info.plist` (format version and
/// the root object's id) and its objects, each a zstd-compressed file `Data/data.<id>`.
/// Nothing outside `Data/` is read, whatever an id says: ids are checked to be file names, and
/// only regular files inside the bundle are read (a FIFO, a device, a socket, a loop of links or a
/// link leading out of the bundle is refused, saying which). Objects are decoded through one
/// `XCResultObjectStore` per bundle: a byte-bounded cache, and a ceiling on the bytes decoded.
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

    /// The largest object file read (compressed, or stored as it is).
    static let maximumObjectSize = 1 << 30

    /// The bundle's folder with its links followed, to tell a file inside it from a link out.
    let realPath: String
    /// Where its objects are decoded and kept.
    let store: XCResultObjectStore

    /// Whether `path` is a result bundle: a folder with an `Info.plist` and its results, a `Data`
    /// folder of objects or a `database.sqlite3` (all some bundles of Xcode 16+ keep), or
    /// anything in their places, which reading the bundle then refuses, saying what it is.
    package static func isBundle(_ path: String) -> Bool {
        FileSystem.kind(of: path) == .directory
            && FileSystem.kind(of: path + "/Info.plist", followingLinks: false) != nil
            && (FileSystem.kind(of: path + "/Data", followingLinks: false) != nil
                || FileSystem.kind(of: path + "/database.sqlite3", followingLinks: false) != nil)
    }

    /// Whether `path` is a bundle whose results are only in its `database.sqlite3` (no `Data`
    /// folder): it holds tests and no coverage.
    package static func holdsOnlyDatabase(_ path: String) -> Bool {
        isBundle(path) && FileSystem.kind(of: path + "/Data", followingLinks: false) == nil
    }

    /// Opens the bundle at `path`: reads its `Info.plist`. A bundle with no `Data` folder (its
    /// tests are read from its database by `testRun(path:)`) is refused with what it holds and
    /// what is missing.
    package init(path: String) throws(XcodeInputError) {
        self.path = path
        switch FileSystem.kind(of: path) {
        case .directory?: break
        case nil: throw XcodeInputError(path: path, "no such file or directory")
        case let kind?: throw XcodeInputError(path: path, "\(kind.noun), not a result bundle (a folder)")
        }
        guard let realPath = FileSystem.realPath(path) else {
            throw XcodeInputError(path: path, "no such file or directory")
        }
        self.realPath = realPath
        guard FileSystem.kind(of: path + "/Data", followingLinks: false) != nil else {
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
        let infoPath = try Self.fileInside(
            realPath, path: path, "Info.plist", missing: "no Info.plist: not a result bundle")
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
        store = XCResultObjectStore(dataBytes: Self.dataBytes(of: path + "/Data"))
    }

    /// The bytes of the regular files in `folder` (the bundle's objects, compressed), on which the
    /// ceiling of bytes decoded rests.
    private static func dataBytes(of folder: String) -> Int {
        (FileSystem.entries(of: folder) ?? []).reduce(0) { total, name in
            total + (FileSystem.size(of: folder + "/" + name) ?? 0)
        }
    }

    /// The bundle's file at `relative` when it is a regular file inside the bundle (following
    /// links that stay inside); else an error saying what is there instead, or `missing`.
    static func fileInside(
        _ realPath: String, path: String, _ relative: String, missing: String
    ) throws(XcodeInputError) -> String {
        let file = path + "/" + relative
        switch FileSystem.kind(of: file) {
        case .file?: break
        case nil where FileSystem.kind(of: file, followingLinks: false) == nil:
            throw XcodeInputError(path: path, missing)
        case nil: throw XcodeInputError(path: file, "a symbolic link to nothing: swiftcov reads only regular files")
        case let kind?:
            throw XcodeInputError(path: file, "\(kind.noun), not a regular file: swiftcov reads only regular files")
        }
        guard let real = FileSystem.realPath(file), real.hasPrefix(realPath == "/" ? "/" : realPath + "/") else {
            throw XcodeInputError(
                path: file,
                "a symbolic link to \(FileSystem.realPath(file) ?? "nowhere"), outside the bundle: swiftcov reads "
                    + "only files inside it")
        }
        return file
    }

    /// Whether the bundle has anything (a file, or what is refused in its place) for object `id`.
    package func hasObject(_ id: String) -> Bool {
        Self.isObjectID(id) && FileSystem.kind(of: path + "/Data/data." + id, followingLinks: false) != nil
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
    package static func isObjectID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (3...256).contains(bytes.count), bytes.starts(with: Array("0~".utf8)) else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "~")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "=")
        }
    }

    /// The object `id`, decompressed: from the store's cache, else read and decoded within what
    /// is left of the store's ceiling.
    package func object(_ id: String) throws(XcodeInputError) -> [UInt8] {
        guard Self.isObjectID(id) else {
            throw XcodeInputError(path: path, "a reference to `\(id)`, not an object id")
        }
        let relative = "Data/data." + id
        if let cached = try store.cached(id, path: path + "/" + relative) { return cached }
        let file = try Self.fileInside(
            realPath, path: path, relative, missing: "the object \(id) is missing (Data/data.\(id))")
        let compressed = try Self.readFile(file, limit: Self.maximumObjectSize)
        var bytes = compressed
        if compressed.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) {
            let allowed = store.remaining
            do throws(Zstd.DecodeError) {
                bytes = try compressed.withUnsafeBytes { input in
                    Result { () throws(Zstd.DecodeError) in try Zstd.decompress(input, maximumSize: allowed) }
                }.get()
            } catch  where error.isOverLimit {
                throw store.ceilingError(path: file)
            } catch {
                throw XcodeInputError(path: file, "\(error.message) (byte offset \(error.offset) of the zstd frame)")
            }
        }
        // Objects of bundles with `compression = none` are stored as they are.
        try store.add(id, bytes, path: file)
        return bytes
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
