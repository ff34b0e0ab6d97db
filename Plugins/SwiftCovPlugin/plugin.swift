// `swift package swiftcov …`: swiftcov for a package that depends on it, with nothing to install.
// The plugin runs the `swiftcov` executable SwiftPM built from this package, in the package's folder,
// with the arguments given after the verb.

import Foundation
import PackagePlugin

@main
struct SwiftCovPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "swiftcov")
        var arguments = arguments
        if arguments.first == "run", !arguments.contains("--scratch-path") {
            // `swift package` holds the lock on .build while a plugin runs: a `swift test` started
            // from here would wait for it forever. The tests build in the plugin's own folder instead.
            let scratch = context.pluginWorkDirectoryURL.appendingPathComponent("build").path
            arguments.insert(contentsOf: ["--scratch-path", scratch], at: 1)
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            // A plugin cannot choose `swift package`'s exit code: any failure exits 1.
            let status = process.terminationStatus
            let meaning = status == 1 ? "a test failed or a coverage rule is not met" : "see the message above"
            Diagnostics.error("swiftcov \(arguments.first ?? "") exited with status \(status) (\(meaning))")
            throw PluginFailure(status: status)
        }
    }
}

struct PluginFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "swiftcov exited with status \(status)" }
}
