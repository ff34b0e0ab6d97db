/// What Xcode's coverage report holds (`xcrun xccov view --report --json`, or the report object
/// of an `.xcresult` bundle): targets, their files and the files' functions, each with Xcode's
/// executable and covered lines. Xcode counts lines by its own rules, not llvm-cov's, and has no
/// regions, instantiations or branches: a report made from it shows Xcode's numbers, and those
/// metrics as absent.
package struct XcodeCoverage: Sendable, Equatable {
    package var targets: [Target]
    /// Per-line counts by file path (`xccov view --archive --json`), when given.
    package var lines: [String: [Line]] = [:]

    package init(targets: [Target], lines: [String: [Line]] = [:]) {
        self.targets = targets
        self.lines = lines
    }

    /// A target (an app, framework, library or test bundle).
    package struct Target: Sendable, Equatable {
        /// As Xcode names it: bare, or with its product's extension (`App.app`, `AppTests.xctest`).
        package var name: String
        package var productPath: String?
        package var executableLines: Int
        package var coveredLines: Int
        package var files: [File]

        package init(name: String, productPath: String?, executableLines: Int, coveredLines: Int, files: [File]) {
            self.name = name
            self.productPath = productPath
            self.executableLines = executableLines
            self.coveredLines = coveredLines
            self.files = files
        }

        /// The target's name without its product's extension: the module name.
        package var bareName: String {
            for suffix in Self.productExtensions where name.hasSuffix(suffix) && name.count > suffix.count {
                return String(name.dropLast(suffix.count))
            }
            return name
        }

        /// Whether the target is a test bundle (unit or UI tests).
        package var isTestBundle: Bool {
            // The product path names the bundle's binary: `…/AppTests.xctest/AppTests` (or
            // `…/AppTests.xctest/Contents/MacOS/AppTests` on macOS).
            name.hasSuffix(".xctest")
                || (productPath.map { $0.hasSuffix(".xctest") || $0.contains(".xctest/") } ?? false)
        }

        private static let productExtensions = [
            ".app", ".appex", ".framework", ".xctest", ".bundle", ".dylib", ".a", ".o", ".xpc",
        ]
    }

    /// A source file of a target.
    package struct File: Sendable, Equatable {
        package var name: String
        /// The absolute path on the machine that ran the tests.
        package var path: String
        package var executableLines: Int
        package var coveredLines: Int
        package var functions: [Function]

        package init(name: String, path: String, executableLines: Int, coveredLines: Int, functions: [Function]) {
            self.name = name
            self.path = path
            self.executableLines = executableLines
            self.coveredLines = coveredLines
            self.functions = functions
        }
    }

    /// A function as Xcode reports it: its demangled name (empty for some), first line, how many
    /// times it ran, its executable and covered lines.
    package struct Function: Sendable, Equatable {
        package var name: String
        package var lineNumber: Int
        package var executionCount: UInt64
        package var executableLines: Int
        package var coveredLines: Int

        package init(name: String, lineNumber: Int, executionCount: UInt64, executableLines: Int, coveredLines: Int) {
            self.name = name
            self.lineNumber = lineNumber
            self.executionCount = executionCount
            self.executableLines = executableLines
            self.coveredLines = coveredLines
        }
    }

    /// One line of a file's per-line coverage (`xccov view --archive --json`).
    package struct Line: Sendable, Equatable {
        package var line: UInt32
        /// How many times the line ran; nil when it is not executable.
        package var executionCount: UInt64?
        /// Parts of the line that ran another number of times (a branch not taken, code after a
        /// `return` on the same line).
        package var subranges: [Subrange]

        package init(line: UInt32, executionCount: UInt64?, subranges: [Subrange] = []) {
            self.line = line
            self.executionCount = executionCount
            self.subranges = subranges
        }
    }

    /// Part of a line: from `column` (1-based), `length` characters, run `executionCount` times.
    package struct Subrange: Sendable, Equatable {
        package var column: UInt32
        package var length: UInt32
        package var executionCount: UInt64

        package init(column: UInt32, length: UInt32, executionCount: UInt64) {
            self.column = column
            self.length = length
            self.executionCount = executionCount
        }
    }
}

/// Why an Xcode input (a result bundle, xccov's JSON) could not be read: the file, and where in it.
package struct XcodeInputError: DiagnosticConvertible, Equatable {
    package var path: String
    /// The object or key path, when known.
    package var location: String?
    package var message: String

    package init(path: String, location: String? = nil, _ message: String) {
        self.path = path
        self.location = location
        self.message = message
    }

    package var diagnostic: Diagnostic {
        Diagnostic(file: path, at: location.map { .keyPath($0) }, message)
    }
}

extension XcodeCoverage {
    /// Checks what every Xcode input must hold, whichever reader made it: covered lines at most
    /// the executable ones (of each target, file and function), and a file's executable lines at
    /// most the lines its per-line counts show it has. `input` names the input in the error, with
    /// the key path of the first number that breaks them.
    package func checkInvariants(input: String) throws(XcodeInputError) {
        func check(_ covered: Int, of executable: Int, _ keyPath: @autoclosure () -> String) throws(XcodeInputError) {
            guard covered <= executable else {
                throw XcodeInputError(
                    path: input, location: keyPath(),
                    CoverageSummary.contradiction("lines", covered: covered, of: executable))
            }
        }
        for (targetIndex, target) in targets.enumerated() {
            let targetPath = "targets[\(targetIndex)] (\(target.name))"
            try check(target.coveredLines, of: target.executableLines, targetPath)
            for (fileIndex, file) in target.files.enumerated() {
                let filePath = targetPath + ".files[\(fileIndex)] (\(file.path))"
                try check(file.coveredLines, of: file.executableLines, filePath)
                if let lines = lines[file.path], let last = lines.last, file.executableLines > Int(last.line) {
                    throw XcodeInputError(
                        path: input, location: filePath,
                        "\(file.executableLines) executable lines in a file of \(last.line) lines: the coverage cannot "
                            + "be right")
                }
                for (functionIndex, function) in file.functions.enumerated() {
                    try check(
                        function.coveredLines, of: function.executableLines,
                        filePath + ".functions[\(functionIndex)] (\(function.name))")
                }
            }
        }
    }

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
