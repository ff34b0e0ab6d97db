import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// What swiftcov reads from a package's `Package.swift` without running it: where the package
/// is, and its name.
package enum PackageManifest {
    /// The package around `directory` (absolute): the nearest folder from it upwards that holds a
    /// `Package.swift`, as SwiftPM finds the package of the folder it runs in; nil when none does.
    package static func root(around directory: String) -> String? {
        var folder = CoverageScope.normalized(directory)
        while true {
            if FileSystem.kind(of: folder == "/" ? "/Package.swift" : folder + "/Package.swift") == .file {
                return folder
            }
            guard folder != "/", let slash = folder.lastIndex(of: "/") else { return nil }
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
        }
    }

    /// The `name:` of the `Package(…)` in `root/Package.swift`, when it is a plain string
    /// literal; nil when there is no manifest or the name is computed.
    package static func name(inPackageAt root: String) -> String? {
        guard case .success(let source) = SourceText.read(root + "/Package.swift") else { return nil }
        var text = ""
        for line in 1...max(1, source.lineCount) where line <= source.lineCount {
            source.withLine(line) { text += String(decoding: $0, as: UTF8.self) + "\n" }
        }
        return name(inManifest: text)
    }

    /// The name in a manifest's text: `Package(` then `name:` and a string literal.
    package static func name(inManifest text: String) -> String? {
        guard let package = text.firstRange(of: "Package(") else { return nil }
        var rest = text[package.upperBound...].drop { $0.isWhitespace }
        guard rest.hasPrefix("name:") else { return nil }
        rest = rest.dropFirst(5).drop { $0.isWhitespace }
        guard rest.first == "\"" else { return nil }
        let name = rest.dropFirst().prefix { $0 != "\"" && $0 != "\\" && $0 != "\n" }
        guard !name.isEmpty, rest.dropFirst(name.count + 1).first == "\"" else { return nil }
        return String(name)
    }
}
