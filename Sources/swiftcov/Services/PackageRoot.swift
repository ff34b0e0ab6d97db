import SwiftCovCommandLine
import SwiftCovCore

/// Where a command that works on a package works, as SwiftPM does: the root of the package
/// around the folder swiftcov started in, from any of its folders.
struct PackageRoot {
    /// The root (absolute).
    let path: String
    /// The folder swiftcov started in, relative to the root ("" at the root): what the paths on
    /// the command line are relative to.
    let startFolder: String

    /// The package around `start` (absolute); a usage error when there is none.
    init(around start: String) throws(UsageError) {
        guard let root = PackageManifest.root(around: start) else {
            throw UsageError("no Package.swift in \(start) or any folder above it: run it in a package")
        }
        path = root
        startFolder = root == start ? "" : String(start.dropFirst(root.count + 1))
    }

    /// Makes the root the working folder, saying so when swiftcov started elsewhere.
    func enter(_ terminal: Terminal) throws(UsageError) {
        guard !startFolder.isEmpty else { return }
        guard CurrentProcess.changeDirectory(to: path) else {
            throw UsageError("cannot work in the package root \(path)")
        }
        terminal.emit(.note("working in the package root \(path)"))
    }
}
