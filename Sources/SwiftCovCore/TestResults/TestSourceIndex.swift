#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a package's files tell that a test log leaves out: the full path of a file the log names
/// only by its base name (Swift Testing's issue locations), and the test module of an XCTest class
/// (XCTest on Linux prints `Class.method`, without the module).
package struct TestSourceIndex: Sendable, Equatable {
    private var pathsByName: [String: [String]] = [:]
    private var modulesByClass: [String: Set<String>] = [:]
    /// The package root, when scanned: paths under it are shown relative to it, as everywhere.
    package private(set) var root: String?

    /// An index of `paths` (a coverage export's file list, say) and of `classes`: class name → module.
    package init(paths: [String] = [], classes: [String: String] = [:]) {
        add(paths: paths)
        for (className, module) in classes { modulesByClass[className, default: []].insert(module) }
    }

    /// The Swift files under `root/Tests` and `root/Sources`, and the XCTest classes declared
    /// under `root/Tests/<Module>/`.
    package static func scanning(root: String) -> TestSourceIndex {
        var index = TestSourceIndex()
        let trimmedRoot = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        index.root = trimmedRoot
        for folder in ["Tests", "Sources"] {
            var files: [String] = []
            collectSwiftFiles(in: trimmedRoot + "/" + folder, depth: 0, into: &files)
            index.add(paths: files.map { String($0.dropFirst(trimmedRoot.count + 1)) })
            guard folder == "Tests" else { continue }
            let prefix = trimmedRoot + "/Tests/"
            for file in files {
                let module = file.dropFirst(prefix.count).prefix { $0 != "/" }
                guard !module.isEmpty, file.dropFirst(prefix.count).contains("/") else { continue }
                for className in xctestClasses(in: file) {
                    index.modulesByClass[className, default: []].insert(String(module))
                }
            }
        }
        return index
    }

    /// This index with the paths and classes of `other` added.
    package func merging(_ other: TestSourceIndex) -> TestSourceIndex {
        var result = self
        result.root = root ?? other.root
        for (name, paths) in other.pathsByName {
            for path in paths where !(result.pathsByName[name]?.contains(path) ?? false) {
                result.pathsByName[name, default: []].append(path)
            }
        }
        for (className, modules) in other.modulesByClass {
            result.modulesByClass[className, default: []].formUnion(modules)
        }
        return result
    }

    /// The one known path whose file name is `name`; nil when there is none or several.
    package func path(forFileName name: String) -> String? {
        guard !name.contains("/"), let paths = pathsByName[name], paths.count == 1 else { return nil }
        return paths[0]
    }

    /// The test module declaring `className`, when exactly one does.
    package func module(ofClass className: String) -> String? {
        guard let modules = modulesByClass[className], modules.count == 1 else { return nil }
        return modules.first
    }

    /// Whether the index knows nothing.
    package var isEmpty: Bool { pathsByName.isEmpty && modulesByClass.isEmpty }

    private mutating func add(paths: [String]) {
        for path in paths {
            let name = String(path.split(separator: "/").last ?? Substring(path))
            if !(pathsByName[name]?.contains(path) ?? false) { pathsByName[name, default: []].append(path) }
        }
    }

    private static func collectSwiftFiles(in directory: String, depth: Int, into files: inout [String]) {
        guard depth < 16, let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        var entries: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if !name.hasPrefix(".") { entries.append(name) }
        }
        for name in entries.sorted() {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                collectSwiftFiles(in: path, depth: depth + 1, into: &files)
            } else if (info.st_mode & S_IFMT) == S_IFREG, name.hasSuffix(".swift") {
                files.append(path)
            }
        }
    }

    /// Names of classes declared with a superclass in a file that imports XCTest.
    private static func xctestClasses(in path: String) -> [String] {
        guard let file = try? MappedFile(path: path) else { return [] }
        let text = file.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        guard text.contains("XCTest") else { return [] }
        var names: [String] = []
        var rest = Substring(text)
        while let range = rest.firstRange(of: "class ") {
            let before = rest[..<range.lowerBound].last
            rest = rest[range.upperBound...]
            guard before == nil || before == " " || before == "\n" || before == "\t" else { continue }
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard let first = name.first, first.isLetter || first == "_", name != "func", name != "var" else {
                continue
            }
            let after = rest[name.endIndex...].drop { $0 == " " }
            if after.first == ":" { names.append(String(name)) }
        }
        return names
    }
}

extension TestRun {
    /// The run with file names resolved to full paths, and XCTest classes named with their
    /// module, where `index` knows them.
    package func resolving(with index: TestSourceIndex) -> TestRun {
        guard !index.isEmpty else { return self }
        var run = self
        func resolve(_ location: inout SourceLocation?) {
            if let file = location?.file, let path = index.path(forFileName: file) { location?.file = path }
            if let root = index.root, let file = location?.file, file.hasPrefix(root + "/") {
                location?.file = String(file.dropFirst(root.count + 1))
            }
        }
        for suiteIndex in run.suites.indices {
            if run.suites[suiteIndex].framework == .xctest, !run.suites[suiteIndex].name.contains("."),
                let module = index.module(ofClass: run.suites[suiteIndex].name)
            {
                run.suites[suiteIndex].rename("\(module).\(run.suites[suiteIndex].name)")
            }
            for caseIndex in run.suites[suiteIndex].cases.indices {
                resolve(&run.suites[suiteIndex].cases[caseIndex].location)
                for issueIndex in run.suites[suiteIndex].cases[caseIndex].issues.indices {
                    resolve(&run.suites[suiteIndex].cases[caseIndex].issues[issueIndex].location)
                }
            }
        }
        return run
    }
}
