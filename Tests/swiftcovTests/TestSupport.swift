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

/// Runs `swiftcov` with `arguments` in `directory` (the package root by default), feeding `stdin`.
func swiftcov(
    _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:], in directory: String = packageRoot
) throws -> RunResult {
    let process = Process()
    process.executableURL = swiftcovExecutable()
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    env["GITHUB_STEP_SUMMARY"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
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

/// A golden file of the library's report tests: the CLI must print exactly what they check.
func golden(_ name: String) throws -> String {
    try String(contentsOfFile: packageRoot + "/Tests/SwiftCovCoreTests/Golden/" + name, encoding: .utf8)
}
