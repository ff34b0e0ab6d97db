import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// The lines of each category, one ascending list per category.
package struct CategorizedLines: Equatable, Sendable {
    private var lists = [[UInt32]](repeating: [], count: DifferentialCategory.allCases.count)

    package init() {}

    package subscript(category: DifferentialCategory) -> [UInt32] {
        get { lists[category.index] }
        set { lists[category.index] = newValue }
    }

    /// How many lines each category has.
    package var counts: CategoryCounts {
        var counts = CategoryCounts()
        for category in DifferentialCategory.allCases { counts[category] = lists[category.index].count }
        return counts
    }

    fileprivate mutating func append(_ line: UInt32, to category: DifferentialCategory) {
        lists[category.index].append(line)
    }

    fileprivate mutating func sort(_ category: DifferentialCategory) {
        lists[category.index].sort()
    }
}

/// A number of lines per category.
package struct CategoryCounts: Equatable, Sendable {
    private var counts = [Int](repeating: 0, count: DifferentialCategory.allCases.count)

    package init() {}

    package subscript(category: DifferentialCategory) -> Int {
        get { counts[category.index] }
        set { counts[category.index] = newValue }
    }

    /// The lines in any of `categories`.
    package func total(of categories: some Sequence<DifferentialCategory>) -> Int {
        categories.reduce(0) { $0 + self[$1] }
    }

    /// The categories with lines, most important first.
    package var present: [DifferentialCategory] { DifferentialCategory.allCases.filter { self[$0] > 0 } }

    package static func + (lhs: CategoryCounts, rhs: CategoryCounts) -> CategoryCounts {
        var sum = lhs
        for index in sum.counts.indices { sum.counts[index] += rhs.counts[index] }
        return sum
    }
}

/// Line coverage before → after, as percentages and their difference.
package struct CoverageChange: Equatable, Sendable {
    /// Executable and covered lines in the baseline (the line view).
    package var before = Metric()
    /// Executable and covered lines now.
    package var after = Metric()

    package init(before: Metric = Metric(), after: Metric = Metric()) {
        self.before = before
        self.after = after
    }

    /// Percentage points gained (negative: lost); nil when either side has no executable line.
    package var delta: Double? {
        before.count == 0 || after.count == 0 ? nil : after.percent - before.percent
    }

    package static func + (lhs: CoverageChange, rhs: CoverageChange) -> CoverageChange {
        CoverageChange(before: lhs.before + rhs.before, after: lhs.after + rhs.after)
    }
}

/// What a change did to coverage, against the coverage of its base revision: every executable
/// line of either side in one of genhtml's categories, per file, and the coverage before and
/// after per file, module and in total.
package struct DifferentialCoverage: Sendable {
    /// A file of either side.
    package struct File: Sendable {
        /// Its path now, relative to the package root (its path in the baseline when it is gone).
        package var path: String
        /// Its path in the baseline when that differs (renamed or copied).
        package var basePath: String?
        package var module: String
        /// What the change did to it; nil when it leaves it alone.
        package var status: FileDiff.Status?
        /// Its lines by category: current line numbers, baseline numbers for DCB and DUB.
        package var lines: CategorizedLines
        package var coverage: CoverageChange
        /// How its baseline lines map to its current ones (where its DCB and DUB lines stood).
        package var map: LineMap = .unchanged

        /// Whether the change touched it or its coverage moved: any line that is new, deleted,
        /// or not covered the same way on both sides.
        package var isTouched: Bool {
            status != nil || lines.counts.present.contains { $0 != .CBC && $0 != .UBC }
        }
    }

    /// A module's coverage before and after.
    package struct Module: Sendable {
        package var name: String
        package var coverage: CoverageChange
    }

    /// Every file of either side in scope, by path.
    package var files: [File]
    /// Modules of either side, by name.
    package var modules: [Module]
    /// Files the change touches that are not measured, and why.
    package var ignored: [ChangedLineCoverage.IgnoredFile]
    /// Problems that leave the report right (each "path: warning: …").
    package var warnings: [Diagnostic]

    /// The lines of each category over all files.
    package var counts: CategoryCounts { files.reduce(CategoryCounts()) { $0 + $1.lines.counts } }
    /// The whole package's coverage before and after.
    package var totals: CoverageChange { files.reduce(CoverageChange()) { $0 + $1.coverage } }
}

