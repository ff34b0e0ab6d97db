import SwiftCovPlatform

/// Runs git (the diff of a change, the history's notes, the commit a run tested): the one program
/// swiftcov starts besides the toolchain's, always through `run`.
package enum Git {
    /// What a run of git printed and how it ended.
    package struct Result: Sendable {
        package var status: Int32
        package var output: String
        package var error: String

        /// Git's first line on stderr, for a one-line error message.
        package var firstErrorLine: String {
            let line = error.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
            return line.terminalSafe
        }

        /// The output without the newlines git ends it with.
        package var trimmedOutput: String {
            var text = output
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            return text
        }
    }

    /// Why git could not give what was asked.
    package struct Failure: DiagnosticConvertible, Equatable {
        /// The folder git ran in, or nil when git itself could not be started.
        package var directory: String?
        package var message: String

        package var diagnostic: Diagnostic { Diagnostic(file: directory, message) }
    }

    /// Runs `git -C directory arguments…` with no input, capturing stdout and stderr; `environment`
    /// is added to swiftcov's. Every git command swiftcov runs goes through here, and so through
    /// `system` (a test's fake answers instead of git).
    package static func run(
        _ arguments: [String], in directory: String, environment: [String: String] = [:],
        system: any System = LiveSystem()
    ) throws(Failure) -> Result {
        let result: Subprocess.Result
        do {
            result = try system.capture(Command("git", ["-C", directory] + arguments, environment: environment))
        } catch {
            let reason = (error as? Subprocess.LaunchError)?.reason ?? "\(error)"
            throw Failure(message: "cannot run git: \(reason); give the diff with --diff FILE")
        }
        return Result(status: result.status, output: result.outputText, error: result.errorText)
    }

    /// `git diff` from the merge base of `ref` and HEAD to the working tree — the changes of a
    /// branch, as a pull request shows them — for the files under `root`, with paths relative
    /// to it, and a note when there is no merge base (a shallow clone: then from `ref` itself).
    package static func diff(against ref: String, root: String) throws(Failure) -> (text: String, note: String?) {
        var base = ref
        var note: String?
        let mergeBase = try run(["merge-base", ref, "HEAD"], in: root)
        if mergeBase.status == 0 {
            base = mergeBase.trimmedOutput
        } else {
            let verify = try run(["rev-parse", "--verify", ref + "^{commit}"], in: root)
            guard verify.status == 0 else {
                throw Failure(directory: root, message: "git cannot compare with '\(ref)': \(verify.firstErrorLine)")
            }
            note =
                "'\(ref)' and HEAD have no common ancestor here (a shallow clone?); "
                + "measuring the changes since '\(ref)' itself"
        }
        let diff = try run(
            [
                "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--relative", "--find-renames",
                "--src-prefix=a/", "--dst-prefix=b/", "--unified=0", base, "--",
            ], in: root)
        guard diff.status == 0 else {
            throw Failure(directory: root, message: "git diff failed: \(diff.firstErrorLine)")
        }
        return (diff.output, note)
    }

    /// The folder of `root` inside its repository ("Packages/Core/"), "" at the top or outside git.
    package static func prefix(of root: String) -> String {
        guard let result = try? run(["rev-parse", "--show-prefix"], in: root), result.status == 0 else { return "" }
        return result.trimmedOutput
    }
}

extension Git {
    /// The folders of swiftcov's own in a package, never a change to its code: SwiftPM's build
    /// folder (with swiftcov's outputs), and the folders the CI recipes restore the tool and the
    /// history of runs into.
    package static let ownFolders = [".build", ".swiftcov-tool", ".swiftcov-history"]

    /// Pathspecs leaving swiftcov's own files out of what git compares in `root` (a `git -C root`
    /// command's pathspecs are relative to it): `ownFolders`, and `paths` (the history file, the
    /// output folder; absolute, or relative to `root`) that are inside `root`.
    package static func excludingOwnFiles(_ paths: [String], root: String) -> [String] {
        var relative = ownFolders
        for path in paths {
            var path = path
            if path.hasPrefix("/") {
                guard path.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { continue }
                path.removeFirst(root.hasSuffix("/") ? root.count : root.count + 1)
            }
            while path.hasPrefix("./") { path.removeFirst(2) }
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            guard !path.isEmpty, path != ".", !path.hasPrefix("../"), !relative.contains(path) else { continue }
            relative.append(path)
        }
        return relative.map { ":(exclude,literal)" + $0 }
    }
}

extension Git {
    /// HEAD's first-parent line, newest first (`git log --first-parent`): the commits a branch was
    /// built from, in the order they were made, whatever order they were tested in. Nil outside
    /// git, and before the first commit.
    package static func firstParentCommits(root: String, system: any System = LiveSystem()) -> [String]? {
        guard let result = try? run(["log", "--first-parent", "--format=%H", "HEAD", "--"], in: root, system: system),
            result.status == 0
        else { return nil }
        return result.output.split(separator: "\n").map(String.init)
    }
}
