import Foundation

/// Runs the built `trivia` executable as a player would, for black-box tests.
///
/// The executable is not linked into the tests (executable targets cannot be imported reliably, and linking it
/// would hide what the real binary does), so these tests find it in the build products directory and drive it
/// through pipes.
enum TriviaProcess {
    /// What one run printed and how it ended.
    struct Output: Sendable {
        /// Everything written to stdout.
        var stdout: String
        /// Everything written to stderr.
        var stderr: String
        /// The exit status.
        var status: Int32

        /// The stdout lines whose identifier is `identifier`, without the `identifier: ` prefix.
        func elements(_ identifier: String) -> [String] {
            stdout.split(separator: "\n").compactMap { line in
                line.hasPrefix(identifier + ": ") ? String(line.dropFirst(identifier.count + 2)) : nil
            }
        }
    }

    /// Why the executable could not be run.
    struct NotBuilt: Error, CustomStringConvertible {
        /// Where it was looked for.
        var path: String
        var description: String { "no trivia executable at \(path); run `swift build` first" }
    }

    /// The build products directory, which holds both the test bundle and `trivia`.
    ///
    /// On Linux `swift test` runs `<products>/<Package>PackageTests.xctest`, an ordinary executable, for XCTest and
    /// again for Swift Testing, so the main bundle's directory is the products directory. On macOS the tests run
    /// inside `xctest`, and the products directory is the one containing the loaded `.xctest` bundle.
    static var productsDirectory: URL {
        #if os(macOS)
            if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    /// The `trivia` executable beside the tests.
    static var executableURL: URL {
        productsDirectory.appendingPathComponent("trivia")
    }

    /// Runs `trivia` with `arguments` and `input` on its stdin, followed by end of input, and waits for it to exit.
    static func run(_ arguments: [String] = ["--ui-testing"], input: String) throws -> Output {
        let executable = executableURL
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw NotBuilt(path: executable.path)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr

        // The input and outputs are a few hundred bytes, far below a pipe's buffer: writing all input before the
        // launch cannot block and cannot hit a closed pipe, and reading one output after the other cannot block
        // the child.
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()

        return Output(
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self),
            status: process.terminationStatus
        )
    }
}
