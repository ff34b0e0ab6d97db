import SwiftCovFormats
import SwiftCovModel

extension XcodeCoverage {
    /// The most lines a count may claim (as `LineCoverage.maximumExecutableLines`).
    static let maximumLines = LineCoverage.maximumExecutableLines

    /// Reads the coverage report object of a bundle (an `IDESchemeActionCodeCoverage` archived
    /// by `NSKeyedArchiver`); `path` names it in errors.
    package static func readReportArchive(
        _ bytes: UnsafeRawBufferPointer, path: String
    ) throws(XcodeInputError) -> XcodeCoverage {
        do throws(KeyedArchive.DecodeError) {
            let archive = try KeyedArchive(bytes)
            let root = try archive.root()
            // Xcode 14's class, and the one of Xcode 15.3 and later.
            guard root.className == "IDESchemeActionCodeCoverage" || root.className == "XCTHCodeCoverage" else {
                throw KeyedArchive.DecodeError(path: root.path, message: "a \(root.className), not a coverage report")
            }
            var targets: [Target] = []
            // Objects named from several places are read once and shared (Xcode names one file
            // object from each target that lists it). What the report lists (files in targets,
            // functions in those files) is at most one per byte of the archive: a few bytes a
            // reference cannot make a report the square of the archive's size.
            var files: [UInt64: File] = [:]
            var functionLists: [Int: [Function]] = [:]
            var listed = 0
            func list(_ count: Int, at path: String) throws(KeyedArchive.DecodeError) {
                listed += count
                guard listed <= bytes.count else {
                    throw KeyedArchive.DecodeError(
                        path: path,
                        message: "more files and functions listed than the archive's \(bytes.count) bytes can hold: "
                            + "objects named from many places")
                }
            }
            for target in try archive.objects("buildableCoverageObjects", in: root) {
                var targetFiles: [File] = []
                for file in try archive.objects("sourceFiles", in: target) {
                    if let known = files[file.uid] {
                        try list(1 + known.functions.count, at: file.path)
                        targetFiles.append(known)
                        continue
                    }
                    var functions: [Function] = []
                    if let data = try archive.dataWithIdentity("functions", in: file) {
                        if let known = functionLists[data.identity] {
                            functions = known
                        } else {
                            functions = try packedFunctions(data.bytes, path: file.path + ".functions")
                            functionLists[data.identity] = functions
                        }
                    }
                    try list(1 + functions.count, at: file.path)
                    let read = File(
                        name: try archive.string("name", in: file) ?? "",
                        path: try required(archive.string("documentLocation", in: file), "documentLocation", file),
                        executableLines: try lineCount("executableLines", in: file, archive),
                        coveredLines: try lineCount("coveredLines", in: file, archive), functions: functions)
                    files[file.uid] = read
                    targetFiles.append(read)
                }
                try list(1, at: target.path)
                targets.append(
                    Target(
                        name: try required(archive.string("name", in: target), "name", target),
                        productPath: try archive.string("productPath", in: target),
                        executableLines: try lineCount("executableLines", in: target, archive),
                        coveredLines: try lineCount("coveredLines", in: target, archive), files: targetFiles))
            }
            return XcodeCoverage(targets: targets)
        } catch {
            throw XcodeInputError(path: path, location: error.path.isEmpty ? nil : error.path, error.message)
        }
    }

    private static func required<T>(_ value: T?, _ key: String, _ object: KeyedArchive.Instance) throws(KeyedArchive
        .DecodeError) -> T
    {
        guard let value else { throw KeyedArchive.DecodeError(path: object.path, message: "no \(key)") }
        return value
    }

    private static func lineCount(
        _ key: String, in object: KeyedArchive.Instance, _ archive: KeyedArchive
    ) throws(KeyedArchive.DecodeError) -> Int {
        let value = try archive.integer(key, in: object) ?? 0
        guard value >= 0, value <= Int64(maximumLines) else {
            throw KeyedArchive.DecodeError(path: object.path + "." + key, message: "\(value) lines")
        }
        return Int(value)
    }

    /// A file's functions as Xcode packs them: a 32-bit count, then that many 24-byte records
    /// (covered lines, executable lines, first line, executable lines again, all 32-bit, and a
    /// 64-bit execution count; little-endian), then the names, each ended by a zero byte.
    static func packedFunctions(_ bytes: [UInt8], path: String) throws(KeyedArchive.DecodeError) -> [Function] {
        guard !bytes.isEmpty else { return [] }
        return try bytes.withUnsafeBytes { buffer in
            Result { () throws(KeyedArchive.DecodeError) in try packedFunctions(buffer, path: path) }
        }.get()
    }

    private static func packedFunctions(
        _ buffer: UnsafeRawBufferPointer, path: String
    ) throws(KeyedArchive.DecodeError) -> [Function] {
        var cursor = ByteCursor<KeyedArchive.DecodeError>(
            buffer, endOfInput: "the function list ends early",
            failure: { offset, message in KeyedArchive.DecodeError(path: path, message: "\(message) (byte \(offset))") }
        )
        let count = Int(try cursor.integer(UInt32.self))
        // Each function takes a record and at least the zero byte ending its name.
        guard count <= cursor.remaining / 25 else {
            throw cursor.error("\(count) functions in \(buffer.count) bytes", at: 0)
        }
        var functions: [Function] = []
        functions.reserveCapacity(count)
        for _ in 0..<count {
            let start = cursor.offset
            let covered = try cursor.integer(UInt32.self)
            let executable = try cursor.integer(UInt32.self)
            let line = try cursor.integer(UInt32.self)
            _ = try cursor.integer(UInt32.self)
            let executions = try cursor.integer(UInt64.self)
            guard executable <= maximumLines, covered <= maximumLines, line <= maximumLines else {
                throw cursor.error(
                    "a function of \(covered) covered and \(executable) executable lines at line \(line)", at: start)
            }
            functions.append(
                Function(
                    name: "", lineNumber: Int(line), executionCount: executions, executableLines: Int(executable),
                    coveredLines: Int(covered)))
        }
        for index in 0..<count {
            guard let end = buffer[cursor.offset...].firstIndex(of: 0) else {
                throw cursor.error("a function name without its ending zero byte")
            }
            functions[index].name = String(
                decoding: UnsafeRawBufferPointer(rebasing: buffer[cursor.offset..<end]), as: UTF8.self)
            cursor.offset = end + 1
        }
        return functions
    }
}
