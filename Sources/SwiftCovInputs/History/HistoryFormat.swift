import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a `TestHistory` is kept: JSON Lines, one record a line, so that appending a run is
/// appending lines, a cut write loses at most its last line, and git can merge two histories
/// line by line (`git notes merge -s cat_sort_uniq`): no line depends on another's position.
///
/// Format (version 1). A name line defines a test's name once, under a reference made from the
/// name itself (the FNV-1a 64-bit hash of its UTF-8, in base 36), so two writers that never saw
/// each other give a name the same reference:
///
///     {"v":1,"name":"1x2k9c0e5m3q","id":"TriviaTests.ScoreTests/testBonus"}
///
/// Names are unique in the store: a name whose hash another name of the history already has (two
/// names collide once in about 2^32) is written under the hash of its UTF-8, a 0 byte and the
/// first salt (1, 2, … as decimal digits) that no other name has; a reader that meets two name
/// lines of different names for one reference (two writers that never saw each other's colliding
/// name) stops with an error naming the line, rather than merging two tests into one.
///
/// A run line holds a run; each test attempt is `[name, outcome, attempt, milliseconds]` with
/// outcome `p` passed, `f` failed, `e` error, `s` skipped (about 28 bytes):
///
///     {"v":1,"run":"github-7-1-test","time":1795939200,"repository":"…","commit":"…","tree":"…",
///      "dirty":false,"branch":"main","environment":"Linux x86_64 swift-6.3.1 debug",
///      "environmentName":"tz-tokyo","shard":"2/4",
///      "alone":true,"complete":true,"totals":[tests,passed,failed,skipped,errors,flaky],
///      "coverage":{"total":[lines covered,lines,functions covered,functions,regions covered,regions],
///                  "modules":{"Name":[…the same six…]},"files":{"Sources/A.swift":[covered,lines]}},
///      "tests":[["1x2k9c0e5m3q","p",0,12],…],"orderDependent":[["1x2k9c0e5m3q","f","p"]],
///      "orderEvidence":[["1x2k9c0e5m3q",4,4,"0p3a8c1b7d2k",2,2]]}
///
/// (one line; `environmentName` (`run --environment NAME`), `buildFailed` (no test ran), `shard`,
/// `alone` (each test ran alone: `run --per-test`), `coverage` and `orderDependent` only when
/// there is something to say). `orderEvidence` confirms a finding of `orderDependent`: its runs
/// alone and how many agreed, then, when `run --per-test` found it, the test it depends on with
/// the runs of it followed by the test and how many ended as in the suite.
package enum HistoryFormat {
    /// The version this swiftcov writes and reads.
    package static let version = 1

    /// What `read` found, besides the history: runs skipped with a reason.
    package struct Reading: Sendable {
        package var history: TestHistory
        package var warnings: [Diagnostic]

        package init(history: TestHistory, warnings: [Diagnostic]) {
            self.history = history
            self.warnings = warnings
        }
    }

    // MARK: Writing

    /// The lines recording `runs` of `history`: a name line for each name they use that
    /// `known` does not hold yet (`known` is updated), then one line per run.
    package static func lines(
        of runs: [TestHistory.Run], in history: TestHistory, skippingNames known: inout Set<String>
    ) -> String {
        var text = ""
        let references = Self.references(in: history)
        for run in runs {
            var used =
                run.executions.map(\.test) + run.orderDependent.map(\.test) + run.orderDependent.compactMap(\.cause)
            used.sort()
            var previous: Int32 = -1
            for test in used where test != previous {
                previous = test
                let name = history.names[Int(test)]
                guard known.insert(name).inserted else { continue }
                var writer = JSONWriter(compact: true)
                writer.beginObject()
                writer.member("v", version)
                writer.member("name", String(references[Int(test)], radix: 36))
                writer.member("id", name)
                writer.endObject()
                text += writer.output
            }
            text += line(of: run, in: history, references: references)
        }
        return text
    }

    /// Each name's reference in the store, by index: the one it was read with, or its hash, or
    /// (when another name has that) its first free salted hash.
    package static func references(in history: TestHistory) -> [UInt64] {
        var references: [UInt64] = []
        references.reserveCapacity(history.names.count)
        var taken = Set<UInt64>()
        taken.reserveCapacity(history.names.count)
        // The references the store already holds first: a new name never takes one of them.
        for name in history.names { if let stored = history.storedReferences[name] { taken.insert(stored) } }
        for name in history.names {
            if let stored = history.storedReferences[name] {
                references.append(stored)
                continue
            }
            var reference = hash(name)
            var salt = 0
            while !taken.insert(reference).inserted {
                salt += 1
                reference = hash(name, salt: salt)
            }
            references.append(reference)
        }
        return references
    }

    /// Every line of `history`, names first.
    package static func encode(_ history: TestHistory) -> String {
        var known = Set<String>()
        return lines(of: history.runs, in: history, skippingNames: &known)
    }

    /// The run's line, with its line break.
    private static func line(of run: TestHistory.Run, in history: TestHistory, references: [UInt64]) -> String {
        var writer = JSONWriter(reservingCapacity: 64 + run.executions.count * 28, compact: true)
        writer.beginObject()
        writer.member("v", version)
        writer.member("run", run.id)
        writer.member("time", run.time)
        writer.member("repository", run.repository)
        writer.member("commit", run.commit)
        writer.member("tree", run.tree)
        writer.key("dirty")
        writer.bool(run.isDirty)
        writer.member("branch", run.branch)
        writer.member("environment", run.environment)
        if !run.environmentName.isEmpty { writer.member("environmentName", run.environmentName) }
        if !run.shard.isEmpty { writer.member("shard", run.shard) }
        if run.isAlone {
            writer.key("alone")
            writer.bool(true)
        }
        writer.key("complete")
        writer.bool(run.isComplete)
        if run.buildFailed {
            writer.key("buildFailed")
            writer.bool(true)
        }
        writer.key("totals")
        let totals = run.totals
        numbers([totals.tests, totals.passed, totals.failed, totals.skipped, totals.errors, totals.flaky], to: &writer)
        if let coverage = run.coverage {
            writer.key("coverage")
            writer.beginObject()
            writer.key("total")
            counts(coverage.total, to: &writer)
            writer.key("modules")
            writer.beginObject()
            for module in coverage.modules {
                writer.key(module.name)
                counts(module.counts, to: &writer)
            }
            writer.endObject()
            writer.key("files")
            writer.beginObject()
            for file in coverage.files {
                writer.key(file.path)
                numbers([file.lines.covered, file.lines.count], to: &writer)
            }
            writer.endObject()
            writer.endObject()
        }
        writer.key("tests")
        writer.beginArray()
        var made: [Int32: String] = [:]
        func reference(_ test: Int32) -> String {
            if let known = made[test] { return known }
            let text = String(references[Int(test)], radix: 36)
            made[test] = text
            return text
        }
        for execution in run.executions {
            writer.beginArray()
            writer.string(reference(execution.test))
            writer.string(code(of: execution.status))
            writer.number(execution.attempt)
            writer.number(execution.milliseconds)
            writer.endArray()
        }
        writer.endArray()
        if !run.orderDependent.isEmpty {
            writer.key("orderDependent")
            writer.beginArray()
            for finding in run.orderDependent {
                writer.beginArray()
                writer.string(reference(finding.test))
                writer.string(code(of: finding.alone))
                writer.string(code(of: finding.inSuite))
                writer.endArray()
            }
            writer.endArray()
        }
        let confirmed = run.orderDependent.filter { $0.aloneRuns > 1 || $0.cause != nil }
        if !confirmed.isEmpty {
            writer.key("orderEvidence")
            writer.beginArray()
            for finding in confirmed {
                writer.beginArray()
                writer.string(reference(finding.test))
                writer.number(finding.aloneRuns)
                writer.number(finding.aloneAgreeing)
                if let cause = finding.cause {
                    writer.string(reference(cause))
                    writer.number(finding.causeRuns)
                    writer.number(finding.causeAgreeing)
                }
                writer.endArray()
            }
            writer.endArray()
        }
        writer.endObject()
        return writer.output
    }

    private static func numbers(_ values: [Int], to writer: inout JSONWriter) {
        writer.beginArray()
        for value in values { writer.number(value) }
        writer.endArray()
    }

    private static func counts(_ counts: TestHistory.Coverage.Counts, to writer: inout JSONWriter) {
        numbers(
            [
                counts.lines.covered, counts.lines.count, counts.functions.covered, counts.functions.count,
                counts.regions.covered, counts.regions.count,
            ], to: &writer)
    }

    private static func code(of status: TestRun.Status) -> String {
        switch status {
        case .passed: "p"
        case .failed: "f"
        case .error: "e"
        case .skipped: "s"
        }
    }

    private static func status(code: UInt8) -> TestRun.Status? {
        switch code {
        case UInt8(ascii: "p"): .passed
        case UInt8(ascii: "f"): .failed
        case UInt8(ascii: "e"): .error
        case UInt8(ascii: "s"): .skipped
        default: nil
        }
    }

    // MARK: References

    /// The reference of a test name: FNV-1a (64-bit) of its UTF-8, in base 36.
    package static func reference(of name: String) -> String {
        String(hash(name), radix: 36)
    }

    static func hash(_ name: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        return value
    }

    /// The reference of a name whose hash another name has: FNV-1a of its UTF-8, a 0 byte and
    /// `salt` in decimal.
    static func hash(_ name: String, salt: Int) -> UInt64 {
        var value = hash(name)
        for byte in [0] + Array(String(salt).utf8) {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        return value
    }

    /// The most salts a reader tries: more names than this sharing one hash is damage.
    static let maximumSalt = 16

    /// A digit of a reference: 0-9, then a-z.
    @inline(__always)
    private static func digit(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt64(byte &- UInt8(ascii: "a")) &+ 10
        default: nil
        }
    }

    /// A reference read back as its number; nil when it is not base 36 within 64 bits.
    private static func number(ofReference raw: JSONRawString) -> UInt64? {
        guard !raw.hasEscapes else { return nil }
        return number(ofReference: UnsafeBufferPointer(start: raw.start, count: raw.count))
    }

    /// A reference's digits read back as its number; nil when they are not base 36 within 64 bits.
    @inline(__always)
    private static func number(ofReference digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard digits.count > 0, digits.count <= 13 else { return nil }
        // Twelve digits stay below 36^12 < 2^63: only a thirteenth can overflow.
        var value: UInt64 = 0
        for index in 0..<min(digits.count, 12) {
            guard let digit = digit(digits[index]) else { return nil }
            value = value &* 36 &+ digit
        }
        guard digits.count == 13 else { return value }
        guard let digit = digit(digits[12]) else { return nil }
        let (times, overflow) = value.multipliedReportingOverflow(by: 36)
        let (sum, overflow2) = times.addingReportingOverflow(digit)
        guard !overflow, !overflow2 else { return nil }
        return sum
    }

    // MARK: Reading

    /// What is wrong with a history, and where.
    package struct ReadError: Error, Equatable, DiagnosticConvertible {
        package var path: String
        /// The line, from 1.
        package var line: Int
        package var message: String

        package init(path: String, line: Int, message: String) {
            self.path = path
            self.line = line
            self.message = message
        }

        package var diagnostic: Diagnostic { Diagnostic(file: path, at: .line(line), message) }
    }

    /// Reads the lines of a history (from `path`, for messages). A line cut short (a write that
    /// did not end: its JSON ends with the line) and runs recorded after `latestTime` (a clock
    /// gone wrong) are skipped with a warning; a run given twice is kept once (with a warning when the two differ); any
    /// other damage is an error naming the line. Runs of two repositories are an error.
    ///
    /// The bytes are read in two passes, each from start to end; `done` is told, every few MiB,
    /// of bytes the pass has read, so that a mapped file's pages can be dropped as they are
    /// (`MappedFile.drop`): a history of a million runs then holds its runs, not its text too.
    package static func read(
        _ bytes: UnsafeRawBufferPointer, path: String, latestTime: Int64 = .max,
        done: (Range<Int>) -> Void = { _ in }
    ) throws(ReadError) -> Reading {
        var history = TestHistory()
        var warnings: [Diagnostic] = []
        // How far the pass has told `done`, a few MiB at a time; each pass starts from 0.
        var told = 0
        func reached(_ offset: Int) {
            guard offset - told >= 4 << 20 else { return }
            done(told..<offset)
            told = offset
        }
        func endPass() {
            if bytes.count > told { done(told..<bytes.count) }
            told = 0
        }
        // Pass 1: the names, wherever their lines are (git sorts a merged note's lines).
        var nameByNumber = ReferenceTable()
        var lineByNumber: [UInt64: Int] = [:]
        var runLines: [(number: Int, range: Range<Int>)] = []
        var number = 0
        var start = 0
        while start < bytes.count {
            let (range, next) = Self.line(startingAt: start, in: bytes)
            start = next
            number += 1
            reached(start)
            if range.isEmpty { continue }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
            do {
                var scanner = JSONScanner(slice)
                try scanner.beginObject()
                var started = false
                guard let first = try scanner.nextMember(&started), first.equals("v") else {
                    throw scanner.error("a history record starts with \"v\"")
                }
                let version = try scanner.readInt()
                guard version == Int64(Self.version) else {
                    guard version > Int64(Self.version) else {
                        throw scanner.error("unknown format version \(version)")
                    }
                    throw ReadError(
                        path: path, line: number,
                        message:
                            "written in history format \(version) by a newer swiftcov; this one reads format \(Self.version)"
                    )
                }
                guard let kind = try scanner.nextMember(&started) else { throw scanner.error("a record needs a kind") }
                if kind.equals("run") {
                    runLines.append((number, range))
                    continue
                }
                guard kind.equals("name") else { throw scanner.error("unknown record \"\(kind.decoded())\"") }
                let reference = try scanner.readRawString()
                guard let value = Self.number(ofReference: reference) else {
                    throw scanner.error("not a name reference")
                }
                guard let key = try scanner.nextMember(&started), key.equals("id") else {
                    throw scanner.error("a name record needs \"id\"")
                }
                let name = try scanner.readString()
                guard try scanner.nextMember(&started) == nil, scanner.isAtEnd() else {
                    throw scanner.error("unexpected data after the name record")
                }
                let salted = hash(name) == value ? 0 : (1...maximumSalt).first { hash(name, salt: $0) == value }
                guard let salted else {
                    throw ReadError(
                        path: path, line: number, message: "name reference does not match its name (damaged)")
                }
                if let other = nameByNumber[value], history.names[Int(other)] != name {
                    throw ReadError(
                        path: path, line: number,
                        message:
                            "reference \(reference.decoded().terminalSafe) names both "
                            + "\"\(history.names[Int(other)].terminalSafe)\" (line \(lineByNumber[value] ?? 0)) and "
                            + "\"\(name.terminalSafe)\": two writers gave colliding names one reference")
                }
                let test = history.intern(name)
                nameByNumber[value] = test
                lineByNumber[value] = lineByNumber[value] ?? number
                if salted > 0 { history.storedReferences[name] = value }
            } catch let error as JSONError {
                if error.offset >= range.count {
                    warnings.append(cutShort(path: path, line: number))
                    continue
                }
                throw ReadError(
                    path: path, line: number, message: "\(error.message) (byte \(error.offset + 1) of the line)")
            } catch let error as ReadError {
                throw error
            } catch {
                throw ReadError(path: path, line: number, message: "\(error)")
            }
        }
        endPass()
        // Pass 2: the runs.
        var indexByRunID: [String: Int] = [:]
        var read: [TestHistory.Run] = []
        // The keys many runs repeat (repository, commit, tree, branch, environment), each kept
        // once: a million runs hold a few thousand strings, not millions.
        var pool = Set<String>()
        var repository: (name: String, line: Int)?
        for (number, range) in runLines {
            reached(range.upperBound)
            let run: TestHistory.Run
            do throws(JSONError) {
                run = try readRun(UnsafeRawBufferPointer(rebasing: bytes[range]), names: nameByNumber, pool: &pool)
            } catch {
                if error.offset >= range.count {
                    warnings.append(cutShort(path: path, line: number))
                    continue
                }
                throw ReadError(
                    path: path, line: number, message: "\(error.message) (byte \(error.offset + 1) of the line)")
            }
            if run.time > latestTime {
                warnings.append(
                    .warning(
                        file: path, at: .line(number),
                        "run \(run.id.terminalSafe) is dated in the future (\(run.time) seconds since 1970); skipped"))
                continue
            }
            if !run.repository.isEmpty {
                if let repository, repository.name != run.repository {
                    throw ReadError(
                        path: path, line: number,
                        message:
                            "run \(run.id.terminalSafe) is of another repository than line \(repository.line)'s "
                            + "(first commits \(run.repository.prefix(12)) and \(repository.name.prefix(12)))")
                }
                repository = repository ?? (run.repository, number)
            }
            if let earlier = indexByRunID[run.id] {
                if read[earlier] != run {
                    warnings.append(
                        .warning(
                            file: path, at: .line(number),
                            "run \(run.id.terminalSafe) is recorded twice with different results; kept the first"))
                }
                continue
            }
            indexByRunID[run.id] = read.count
            read.append(run)
        }
        endPass()
        runLines = []
        indexByRunID = [:]
        read.sort { $0.time != $1.time ? $0.time < $1.time : $0.id < $1.id }
        history.append(sorted: read)
        return Reading(history: history, warnings: warnings)
    }

    /// A record that ends before its JSON does: a write that did not end (the job was killed),
    /// whatever was appended after it. Its run is lost, never misread.
    private static func cutShort(path: String, line: Int) -> Diagnostic {
        .warning(file: path, at: .line(line), "record cut short (a write that did not end); skipped")
    }

    /// The line starting at `start` (without its line break), and where the next one starts.
    private static func line(
        startingAt start: Int, in bytes: UnsafeRawBufferPointer
    ) -> (line: Range<Int>, next: Int) {
        // memchr: the scan of every byte of the history, the first pass's main work.
        var end = bytes.count
        if start < bytes.count, let base = bytes.baseAddress,
            let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        {
            end = base.distance(to: UnsafeRawPointer(newline))
        }
        var last = end
        if last > start, bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
        return (start..<last, end + 1)
    }

    private static func readRun(
        _ line: UnsafeRawBufferPointer, names: ReferenceTable, pool: inout Set<String>
    ) throws(JSONError) -> TestHistory.Run {
        var scanner = JSONScanner(line)
        /// A string of the line, as the pool holds it when another run had it.
        func shared(_ scanner: inout JSONScanner) throws(JSONError) -> String {
            pooled(try scanner.readString(), in: &pool)
        }
        var run = TestHistory.Run(id: "", time: 0)
        // With where each is on the line.
        var evidence: [(finding: TestHistory.OrderDependent, offset: Int)] = []
        var started = false
        var hasTests = false
        try scanner.beginObject()
        while let key = try scanner.nextMember(&started) {
            if key.equals("v") {
                _ = try scanner.readInt()
            } else if key.equals("run") {
                run.id = try scanner.readString()
                guard !run.id.isEmpty else { throw scanner.error("a run needs an ID") }
            } else if key.equals("time") {
                run.time = try scanner.readInt()
            } else if key.equals("repository") {
                run.repository = try shared(&scanner)
            } else if key.equals("commit") {
                run.commit = try shared(&scanner)
            } else if key.equals("tree") {
                run.tree = try shared(&scanner)
            } else if key.equals("dirty") {
                run.isDirty = try scanner.readBool()
            } else if key.equals("branch") {
                run.branch = try shared(&scanner)
            } else if key.equals("environment") {
                run.environment = try shared(&scanner)
            } else if key.equals("environmentName") {
                run.environmentName = try shared(&scanner)
            } else if key.equals("shard") {
                run.shard = try shared(&scanner)
            } else if key.equals("alone") {
                run.isAlone = try scanner.readBool()
            } else if key.equals("complete") {
                run.isComplete = try scanner.readBool()
            } else if key.equals("buildFailed") {
                run.buildFailed = try scanner.readBool()
            } else if key.equals("totals") {
                let values = try readCounts(&scanner, count: 6)
                // No count above the tests, and no more tests than a run can have (2^40).
                guard values[0] < 1 << 40, values.dropFirst().allSatisfy({ $0 <= values[0] }) else {
                    throw scanner.error("totals out of range: each count is at most the tests'")
                }
                run.totals.tests = values[0]
                run.totals.passed = values[1]
                run.totals.failed = values[2]
                run.totals.skipped = values[3]
                run.totals.errors = values[4]
                run.totals.flaky = values[5]
                // Room for the tests named (as many as the line could hold, for a damaged count).
                run.executions.reserveCapacity(min(values[0], line.count / 13))
            } else if key.equals("coverage") {
                run.coverage = try readCoverage(&scanner, pool: &pool)
            } else if key.equals("tests") {
                hasTests = true
                try scanner.beginArray()
                var more = false
                while try scanner.nextElement(&more) {
                    var compact: TestHistory.Execution?
                    if scanner.readDirectly({ compactExecution($0, names: names, into: &compact) }), let compact {
                        run.executions.append(compact)
                        continue
                    }
                    try scanner.beginArray()
                    let test = try readReference(&scanner, names: names)
                    try scanner.expect(UInt8(ascii: ","))
                    let status = try readStatus(&scanner)
                    try scanner.expect(UInt8(ascii: ","))
                    let attempt = try scanner.readInt()
                    guard (0...Int64(UInt8.max)).contains(attempt) else { throw scanner.error("attempt out of range") }
                    try scanner.expect(UInt8(ascii: ","))
                    let milliseconds = try scanner.readInt()
                    guard (0...Int64(UInt32.max)).contains(milliseconds) else {
                        throw scanner.error("milliseconds out of range")
                    }
                    try scanner.expect(UInt8(ascii: "]"))
                    run.executions.append(
                        TestHistory.Execution(
                            test: test, status: status, attempt: UInt8(attempt), milliseconds: UInt32(milliseconds)))
                }
            } else if key.equals("orderDependent") {
                try scanner.beginArray()
                var more = false
                while try scanner.nextElement(&more) {
                    try scanner.beginArray()
                    let test = try readReference(&scanner, names: names)
                    try scanner.expect(UInt8(ascii: ","))
                    let alone = try readStatus(&scanner)
                    try scanner.expect(UInt8(ascii: ","))
                    let inSuite = try readStatus(&scanner)
                    try scanner.expect(UInt8(ascii: "]"))
                    run.orderDependent.append(TestHistory.OrderDependent(test: test, alone: alone, inSuite: inSuite))
                }
            } else if key.equals("orderEvidence") {
                try scanner.beginArray()
                var more = false
                while try scanner.nextElement(&more) {
                    let offset = scanner.offset
                    try scanner.beginArray()
                    var finding = TestHistory.OrderDependent(
                        test: try readReference(&scanner, names: names), alone: .failed, inSuite: .passed)
                    (finding.aloneRuns, finding.aloneAgreeing) = try readAgreement(&scanner)
                    if scanner.peek() == UInt8(ascii: ",") {
                        try scanner.expect(UInt8(ascii: ","))
                        finding.cause = try readReference(&scanner, names: names)
                        (finding.causeRuns, finding.causeAgreeing) = try readAgreement(&scanner)
                        guard finding.cause != finding.test else {
                            throw scanner.error("a test cannot depend on itself")
                        }
                    }
                    try scanner.expect(UInt8(ascii: "]"))
                    evidence.append((finding, offset))
                }
            } else {
                // A later version's addition: ignored, as long as it is JSON.
                try scanner.skipValue()
            }
        }
        guard scanner.isAtEnd() else { throw scanner.error("unexpected data after the run record") }
        // The confirmations of `orderDependent`'s findings, whichever key came first.
        for (confirmation, offset) in evidence {
            guard let index = run.orderDependent.firstIndex(where: { $0.test == confirmation.test }) else {
                throw JSONError(offset: offset, message: "\"orderEvidence\" names a test \"orderDependent\" does not")
            }
            run.orderDependent[index].aloneRuns = confirmation.aloneRuns
            run.orderDependent[index].aloneAgreeing = confirmation.aloneAgreeing
            run.orderDependent[index].cause = confirmation.cause
            run.orderDependent[index].causeRuns = confirmation.causeRuns
            run.orderDependent[index].causeAgreeing = confirmation.causeAgreeing
        }
        guard !run.id.isEmpty, run.time > 0, hasTests else {
            throw scanner.error("a run record needs \"run\", \"time\" and \"tests\"")
        }
        return run
    }

    /// An execution as writers write it, `["1x2y3z","p",0,12]`: no whitespace, a reference of at
    /// most 13 digits within 64 bits that a name line gave, a known outcome, an attempt of at most 3 digits and
    /// milliseconds of at most 9; the bytes it took, nil for anything else (read value by value,
    /// which tells what is wrong). Every test of every run is one of these: a run of a thousand
    /// tests is read in one pass over its bytes, not as seven JSON values each.
    @inline(__always)
    private static func compactExecution(
        _ bytes: UnsafeBufferPointer<UInt8>, names: ReferenceTable, into execution: inout TestHistory.Execution?
    ) -> Int? {
        // The longest such execution is 35 bytes: with 36 left, no index below passes the end.
        guard bytes.count >= 36, bytes[0] == UInt8(ascii: "["), bytes[1] == UInt8(ascii: "\"") else { return nil }
        // The reference: the digits up to its closing quote, at most 13 of them.
        var index = 2
        while index < 16, bytes[index] != UInt8(ascii: "\"") { index += 1 }
        guard index < 16, let reference = number(ofReference: UnsafeBufferPointer(rebasing: bytes[2..<index])),
            bytes[index + 1] == UInt8(ascii: ","),
            bytes[index + 2] == UInt8(ascii: "\""), let status = status(code: bytes[index + 3]),
            bytes[index + 4] == UInt8(ascii: "\""), bytes[index + 5] == UInt8(ascii: ","),
            let test = names[reference]
        else { return nil }
        index += 6
        /// Digits up to `separator`, at most `longest` of them.
        func decimal(longest: Int, then separator: UInt8) -> UInt64? {
            let start = index
            var value: UInt64 = 0
            while index - start < longest {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                value = value &* 10 &+ UInt64(digit)
                index += 1
            }
            guard index > start, bytes[index] == separator else { return nil }
            index += 1
            return value
        }
        guard let attempt = decimal(longest: 3, then: UInt8(ascii: ",")), attempt <= UInt64(UInt8.max),
            let milliseconds = decimal(longest: 9, then: UInt8(ascii: "]"))
        else { return nil }
        execution = TestHistory.Execution(
            test: test, status: status, attempt: UInt8(attempt), milliseconds: UInt32(milliseconds))
        return index
    }

    /// `text` as `pool` holds it when a run had it before (a key, a module, a file): a million
    /// runs hold a few thousand strings, not millions. Short strings are stored inline anyway.
    private static func pooled(_ text: String, in pool: inout Set<String>) -> String {
        text.utf8.count <= 15 ? text : pool.insert(text).memberAfterInsert
    }

    private static func readReference(_ scanner: inout JSONScanner, names: ReferenceTable) throws(JSONError) -> Int32 {
        let raw = try scanner.readRawString()
        guard let number = Self.number(ofReference: raw), let test = names[number] else {
            throw scanner.error("test \"\(raw.decoded().terminalSafe)\" has no name line")
        }
        return test
    }

    /// `,runs,agreeing` of `orderEvidence`: 1 to 255 runs, at most that many agreeing.
    private static func readAgreement(_ scanner: inout JSONScanner) throws(JSONError) -> (UInt8, UInt8) {
        try scanner.expect(UInt8(ascii: ","))
        let runs = try scanner.readInt()
        try scanner.expect(UInt8(ascii: ","))
        let agreeing = try scanner.readInt()
        guard (1...Int64(UInt8.max)).contains(runs), (0...runs).contains(agreeing) else {
            throw scanner.error("runs out of range: 1 to 255, at most that many agreeing")
        }
        return (UInt8(runs), UInt8(agreeing))
    }

    private static func readStatus(_ scanner: inout JSONScanner) throws(JSONError) -> TestRun.Status {
        let raw = try scanner.readRawString()
        guard raw.count == 1, let status = status(code: raw.start[0]) else {
            throw scanner.error("an outcome is \"p\", \"f\", \"e\" or \"s\"")
        }
        return status
    }

    private static func readCounts(_ scanner: inout JSONScanner, count: Int) throws(JSONError) -> [Int] {
        var values: [Int] = []
        try scanner.beginArray()
        var more = false
        while try scanner.nextElement(&more) {
            let value = try scanner.readInt()
            guard value >= 0, values.count < count else { throw scanner.error("expected \(count) counts of 0 or more") }
            values.append(Int(value))
        }
        guard values.count == count else { throw scanner.error("expected \(count) counts") }
        return values
    }

    private static func readCoverage(
        _ scanner: inout JSONScanner, pool: inout Set<String>
    ) throws(JSONError) -> TestHistory.Coverage {
        func counts(_ scanner: inout JSONScanner) throws(JSONError) -> TestHistory.Coverage.Counts {
            let values = try readCounts(&scanner, count: 6)
            guard values[0] <= values[1], values[2] <= values[3], values[4] <= values[5] else {
                throw scanner.error("more covered than there are")
            }
            return TestHistory.Coverage.Counts(
                lines: Metric(count: values[1], covered: values[0]),
                functions: Metric(count: values[3], covered: values[2]),
                regions: Metric(count: values[5], covered: values[4]))
        }
        var coverage = TestHistory.Coverage(total: .init())
        var started = false
        try scanner.beginObject()
        while let key = try scanner.nextMember(&started) {
            if key.equals("total") {
                coverage.total = try counts(&scanner)
            } else if key.equals("modules") {
                var more = false
                try scanner.beginObject()
                while let name = try scanner.nextMember(&more) {
                    coverage.modules.append((pooled(name.decoded(), in: &pool), try counts(&scanner)))
                }
            } else if key.equals("files") {
                var more = false
                try scanner.beginObject()
                while let path = try scanner.nextMember(&more) {
                    let values = try readCounts(&scanner, count: 2)
                    guard values[0] <= values[1] else { throw scanner.error("more covered than there are") }
                    coverage.files.append(
                        (pooled(path.decoded(), in: &pool), Metric(count: values[1], covered: values[0])))
                }
            } else {
                try scanner.skipValue()
            }
        }
        return coverage
    }
}

