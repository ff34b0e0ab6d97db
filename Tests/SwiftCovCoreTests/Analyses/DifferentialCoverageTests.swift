import Testing

@testable import SwiftCovCore

/// Differential coverage on a real two-revision history (Fixtures/differential, see its
/// make-fixture.sh): swift-log and a made-up pull request that adds tested and untested code,
/// deletes and moves code, removes a test, adds one and renames a file. Every category is
/// checked line by line against an answer computed here from llvm-cov's lcov output of each
/// side and the hunks of `git diff`, without swiftcov's readers, line view or line map.
@Suite("Differential coverage")
struct DifferentialCoverageTests {
    static let fixture = Fixture(name: "differential")

    /// The current report as `swiftcov diff` builds it: the package checked out at /ci/head/swift-log.
    static func current(_ file: String = "head.json") throws -> CoverageReport {
        try CoverageReport.build(
            exports: [fixture.export(file)], scope: CoverageScope(root: "/ci/head/swift-log"))
    }

    static func differential(baseline: String = "base.json", diff: String = "change.diff") throws
        -> DifferentialCoverage
    {
        try DifferentialCoverage.compute(
            current: current(), baseline: DifferentialBaseline.read(path: fixture.path(baseline)),
            diff: UnifiedDiff.parse(fixture.text(diff)))
    }

    @Test("every line of every category is the one lcov's counts and the diff's hunks give")
    func matchesIndependentAnswer() throws {
        let expected = try Independent.categories(
            base: Self.fixture.text("base.lcov"), baseRoot: "/ci/base/swift-log/",
            head: Self.fixture.text("head.lcov"), headRoot: "/ci/head/swift-log/",
            diff: Self.fixture.text("change.diff"))
        let coverage = try Self.differential()
        var actual: [String: [String: [UInt32]]] = [:]
        for file in coverage.files {
            for category in DifferentialCategory.allCases where !file.lines[category].isEmpty {
                actual[file.path, default: [:]][category.rawValue] = file.lines[category]
            }
        }
        #expect(actual == expected)
        // The change does what the fixture says, so the comparison covers every kind of line.
        let handler = try #require(expected["Sources/InMemoryLogging/InMemoryLogHandler.swift"])
        for code in ["UNC", "LBC", "GBC", "GNC", "CBC", "DUB", "DCB"] { #expect(handler[code] != nil, "\(code)") }
        #expect(expected["Sources/Logging/Logger+MetadataProvider.swift"]?["CBC"] != nil)
    }

    @Test("a swiftcov JSON report with --show lines is the same baseline as the export it was made from")
    func jsonBaseline() throws {
        let export = try Self.fixture.export("base.json")
        let report = try CoverageReport.build(exports: [export], scope: CoverageScope(root: "/ci/base/swift-log"))
        var options = CoverageReportOptions()
        options.showLines = true
        let json = try CoverageJSONReport.render(report, options: options)
        let fromJSON = try DifferentialBaseline.read(MappedFile(bytes: Array(json.utf8)), name: "base-report.json")
        #expect(fromJSON.format == .swiftcovJSON)
        let fromExport = try DifferentialBaseline.read(path: Self.fixture.path("base.json"))
        #expect(fromExport.format == .llvmCovExport)
        let a = try DifferentialCoverage.compute(
            current: Self.current(), baseline: fromJSON, diff: UnifiedDiff.parse(Self.fixture.text("change.diff")))
        let b = try DifferentialCoverage.compute(
            current: Self.current(), baseline: fromExport, diff: UnifiedDiff.parse(Self.fixture.text("change.diff")))
        #expect(a.files.map(\.lines) == b.files.map(\.lines))
        #expect(a.totals == b.totals)
    }

    @Test("before and after add up from the categories; the totals are the files' sums")
    func beforeAndAfter() throws {
        let coverage = try Self.differential()
        #expect(!coverage.files.isEmpty)
        for file in coverage.files {
            let counts = file.lines.counts
            #expect(file.coverage.after.count == counts.total(of: [.UNC, .GNC, .LBC, .UBC, .GBC, .CBC, .UIC, .GIC]))
            #expect(file.coverage.after.covered == counts.total(of: [.GNC, .GBC, .CBC, .GIC]))
            #expect(file.coverage.before.count == counts.total(of: [.LBC, .UBC, .GBC, .CBC, .ECB, .EUB, .DCB, .DUB]))
            #expect(file.coverage.before.covered == counts.total(of: [.LBC, .CBC, .ECB, .DCB]))
        }
        let handler = try #require(
            coverage.files.first { $0.path == "Sources/InMemoryLogging/InMemoryLogHandler.swift" })
        #expect(handler.status == .modified)
        let renamed = try #require(coverage.files.first { $0.path == "Sources/Logging/Logger+MetadataProvider.swift" })
        #expect(renamed.basePath == "Sources/Logging/MetadataProvider.swift")
        #expect(renamed.status == .renamed)
        #expect(coverage.modules.map(\.name) == ["InMemoryLogging", "Logging"])
        #expect(coverage.ignored.map(\.path) == ["Tests/InMemoryLoggingTests/InMemoryLogHandlerTests.swift"])
        #expect(coverage.ignored.first?.reason == .testTarget)
    }

