import SwiftCovModel
import SwiftCovPlatform

/// What identifies a run in the history: which repository, commit, code, branch, CI run and
/// environment, found from git and the CI's variables (GitHub Actions, GitLab CI), each of which
/// the user can give instead.
package enum HistoryKeys {
    /// What was given on the command line or found in the environment; nil to find it.
    package struct Given: Sendable {
        package var commit: String?
        package var branch: String?
        package var runID: String?
        /// The environment's name beyond the automatic key (`--environment NAME`); nil for
        /// `SWIFTCOV_ENVIRONMENT`'s, or none.
        package var environment: String?
        /// `K/N` for one shard's run.
        package var shard: String?
        /// `debug` or `release`, from the `swift test` arguments.
        package var configuration: String
        /// The toolchain's version line, when known (`swift --version`'s first line).
        package var toolchain: String?
        /// swiftcov's own files in the package (the history file, the output folder; absolute, or
        /// relative to the root), which never make the tree another: see `Git.excludingOwnFiles`.
        package var ownFiles: [String]

        package init(
            commit: String? = nil, branch: String? = nil, runID: String? = nil, environment: String? = nil,
            shard: String? = nil, configuration: String = "debug", toolchain: String? = nil, ownFiles: [String] = []
        ) {
            self.shard = shard
            self.commit = commit
            self.branch = branch
            self.runID = runID
            self.environment = environment
            self.configuration = configuration
            self.toolchain = toolchain
            self.ownFiles = ownFiles
        }
    }

    /// The variables `keys` reads: the environment's name, GitHub Actions' and GitLab CI's
    /// branch and job.
    package static let variableNames = [
        environmentVariable,
        "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "GITHUB_RUN_ID", "GITHUB_RUN_ATTEMPT", "GITHUB_JOB",
        "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_REF_NAME", "CI_JOB_ID",
    ]

    /// A run's keys (no results yet) for the package at `root` recorded at `time`;
    /// `variables` is the process environment (the CI's variables).
    package static func keys(
        root: String, time: Int64, given: Given, variables: [String: String]
    ) -> TestHistory.Run {
        var run = TestHistory.Run(id: "", time: time)
        func git(_ arguments: [String], environment: [String: String] = [:]) -> String? {
            guard let result = try? Git.run(arguments, in: root, environment: environment), result.status == 0 else {
                return nil
            }
            let text = result.trimmedOutput
            return text.isEmpty ? nil : text
        }
        run.commit = given.commit ?? git(["rev-parse", "--verify", "-q", "HEAD^{commit}"]) ?? ""
        if !run.commit.isEmpty {
            run.repository = repository(root: root, commit: run.commit)
            let commitTree = git(["rev-parse", "--verify", "-q", run.commit + "^{tree}"]) ?? ""
            run.tree =
                given.commit == nil ? workingTree(root: root, excluding: given.ownFiles) ?? commitTree : commitTree
            run.isDirty = run.tree != commitTree
        }
        run.branch =
            given.branch ?? variables["GITHUB_HEAD_REF"].flatMap { $0.isEmpty ? nil : $0 }
            ?? variables["GITHUB_REF_NAME"] ?? variables["CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"]
            ?? variables["CI_COMMIT_REF_NAME"] ?? git(["symbolic-ref", "--short", "-q", "HEAD"]) ?? ""
        run.id = given.runID ?? ciRunID(variables) ?? "local-\(time)-\(CurrentProcess.id)"
        run.shard = given.shard ?? ""
        run.environment = environment(configuration: given.configuration, toolchain: given.toolchain)
        run.environmentName = given.environment ?? variables[environmentVariable] ?? ""
        return run
    }

    /// The repository as its first commit (the least of its root commits, when histories were
    /// joined): the same in every full clone. "" outside git.
    /// In a shallow clone (CI's default) the first commit is not known: "".
    package static func repository(root: String, commit: String = "HEAD") -> String {
        if let shallow = try? Git.run(["rev-parse", "--is-shallow-repository"], in: root),
            shallow.trimmedOutput != "false"
        {
            return ""
        }
        guard let result = try? Git.run(["rev-list", "--max-parents=0", commit], in: root), result.status == 0 else {
            return ""
        }
        return result.trimmedOutput.split(separator: "\n").map(String.init).min() ?? ""
    }

    /// The variable that names a run's environment when `--environment` does not.
    package static let environmentVariable = "SWIFTCOV_ENVIRONMENT"

    /// GitHub's run, attempt and job, or GitLab's job: unique per CI job.
    static func ciRunID(_ variables: [String: String]) -> String? {
        if let run = variables["GITHUB_RUN_ID"], !run.isEmpty {
            return ["github", run, variables["GITHUB_RUN_ATTEMPT"] ?? "1", variables["GITHUB_JOB"] ?? ""]
                .filter { !$0.isEmpty }.joined(separator: "-")
        }
        if let job = variables["CI_JOB_ID"], !job.isEmpty { return "gitlab-" + job }
        return nil
    }

    /// The tree of the working copy's tracked files, as `git write-tree` makes it from a
    /// private index (the user's index is not touched): the code a dirty checkout tested.
    /// swiftcov's own files (`ownFiles`, and `Git.ownFolders`) are taken as committed, so that a
    /// history file or an output folder in the package, tracked or not, never changes the tree.
    static func workingTree(root: String, excluding ownFiles: [String] = []) -> String? {
        guard let top = try? Git.run(["rev-parse", "--absolute-git-dir"], in: root), top.status == 0 else { return nil }
        let index = top.trimmedOutput + "/swiftcov-index-\(CurrentProcess.id)"
        TemporaryPaths.register(index)
        defer {
            FileSystem.remove(index)
            TemporaryPaths.unregister(index)
        }
        let private_ = ["GIT_INDEX_FILE": index]
        guard (try? Git.run(["read-tree", "HEAD"], in: root, environment: private_))?.status == 0,
            (try? Git.run(
                ["add", "-u", "--", ":/"] + Git.excludingOwnFiles(ownFiles, root: root), in: root,
                environment: private_))?.status == 0,
            let tree = try? Git.run(["write-tree"], in: root, environment: private_), tree.status == 0
        else { return nil }
        return tree.trimmedOutput
    }

    /// `Linux x86_64 swift-6.3.1 debug`: the system, the machine, the toolchain's version and
    /// the build configuration.
    package static func environment(configuration: String, toolchain: String?) -> String {
        let system = CurrentProcess.system
        let version = toolchain.flatMap(swiftVersion) ?? "swift"
        return [system.name, system.machine, version, configuration].joined(separator: " ")
    }

    /// `swift-6.3.1` from `swift --version`'s output (`… Swift version 6.3.1 (swift-6.3.1-RELEASE)`).
    package static func swiftVersion(_ text: String) -> String? {
        let marker = "Swift version "
        guard let line = text.split(separator: "\n").first(where: { $0.contains(marker) }),
            let start = line.indices.first(where: { line[$0...].hasPrefix(marker) })
        else { return nil }
        let version = line[line.index(start, offsetBy: marker.count)...].prefix { !$0.isWhitespace }
        return version.isEmpty ? nil : "swift-" + version
    }
}
