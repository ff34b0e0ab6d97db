import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// The file `swiftcov run --per-test` writes beside its other outputs
/// (`.build/swiftcov/per-test.swiftcov`): a `PerTestCoverage`, compactly.
///
/// Format (version 1). Every number is an unsigned LEB128 varint; a string is its UTF-8 byte
/// count and bytes.
///
///     "SWIFTCOV-PER-TEST\n"  version
///     commit  dirty(0|1)  date
///     fileCount   { path  lineCount  lineDelta… }                  lines ascending, first delta from 0
///     testCount   { id  outcome(+0x80 when unrecorded)  milliseconds  fileCount
///                     { fileDelta  runCount  { gap  length-1 }… }… }
///
/// A test's files ascend (`fileDelta` from the previous file index + 1, the first from 0); its runs
/// of line indices ascend (`gap` from the end of the previous run, the first from 0). The file
/// ends after the last test. Sizes stay small: a run of 40 executed lines is two bytes.
package enum PerTestStore {
    package static let fileName = "per-test.swiftcov"
    static let magic = Array("SWIFTCOV-PER-TEST\n".utf8)
    package static let version: UInt64 = 1
    /// Set in a test's outcome byte when its process left no profile (`Test.recorded` false).
    static let unrecorded: UInt8 = 0x80

    /// What is wrong with a store, and where (a byte offset).
    package struct ReadError: Error, Equatable, CustomStringConvertible {
        package var offset: Int
        package var message: String

        package var description: String { "\(message) (byte offset \(offset))" }
    }

    /// The bytes of `coverage`.
    package static func encode(_ coverage: PerTestCoverage) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(4096)
        append(version, to: &bytes)
        append(coverage.recording.commit, to: &bytes)
        bytes.append(coverage.recording.dirty ? 1 : 0)
        append(coverage.recording.date, to: &bytes)
        append(UInt64(coverage.files.count), to: &bytes)
        for file in coverage.files {
            append(file.path, to: &bytes)
            append(UInt64(file.lines.count), to: &bytes)
            var previous: UInt32 = 0
            for line in file.lines {
                append(UInt64(line - previous), to: &bytes)
                previous = line
            }
        }
        append(UInt64(coverage.tests.count), to: &bytes)
        for test in coverage.tests {
            append(test.id, to: &bytes)
            bytes.append(test.outcome.rawValue | (test.recorded ? 0 : unrecorded))
            append(test.milliseconds, to: &bytes)
            append(UInt64(test.executed.count), to: &bytes)
            var nextFile = 0
            for entry in test.executed {
                append(UInt64(entry.file - nextFile), to: &bytes)
                nextFile = entry.file + 1
                append(UInt64(entry.runs.count), to: &bytes)
                var end: UInt32 = 0
                for run in entry.runs {
                    append(UInt64(run.lowerBound - end), to: &bytes)
                    append(UInt64(run.count - 1), to: &bytes)
                    end = run.upperBound
                }
            }
        }
        return bytes
    }

    /// Reads a store; every count, index and line is checked against the bytes that remain and
    /// the files it refers to.
    package static func decode(_ bytes: UnsafeRawBufferPointer) throws(ReadError) -> PerTestCoverage {
        var reader = ByteCursor(bytes, endOfInput: "the store ends early") { ReadError(offset: $0, message: $1) }
        guard bytes.count >= magic.count, zip(bytes.prefix(magic.count), magic).allSatisfy({ $0 == $1 }) else {
            throw ReadError(offset: 0, message: "not a swiftcov per-test store (no 'SWIFTCOV-PER-TEST' header)")
        }
        reader.offset = magic.count
        let versionOffset = reader.offset
        let storedVersion = try reader.uleb128()
        guard storedVersion == version else {
            throw ReadError(
                offset: versionOffset,
                message: "per-test store version \(storedVersion); this swiftcov reads version \(version)")
        }
        let commit = try reader.string(validating: true)
        let dirty = try reader.flag()
        let date = try reader.string(validating: true)
        var coverage = PerTestCoverage(
            recording: PerTestCoverage.Recording(commit: commit, dirty: dirty, date: date), files: [])
        let fileCount = try reader.count()
        coverage.files.reserveCapacity(ByteCursor<ReadError>.reservable(fileCount))
        for _ in 0..<fileCount {
            let pathOffset = reader.offset
            let path = try reader.string(validating: true)
            guard !path.isEmpty else { throw ReadError(offset: pathOffset, message: "a file with an empty path") }
            if let previous = coverage.files.last?.path, previous >= path {
                throw ReadError(offset: pathOffset, message: "file paths are not sorted and unique at '\(path)'")
            }
            let lineCount = try reader.count()
            var lines: [UInt32] = []
            lines.reserveCapacity(ByteCursor<ReadError>.reservable(lineCount))
            var line: UInt32 = 0
            for _ in 0..<lineCount {
                let offset = reader.offset
                let delta = try reader.uleb128()
                // Checked before adding: a delta may be as large as UInt64.max.
                guard delta > 0, delta <= UInt64(UInt32.max - line) else {
                    throw ReadError(offset: offset, message: "line numbers of '\(path)' do not ascend from 1")
                }
                line += UInt32(delta)
                lines.append(line)
            }
            coverage.files.append(PerTestCoverage.File(path: path, lines: lines))
        }
        let testCount = try reader.count()
        coverage.tests.reserveCapacity(ByteCursor<ReadError>.reservable(testCount))
        var ids = Set<String>()
        for _ in 0..<testCount {
            let idOffset = reader.offset
            let id = try reader.string(validating: true)
            // An ID is printed one a line and put in filters: a line break would forge another.
            guard !id.isEmpty, !id.unicodeScalars.contains(where: \.isControl) else {
                throw ReadError(
                    offset: idOffset, message: "test ID '\(id.terminalSafe)' is empty or holds a control character")
            }
            guard ids.insert(id).inserted else {
                throw ReadError(offset: idOffset, message: "test '\(id)' is recorded twice")
            }
            let outcomeOffset = reader.offset
            let outcomeByte = try reader.byte()
            guard let outcome = PerTestCoverage.Outcome(rawValue: outcomeByte & ~unrecorded) else {
                throw ReadError(offset: outcomeOffset, message: "unknown outcome of test '\(id)'")
            }
            let recorded = outcomeByte & unrecorded == 0
            let milliseconds = try reader.uleb128()
            let entryCount = try reader.count()
            var executed: [PerTestCoverage.ExecutedLines] = []
            executed.reserveCapacity(ByteCursor<ReadError>.reservable(entryCount))
            var nextFile: UInt64 = 0
            for _ in 0..<entryCount {
                let fileOffset = reader.offset
                let fileDelta = try reader.uleb128()
                // Checked before adding: a delta may be as large as UInt64.max.
                guard fileDelta < UInt64(coverage.files.count) - min(nextFile, UInt64(coverage.files.count)) else {
                    throw ReadError(
                        offset: fileOffset,
                        message: "test '\(id)' refers to a file past the \(fileCount) of the store")
                }
                let file = nextFile + fileDelta
                nextFile = file + 1
                let lineCount = UInt64(coverage.files[Int(file)].lines.count)
                let runCount = try reader.count()
                var runs: [Range<UInt32>] = []
                runs.reserveCapacity(ByteCursor<ReadError>.reservable(runCount))
                var end: UInt64 = 0
                for _ in 0..<runCount {
                    let runOffset = reader.offset
                    let gap = try reader.uleb128()
                    let length = try reader.uleb128()
                    let start = end &+ gap
                    // Runs never touch: a gap of 0 is allowed only for the first.
                    guard start >= end, (gap > 0 || runs.isEmpty), length < lineCount, start < lineCount,
                        lineCount - start > length
                    else {
                        throw ReadError(
                            offset: runOffset,
                            message: "test '\(id)' has lines outside the \(lineCount) of file \(file)")
                    }
                    end = start + length + 1
                    runs.append(UInt32(start)..<UInt32(end))
                }
                executed.append(PerTestCoverage.ExecutedLines(file: Int(file), runs: runs))
            }
            guard recorded || executed.isEmpty else {
                throw ReadError(offset: outcomeOffset, message: "test '\(id)' has lines but no recorded coverage")
            }
            coverage.tests.append(
                PerTestCoverage.Test(
                    id: id, outcome: outcome, milliseconds: milliseconds, executed: executed, recorded: recorded))
        }
        guard reader.offset == bytes.count else {
            throw ReadError(offset: reader.offset, message: "unexpected bytes after the last test")
        }
        return coverage
    }

    /// Reads a store held in memory.
    package static func decode(_ bytes: [UInt8]) throws(ReadError) -> PerTestCoverage {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(ReadError) in try decode(raw) } }
        return try result.get()
    }

    /// Reads the store at `path`.
    package static func read(path: String) throws(CoverageInputError) -> PerTestCoverage {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw .unreadable(path: path, reason: error.message)
        }
        let result = file.withUnsafeBytes { bytes in Result { () throws(ReadError) in try decode(bytes) } }
        guard !file.shrankWhileRead else { throw .unreadable(path: path, reason: MappedFile.shrankMessage) }
        do {
            return try result.get()
        } catch {
            throw .malformed(path: path, offset: error.offset, keyPath: "per-test store", message: error.message)
        }
    }

    /// Writes `coverage` to `path` atomically.
    package static func write(_ coverage: PerTestCoverage, to path: String) throws {
        let bytes = encode(coverage)
        try bytes.withUnsafeBufferPointer { try AtomicFile.write(bytes: $0, to: path) }
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        append(UInt64(text.utf8.count), to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }
}