    // MARK: Bad input

    @Test("a baseline of another package has no file in common")
    func anotherPackage() throws {
        let other = DifferentialBaseline(
            name: "other.json", format: .swiftcovJSON,
            files: [.init(path: "/src/Other/Sources/Other/Thing.swift", lineCounts: [LineCount(line: 1, count: 1)])])
        #expect(throws: DifferentialCoverageError.noFileInCommon(baseline: "other.json")) {
            try DifferentialCoverage.compute(
                current: Self.current(), baseline: other, diff: UnifiedDiff.parse(Self.fixture.text("change.diff")))
        }
    }

    @Test("a baseline with no file, or none in the report's scope, is an error: never every line new and none lost")
    func emptyBaseline() throws {
        let empty = DifferentialBaseline(name: "empty.json", format: .swiftcovJSON, files: [])
        for diff in [UnifiedDiff(files: []), try UnifiedDiff.parse(Self.fixture.text("change.diff"))] {
            #expect(throws: DifferentialCoverageError.emptyBaseline(baseline: "empty.json")) {
                try DifferentialCoverage.compute(current: Self.current(), baseline: empty, diff: diff)
            }
        }
        // Only a test file in common (through the diff): outside the report's scope, nothing to compare.
        let testsOnly = DifferentialBaseline(
            name: "tests.json", format: .swiftcovJSON,
            files: [
                .init(
                    path: "/src/Tests/InMemoryLoggingTests/InMemoryLogHandlerTests.swift",
                    lineCounts: [LineCount(line: 1, count: 1)])
            ])
        #expect(throws: DifferentialCoverageError.noFileInCommon(baseline: "tests.json")) {
            try DifferentialCoverage.compute(
                current: Self.current(), baseline: testsOnly, diff: UnifiedDiff.parse(Self.fixture.text("change.diff")))
        }
    }

    @Test("a baseline whose file changed with no diff to map it")
    func changedWithoutDiff() throws {
        // No diff: InMemoryLogHandler.swift differs between the sides and nothing says how.
        let baseline = try DifferentialBaseline.read(path: Self.fixture.path("base.json"))
        #expect(
            throws: DifferentialCoverageError.changedWithoutDiff(
                path: "Sources/InMemoryLogging/InMemoryLogHandler.swift", baseline: Self.fixture.path("base.json"))
        ) {
            try DifferentialCoverage.compute(current: Self.current(), baseline: baseline, diff: UnifiedDiff(files: []))
        }
    }

    @Test("a diff that adds lines past the end of the current file does not apply")
    func diffDoesNotApply() throws {
        let diff = UnifiedDiff(files: [
            FileDiff(
                oldPath: "Sources/Logging/LogEvent.swift", newPath: "Sources/Logging/LogEvent.swift", status: .modified,
                addedLines: [500], removedLines: [])
        ])
        let lineCounts = ["Sources/Logging/LogEvent.swift": 122]
        #expect(
            throws: DifferentialCoverageError.diffDoesNotApply(
                path: "Sources/Logging/LogEvent.swift", line: 500, lineCount: 122)
        ) {
            try DifferentialCoverage.compute(
                current: Self.current(), baseline: DifferentialBaseline.read(path: Self.fixture.path("head.json")),
                diff: diff, lineCount: { lineCounts[$0] })
        }
    }

    @Test("a baseline with lines past the end of the diff's base of a file")
    func baselineDoesNotMatch() throws {
        let path = "Sources/Logging/LogEvent.swift"
        let baseline = DifferentialBaseline(
            name: "b.json", format: .swiftcovJSON,
            files: [.init(path: "/x/" + path, lineCounts: [LineCount(line: 300, count: 1)])])
        let diff = UnifiedDiff(files: [
            FileDiff(oldPath: path, newPath: path, status: .modified, addedLines: [10], removedLines: [10])
        ])
        #expect(
            throws: DifferentialCoverageError.baselineDoesNotMatch(
                path: path, line: 300, lineCount: 122, baseline: "b.json")
        ) {
            try DifferentialCoverage.compute(
                current: Self.current(), baseline: baseline, diff: diff, lineCount: { $0 == path ? 122 : nil })
        }
    }

    @Test("a JSON report without line counts, of another schema version, or malformed, is refused with where")
    func badJSONBaselines() throws {
        func read(_ text: String) -> CoverageInputError? {
            do {
                _ = try DifferentialBaseline.read(MappedFile(bytes: Array(text.utf8)), name: "b.json")
                return nil
            } catch {
                return error
            }
        }
        let noLines = read(#"{"schemaVersion": 1, "files": [{"path": "/a/Sources/X/A.swift", "module": "X"}]}"#)
        #expect(noLines?.description.contains("--show lines") == true)
        #expect(noLines?.description.hasPrefix("b.json: error:") == true)
        #expect(read(#"{"schemaVersion": 2, "files": []}"#)?.description.contains("schema version 2") == true)
        #expect(
            read(#"{"schemaVersion": 1, "files": [{"path": "a", "lineCounts": [[3, 1], [2, 1]]}]}"#)?.description
                .contains("lines must ascend") == true)
        #expect(read(#"{"schemaVersion": 1, "files": [{"path": "a", "lineCounts": [[0, 1]]}]}"#) != nil)
        #expect(read(#"{"schemaVersion": 1}"#)?.description.contains("no \"files\"") == true)
        #expect(read(#"{"data": []}"#)?.description.contains("not an llvm-cov export") == true)
        #expect(read(#"{"schemaVersion": 1, "files": [{"path": "a", "lineCounts": [[1, 2]]}]}"#) == nil)
    }

    @Test("the line map: unchanged lines pair up in order around added and removed ones")
    func lineMap() {
        // Base 1 2 3 4 5 6; line 2 changed, 4 removed, two lines added after 5.
        // Now 1 2' 3 5 +a +b 6 → current 1..7.
        let map = LineMap(added: [2, 5, 6], removed: [2, 4])
        #expect((1...7).map { map.baseLine(of: $0) } == [1, nil, 3, 5, nil, nil, 6])
        #expect((1...6).map { map.currentLine(of: $0) } == [1, nil, 3, nil, 4, 7])
        #expect(LineMap.unchanged.baseLine(of: 42) == 42)
    }

    @Test("category lists parse from --fail-on and configuration text")
    func parseCategories() throws {
        #expect(try DifferentialCategory.parseList("UNC,LBC").get() == [.UNC, .LBC])
        #expect(try DifferentialCategory.parseList("unc + lbc + uic").get() == [.UNC, .LBC, .UIC])
        guard case .failure(let error) = DifferentialCategory.parseList("UNC,XYZ") else {
            Issue.record("XYZ accepted")
            return
        }
        #expect(error.code == "XYZ")
    }
}