/// Why a change cannot be measured against a baseline. Exit code 2.
package enum DifferentialCoverageError: DiagnosticConvertible, Equatable {
    /// No file of the baseline is a file of this coverage or of the diff.
    case noFileInCommon(baseline: String)
    /// The baseline holds no file at all while this coverage has some: nothing could be lost.
    case emptyBaseline(baseline: String)
    /// A file the diff does not change whose executable lines differ between the two sides.
    case changedWithoutDiff(path: String, baseline: String)
    /// The diff adds lines past the end of the current source file.
    case diffDoesNotApply(path: String, line: UInt32, lineCount: Int)
    /// The baseline has executable lines past the end of the file the diff's base has.
    case baselineDoesNotMatch(path: String, line: UInt32, lineCount: Int, baseline: String)
    /// The coverage of a side cannot be read.
    case input(CoverageInputError)

    package var diagnostic: Diagnostic {
        switch self {
        case .emptyBaseline(let baseline):
            Diagnostic(
                file: baseline,
                "holds no file's coverage, so no line could have lost its coverage: the base revision's export or "
                    + "report is needed")
        case .noFileInCommon(let baseline):
            Diagnostic(
                file: baseline, "no file in common with this coverage or the diff: a baseline of another package?")
        case .changedWithoutDiff(let path, let baseline):
            Diagnostic(
                file: path,
                "its executable lines differ from the baseline's (\(baseline)), yet the diff does not "
                    + "change it: the baseline is of another revision than the diff's base")
        case .diffDoesNotApply(let path, let line, let count):
            Diagnostic(
                file: path,
                "the diff adds line \(line), but the file has \(count) lines: "
                    + "the diff does not apply to the current sources")
        case .baselineDoesNotMatch(let path, let line, let count, let baseline):
            Diagnostic(
                file: path,
                "the baseline (\(baseline)) has an executable line \(line), but the diff's base of the "
                    + "file has \(count) lines: the baseline is of another revision than the diff's base")
        case .input(let error): error.diagnostic
        }
    }
}

