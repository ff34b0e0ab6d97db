/// Moves a source file of a copied export into a module of its own, the way a bigger package
/// would lay it out: copy `k` of `…/Sources/Module/File.swift` is `…/Sources/Module_k/File.swift`.
///
/// The renamed folder is the one swiftcov takes the module from (`CoverageScope.module(of:)`):
/// the folder after the last `Sources`, `Tests`, `Plugins`, `Benchmarks` or `Snippets`; else a
/// `<Target>.derived` or `<Target>.build` folder (`<Target>_k.derived`); else the file's own
/// folder; a bare file name becomes `File_k.swift`. Package root and default scope stay as they were.
package enum PathRenamer {
    private static let targetFolders: Set<Substring> = ["Sources", "Tests", "Plugins", "Benchmarks", "Snippets"]

    /// The path of copy `copy` of `path` (copy 0 is the original).
    package static func renamed(_ path: String, copy: Int) -> String {
        guard copy > 0 else { return path }
        let suffix = "_\(copy)"
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let folders = 0..<(parts.count - 1)
        if let index = folders.last(where: { targetFolders.contains(Substring(parts[$0])) }),
            index + 1 < folders.upperBound, !parts[index + 1].isEmpty
        {
            parts[index + 1] += suffix
        } else if let index = folders.last(where: { generatedTargetSuffix(parts[$0]) != nil }),
            let targetSuffix = generatedTargetSuffix(parts[index])
        {
            parts[index] = String(parts[index].dropLast(targetSuffix.count)) + suffix + targetSuffix
        } else if let index = folders.last, !parts[index].isEmpty, parts[index] != ".", parts[index] != ".." {
            parts[index] += suffix
        } else {
            let file = parts[parts.count - 1]
            if let dot = file.lastIndex(of: "."), dot != file.startIndex {
                parts[parts.count - 1] = file[..<dot] + suffix + file[dot...]
            } else {
                parts[parts.count - 1] = file + suffix
            }
        }
        return parts.joined(separator: "/")
    }

    private static func generatedTargetSuffix(_ folder: String) -> String? {
        for suffix in [".derived", ".build"] where folder.hasSuffix(suffix) && folder.count > suffix.count {
            return suffix
        }
        return nil
    }
}