/// The answer computed from llvm-cov's lcov output and git's hunks, as genhtml defines the
/// categories; nothing here uses swiftcov's code.
enum Independent {
    /// path → DA line → count, for the files under `root` (made relative).
    static func lcovLines(_ text: String, root: String) -> [String: [UInt32: UInt64]] {
        var files: [String: [UInt32: UInt64]] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("SF:") {
                current = String(line.dropFirst(3)).replacingOccurrences(of: root, with: "")
                files[current!] = [:]
            } else if line.hasPrefix("DA:"), let current {
                let fields = line.dropFirst(3).split(separator: ",")
                files[current]![UInt32(fields[0])!] = UInt64(fields[1])!
            }
        }
        return files
    }

    /// One file of the diff: paths and, per hunk, the old and new starts and counts with its lines.
    struct FilePatch {
        var old: String?
        var new: String?
        var hunks: [(oldStart: Int, oldCount: Int, newStart: Int, newCount: Int, lines: [Substring])] = []
    }

    static func patches(_ diff: String) -> [FilePatch] {
        var patches: [FilePatch] = []
        for line in diff.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("diff --git ") {
                patches.append(FilePatch())
            } else if line.hasPrefix("--- ") && patches.last?.hunks.isEmpty == true {
                let path = line.dropFirst(4)
                patches[patches.count - 1].old = path == "/dev/null" ? nil : String(path.dropFirst(2))
            } else if line.hasPrefix("+++ ") && patches.last?.hunks.isEmpty == true {
                let path = line.dropFirst(4)
                patches[patches.count - 1].new = path == "/dev/null" ? nil : String(path.dropFirst(2))
            } else if line.hasPrefix("rename from ") {
                patches[patches.count - 1].old = String(line.dropFirst("rename from ".count))
            } else if line.hasPrefix("rename to ") {
                patches[patches.count - 1].new = String(line.dropFirst("rename to ".count))
            } else if line.hasPrefix("@@ ") {
                let parts = line.split(separator: " ")
                func range(_ text: Substring) -> (Int, Int) {
                    let numbers = text.dropFirst().split(separator: ",").map { Int($0)! }
                    return (numbers[0], numbers.count > 1 ? numbers[1] : 1)
                }
                let (oldStart, oldCount) = range(parts[1])
                let (newStart, newCount) = range(parts[2])
                patches[patches.count - 1].hunks.append((oldStart, oldCount, newStart, newCount, []))
            } else if !patches.isEmpty, !patches[patches.count - 1].hunks.isEmpty,
                let first = line.first, first == " " || first == "-" || first == "+"
            {
                let last = patches[patches.count - 1].hunks.count - 1
                patches[patches.count - 1].hunks[last].lines.append(line)
            }
        }
        return patches
    }

    /// For one file: new line → old line (nil: added), and the deleted old lines.
    static func mapping(_ patch: FilePatch?, newLines: some Sequence<UInt32>, oldLines: some Sequence<UInt32>) -> (
        newToOld: [UInt32: UInt32?], deleted: Set<UInt32>, oldToNew: [UInt32: UInt32]
    ) {
        var inHunk: [Int: Int?] = [:]  // new → old for lines inside hunks
        var deleted: Set<UInt32> = []
        var oldInHunk: [Int: Int?] = [:]
        for hunk in patch?.hunks ?? [] {
            var old = hunk.oldStart
            var new = hunk.newStart
            for line in hunk.lines {
                switch line.first {
                case " ":
                    inHunk[new] = old
                    oldInHunk[old] = new
                    old += 1
                    new += 1
                case "-":
                    deleted.insert(UInt32(old))
                    oldInHunk[old] = .some(nil)
                    old += 1
                default:
                    inHunk[new] = .some(nil)
                    new += 1
                }
            }
        }
        // Outside the hunks the offset is what the hunks before the line added minus removed.
        func shift(beforeNew line: Int) -> Int {
            (patch?.hunks ?? []).filter { $0.newStart + max($0.newCount, 1) <= line }
                .reduce(0) { $0 + $1.newCount - $1.oldCount }
        }
        func shift(beforeOld line: Int) -> Int {
            (patch?.hunks ?? []).filter { $0.oldStart + max($0.oldCount, 1) <= line }
                .reduce(0) { $0 + $1.newCount - $1.oldCount }
        }
        var newToOld: [UInt32: UInt32?] = [:]
        for line in newLines {
            if let mapped = inHunk[Int(line)] {
                newToOld.updateValue(mapped.map { UInt32($0) }, forKey: line)
            } else {
                newToOld[line] = UInt32(Int(line) - shift(beforeNew: Int(line)))
            }
        }
        var oldToNew: [UInt32: UInt32] = [:]
        for line in oldLines where !deleted.contains(line) {
            if let mapped = oldInHunk[Int(line)] {
                if let mapped { oldToNew[line] = UInt32(mapped) }
            } else {
                oldToNew[line] = UInt32(Int(line) + shift(beforeOld: Int(line)))
            }
        }
        return (newToOld, deleted, oldToNew)
    }

    /// path → category code → lines, as genhtml defines them.
    static func categories(base: String, baseRoot: String, head: String, headRoot: String, diff: String) -> [String:
        [String: [UInt32]]]
    {
        let before = lcovLines(base, root: baseRoot)
        let after = lcovLines(head, root: headRoot)
        let patches = patches(diff)
        var result: [String: [String: [UInt32]]] = [:]
        func add(_ path: String, _ code: String, _ line: UInt32) {
            result[path, default: [:]][code, default: []].append(line)
        }
        var basesSeen: Set<String> = []
        for (path, now) in after {
            let patch = patches.first { $0.new == path }
            let basePath = patch.map { $0.old } ?? path
            let then = basePath.flatMap { before[$0] } ?? [:]
            if let basePath { basesSeen.insert(basePath) }
            let map = mapping(patch, newLines: now.keys, oldLines: then.keys)
            for (line, count) in now {
                guard basePath != nil, let old = map.newToOld[line] ?? nil else {
                    add(path, count > 0 ? "GNC" : "UNC", line)
                    continue
                }
                switch (then[old], count > 0) {
                case (nil, true): add(path, "GIC", line)
                case (nil, false): add(path, "UIC", line)
                case (let was?, true): add(path, was > 0 ? "CBC" : "GBC", line)
                case (let was?, false): add(path, was > 0 ? "LBC" : "UBC", line)
                }
            }
            for (line, count) in then {
                if map.deleted.contains(line) {
                    add(path, count > 0 ? "DCB" : "DUB", line)
                } else if let new = map.oldToNew[line], now[new] == nil {
                    add(path, count > 0 ? "ECB" : "EUB", new)
                }
            }
        }
        for (path, then) in before where !basesSeen.contains(path) {
            for (line, count) in then { add(path, count > 0 ? "DCB" : "DUB", line) }
        }
        return result.mapValues { $0.mapValues { $0.sorted() } }
    }
}

