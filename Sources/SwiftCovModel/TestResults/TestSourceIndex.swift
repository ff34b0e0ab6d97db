import SwiftCovPlatform

/// What a package's files tell that a test log leaves out: the full path of a file the log names
/// only by its base name (Swift Testing's issue locations), and the test module of an XCTest class
/// (XCTest on Linux prints `Class.method`, without the module).
package struct TestSourceIndex: Sendable, Equatable {
    private var pathsByName: [String: [String]] = [:]
    private var modulesByClass: [String: Set<String>] = [:]
    /// XCTest methods (`func test…`) by class: the module, and where each is declared.
    private var testMethodsByClass: [String: [TestMethod]] = [:]

    /// An XCTest method declared in the package.
    struct TestMethod: Sendable, Equatable {
        var module: String
        var name: String
        var location: TestRun.SourceLocation
    }
    /// The package root, when scanned: paths under it are shown relative to it, as everywhere.
    package private(set) var root: String?

    /// An index of `paths` (a coverage export's file list, say) and of `classes`: class name → module.
    package init(paths: [String] = [], classes: [String: String] = [:]) {
        add(paths: paths)
        for (className, module) in classes { modulesByClass[className, default: []].insert(module) }
    }

    /// The Swift files under `root/Tests` and `root/Sources`, and the XCTest classes declared
    /// in the test targets: the manifest's (`targets`, wherever their folders are), else each
    /// `root/Tests/<Module>/`.
    package static func scanning(root: String, targets: PackageTargets? = nil) -> TestSourceIndex {
        var index = TestSourceIndex()
        let trimmedRoot = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        index.root = trimmedRoot
        var testFolders: [(folder: String, module: String?)] = []
        if let targets, !targets.testTargets.isEmpty {
            testFolders = targets.testTargets.map { (trimmedRoot + "/" + $0.path, $0.name) }
        } else {
            testFolders = [(trimmedRoot + "/Tests", nil)]
        }
        var scanned = Set<String>()
        for (folder, module) in testFolders + [(trimmedRoot + "/Sources", nil)] where scanned.insert(folder).inserted {
            var files: [String] = []
            collectSwiftFiles(in: folder, depth: 0, into: &files)
            index.add(paths: files.map { String($0.dropFirst(trimmedRoot.count + 1)) })
            guard folder != trimmedRoot + "/Sources" || module != nil else { continue }
            for file in files {
                let inFolder = file.dropFirst(folder.count + 1)
                // Without a manifest, the module is the folder under `Tests/`.
                let fileModule = module ?? String(inFolder.prefix { $0 != "/" })
                guard !fileModule.isEmpty, module != nil || inFolder.contains("/") else { continue }
                let relative = String(file.dropFirst(trimmedRoot.count + 1))
                let (classes, methods) = xctestDeclarations(in: file, path: relative, module: fileModule)
                for className in classes { index.modulesByClass[className, default: []].insert(fileModule) }
                for (className, method) in methods { index.testMethodsByClass[className, default: []].append(method) }
            }
        }
        return index
    }

    /// The index for tests run beside a coverage report already read: `report`'s files, and the
    /// sources of its package folder (`workingDirectory` when it has none), where the test files
    /// the report leaves out are.
    package init(report: CoverageReport, workingDirectory: String) {
        self = TestSourceIndex(paths: report.files.map(\.path)).merging(
            .scanning(root: report.scope.root ?? workingDirectory, targets: report.scope.targets))
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
        for (className, methods) in other.testMethodsByClass {
            result.testMethodsByClass[className, default: []] += methods
        }
        return result
    }

    /// The one known path whose file name is `name`, or that ends with `name` when it is a
    /// `#fileID`-style `Module/File.swift`; nil when there is none or several.
    package func path(forFileName name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let last = parts.last, let paths = pathsByName[String(last)] else { return nil }
        let matching = parts.count == 1 ? paths : paths.filter { $0.hasSuffix("/" + name) }
        return matching.count == 1 ? matching[0] : nil
    }

    /// The test module declaring `className`, when exactly one does; when several do, the one
    /// declaring all of `methods` (two modules may each have a class of the same name).
    package func module(ofClass className: String, methods: [String] = []) -> String? {
        let fitting = modules(ofClass: className, methods: methods)
        return fitting.count == 1 ? fitting.first : nil
    }

    /// The test modules that may declare `className`: the one that does, or those declaring all
    /// of `methods` when several do (none when no module declares them all), sorted.
    package func modules(ofClass className: String, methods: [String]) -> [String] {
        guard let modules = modulesByClass[className] else { return [] }
        if modules.count == 1 { return Array(modules) }
        let declared = testMethodsByClass[className] ?? []
        return modules.filter { module in
            !methods.isEmpty
                && methods.allSatisfy { method in declared.contains { $0.module == module && $0.name == method } }
        }.sorted()
    }

    /// Where the XCTest method `method` of `className` (in `module`, when known) is declared.
    package func declaration(ofClass className: String, module: String?, method: String) -> TestRun.SourceLocation? {
        let candidates = (testMethodsByClass[className] ?? []).filter {
            $0.name == method && (module == nil || $0.module == module)
        }
        return candidates.count == 1 ? candidates[0].location : nil
    }

    /// Whether the index knows nothing.
    package var isEmpty: Bool { pathsByName.isEmpty && modulesByClass.isEmpty && testMethodsByClass.isEmpty }

    private mutating func add(paths: [String]) {
        for path in paths {
            let name = String(path.split(separator: "/").last ?? Substring(path))
            if !(pathsByName[name]?.contains(path) ?? false) { pathsByName[name, default: []].append(path) }
        }
    }

    private static func collectSwiftFiles(in directory: String, depth: Int, into files: inout [String]) {
        guard depth < 16, let entries = FileSystem.entries(of: directory) else { return }
        for name in entries.sorted() where !name.hasPrefix(".") {
            let path = directory + "/" + name
            let kind = FileSystem.kind(of: path, followingLinks: false)
            if kind == .directory {
                collectSwiftFiles(in: path, depth: depth + 1, into: &files)
            } else if kind == .file, name.hasSuffix(".swift") {
                files.append(path)
            }
        }
    }

    /// In a file that mentions XCTest: the classes declared with a superclass, and the `test…`
    /// methods with the class (or extension) they are declared in, by line.
    private static func xctestDeclarations(
        in file: String, path: String, module: String
    ) -> (classes: [String], methods: [(String, TestMethod)]) {
        guard let mapped = try? MappedFile(path: file), mapped.count < 16 << 20 else { return ([], []) }
        let text = mapped.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        guard text.contains("XCTest") else { return ([], []) }
        var classes: [String] = []
        var methods: [(String, TestMethod)] = []
        var currentType: String?
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == "{" || $0 == "<" })
            for (position, word) in words.enumerated() where position + 1 < words.count {
                if word == "class" || word == "extension" {
                    var name = words[position + 1]
                    let isSubclass =
                        name.hasSuffix(":") || (position + 2 < words.count && words[position + 2].hasPrefix(":"))
                    if name.hasSuffix(":") { name = name.dropLast() }
                    guard let first = name.first, first.isLetter || first == "_", name != "func", name != "var" else {
                        continue
                    }
                    currentType = String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                    if word == "class", isSubclass, let currentType { classes.append(currentType) }
                    break
                }
                if word == "func", let currentType {
                    let name = words[position + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if name.hasPrefix("test") {
                        methods.append(
                            (
                                currentType,
                                TestMethod(
                                    module: module, name: String(name),
                                    location: TestRun.SourceLocation(file: path, line: lineNumber))
                            ))
                    }
                    break
                }
            }
        }
        return (classes, methods)
    }
}

