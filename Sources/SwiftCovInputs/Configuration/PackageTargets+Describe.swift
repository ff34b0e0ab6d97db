import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

extension PackageTargets {
    /// The targets in the output of `swift package describe --type json`: `targets[].name`,
    /// `path`, `type`, `target_dependencies` and `product_memberships`, read in one pass that
    /// skips everything else (the description of a large package is tens of kilobytes, read on
    /// every report from its cache).
    package static func parse(describe bytes: [UInt8]) throws(JSONError) -> PackageTargets {
        try MappedFile(bytes: bytes).withUnsafeBytes { buffer throws(JSONError) in try parse(describe: buffer) }
    }

    /// A target as described, before test code is told apart.
    private struct Described {
        var name: String
        var path: String
        var type = "library"
        var dependencies: [String] = []
        var inProduct = false
    }

    /// The same, from bytes in place (the mapped cache).
    package static func parse(describe buffer: UnsafeRawBufferPointer) throws(JSONError) -> PackageTargets {
        var scanner = JSONScanner(buffer)
        try scanner.beginObject()
        var started = false
        var described: [Described]?
        while let key = try scanner.nextMember(&started) {
            guard key.equals("targets"), scanner.peek() == UInt8(ascii: "[") else {
                try scanner.skipValue()
                continue
            }
            described = []
            try scanner.beginArray()
            var more = false
            while try scanner.nextElement(&more) {
                guard scanner.peek() == UInt8(ascii: "{") else {
                    try scanner.skipValue()
                    continue
                }
                if let target = try describedTarget(&scanner) { described?.append(target) }
            }
        }
        guard scanner.isAtEnd() else { throw scanner.error("unexpected data after the document") }
        guard let described else { throw JSONError(offset: 0, message: "no \"targets\" array") }
        return PackageTargets(testCodeTold(described))
    }

    /// One element of `targets`; nil when it has no name or no relative path.
    private static func describedTarget(_ scanner: inout JSONScanner) throws(JSONError) -> Described? {
        try scanner.beginObject()
        var inTarget = false
        var name: String?
        var path: String?
        var target = Described(name: "", path: "")
        while let key = try scanner.nextMember(&inTarget) {
            if key.equals("target_dependencies") || key.equals("product_memberships"),
                scanner.peek() == UInt8(ascii: "[")
            {
                let isDependencies = key.equals("target_dependencies")
                try scanner.beginArray()
                var more = false
                while try scanner.nextElement(&more) {
                    guard scanner.peek() == UInt8(ascii: "\"") else {
                        try scanner.skipValue()
                        continue
                    }
                    let value = try scanner.readString()
                    if isDependencies { target.dependencies.append(value) } else { target.inProduct = true }
                }
                continue
            }
            guard key.equals("name") || key.equals("path") || key.equals("type"),
                scanner.peek() == UInt8(ascii: "\"")
            else {
                try scanner.skipValue()
                continue
            }
            if key.equals("name") {
                name = try scanner.readString()
            } else if key.equals("path") {
                path = try scanner.readString()
            } else {
                target.type = try scanner.readString()
            }
        }
        guard let name, let path, !name.isEmpty, !path.hasPrefix("/") else { return nil }
        target.name = name
        target.path = path
        return target
    }

    /// The targets, each told test code or not: test targets are, and so are test-support
    /// libraries: a target in `Tests/`, and, in a package that declares products, a target that
    /// no product holds and that only test code depends on (found by repeating until nothing
    /// changes). A target nothing depends on is the package's own; so is every target of a package
    /// without products (its libraries are what its tests test).
    private static func testCodeTold(_ described: [Described]) -> [Target] {
        var dependents: [String: [String]] = [:]
        for target in described {
            for dependency in target.dependencies { dependents[dependency, default: []].append(target.name) }
        }
        var testCode = Set(
            described.filter { $0.type == "test" || CoverageScope.normalized($0.path).hasPrefix("Tests/") }.map(\.name))
        var changed = described.contains { $0.inProduct }
        while changed {
            changed = false
            for target in described where !testCode.contains(target.name) && !target.inProduct {
                guard let users = dependents[target.name], !users.isEmpty, users.allSatisfy(testCode.contains) else {
                    continue
                }
                testCode.insert(target.name)
                changed = true
            }
        }
        return described.map {
            Target(name: $0.name, path: $0.path, type: $0.type, isTestCode: testCode.contains($0.name))
        }
    }
}

/// How swiftcov learns a package's targets: by asking SwiftPM (`swift package describe`). A
/// seam, so that tests give a recorded description instead of running `swift`.
package struct PackageDescriber: Sendable {
    /// The output of `swift package describe --type json` for the package at the root given;
    /// nil when it cannot be had.
    package var describe: @Sendable (_ root: String) -> [UInt8]?

    package init(describe: @escaping @Sendable (_ root: String) -> [UInt8]?) {
        self.describe = describe
    }

    /// Runs `swift package describe --type json` in the root, with a scratch path of its own: the
    /// package's `.build` may be locked by a `swift build` or `swift test` running meanwhile
    /// (swiftcov's own tests run it so), and describing a manifest needs no build folder.
    package static let swiftPM = PackageDescriber { root in
        let scratch = CurrentProcess.temporaryFolder + "/swiftcov-describe-\(CurrentProcess.id)"
        defer { TemporaryPaths.removeTree(scratch) }
        guard
            let result = try? Subprocess.capture(
                "swift", ["package", "--scratch-path", scratch, "describe", "--type", "json"], in: root, timeout: 120),
            result.status == 0, !result.timedOut
        else { return nil }
        return result.output
    }

    /// The targets of the package at `root` (absolute): from the cache in `.build/swiftcov` (when
    /// the package has a `.build`) when
    /// `Package.swift` is unchanged since it was written (keyed by the manifest's MD5), else
    /// described and cached. Nil when there is no manifest or it cannot be described: then the
    /// folder rule names the modules.
    package func targets(ofPackageAt root: String) -> PackageTargets? {
        guard let manifest = try? MappedFile(path: root + "/Package.swift") else { return nil }
        let digest = manifest.withUnsafeBytes { MD5.digest($0) }
        let hex = digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
        let cache = root + "/.build/swiftcov/package-" + hex + ".json"
        if let cached = try? MappedFile(path: cache),
            let targets = try? cached.withUnsafeBytes({ bytes throws(JSONError) in
                try PackageTargets.parse(describe: bytes)
            })
        {
            return targets
        }
        guard let described = describe(root), let targets = try? PackageTargets.parse(describe: described) else {
            return nil
        }
        // A cache that cannot be written (a read-only checkout) only costs the next run the same time;
        // none is made in a package that builds elsewhere (`--scratch-path`) and has no `.build`.
        if FileSystem.kind(of: root + "/.build") == .directory,
            (try? AtomicFile.makeDirectory(root + "/.build/swiftcov")) != nil
        {
            _ = described.withUnsafeBufferPointer { try? AtomicFile.write(bytes: $0, to: cache, durable: false) }
        }
        return targets
    }
}