/// The categories the swift-log change does not produce (GIC, UIC, ECB, EUB) and whole files
/// added, deleted or only on one side, on invented line counts.
@Suite("Differential coverage, invented cases")
struct DifferentialCoverageInventedTests {
    static func report(_ files: [String: [CoverageSegment]]) throws -> CoverageReport {
        var report = CoverageReport(
            files: [], modules: [], totals: CoverageSummary(), scope: CoverageScope(root: "/now"))
        report.files = files.keys.sorted().map { path in
            var file = FileCoverage.forTesting(path: "/now/" + path, segments: files[path]!)
            file.displayPath = path
            file.module = report.scope.module(of: "/now/" + path)
            return file
        }
        return report
    }

    /// Segments giving `lines` (line → count) each a region of its own.
    static func segments(_ lines: [UInt32: UInt64]) -> [CoverageSegment] {
        lines.keys.sorted().flatMap { line in
            [
                CoverageSegment(
                    line: line, column: 1, count: lines[line]!, hasCount: true, isRegionEntry: true, isGapRegion: false),
                CoverageSegment(
                    line: line, column: 9, count: 0, hasCount: false, isRegionEntry: false, isGapRegion: false),
            ]
        }
    }

    static func counts(_ lines: [UInt32: UInt64]) -> [LineCount] {
        lines.keys.sorted().map { LineCount(line: $0, count: lines[$0]!) }
    }

