import Foundation

/// A `swift` first on PATH for the `swiftcov` a test starts: a shell script that records each
/// call's arguments, then runs `body` (by default the real `swift` with the same arguments), with
/// the toolchain's `llvm-profdata` and `llvm-cov` beside it (swiftcov finds them next to `swift`).
struct FakeSwift {
    let folder: String
    let log: String

    /// The real `swift` as PATH finds it (run by that name: the driver it links to acts by the
    /// name it is called by).
    static func realSwift() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/swift"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "swift in PATH"])
    }

    /// Makes the script in `directory/fake-swift`; `body` is shell text run after the arguments
    /// are recorded (`$REAL_SWIFT` is the real one).
    init(in directory: String, body: String = #"exec "$REAL_SWIFT" "$@""#) throws {
        folder = directory + "/fake-swift"
        log = folder + "/calls.log"
        let real = try Self.realSwift()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            REAL_SWIFT='\(real)'
            for argument in "$@"; do printf '%s\\t' "$argument"; done >> '\(log)'
            printf '\\n' >> '\(log)'
            \(body)

            """
        try script.write(toFile: folder + "/swift", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/swift")
        let toolchain = (URL(fileURLWithPath: real).resolvingSymlinksInPath().path as NSString)
            .deletingLastPathComponent
        for tool in ["llvm-profdata", "llvm-cov"] {
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/" + tool, withDestinationPath: toolchain + "/" + tool)
        }
    }

    /// The environment that puts it first on PATH.
    var environment: [String: String] {
        ["PATH": folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
    }

    /// The arguments of each call, in order.
    func calls() throws -> [[String]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }
}

extension Array where Element == String {
    /// Whether `part` is in these arguments, in order and adjacent.
    func contains(adjacent part: [String]) -> Bool {
        indices.contains { self[$0...].starts(with: part) }
    }
}

/// The `*.profraw` files directly in `folder` (a profile a test process wrote in the working directory).
func strayProfiles(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".profraw") }
}
