import Foundation
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

@Suite("per-test store: format, queries, impacted tests", .removingTemporaryFolders)
struct PerTestStoreTests {
    /// Two files; three tests: one runs lines 2–4 and 9 of a.swift, one 4 and 20 of a.swift and
    /// all of b.swift, one crashed with nothing recorded.
    static func sample() -> PerTestCoverage {
        var coverage = PerTestCoverage(
            recording: .init(commit: "0123abcd", dirty: false, date: "2026-11-23T23:00:00Z"),
            files: [
                .init(path: "Sources/M/a.swift", lines: [2, 3, 4, 9, 20]),
                .init(path: "Tests/MTests/b.swift", lines: [5, 6]),
            ])
        coverage.add(
            id: "MTests.ATests/testOne", outcome: .passed, milliseconds: 12,
            lines: ["Sources/M/a.swift": [9, 2, 3, 4, 3, 7]])  // 7 is not executable: left out
        coverage.add(
            id: "MTests.two()", outcome: .failed, milliseconds: 1,
            lines: ["Sources/M/a.swift": [4, 20], "Tests/MTests/b.swift": [5, 6], "Elsewhere.swift": [1]])
        coverage.add(id: "MTests.ATests/testCrash", outcome: .crashed, milliseconds: 3, lines: [:], recorded: false)
        return coverage
    }

    @Test("a test whose process left no profile is stored as unrecorded, apart from one that ran nothing")
    func unrecorded() throws {
        var coverage = Self.sample()
        coverage.add(id: "MTests.ATests/testNothing", outcome: .passed, milliseconds: 1, lines: [:])
        let read = try PerTestStore.decode(PerTestStore.encode(coverage))
        #expect(read.tests.map(\.recorded) == [true, true, false, true])
        #expect(read.tests[2].outcome == .crashed && read.tests[2].executed.isEmpty)
        // An unrecorded test with lines cannot be.
        var bytes = PerTestStore.encode(Self.sample())
        let second = try #require(bytes.indices.last { bytes[$0] == PerTestCoverage.Outcome.failed.rawValue })
        bytes[second] |= PerTestStore.unrecorded
        #expect(throws: PerTestStore.ReadError.self) { try PerTestStore.decode(bytes) }
    }