    @Test("lines executable on one side only; a deleted file; an added file; a file only in the baseline")
    func oneSided() throws {
        // A.swift: line 3 was 3 before; line 1 changed. Now: 2 executable only now (run), 4 only now
        // (not run); before, 5 and 6 were executable (5 ran) and now are not.
        let now = try Self.report([
            "Sources/M/A.swift": Self.segments([1: 1, 2: 1, 3: 1, 4: 0]),
            "Sources/M/New.swift": Self.segments([1: 0, 2: 1]),
        ])
        let baseline = DifferentialBaseline(
            name: "b.json", format: .swiftcovJSON,
            files: [
                .init(path: "/then/Sources/M/A.swift", lineCounts: Self.counts([1: 1, 3: 1, 5: 4, 6: 0])),
                .init(path: "/then/Sources/M/Gone.swift", lineCounts: Self.counts([2: 1, 7: 0])),
                .init(path: "/then/Sources/M/Untested.swift", lineCounts: Self.counts([4: 0, 8: 2])),
            ])
        let diff = UnifiedDiff(files: [
            FileDiff(
                oldPath: "Sources/M/A.swift", newPath: "Sources/M/A.swift", status: .modified, addedLines: [1],
                removedLines: [1]),
            FileDiff(oldPath: nil, newPath: "Sources/M/New.swift", status: .added, addedLines: [1, 2, 3]),
            FileDiff(oldPath: "Sources/M/Gone.swift", newPath: nil, status: .deleted, removedLines: Array(1...9)),
        ])
        let coverage = try DifferentialCoverage.compute(current: now, baseline: baseline, diff: diff)
        var lines: [String: [DifferentialCategory: [UInt32]]] = [:]
        for file in coverage.files {
            for category in DifferentialCategory.allCases where !file.lines[category].isEmpty {
                lines[file.path, default: [:]][category] = file.lines[category]
            }
        }
        #expect(
            lines == [
                "Sources/M/A.swift": [.GNC: [1], .DCB: [1], .GIC: [2], .CBC: [3], .UIC: [4], .ECB: [5], .EUB: [6]],
                "Sources/M/New.swift": [.UNC: [1], .GNC: [2]],
                "Sources/M/Gone.swift": [.DCB: [2], .DUB: [7]],
                "Sources/M/Untested.swift": [.EUB: [4], .ECB: [8]],
            ])
        let gone = try #require(coverage.files.first { $0.path == "Sources/M/Gone.swift" })
        #expect(gone.status == .deleted)
        #expect(gone.coverage == CoverageChange(before: Metric(count: 2, covered: 1), after: Metric()))
        #expect(coverage.totals.before == Metric(count: 8, covered: 5))
        #expect(coverage.totals.after == Metric(count: 6, covered: 4))
        #expect(coverage.modules.map(\.name) == ["M"])
    }

    @Test("a changed file the baseline lacks is measured with a warning")
    func missingFromBaseline() throws {
        let now = try Self.report([
            "Sources/M/A.swift": Self.segments([1: 1]), "Sources/M/B.swift": Self.segments([1: 1, 2: 0]),
        ])
        let baseline = DifferentialBaseline(
            name: "b.json", format: .swiftcovJSON,
            files: [.init(path: "/then/Sources/M/A.swift", lineCounts: Self.counts([1: 1]))])
        let diff = UnifiedDiff(files: [
            FileDiff(
                oldPath: "Sources/M/B.swift", newPath: "Sources/M/B.swift", status: .modified, addedLines: [2],
                removedLines: [2])
        ])
        let coverage = try DifferentialCoverage.compute(current: now, baseline: baseline, diff: diff)
        #expect(coverage.warnings.count == 1)
        #expect(coverage.warnings.first?.description.hasPrefix("Sources/M/B.swift: warning:") == true)
        let b = try #require(coverage.files.first { $0.path == "Sources/M/B.swift" })
        #expect(b.lines[.GIC] == [1])
        #expect(b.lines[.UNC] == [2])
    }
}
