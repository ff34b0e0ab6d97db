import SwiftCovInputs
import SwiftCovModel

/// How much of what a diff adds or changes ran in the tests: per file and in total, with the
/// lines that did not run. Only executable lines count (the line view: what `llvm-cov show`
/// gives a count), so comments, blank lines and declarations neither help nor hurt.
package struct ChangedLineCoverage: Equatable, Sendable {
    /// A changed file the report covers.
    package struct File: Equatable, Sendable {
        /// The file's path after the change, relative to the package root.
        package var path: String
        /// The module (SwiftPM target) it belongs to.
        package var module: String
        /// What the change did to it: added, modified, renamed or copied.
        package var status: FileDiff.Status
        /// Where a renamed or copied file came from.
        package var oldPath: String?
        /// How many lines the diff adds or changes in it, executable or not.
        package var changedLines: Int
        /// The executable ones among them, and how many of those ran.
        package var lines: Metric
        /// The executable changed lines that did not run, as ranges: two of them share a range
        /// when no other executable line lies between them.
        package var uncovered: [ClosedRange<UInt32>]
    }

    /// A changed file that is not measured, and why.
    package struct IgnoredFile: Equatable, Sendable {
        /// Its path after the change (before it, when deleted), relative to the package root.
        package var path: String
        /// What the change did to it.
        package var status: FileDiff.Status
        /// Why it is not measured.
        package var reason: Reason
    }

    /// Why a changed file is not measured.
    package enum Reason: String, Sendable {
        /// The change deletes it.
        case deleted
        /// A binary file: no lines.
        case binary
        /// The change only removes lines, renames it or changes its mode.
        case noChangedLines
        /// A test target's file (`Tests/`), which the report leaves out by default.
        case testTarget
        /// Under `.build/`, which the report leaves out by default.
        case buildDirectory
        /// Matched by an `--exclude` pattern.
        case excluded
        /// Matched by none of the `--include` patterns.
        case notIncluded
        /// Outside the package: the diff is the whole repository's, the package one folder of it.
        case outsidePackage
        /// Not in the coverage data: not compiled into the tested code (README, Package.swift,
        /// resources, another target) or without any executable code.
        case noCoverageData

        /// The reason in a few words, for people.
        package var explanation: String {
            switch self {
            case .deleted: "deleted"
            case .binary: "binary file"
            case .noChangedLines: "no added or changed lines"
            case .testTarget: "test target, outside the report's scope"
            case .buildDirectory: "under .build, outside the report's scope"
            case .excluded: "excluded by --exclude"
            case .notIncluded: "not matched by --include"
            case .outsidePackage: "outside the package"
            case .noCoverageData: "not in the coverage data"
            }
        }
    }

    /// Measured files, by path.
    package var files: [File]
    /// Changed files that are not measured, by path.
    package var ignored: [IgnoredFile]
    /// Whose per-line counts these are (llvm-cov's line view, or Xcode's archive).
    package var origin: CoverageReport.Origin = .llvmCov

    /// All executable changed lines, and how many of them ran.
    package var totals: Metric {
        files.reduce(Metric()) { $0 + $1.lines }
    }

    /// All changed lines of the measured files, executable or not.
    package var changedLines: Int {
        files.reduce(0) { $0 + $1.changedLines }
    }

    /// Whether the changed lines meet `minimum` percent. A change without executable lines
    /// has nothing to test and passes.
    package func meets(_ minimum: Double) -> Bool {
        totals.count == 0 || totals.percent >= minimum
    }

    /// Measures `diff` against `report`.
    ///
    /// - Parameter pathPrefix: where the package root lies inside the git repository
    ///   (`UnifiedDiff.packageChanges(pathPrefix:)`).
    package static func compute(
        diff: UnifiedDiff, report: CoverageReport, pathPrefix: String = ""
    ) throws(CoverageInputError) -> ChangedLineCoverage {
        var reportIndex: [String: Int] = [:]
        for (index, file) in report.files.enumerated() { reportIndex[file.displayPath] = index }

        let (changes, outsidePackage) = diff.packageChanges(pathPrefix: pathPrefix)
        let outside = outsidePackage.map { IgnoredFile(path: $0.path, status: $0.status, reason: .outsidePackage) }

        var files: [File] = []
        var ignored: [IgnoredFile] = []
        for change in changes {
            let path = change.path
            func ignore(_ reason: Reason) {
                ignored.append(IgnoredFile(path: path, status: change.status, reason: reason))
            }
            if change.status == .deleted {
                ignore(.deleted)
                continue
            }
            if change.isBinary {
                ignore(.binary)
                continue
            }
            guard let index = reportIndex[path] else {
                ignore(scopeReason(path, scope: report.scope))
                continue
            }
            guard !change.addedLines.isEmpty else {
                ignore(.noChangedLines)
                continue
            }
            let file = report.files[index]
            let (lines, uncovered) = measure(change.addedLines, in: try file.lineCounts())
            files.append(
                File(
                    path: path, module: file.module, status: change.status,
                    oldPath: change.status == .renamed || change.status == .copied ? change.oldPath : nil,
                    changedLines: change.addedLines.count, lines: lines, uncovered: uncovered))
        }
        files.sort { $0.path < $1.path }
        ignored.sort { $0.path < $1.path }
        ignored += outside
        var result = ChangedLineCoverage(files: files, ignored: ignored)
        result.origin = report.origin
        return result
    }

    /// The executable lines among `changed` (ascending) and the ranges of those that did not run.
    static func measure(_ changed: [UInt32], in counts: [LineCount]) -> (Metric, [ClosedRange<UInt32>]) {
        var metric = Metric()
        var ranges: [ClosedRange<UInt32>] = []
        var lastUncovered: Int?
        var index = 0
        for line in changed {
            while index < counts.count && counts[index].line < line { index += 1 }
            guard index < counts.count, counts[index].line == line else { continue }
            metric.count += 1
            if counts[index].count > 0 {
                metric.covered += 1
            } else {
                if let last = lastUncovered, last == index - 1, let open = ranges.popLast() {
                    ranges.append(open.lowerBound...line)
                } else {
                    ranges.append(line...line)
                }
                lastUncovered = index
            }
        }
        return (metric, ranges)
    }

    /// Why a file that is not in the report is not: the scope's rules, or no coverage data.
    package static func scopeReason(_ path: String, scope: CoverageScope) -> Reason {
        if scope.excludes.contains(where: { $0.matches(path) }) { return .excluded }
        if !scope.includes.isEmpty {
            return scope.includes.contains { $0.matches(path) } ? .noCoverageData : .notIncluded
        }
        if !scope.allFiles {
            switch scope.defaultExclusion(path) {
            case .testTarget: return .testTarget
            case .buildDirectory: return .buildDirectory
            case .outsideRoot, nil: break
            }
        }
        return .noCoverageData
    }
}

