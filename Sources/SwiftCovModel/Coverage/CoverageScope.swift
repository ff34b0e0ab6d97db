import SwiftCovFormats

/// Which files of an export a report covers, and the module each belongs to.
///
/// By default a report covers the code a package owns: not its test code (the manifest's test
/// targets and the libraries only they use; `Tests/` when there is no manifest), not
/// what SwiftPM generates or checks out under `.build/`, nothing outside the package root.
/// Include patterns bring files back in; exclude patterns always win.
package struct CoverageScope: Sendable {
    /// The package root, absolute and without a trailing slash; nil when unknown, in which case
    /// relative export paths are taken as relative to it and absolute ones as outside it.
    package var root: String?
    package var includes: [Glob]
    package var excludes: [Glob]
    /// Turns the default exclusions off.
    package var allFiles: Bool
    /// Whether the root was inferred from the export's paths rather than given or found around
    /// the inputs (see `CoverageInput.inferRoot`).
    package var rootWasGuessed = false
    /// The package's targets from its manifest, when known: they name the modules of the files
    /// in their folders (see `module(of:)`).
    package var targets: PackageTargets?

    package init(root: String?, includes: [Glob] = [], excludes: [Glob] = [], allFiles: Bool = false) {
        self.root = root.map(CoverageScope.normalized)
        self.includes = includes
        self.excludes = excludes
        self.allFiles = allFiles
    }

    /// Why a file is left out by default.
    package enum DefaultExclusion: Equatable, Sendable {
        case outsideRoot, testTarget, buildDirectory
    }

    /// `path` relative to the root, or nil when it lies outside it. Paths in the export that are
    /// already relative (as in `SampleReports/`) are relative to the root. `.` and `..` are
    /// resolved first, so that `Sources/../../../etc/passwd` is outside, not inside.
    package func relativePath(_ path: String) -> String? {
        var path = CoverageScope.needsNormalizing(path) ? CoverageScope.normalized(path) : path
        guard path.hasPrefix("/") else {
            if path == ".." || path.hasPrefix("../") { return nil }
            return path
        }
        guard var rootText = root else { return nil }
        if rootText == "/" { return String(path.dropFirst()) }
        let rootLength = rootText.utf8.count
        let inside = path.withUTF8 { pathBytes in
            rootText.withUTF8 { rootBytes in
                pathBytes.count > rootLength && pathBytes[rootLength] == UInt8(ascii: "/")
                    && memcmp(pathBytes.baseAddress!, rootBytes.baseAddress!, rootLength) == 0
            }
        }
        guard inside else { return nil }
        return String(path.utf8.dropFirst(rootLength + 1))!
    }

    /// How a person should see `path`: relative to the package root when inside it, else
    /// absolute (with `.` and `..` resolved) when the root is known.
    package func displayPath(_ path: String) -> String {
        if let relative = relativePath(path) { return relative }
        if !path.hasPrefix("/"), let root { return CoverageScope.normalized(root + "/" + path) }
        return CoverageScope.needsNormalizing(path) ? CoverageScope.normalized(path) : path
    }

    /// The default rule that leaves `path` out, if any. The manifest decides what is test code
    /// (a test target, or a library only tests use, wherever its folder is); without one, or
    /// for a file no target holds, the folder rule does: `Tests/` is test code.
    package func defaultExclusion(_ path: String) -> DefaultExclusion? {
        guard let relative = relativePath(path) else { return .outsideRoot }
        if relative.hasPrefix(".build/") { return .buildDirectory }
        if let owner = targets?.owner(ofRelativePath: relative) { return owner.isTestCode ? .testTarget : nil }
        if relative.hasPrefix("Tests/") { return .testTarget }
        return nil
    }

    /// Whether `path` is known to be a library's source, not test code, whichever target's
    /// coverage lists it (an Xcode test bundle lists the package files it compiles in): its
    /// owner in the manifest is no test target, or, with no manifest that holds it, it lies
    /// under `Sources/` inside the root.
    package func isLibrarySource(_ path: String) -> Bool {
        guard let relative = relativePath(path) else { return false }
        if let owner = targets?.owner(ofRelativePath: relative) { return !owner.isTestCode }
        return relative.hasPrefix("Sources/")
    }

    /// Whether the report covers `path`.
    package func includes(_ path: String) -> Bool {
        includes(path, displayPath: displayPath(path))
    }

    /// Whether the report covers `path`, whose `displayPath(_:)` is `display`.
    package func includes(_ path: String, displayPath display: String) -> Bool {
        exclusion(of: path, displayPath: display) == nil
    }

    /// Why a file is not in a report.
    package enum Exclusion: Hashable, Sendable {
        /// A default rule (`DefaultExclusion`).
        case byDefault(DefaultExclusion)
        /// An `--exclude` pattern matches it.
        case excluded
        /// `--include` patterns are given, and none matches it.
        case notIncluded
    }

    /// Why the report leaves `path` (whose `displayPath(_:)` is `display`) out; nil when it covers it.
    package func exclusion(of path: String, displayPath display: String) -> Exclusion? {
        if excludes.contains(where: { $0.matches(display) }) { return .excluded }
        if !includes.isEmpty { return includes.contains { $0.matches(display) } ? nil : .notIncluded }
        if allFiles { return nil }
        return defaultExclusion(path).map(Exclusion.byDefault)
    }

    /// The SwiftPM target that owns `path`: the manifest's target whose folder holds it, when the
    /// targets are known; else by the folder rule: `Sources/<Target>/…` (also `Tests/`,
    /// `Plugins/`, and the same inside dependency checkouts), `<Target>.build/…` and
    /// `<Target>.derived/…` for generated files; otherwise the first folder of the path relative
    /// to the root.
    package func module(of path: String) -> String {
        if let targets, let relative = relativePath(path), let target = targets.target(ofRelativePath: relative) {
            return target
        }
        let parts = displayPath(path).split(separator: "/")
        let folders = parts.dropLast()
        if let index = folders.lastIndex(where: { CoverageScope.targetFolders.contains($0) }),
            index + 1 < folders.endIndex
        {
            return String(folders[index + 1])
        }
        for folder in folders.reversed() {
            for suffix in [".build", ".derived"] where folder.hasSuffix(suffix) && folder.count > suffix.count {
                return String(folder.dropLast(suffix.count))
            }
        }
        if let first = folders.first, relativePath(path) != nil { return String(first) }
        return CoverageScope.otherModule
    }

    /// The module of files that belong to no target folder.
    package static let otherModule = "(other)"

    private static let targetFolders: Set<Substring> = ["Sources", "Tests", "Plugins", "Benchmarks", "Snippets"]

    /// Where the first `/Sources/`, `/Tests/` or `/.build/` component starts in `path`.
    private static func firstTargetFolder(in path: String) -> String.Index? {
        var path = path
        let offset = path.withUTF8 { bytes -> Int? in
            func follows(_ slash: Int, _ marker: StaticString) -> Bool {
                slash + marker.utf8CodeUnitCount < bytes.count
                    && memcmp(bytes.baseAddress! + slash + 1, marker.utf8Start, marker.utf8CodeUnitCount) == 0
            }
            for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
                if follows(index, "Sources/") || follows(index, "Tests/") || follows(index, ".build/") { return index }
            }
            return nil
        }
        return offset.map { path.utf8.index(path.utf8.startIndex, offsetBy: $0) }
    }

    /// `path` with `.` and `..` components resolved lexically (without looking at the file
    /// system) and no trailing slash; a relative path keeps the `..` that climb above its start.
    package static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
                continue
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// `path` as seen from `folder` (`../shots/a.png`), both absolute or both relative to one
    /// place; `path` itself when one is absolute and the other not.
    package static func path(_ path: String, relativeTo folder: String) -> String {
        guard path.hasPrefix("/") == folder.hasPrefix("/") else { return path }
        let target = normalized(path).split(separator: "/")
        let base = normalized(folder).split(separator: "/").filter { $0 != "." }
        let common = zip(target, base).prefix { $0 == $1 }.count
        let parts = Array(repeating: Substring(".."), count: base.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// Whether `normalized(path)` could differ from `path`: it has a `.` or `..` component, an
    /// empty one, or a trailing slash.
    package static func needsNormalizing(_ path: String) -> Bool {
        // One pass over the bytes (this runs for every file of an export): an empty component
        // other than the leading one, a `.` or `..` component, or a trailing slash.
        var path = path
        return path.withUTF8 { bytes in
            guard !bytes.isEmpty else { return false }
            var componentStart = 0
            for index in 0...bytes.count {
                guard index == bytes.count || bytes[index] == UInt8(ascii: "/") else { continue }
                let length = index - componentStart
                if length == 0 && (index > 0 || index == bytes.count) { return true }
                if (length == 1 || length == 2) && bytes[componentStart] == UInt8(ascii: ".")
                    && bytes[index - 1] == UInt8(ascii: ".")
                {
                    return true
                }
                componentStart = index + 1
            }
            return false
        }
    }

    /// Guesses the package root from the absolute paths of an export: the folder holding the
    /// `Sources`, `Tests` or `.build` folder that most files go through.
    package static func inferredRoot(from paths: [String]) -> String? {
        var votes: [Substring: Int] = [:]
        for path in paths where path.hasPrefix("/") {
            guard let marker = firstTargetFolder(in: path) else { continue }
            votes[path[..<marker], default: 0] += 1
        }
        guard let best = votes.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) else {
            return nil
        }
        return best.key.isEmpty ? "/" : String(best.key)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