/// The tests of a history by the number of their reference: every test of every run line is
/// looked up here. References are hashes already; the table mixes them with a multiplier drawn
/// for each table (multiply-shift), so that no history, however its names were chosen, makes the
/// lookups collide more than chance does.
struct ReferenceTable {
    /// Open addressing: the slots' references, and the test plus one in each (0: empty).
    private var references: [UInt64] = Array(repeating: 0, count: 64)
    private var tests: [Int32] = Array(repeating: 0, count: 64)
    private var count = 0
    private var shift = 58
    private let multiplier = UInt64.random(in: 0...UInt64.max) | 1

    /// The test of `reference`, nil when no name line gave it.
    subscript(reference: UInt64) -> Int32? {
        get {
            let mask = tests.count - 1
            var slot = self.slot(of: reference)
            while true {
                let test = tests[slot]
                if test == 0 { return nil }
                if references[slot] == reference { return test &- 1 }
                slot = (slot + 1) & mask
            }
        }
        set {
            guard let newValue else { preconditionFailure("references are never removed") }
            if 2 * (count + 1) > tests.count { grow() }
            let mask = tests.count - 1
            var slot = self.slot(of: reference)
            while tests[slot] != 0 && references[slot] != reference { slot = (slot + 1) & mask }
            if tests[slot] == 0 { count += 1 }
            references[slot] = reference
            tests[slot] = newValue &+ 1
        }
    }

    private func slot(of reference: UInt64) -> Int { Int(truncatingIfNeeded: (reference &* multiplier) >> shift) }

    private mutating func grow() {
        let (oldReferences, oldTests) = (references, tests)
        references = Array(repeating: 0, count: oldTests.count * 2)
        tests = Array(repeating: 0, count: oldTests.count * 2)
        shift -= 1
        let mask = tests.count - 1
        for index in oldTests.indices where oldTests[index] != 0 {
            var slot = slot(of: oldReferences[index])
            while tests[slot] != 0 { slot = (slot + 1) & mask }
            references[slot] = oldReferences[index]
            tests[slot] = oldTests[index]
        }
    }
}
