/// A package's targets and the folders their sources are in, as its manifest declares them
/// (`swift package describe --type json`): the modules a report's files belong to. A target
/// declared with `path: "Sources"` (attaswift/BigInt) owns `Sources/Division.swift`, which the
/// folder rule of `CoverageScope.module(of:)` would give to a module named `Sources`.
package struct PackageTargets: Equatable, Sendable {
    /// A target and its folder, relative to the package root (`.` for the root itself).
    package struct Target: Equatable, Sendable {
        package var name: String
        package var path: String
        /// The manifest's `type`: `library`, `executable`, `test`, `macro`, `plugin`, `snippet`…
        package var type: String
        /// Whether the target is test code: a test target, or a target only test code depends
        /// on and no product holds (a test-support library, wherever its folder is).
        package var isTestCode: Bool

        package init(name: String, path: String, type: String = "library", isTestCode: Bool? = nil) {
            self.name = name
            self.path = path
            self.type = type
            self.isTestCode = isTestCode ?? (type == "test")
        }
    }

    /// The targets, the deepest folder first: a file belongs to the first whose folder holds it.
    package private(set) var targets: [Target]

    /// Each target's folder as bytes (empty for the root), in the order of `targets`: what
    /// `owner` compares a path with, for each file of a report.
    private var folders: [[UInt8]]

    package init(_ targets: [Target]) {
        self.targets = targets.map {
            Target(name: $0.name, path: CoverageScope.normalized($0.path), type: $0.type, isTestCode: $0.isTestCode)
        }
        .sorted {
            $0.path.utf8.count != $1.path.utf8.count ? $0.path.utf8.count > $1.path.utf8.count : $0.name < $1.name
        }
        folders = self.targets.map { $0.path == "." ? [] : Array($0.path.utf8) }
    }

    /// The target whose folder holds `relativePath` (a path relative to the package root); nil
    /// when none does (generated files, files outside every target).
    package func owner(ofRelativePath relativePath: String) -> Target? {
        var relativePath = relativePath
        let index = relativePath.withUTF8 { path in
            folders.firstIndex { folder in
                folder.withUnsafeBufferPointer { Self.folder($0, holds: path) }
            }
        }
        return index.map { targets[$0] }
    }

    /// Whether the path `path` lies inside the folder `folder` (both relative to the package
    /// root; an empty folder is the root), byte for byte as the file system compares them.
    private static func folder(_ folder: UnsafeBufferPointer<UInt8>, holds path: UnsafeBufferPointer<UInt8>) -> Bool {
        folder.isEmpty
            || (path.count > folder.count && path[folder.count] == UInt8(ascii: "/")
                && path[..<folder.count].elementsEqual(folder))
    }

    /// The name of the target whose folder holds `relativePath`; nil when none does.
    package func target(ofRelativePath relativePath: String) -> String? {
        owner(ofRelativePath: relativePath)?.name
    }

    /// The test targets (those of type `test`): the modules XCTest classes are declared in.
    package var testTargets: [Target] { targets.filter { $0.type == "test" } }
}