    @Test("shards' stores merged: files by path, every test once, the worst outcome kept and reported")
    func merged() throws {
        let first = Self.sample()
        var second = PerTestCoverage(
            recording: .init(commit: "0123abcd", dirty: true, date: "2026-11-24T01:00:00Z"),
            files: [
                .init(path: "Sources/M/a.swift", lines: [2, 3, 4, 9, 20, 30]),
                .init(path: "Sources/M/c.swift", lines: [1]),
            ])
        second.add(id: "MTests.three()", outcome: .passed, milliseconds: 5, lines: ["Sources/M/a.swift": [30, 2]])
        // In both: failed there, passed here; crashed there, passed here with lines.
        second.add(id: "MTests.two()", outcome: .passed, milliseconds: 2, lines: ["Sources/M/c.swift": [1]])
        second.add(id: "MTests.ATests/testCrash", outcome: .passed, milliseconds: 2, lines: ["Sources/M/a.swift": [9]])
        let (merged, duplicates) = PerTestCoverage.merged([first, second])
        #expect(merged.files.map(\.path) == ["Sources/M/a.swift", "Sources/M/c.swift", "Tests/MTests/b.swift"])
        #expect(merged.files[0].lines == [2, 3, 4, 9, 20, 30])
        #expect(
            merged.tests.map(\.id) == [
                "MTests.ATests/testOne", "MTests.two()", "MTests.ATests/testCrash", "MTests.three()",
            ])
        #expect(merged.tests.map(\.outcome) == [.passed, .failed, .crashed, .passed])
        #expect(merged.tests.map(\.recorded) == [true, true, false, true])
        #expect(merged.lines(of: merged.tests[1]) == ["Sources/M/a.swift": [4, 20], "Tests/MTests/b.swift": [5, 6]])
        #expect(merged.lines(of: merged.tests[3]) == ["Sources/M/a.swift": [2, 30]])
        #expect(merged.recording == .init(commit: "0123abcd", dirty: true, date: "2026-11-24T01:00:00Z"))
        #expect(
            duplicates.map(\.description) == [
                "MTests.two() is recorded more than once (failed, passed); kept failed",
                "MTests.ATests/testCrash is recorded more than once (crashed, passed); kept crashed",
            ])
        #expect(PerTestCoverage.merged([first]).coverage == first)
    }

    @Test("lines become runs of executable-line indices; queries give them back")
    func queries() throws {
        let coverage = Self.sample()
        #expect(coverage.tests[0].executed == [.init(file: 0, runs: [0..<4])])
        #expect(coverage.tests[1].executed == [.init(file: 0, runs: [2..<3, 4..<5]), .init(file: 1, runs: [0..<2])])
        #expect(coverage.executedLines(of: coverage.tests[1], inFile: 0) == [4, 20])
        let lineTests = try #require(coverage.lineTests(ofFile: "Sources/M/a.swift"))
        #expect(lineTests.map(\.line) == [2, 3, 4, 9, 20])
        #expect(lineTests.map(\.tests) == [[0], [0], [0, 1], [0], [1]])
        #expect(coverage.lineTests(ofFile: "nope.swift") == nil)
        #expect(coverage.tests(executing: [20, 21], inFile: "Sources/M/a.swift") == [1])
        #expect(coverage.tests(executing: [1, 5, 6], inFile: "Sources/M/a.swift") == [])
        #expect(coverage.tests(executing: [6], inFile: "Tests/MTests/b.swift") == [1])
    }

    @Test("each line's tests by a sweep over the runs: the same as asking every test about every line")
    func lineTestsSweep() {
        // Deterministic pseudo-random runs: 40 tests over 500 lines, some overlapping, some not.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var coverage = PerTestCoverage(
            recording: .init(commit: "", dirty: false, date: ""),
            files: [.init(path: "a.swift", lines: (1...500).map { UInt32($0 * 2) })])
        for test in 0..<40 {
            var lines: [UInt32] = []
            for _ in 0..<next(6) {
                let start = next(500)
                lines += (start..<min(500, start + next(80))).map { UInt32($0 * 2 + 2) }
            }
            coverage.add(id: "T.t\(test)()", outcome: .passed, milliseconds: 1, lines: ["a.swift": lines])
        }
        var swept: [(UInt32, [Int])] = []
        #expect(coverage.forEachLineTests(ofFile: "a.swift") { swept.append(($0, $1)) })
        let expected = coverage.files[0].lines.map { line in
            (
                line,
                coverage.tests.indices.filter {
                    coverage.executedLines(of: coverage.tests[$0], inFile: 0).contains(line)
                }
            )
        }
        #expect(swept.map(\.0) == expected.map(\.0))
        #expect(swept.map(\.1) == expected.map(\.1))
        #expect(swept.contains { $0.1.count > 1 } && swept.contains { $0.1.isEmpty }, "overlaps and gaps both tried")
        #expect(
            coverage.testsExecutingLines(ofFile: "a.swift")
                == expected.reduce(into: Set<Int>()) { $0.formUnion($1.1) }.sorted())
        #expect(!coverage.forEachLineTests(ofFile: "b.swift") { _, _ in })
    }

    @Test("written and read back, the same; a few bytes a test")
    func roundTrip() throws {
        let coverage = Self.sample()
        let bytes = PerTestStore.encode(coverage)
        let read = try PerTestStore.decode(bytes)
        #expect(read == coverage)
        // Names aside: a 50-byte header, 11 bytes for the files' lines, 26 for the tests.
        let names =
            coverage.tests.map(\.id.utf8.count).reduce(0, +) + coverage.files.map(\.path.utf8.count).reduce(0, +)
        #expect(bytes.count - names == 89)
        let path = try temporaryDirectory() + "/" + PerTestStore.fileName
        try PerTestStore.write(coverage, to: path)
        #expect(try PerTestStore.read(path: path) == coverage)
    }

    @Test("a damaged store: one error with the byte offset, never a crash")
    func damaged() throws {
        let bytes = PerTestStore.encode(Self.sample())
        func error(_ damaged: [UInt8]) -> PerTestStore.ReadError? {
            do {
                _ = try PerTestStore.decode(damaged)
                return nil
            } catch {
                return error
            }
        }
        #expect(error(Array("{\"data\": []}".utf8))?.message.contains("not a swiftcov per-test store") == true)
        var newer = bytes
        newer[PerTestStore.magic.count] = 2
        #expect(
            error(newer)
                == .init(
                    offset: PerTestStore.magic.count, message: "per-test store version 2; this swiftcov reads version 1"
                ))
        #expect(error(bytes + [0])?.message == "unexpected bytes after the last test")
        // Every truncation fails cleanly, at or before its end.
        for length in 0..<bytes.count {
            let failure = try #require(error(Array(bytes.prefix(length))), "\(length)")
            #expect(failure.offset <= length)
        }
        // A run past its file's lines, and runs that touch (one run written as two).
        var pastEnd = Self.sample()
        pastEnd.tests[0].executed[0].runs = [0..<6]
        #expect(error(PerTestStore.encode(pastEnd))?.message.contains("has lines outside the 5 of file 0") == true)
        var touching = Self.sample()
        touching.tests[0].executed[0].runs = [0..<2, 2..<4]
        #expect(error(PerTestStore.encode(touching))?.message.contains("has lines outside") == true)
        let path = try temporaryDirectory() + "/broken.swiftcov"
        try Data(bytes.prefix(40)).write(to: URL(fileURLWithPath: path))
        #expect(throws: CoverageInputError.self) { try PerTestStore.read(path: path) }
    }

    /// A store written byte by byte: the header, then `fields` (numbers as varints, strings as a
    /// count and bytes, a `UInt8` as itself: the dirty flag and the outcome).
    static func store(_ fields: [Any]) -> [UInt8] {
        var bytes = PerTestStore.magic
        func varint(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }
        varint(PerTestStore.version)
        for field in fields {
            switch field {
            case let number as UInt64: varint(number)
            case let number as Int: varint(UInt64(number))
            case let text as String:
                varint(UInt64(text.utf8.count))
                bytes += Array(text.utf8)
            case let byte as UInt8: bytes.append(byte)
            default: Issue.record("unexpected field \(field)")
            }
        }
        return bytes
    }

    @Test("hostile numbers: deltas of UInt64.max, a file past the last, IDs empty or twice: an error each")
    func hostileNumbers() throws {
        func message(_ bytes: [UInt8]) -> String? {
            do {
                _ = try PerTestStore.decode(bytes)
                return nil
            } catch {
                return error.message
            }
        }
        // commit, dirty, date, then the files.
        let header: [Any] = ["", UInt8(0), ""]
        // A line delta of UInt64.max (ten bytes), after line 5 and as the first.
        #expect(
            message(Self.store(header + [1, "a.swift", 2, 5, UInt64.max, 0]))
                == "line numbers of 'a.swift' do not ascend from 1")
        #expect(
            message(Self.store(header + [1, "a.swift", 1, UInt64.max, 0]))
                == "line numbers of 'a.swift' do not ascend from 1")
        // Line UInt32.max is the last a store can hold; one more is out of range.
        #expect(message(Self.store(header + [1, "a.swift", 1, UInt64(UInt32.max), 0])) == nil)
        #expect(
            message(Self.store(header + [1, "a.swift", 2, UInt64(UInt32.max), 1, 0]))
                == "line numbers of 'a.swift' do not ascend from 1")
        // A file delta of UInt64.max after file 0, and one just past the last file.
        let oneFile: [Any] = header + [1, "a.swift", 1, 3]
        let test: [Any] = ["T.t()", UInt8(0), 1]
        #expect(
            message(Self.store(oneFile + [1] + test + [2, 0, 1, 0, 0, UInt64.max, 1, 0, 0]))
                == "test 'T.t()' refers to a file past the 1 of the store")
        #expect(
            message(Self.store(oneFile + [1] + test + [1, 1, 1, 0, 0]))
                == "test 'T.t()' refers to a file past the 1 of the store")
        #expect(message(Self.store(oneFile + [1] + test + [1, 0, 1, 0, 0])) == nil)
        // A run's gap of UInt64.max.
        #expect(
            message(Self.store(oneFile + [1] + test + [1, 0, 1, UInt64.max, 0]))
                == "test 'T.t()' has lines outside the 1 of file 0")
        // Empty and repeated names.
        #expect(message(Self.store(header + [1, "", 0, 0])) == "a file with an empty path")
        #expect(
            message(Self.store(oneFile + [1, "", UInt8(0), 1, 0])) == "test ID '' is empty or holds a control character"
        )
        #expect(
            message(Self.store(oneFile + [2, "T.t()", UInt8(0), 1, 0, "T.t()", UInt8(1), 1, 0]))
                == "test 'T.t()' is recorded twice")
    }

    @Test("a count the file's bytes do not hold yet (a sparse 10 GB store): an error, not a 400 GB allocation")
    func sparseStore() throws {
        let path = try temporaryDirectory() + "/sparse.swiftcov"
        // Each count claims nearly every byte that follows; the bytes are a sparse file's zeros.
        for fields: [Any] in [
            ["", UInt8(0), "", 9_000_000_000],
            ["", UInt8(0), "", 1, "a.swift", 9_000_000_000],
            ["", UInt8(0), "", 0, 9_000_000_000],
            ["", UInt8(0), "", 1, "a.swift", 1, 1, 1, "T.t()", UInt8(0), 0, 9_000_000_000],
        ] {
            try Data(Self.store(fields)).write(to: URL(fileURLWithPath: path))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: 10_000_000_000)
            try handle.close()
            #expect(throws: CoverageInputError.self) { try PerTestStore.read(path: path) }
        }
    }

    @Test("impacted tests: new side uses added lines, base side removed lines and an insertion's neighbours")
    func impacted() throws {
        let coverage = Self.sample()
        // a.swift: line 3 rewritten, a line inserted after 9; b.swift deleted.
        let diff = try UnifiedDiff.parse(
            """
            diff --git a/Sources/M/a.swift b/Sources/M/a.swift
            --- a/Sources/M/a.swift
            +++ b/Sources/M/a.swift
            @@ -3 +3 @@
            -    old()
            +    new()
            @@ -9,0 +10 @@
            +    inserted()
            diff --git a/Tests/MTests/b.swift b/Tests/MTests/b.swift
            deleted file mode 100644
            --- a/Tests/MTests/b.swift
            +++ /dev/null
            @@ -1,6 +0,0 @@
            -1
            -2
            -3
            -4
            -5
            -6

            """)
        let base = TestImpact.changedLines(of: diff, side: .base)
        #expect(base == ["Sources/M/a.swift": [3, 9, 10], "Tests/MTests/b.swift": [1, 2, 3, 4, 5, 6]])
        #expect(TestImpact.tests(in: coverage, executing: base) == ["MTests.ATests/testOne", "MTests.two()"])
        let changed = TestImpact.changedLines(of: diff, side: .changed)
        #expect(changed == ["Sources/M/a.swift": [3, 10]])
        #expect(TestImpact.tests(in: coverage, executing: changed) == ["MTests.ATests/testOne"])
        #expect(TestImpact.tests(in: coverage, executing: ["Sources/M/a.swift": [20]]) == ["MTests.two()"])
    }

    @Test("an insertion at the top of a file, and a rewrite next to an insertion")
    func insertionNeighbours() {
        func baseLines(added: [UInt32], removed: [UInt32]) -> [UInt32] {
            TestImpact.baseLines(
                of: FileDiff(oldPath: "a", newPath: "a", status: .modified, addedLines: added, removedLines: removed))
        }
        #expect(baseLines(added: [1, 2], removed: []) == [1])
        #expect(baseLines(added: [5, 6], removed: [5]) == [5])
        #expect(baseLines(added: [], removed: [7, 8]) == [7, 8])
        #expect(baseLines(added: [3, 9], removed: []) == [2, 3, 7, 8])
    }

    @Test("which side the data is of: the base only when recorded clean at the base commit")
    func side() {
        var coverage = Self.sample()
        #expect(TestImpact.side(of: coverage, baseCommit: "0123abcd") == .base)
        #expect(TestImpact.side(of: coverage, baseCommit: "ffff") == .changed)
        #expect(TestImpact.side(of: coverage, baseCommit: nil) == .changed)
        coverage.recording.dirty = true
        #expect(TestImpact.side(of: coverage, baseCommit: "0123abcd") == .changed)
    }

    @Test("run --per-test's output folder is a coverage input: the export beside the store")
    func outputFolder() throws {
        let folder = try temporaryDirectory()
        try "{}".write(toFile: folder + "/llvm-cov-export.json", atomically: true, encoding: .utf8)
        try PerTestStore.write(Self.sample(), to: folder + "/" + PerTestStore.fileName)
        #expect(try CoverageInput.locateExport(folder) == folder + "/llvm-cov-export.json")
    }
}