extension TestRun {
    /// The run with file names resolved to full paths, and XCTest classes named with their
    /// module, where `index` knows them.
    package func resolving(with index: TestSourceIndex) -> TestRun {
        var run = self
        run.resolve(with: index)
        return run
    }

    /// Gives XCTest suites named by their class alone (Linux) the module declaring the class.
    /// Two modules may each declare a class of the same name: a suite whose tests both declare
    /// is in the module that no other suite of that name is in.
    private mutating func resolveXCTestModules(with index: TestSourceIndex) {
        var ambiguous: [(suite: Int, modules: [String])] = []
        var taken: [String: Set<String>] = [:]
        for suiteIndex in suites.indices
        where suites[suiteIndex].framework == .xctest && !suites[suiteIndex].name.contains(".") {
            let className = suites[suiteIndex].name
            let modules = index.modules(ofClass: className, methods: suites[suiteIndex].cases.map(\.testName))
            if modules.count == 1 {
                suites[suiteIndex].rename("\(modules[0]).\(className)")
                taken[className, default: []].insert(modules[0])
            } else if modules.count > 1 {
                ambiguous.append((suiteIndex, modules))
            }
        }
        for (suiteIndex, modules) in ambiguous {
            let className = suites[suiteIndex].name
            let left = modules.filter { !(taken[className]?.contains($0) ?? false) }
            guard left.count == 1 else { continue }
            suites[suiteIndex].rename("\(left[0]).\(className)")
            taken[className, default: []].insert(left[0])
        }
    }

    /// Resolves file names and XCTest modules in place (see `resolving(with:)`): a large run is
    /// not copied.
    package mutating func resolve(with index: TestSourceIndex) {
        guard !index.isEmpty else { return }
        func resolve(_ location: inout SourceLocation?) {
            if let file = location?.file, let path = index.path(forFileName: file) { location?.file = path }
            if let root = index.root, let file = location?.file, file.hasPrefix(root + "/") {
                location?.file = String(file.dropFirst(root.count + 1))
            }
        }
        resolveXCTestModules(with: index)
        for suiteIndex in suites.indices {
            let isXCTest = suites[suiteIndex].framework == .xctest
            let suiteName = suites[suiteIndex].name
            let className = String(suiteName.split(separator: ".").last ?? Substring(suiteName))
            let module = suiteName.contains(".") ? String(suiteName.prefix { $0 != "." }) : nil
            for caseIndex in suites[suiteIndex].cases.indices {
                // An error thrown out of a test has no place (`<EXPR>:0`): point at the test.
                if isXCTest, suites[suiteIndex].cases[caseIndex].primaryLocation == nil,
                    !suites[suiteIndex].cases[caseIndex].failingIssues.isEmpty
                {
                    suites[suiteIndex].cases[caseIndex].location = index.declaration(
                        ofClass: className, module: module, method: suites[suiteIndex].cases[caseIndex].testName)
                }
                // Written only where there is something to resolve: most tests have no location.
                if suites[suiteIndex].cases[caseIndex].location != nil {
                    resolve(&suites[suiteIndex].cases[caseIndex].location)
                }
                for issueIndex in suites[suiteIndex].cases[caseIndex].issues.indices
                where suites[suiteIndex].cases[caseIndex].issues[issueIndex].location != nil {
                    resolve(&suites[suiteIndex].cases[caseIndex].issues[issueIndex].location)
                }
            }
        }
    }
}