extension DifferentialCoverage {
    /// Categorizes every executable line of `current` and `baseline` through `diff`.
    ///
    /// - Parameters:
    ///   - pathPrefix: where the package root lies inside the git repository
    ///     (`UnifiedDiff.packageChanges(pathPrefix:)`).
    ///   - lineCount: how many lines a current source file has (by package-relative path), when
    ///     it can be read: the diff and the baseline are checked against it.
    package static func compute(
        current: CoverageReport, baseline: DifferentialBaseline, diff: UnifiedDiff, pathPrefix: String = "",
        lineCount: (String) -> Int? = { _ in nil }
    ) throws(DifferentialCoverageError) -> DifferentialCoverage {
        let (changes, outside) = diff.packageChanges(pathPrefix: pathPrefix)
        var changeByPath: [String: FileDiff] = [:]
        for change in changes { changeByPath[change.path] = change }
        let based = try baselineFiles(baseline, current: current, changes: changes)

        var files: [File] = []
        var ignored = outside.map {
            ChangedLineCoverage.IgnoredFile(path: $0.path, status: $0.status, reason: .outsidePackage)
        }
        var warnings: [Diagnostic] = []
        var usedBaseline: Set<String> = []
        var currentPaths: Set<String> = []
        for file in current.files {
            let path = file.displayPath
            currentPaths.insert(path)
            let change = changeByPath[path]
            let basePath: String? = change?.status == .added ? nil : (change?.oldPath ?? path)
            let before = basePath.flatMap { based[$0] }
            if let basePath, before != nil, change?.status != .copied { usedBaseline.insert(basePath) }
            if let change, change.status != .added, before == nil,
                !(change.addedLines.isEmpty && change.removedLines.isEmpty)
            {
                warnings.append(
                    .warning(
                        file: path,
                        "the diff changes it, but the baseline (\(baseline.name)) has no coverage of it: "
                            + "its unchanged lines count as executable only now (GIC/UIC)"))
            }
            let counts = try readLines(file.lineCounts)
            let beforeCounts =
                try before.map { (file) throws(DifferentialCoverageError) in try readLines(file.lineCounts) } ?? []
            let map = change.map { LineMap(added: $0.addedLines, removed: $0.removedLines) } ?? .unchanged
            try check(
                path: path, change: change, now: counts, before: beforeCounts,
                lineCount: change == nil ? nil : lineCount(path),
                baseline: baseline.name, hasBaseline: before != nil)
            var entry = File(
                path: path, basePath: basePath == path ? nil : basePath, module: file.module, status: change?.status,
                lines: CategorizedLines(), coverage: CoverageChange(), map: map)
            categorize(
                now: counts, before: beforeCounts, map: map, allNew: change?.status == .added,
                countsBaseline: change?.status != .copied, into: &entry)
            files.append(entry)
        }
        for (basePath, before) in based where !usedBaseline.contains(basePath) {
            // The diff deletes it, moves it out of the report's scope, or leaves it alone
            // while this run has no coverage of it (executable only before).
            let change = changes.first { $0.oldPath == basePath && $0.status != .copied }
            if let change, currentPaths.contains(change.path) { continue }
            let counts = try readLines(before.lineCounts)
            let path = change?.path ?? basePath
            var entry = File(
                path: path, basePath: path == basePath ? nil : basePath, module: current.scope.module(of: path),
                status: change?.status, lines: CategorizedLines(), coverage: CoverageChange())
            let map: LineMap
            switch change?.status {
            case .deleted?: map = LineMap(added: [], removed: counts.map(\.line))
            case nil: map = .unchanged
            case .some: map = LineMap(added: change!.addedLines, removed: change!.removedLines)
            }
            categorize(now: [], before: counts, map: map, allNew: false, countsBaseline: true, into: &entry)
            files.append(entry)
        }
        for change in changes where change.status != .deleted && !currentPaths.contains(change.path) {
            guard !files.contains(where: { $0.path == change.path }) else { continue }
            let reason: ChangedLineCoverage.Reason =
                change.isBinary ? .binary : ChangedLineCoverage.scopeReason(change.path, scope: current.scope)
            ignored.append(ChangedLineCoverage.IgnoredFile(path: change.path, status: change.status, reason: reason))
        }
        files.sort { $0.path < $1.path }
        var modules: [String: CoverageChange] = [:]
        for file in files {
            modules[file.module, default: CoverageChange()] =
                modules[file.module, default: CoverageChange()] + file.coverage
        }
        return DifferentialCoverage(
            files: files,
            modules: modules.map { Module(name: $0.key, coverage: $0.value) }.sorted { $0.name < $1.name },
            ignored: ignored.sorted { $0.path < $1.path }, warnings: warnings)
    }

    private static func readLines(_ read: () throws(CoverageInputError) -> [LineCount])
        throws(DifferentialCoverageError)
        -> [LineCount]
    {
        do {
            return try read()
        } catch {
            throw .input(error)
        }
    }