extension UnifiedDiff {
    /// The diff's files with paths relative to the package root, one entry per path, in the
    /// diff's order, and the files outside the package.
    ///
    /// - Parameter pathPrefix: where the package root lies inside the git repository, e.g.
    ///   `Packages/Core/`; empty when the package is the repository. When some of the diff's
    ///   paths start with it, the diff is the repository's: the prefix is stripped from those,
    ///   and the others are outside the package. Otherwise the diff is relative to the package.
    package func packageChanges(pathPrefix: String) -> (changes: [FileDiff], outside: [FileDiff]) {
        let directory = pathPrefix.isEmpty || pathPrefix.hasSuffix("/") ? pathPrefix : pathPrefix + "/"
        let repositoryWide = !directory.isEmpty && files.contains { Self.trimmed($0.path).hasPrefix(directory) }
        var changes: [String: FileDiff] = [:]
        var order: [String] = []
        var outside: [FileDiff] = []
        for change in files {
            var change = change
            change.oldPath = change.oldPath.map(Self.trimmed)
            change.newPath = change.newPath.map(Self.trimmed)
            if repositoryWide {
                guard change.path.hasPrefix(directory) else {
                    outside.append(change)
                    continue
                }
                let strip = { (path: String) in
                    path.hasPrefix(directory) ? String(path.dropFirst(directory.count)) : path
                }
                change.oldPath = change.oldPath.map(strip)
                change.newPath = change.newPath.map(strip)
            }
            // The same file may appear more than once (diffs pasted together): its lines add up.
            let path = change.path
            if var known = changes[path] {
                known.addedLines = Array(Set(known.addedLines).union(change.addedLines)).sorted()
                known.removedLines = Array(Set(known.removedLines).union(change.removedLines)).sorted()
                known.isBinary = known.isBinary || change.isBinary
                known.shownLines = []
                if change.status != .modified { known.status = change.status }
                changes[path] = known
            } else {
                changes[path] = change
                order.append(path)
            }
        }
        return (order.map { changes[$0]! }, outside.sorted { $0.path < $1.path })
    }

    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        return String(path)
    }
}
