import Foundation
import Testing

/// The docs a user reads and pastes from: the version and address they name, their links, the
/// README's command table, the scripts that change them.
@Suite("The docs, the recipes and the release scripts", .removingTemporaryFolders)
struct DocumentationTests {
    /// Every file whose snippets name swiftcov's version or address (the changelog names old versions).
    static func snippetFiles(in root: String) throws -> [String] {
        var files = ["README.md", "action.yml"]
        for folder in ["docs", "ci", "ci/examples"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)
            files += names.filter { $0.hasSuffix(".md") || $0.hasSuffix(".yml") }.sorted().map { folder + "/" + $0 }
        }
        return files
    }

    /// `SwiftCov.version` and `SwiftCov.repository` (owner/name), read from their one home.
    static func release(in root: String) throws -> (version: String, repository: String) {
        let source = try String(contentsOfFile: root + "/Sources/SwiftCovModel/SwiftCov.swift", encoding: .utf8)
        func value(_ name: String) throws -> String {
            let match = try #require(source.firstMatch(of: try Regex("static let \(name) = \"([^\"]+)\"")))
            return String(try #require(match.output[1].substring))
        }
        return (try value("version"), String(try value("repository").dropFirst("https://github.com/".count)))
    }

    /// The git ref the snippets of `version` install from: a release's tag, or `main` for a
    /// development version (`X.Y.Z-dev`, which has no tag; docs/RELEASING.md).
    static func ref(of version: String) -> String { version.hasSuffix("-dev") ? "main" : version }

    /// The SwiftPM plugin's requirement of `version`: `from:` a release, the branch for a development version.
    static func requirement(of version: String) -> String {
        version.hasSuffix("-dev") ? #"branch: "main""# : #"from: "\#(version)""#
    }

    /// What a reference of `kind` must name for `version` and `repository`.
    static func expected(_ kind: String, version: String, repository: String) -> String {
        switch kind {
        case "address": repository
        case "ref": ref(of: version)
        case "requirement": requirement(of: version)
        default: version
        }
    }

    /// Each reference to a version, a ref or an address of swiftcov in `files`: (file, what kind,
    /// the value). A version is what `swiftcov --version` prints; a ref is what a snippet installs from.
    static func references(in root: String, files: [String]) throws -> [(file: String, kind: String, value: String)] {
        let patterns: [(kind: String, regex: String)] = [
            ("address", #"(?:github\.com|githubusercontent\.com)/([\w.-]+/swiftcov)\b"#),
            ("ref", #"githubusercontent\.com/[\w.-]+/swiftcov/([^/\s]+)/"#),
            ("address", #"([\w.-]+/swiftcov)@"#),
            ("ref", #"[\w.-]+/swiftcov@([^\s`)]+)"#),
            ("requirement", #"swiftcov.*((?:from|branch|exact|revision): "[^"]+")"#),
            ("ref", #"--branch (\S+) \S*swiftcov"#),
            ("version", #"SWIFTCOV_VERSION: "([^"]+)""#),
            ("ref", #"SWIFTCOV_REF: "([^"]+)""#),
            ("version", #"--version` prints `([^`]+)`"#),
        ]
        var found: [(String, String, String)] = []
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for (kind, pattern) in patterns {
                for match in text.matches(of: try Regex(pattern)) {
                    found.append((file, kind, String(try #require(match.output[1].substring))))
                }
            }
        }
        return found
    }

    @Test("README, install, action.yml, the GitLab template, the recipes: `--version`'s version, its ref, one address")
    func versionAndAddress() throws {
        let (version, repository) = try Self.release(in: packageRoot)
        #expect(try swiftcov(["--version"]).stdout == "swiftcov \(version)\n")
        let references = try Self.references(in: packageRoot, files: try Self.snippetFiles(in: packageRoot))
        // Each way of naming a release is used somewhere, so a pattern that stopped matching is seen.
        #expect(
            Set(references.map(\.file)).isSuperset(of: [
                "README.md", "action.yml", "docs/install.md", "docs/ci.md", "ci/swiftcov.gitlab-ci.yml",
                "ci/examples/gitlab-ci.yml", "ci/examples/github-workflow.yml",
            ]))
        #expect(references.filter { $0.kind == "ref" }.count >= 12)
        #expect(references.filter { $0.kind == "version" }.count >= 3)
        #expect(references.filter { $0.kind == "requirement" }.count >= 1)
        for (file, kind) in [
            ("README.md", "ref"), ("README.md", "version"), ("docs/install.md", "ref"), ("docs/install.md", "version"),
            ("docs/install.md", "requirement"), ("action.yml", "ref"), ("ci/swiftcov.gitlab-ci.yml", "ref"),
            ("ci/swiftcov.gitlab-ci.yml", "version"),
        ] {
            #expect(references.contains { $0.file == file && $0.kind == kind }, "\(file) names no \(kind)")
        }
        for reference in references {
            let expected = Self.expected(reference.kind, version: version, repository: repository)
            #expect(
                reference.value == expected,
                "\(reference.file) names \(reference.kind) \(reference.value), not \(expected)")
        }
    }

    @Test("a development version is installed from main, says so, and is the changelog's Unreleased section")
    func developmentOrRelease() throws {
        let (version, _) = try Self.release(in: packageRoot)
        let development = version.hasSuffix("-dev")
        for file in ["README.md", "docs/install.md"] {
            let text = try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8)
            #expect(
                text.contains("every install path builds `main`") == development,
                "\(file) must say whether every install path builds `main` (\(version))")
        }
        // The GitLab template builds the ref and keeps a binary while it prints the version.
        let template = try String(contentsOfFile: packageRoot + "/ci/swiftcov.gitlab-ci.yml", encoding: .utf8)
        #expect(template.contains(#"--branch "$SWIFTCOV_REF""#))
        #expect(template.contains(#"grep -qx "swiftcov $SWIFTCOV_VERSION""#))
        let changelog = try String(contentsOfFile: packageRoot + "/CHANGELOG.md", encoding: .utf8)
        let top = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(top == (development ? "## Unreleased" : "## \(version)"))
    }

    @Test("scripts/set-version changes the version and the address everywhere they are named")
    func setVersion() throws {
        let copy = try temporaryDirectory()
        let files =
            try Self.snippetFiles(in: packageRoot) + ["Sources/SwiftCovModel/SwiftCov.swift", "scripts/set-version"]
        for file in files {
            try FileManager.default.createDirectory(
                atPath: copy + "/" + (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: packageRoot + "/" + file, toPath: copy + "/" + file)
        }
        let before = try Self.references(in: copy, files: try Self.snippetFiles(in: copy))
        // A release, the next development version, and a release again: each snippet follows.
        for (version, repository) in [
            ("12.3.4", "someone/swiftcov"), ("12.4.0-dev", "someone/swiftcov"), ("12.4.0", "someone/swiftcov"),
        ] {
            var arguments = [copy + "/scripts/set-version", version]
            if repository != (try Self.release(in: copy)).repository { arguments.append(repository) }
            let result = try run("/bin/sh", arguments, in: copy)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Self.release(in: copy) == (version, repository))
            let after = try Self.references(in: copy, files: try Self.snippetFiles(in: copy))
            #expect(after.count == before.count, "\(version)")
            for reference in after {
                #expect(
                    reference.value == Self.expected(reference.kind, version: version, repository: repository),
                    "\(version): \(reference)")
            }
        }
        for refusedVersion in ["v1", "1.2", "1.2.3-beta"] {
            let refused = try run("/bin/sh", [copy + "/scripts/set-version", refusedVersion], in: copy)
            #expect(refused.status == 2 && refused.stderr.contains("'\(refusedVersion)' is not X.Y.Z"))
        }
    }

    @Test("the README is an overview (at most 300 lines) whose command table lists every command once")
    func readme() throws {
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 300)
        let table = readme.split(separator: "\n").filter { $0.hasPrefix("| [`") }
        let documented = table.compactMap { $0.firstMatch(of: /^\| \[`(\w+)`\]/).map { String($0.output.1) } }
        let help = try swiftcov(["--help"]).stdout.split(separator: "\n", omittingEmptySubsequences: false).drop {
            $0 != "COMMANDS:"
        }.dropFirst()
            .prefix { !$0.isEmpty }.map { String($0.split(separator: " ")[0]) }
        #expect(!help.isEmpty)
        #expect(documented.sorted() == help.sorted())
    }

    @Test("every link between the docs leads to a file, and every #anchor to a heading in it")
    func links() throws {
        let pages =
            ["README.md", "CHANGELOG.md", "FuzzTesting/README.md"]
            + (try Self.snippetFiles(in: packageRoot).filter { $0.hasSuffix(".md") })
        var checked = 0
        for page in Set(pages).sorted() {
            let text = try String(contentsOfFile: packageRoot + "/" + page, encoding: .utf8)
            let folder = (page as NSString).deletingLastPathComponent
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let link = String(match.output.1)
                if link.hasPrefix("http") { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target =
                    parts[0].isEmpty
                    ? page : ((folder as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                #expect(FileManager.default.fileExists(atPath: packageRoot + "/" + target), "\(page): \(link)")
                if parts.count == 2, target.hasSuffix(".md") {
                    let anchors = try Self.anchors(
                        of: String(contentsOfFile: packageRoot + "/" + target, encoding: .utf8))
                    #expect(anchors.contains(parts[1]), "\(page): \(link) names no heading of \(target)")
                }
                checked += 1
            }
        }
        #expect(checked > 40)
    }

    /// GitHub's anchors for a Markdown page's headings (outside code blocks): lower-cased, spaces to
    /// hyphens, punctuation other than hyphens and underscores dropped.
    static func anchors(of markdown: String) -> Set<String> {
        var anchors = Set<String>()
        var inCode = false
        for line in markdown.split(separator: "\n") {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            anchors.insert(
                String(
                    title.unicodeScalars.filter {
                        $0 == " " || $0 == "-" || $0 == "_" || CharacterSet.alphanumerics.contains($0)
                    }
                )
                .replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }
}

/// Runs `executable` with `arguments` in `directory`, its output read from files (no pipe to fill).
private func run(_ executable: String, _ arguments: [String], in directory: String) throws -> RunResult {
    let scratch = try temporaryDirectory()
    let (out, err) = (scratch + "/stdout", scratch + "/stderr")
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    try process.run()
    process.waitUntilExit()
    return RunResult(
        status: process.terminationStatus, stdout: try String(contentsOfFile: out, encoding: .utf8),
        stderr: try String(contentsOfFile: err, encoding: .utf8))
}

extension DocumentationTests {
    /// The section of docs/commands.md that documents each command (a `## ` heading and what
    /// follows it up to the next one).
    static let sections = [
        "report": "## `swiftcov report`", "html": "## `swiftcov html`", "check": "## `swiftcov check`",
        "run": "## `swiftcov run`", "impacted": "## Per-test coverage: which tests ran each line",
        "export": "## `swiftcov export`", "diff": "## `swiftcov diff`", "junit": "## `swiftcov junit`",
        "history": "## `swiftcov history` and `swiftcov flaky`: flaky tests, with evidence",
        "flaky": "## `swiftcov history` and `swiftcov flaky`: flaky tests, with evidence",
        "trends": "## `swiftcov trends`",
        "xcresult": "## `swiftcov xcresult`: xcresulttool's commands without a Mac",
    ]

    @Test("docs/commands.md documents every option each command's --help lists, in that command's section")
    func everyOptionDocumented() throws {
        let reference = try String(contentsOfFile: packageRoot + "/docs/commands.md", encoding: .utf8)
        var sections: [String: String] = [:]
        var current: String?
        for line in reference.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { current = String(line) }
            if let current { sections[current, default: ""] += line + "\n" }
        }
        for (command, heading) in Self.sections {
            let section = try #require(sections[heading], "no section \(heading)")
            let help = try swiftcov([command, "--help"])
            let options = help.stdout.matches(of: /(?m)^  (--[\w-]+)/).map { String($0.output.1) }
            #expect(options.count >= 2, "\(command)")
            for option in options {
                #expect(section.contains("`" + option), "\(command) \(option) is not in \(heading)")
            }
        }
    }
}
