import SwiftCovPlatform

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
}