    /// Sorts the lines of `now` and `before` into categories through `map`.
    private static func categorize(
        now: [LineCount], before: [LineCount], map: LineMap, allNew: Bool, countsBaseline: Bool,
        into file: inout File
    ) {
        var lines = CategorizedLines()
        var index = 0
        for line in now {
            guard !allNew, let base = map.baseLine(of: line.line) else {
                lines.append(line.line, to: line.count > 0 ? .GNC : .UNC)
                continue
            }
            // The map keeps the order, so the base lines ascend too (unless the lists were not
            // ascending: then search from the start).
            if index < before.count && before[index].line > base { index = 0 }
            while index < before.count && before[index].line < base { index += 1 }
            let then = index < before.count && before[index].line == base ? before[index] : nil
            if let category = DifferentialCategory.unchanged(before: then, now: line) {
                lines.append(line.line, to: category)
            }
        }
        file.coverage.after = Metric(count: now.count, covered: now.count { $0.count > 0 })
        if countsBaseline {
            index = 0
            for line in before {
                guard let mapped = map.currentLine(of: line.line) else {
                    lines.append(line.line, to: line.count > 0 ? .DCB : .DUB)
                    continue
                }
                if index < now.count && now[index].line > mapped { index = 0 }
                while index < now.count && now[index].line < mapped { index += 1 }
                guard index >= now.count || now[index].line != mapped else { continue }
                lines.append(mapped, to: line.count > 0 ? .ECB : .EUB)
            }
            // ECB and EUB lines are current numbers found in baseline order: they ascend too.
            file.coverage.before = Metric(count: before.count, covered: before.count { $0.count > 0 })
        }
        for category in DifferentialCategory.allCases { lines.sort(category) }
        file.lines = lines
    }

    /// Refuses a diff or baseline that cannot be right for `path`.
    private static func check(
        path: String, change: FileDiff?, now: [LineCount], before: [LineCount], lineCount: Int?, baseline: String,
        hasBaseline: Bool
    ) throws(DifferentialCoverageError) {
        let unchanged = change.map { $0.addedLines.isEmpty && $0.removedLines.isEmpty } ?? true
        if unchanged, hasBaseline, now.map(\.line) != before.map(\.line) {
            throw .changedWithoutDiff(path: path, baseline: baseline)
        }
        guard let lineCount, let change else { return }
        if let last = change.addedLines.last, Int(last) > lineCount {
            throw .diffDoesNotApply(path: path, line: last, lineCount: lineCount)
        }
        let baseCount = lineCount - change.addedLines.count + change.removedLines.count
        if hasBaseline, let last = before.last, Int(last.line) > baseCount {
            throw .baselineDoesNotMatch(path: path, line: last.line, lineCount: baseCount, baseline: baseline)
        }
    }

    /// The baseline's files in the report's scope by package-relative path. The baseline was
    /// made in another checkout (another folder, another machine): its root is the folder that
    /// makes most of its paths end in a path of this coverage or of the diff.
    private static func baselineFiles(
        _ baseline: DifferentialBaseline, current: CoverageReport, changes: [FileDiff]
    ) throws(DifferentialCoverageError) -> [String: DifferentialBaseline.File] {
        var known: [Substring: [String]] = [:]
        func add(_ path: String) {
            let name = path.split(separator: "/").last ?? Substring(path)
            if !(known[name]?.contains(path) ?? false) { known[name, default: []].append(path) }
        }
        for file in current.files where current.scope.relativePath(file.path) != nil { add(file.displayPath) }
        for change in changes { change.oldPath.map(add) }
        var votes: [String: Int] = [:]
        let paths = baseline.files.map {
            CoverageScope.needsNormalizing($0.path) ? CoverageScope.normalized($0.path) : $0.path
        }
        for path in paths {
            let name = path.split(separator: "/").last ?? Substring(path)
            for candidate in known[name] ?? [] where path == candidate || path.hasSuffix("/" + candidate) {
                votes[String(path.dropLast(candidate.utf8.count)), default: 0] += 1
            }
        }
        guard
            let root = votes.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key.count > $1.key.count })?.key
        else {
            // Comparing with nothing would make every line new and none lost (a false green).
            if current.files.isEmpty && changes.isEmpty { return [:] }
            throw baseline.files.isEmpty
                ? .emptyBaseline(baseline: baseline.name) : .noFileInCommon(baseline: baseline.name)
        }
        var result: [String: DifferentialBaseline.File] = [:]
        for (path, file) in zip(paths, baseline.files) where path.hasPrefix(root) {
            let relative = String(path.dropFirst(root.utf8.count))
            guard !relative.isEmpty, current.scope.includes(relative) else { continue }
            result[relative] = file
        }
        // Files in common, but none in the report's scope (a baseline of test files only).
        if result.isEmpty && !current.files.isEmpty { throw .noFileInCommon(baseline: baseline.name) }
        return result
    }
}
