import Foundation
@_exported import SwiftCovTestSupport
import Testing

/// The package's root folder: the commands run there, as the README's do.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// What a run of `swiftcov` left behind.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The built `swiftcov`: on Linux the test bundle is an executable in the products folder, on
/// macOS a bundle inside it.
func swiftcovExecutable() -> URL {
    var products = Bundle.main.bundleURL
    if products.pathExtension == "xctest" { products.deleteLastPathComponent() }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        products = bundle.bundleURL.deletingLastPathComponent()
    }
    return products.appendingPathComponent("swiftcov")
}

/// A `swiftcov` process, not started, with `arguments` in `directory`: the environment is the
/// test's own without `NO_COLOR` and `GITHUB_STEP_SUMMARY`, plus `environment`.
func swiftcovProcess(_ arguments: [String], environment: [String: String], in directory: String) -> Process {
    let process = Process()
    process.executableURL = swiftcovExecutable()
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    env["GITHUB_STEP_SUMMARY"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    return process
}

/// Runs `swiftcov` with `arguments` in `directory` (the package root by default), feeding `stdin`.
func swiftcov(
    _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:], in directory: String = packageRoot
) throws -> RunResult {
    let process = swiftcovProcess(arguments, environment: environment, in: directory)
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read and write concurrently so large outputs cannot fill a pipe and stall the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var stdoutData = Data()
    nonisolated(unsafe) var stderrData = Data()
    DispatchQueue.global().async(group: group) { stdoutData = output.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { stderrData = error.fileHandleForReading.readDataToEndOfFile() }
    try input.fileHandleForWriting.write(contentsOf: stdin)
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    group.wait()
    return RunResult(
        status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
        stderr: String(decoding: stderrData, as: UTF8.self))
}

/// Runs git in `directory` (commits by a test user), its output without the last newline; a
/// failure is an error with git's message.
@discardableResult
func runGit(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", directory] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw GitFailure(arguments: arguments, message: String(decoding: message, as: UTF8.self))
    }
    var text = String(decoding: data, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
}

/// git ended with an error in a test's repository.
struct GitFailure: Error {
    var arguments: [String]
    var message: String
}

/// A golden file of the library's report tests: the CLI must print exactly what they check.
func golden(_ name: String) throws -> String {
    try String(contentsOfFile: packageRoot + "/Tests/SwiftCovCoreTests/Golden/" + name, encoding: .utf8)
}

/// A `swiftcov` started in the background (its output going to files), to be signalled or
/// waited for with a deadline.
final class BackgroundSwiftcov {
    let process: Process
    private let output: String

    /// Starts `swiftcov` with `arguments` in `directory`; its output goes to files in `scratch`.
    init(_ arguments: [String], environment: [String: String] = [:], in directory: String, scratch: String) throws {
        output = scratch + "/swiftcov-\(UUID().uuidString)"
        process = swiftcovProcess(arguments, environment: environment, in: directory)
        _ = FileManager.default.createFile(atPath: output + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: output + ".err", contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output + ".err"))
        try process.run()
    }

    /// Waits until it ends, at most `seconds` (generous: only a hang reaches it; then it is killed
    /// and nil returned).
    func wait(upTo seconds: Double = 300) -> RunResult? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        let stdout = (try? String(contentsOfFile: output + ".out", encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: output + ".err", encoding: .utf8)) ?? ""
        return RunResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

/// Waits until `body` is true, at most `seconds` (generous: only a failure reaches it).
func eventually(within seconds: Double = 300, _ body: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !body() {
        if Date() >= deadline { return false }
        usleep(20_000)
    }
    return true
}

/// The processes below `pid` (Linux: /proc), found now.
func descendants(of pid: Int32) -> Set<Int32> {
    var parents: [Int32: Int32] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let child = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }
    }
    var found = Set<Int32>()
    var changed = true
    while changed {
        changed = false
        for (child, parent) in parents where !found.contains(child) && (parent == pid || found.contains(parent)) {
            found.insert(child)
            changed = true
        }
    }
    return found
}

/// Whether `pid` is gone (or ended, waiting to be reaped).
func isGone(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return true }
    return stat[stat.index(after: close)...].hasPrefix(" Z")
}
