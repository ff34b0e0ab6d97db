import Foundation
import SwiftCovTestSupport
import Testing

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

@Suite("The history of runs: its lines read back, and damage is named or skipped, never guessed")
struct HistoryFormatTests {
    /// A history of two runs of the trivia modules' real failing log, one with a retry.
    static func sample() throws -> TestHistory {
        var tests = try TestResultsReader.read(paths: [Fixture.sample.path("swift-test-failing.log")], utcOffset: 0)
        var history = TestHistory()
        let keys = TestHistory.Run(
            id: "github-1-1-test", time: 1_795_939_200, repository: "a1", commit: "c1", tree: "t1", branch: "main",
            environment: "Linux x86_64 swift-6.3.1 debug")
        let report = try Fixture.sample.report()
        history.add(
            .recording(tests, keys: keys, coverage: TestHistory.Coverage(report), into: &history))
        // The second run: the first failing test passed on retry.
        let suite = tests.suites.firstIndex { $0.cases.contains { $0.status == .failed } }!
        let index = tests.suites[suite].cases.firstIndex { $0.status == .failed }!
        var retry = tests.suites[suite].cases[index]
        retry.status = .passed
        retry.issues = []
        tests.suites[suite].cases[index].rerun(as: retry)
        var second = keys
        second.id = "github-2-1-test"
        second.time += 3600
        history.add(.recording(tests, keys: second, coverage: nil, into: &history))
        return history
    }

    static func read(_ text: String, latestTime: Int64 = .max) throws(HistoryFormat.ReadError) -> HistoryFormat.Reading
    {
        var text = text
        return try text.withUTF8 { bytes in
            Result { () throws(HistoryFormat.ReadError) in
                try HistoryFormat.read(UnsafeRawBufferPointer(bytes), path: "h.jsonl", latestTime: latestTime)
            }
        }.get()
    }

    @Test("a history reads back as written, and in any order of its lines (as git merges notes)")
    func roundTrip() throws {
        let history = try Self.sample()
        let text = HistoryFormat.encode(history)
        let reading = try Self.read(text)
        #expect(reading.warnings.isEmpty)
        #expect(
            reading.history.runs
                == history.runs.map { run in
                    var run = run
                    run.executions = run.executions.map { execution in
                        var moved = execution
                        moved.test = reading.history.index(of: history.names[Int(execution.test)])!
                        return moved
                    }
                    return run
                })
        // Sorted lines, as `git notes merge -s cat_sort_uniq` leaves them: the same runs.
        let sorted = text.split(separator: "\n").sorted().joined(separator: "\n") + "\n"
        #expect(try Self.read(sorted).history.runs.map(\.id) == ["github-1-1-test", "github-2-1-test"])
        // The retried test: two attempts, failed then passed.
        let second = reading.history.runs[1]
        let attempts = second.executions.filter { $0.attempt == 1 }
        #expect(attempts.count == 1 && attempts[0].status == .passed)
        #expect(second.executions.contains { $0.test == attempts[0].test && $0.attempt == 0 && $0.status == .failed })
    }

    @Test("a large history is read in two passes from start to end, each told in steps of a few MiB")
    func readingInPasses() throws {
        // 20,000 runs (about 5 MB): a name line first, then runs, then another name line (git
        // sorts a merged note's lines) that a run before it uses.
        var text = #"{"v":1,"name":"\#(HistoryFormat.reference(of: "M.C/a"))","id":"M.C/a"}"# + "\n"
        let late = HistoryFormat.reference(of: "M.C/late")
        for index in 0..<20_000 {
            text +=
                #"{"v":1,"run":"r\#(index)","time":\#(1_700_000_000 + index),"commit":"c","tests":"#
                + #"[["\#(HistoryFormat.reference(of: "M.C/a"))","p",0,1],["\#(late)","f",0,2]]}"# + "\n"
        }
        text += #"{"v":1,"name":"\#(late)","id":"M.C/late"}"# + "\n"
        var told: [Range<Int>] = []
        let count = text.utf8.count
        let reading = try text.withUTF8 { bytes in
            Result { () throws(HistoryFormat.ReadError) in
                try HistoryFormat.read(UnsafeRawBufferPointer(bytes), path: "h.jsonl") { told.append($0) }
            }
        }.get()
        #expect(reading.history.runs.count == 20_000 && reading.history.names == ["M.C/a", "M.C/late"])
        #expect(reading.history.runs.last?.executions.map(\.status) == [.passed, .failed])
        // Each pass: ranges that follow one another from 0 to the end, none shorter than 4 MiB
        // but the pass's last.
        #expect(told.filter { $0.lowerBound == 0 }.count == 2, "\(told)")
        let starts = told.indices.filter { told[$0].lowerBound == 0 }
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : told.endIndex
            let pass = Array(told[start..<end])
            #expect(pass.last?.upperBound == count)
            #expect(zip(pass, pass.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(pass.dropLast().allSatisfy { $0.count >= 4 << 20 })
        }
    }

    @Test("a run of each test alone reads back alone; a run of the suite has no mark")
    func aloneRoundTrip() throws {
        var history = TestHistory()
        let test = history.intern("M.C/testA")
        var alone = TestHistory.Run(
            id: "alone", time: 1, executions: [TestHistory.Execution(test: test, status: .failed)])
        alone.isAlone = true
        history.add(alone)
        history.add(
            TestHistory.Run(id: "suite", time: 2, executions: [TestHistory.Execution(test: test, status: .passed)]))
        let text = HistoryFormat.encode(history)
        #expect(text.split(separator: "\n").filter { $0.contains(#""alone":true"#) }.count == 1)
        #expect(try Self.read(text).history.runs.map(\.isAlone) == [true, false])
    }

    @Test("an order-dependent test's confirmation and the test it depends on read back; damaged, an error")
    func orderEvidenceRoundTrip() throws {
        var history = TestHistory()
        let a = history.intern("M.C/testA")
        let b = history.intern("M.C/testB")
        let c = history.intern("M.C/testC")
        var run = TestHistory.Run(
            id: "alone", time: 1,
            executions: [
                TestHistory.Execution(test: a, status: .passed), TestHistory.Execution(test: b, status: .failed),
            ])
        run.isAlone = true
        var confirmed = TestHistory.OrderDependent(test: b, alone: .failed, inSuite: .passed)
        (confirmed.aloneRuns, confirmed.aloneAgreeing) = (4, 4)
        (confirmed.cause, confirmed.causeRuns, confirmed.causeAgreeing) = (c, 2, 2)
        var disagreeing = TestHistory.OrderDependent(test: a, alone: .passed, inSuite: .failed)
        (disagreeing.aloneRuns, disagreeing.aloneAgreeing) = (4, 2)
        run.orderDependent = [confirmed, disagreeing]
        history.add(run)
        let text = HistoryFormat.encode(history)
        // The cause is a test of the history: its name line is written though it has no execution.
        #expect(text.contains(#""id":"M.C/testC""#))
        let references = [b, a, c].map { HistoryFormat.reference(of: history.names[Int($0)]) }
        #expect(
            text.contains(
                #""orderEvidence":[["\#(references[0])",4,4,"\#(references[2])",2,2],["\#(references[1])",4,2]]"#),
            "\(text)")
        let read = try Self.read(text).history
        let found = read.runs[0].orderDependent
        #expect(found.count == 2)
        #expect(found[0].cause.map { read.names[Int($0)] } == "M.C/testC")
        #expect(found[0].aloneRuns == 4 && found[0].causeRuns == 2 && found[0].causeAgreeing == 2)
        #expect(found[1].cause == nil && found[1].aloneAgreeing == 2 && !found[1].isConsistent)
        // The evidence before its finding reads the same; without `orderDependent`, or out of range, it is an error.
        let runLine = String(text.split(separator: "\n").last!)
        let evidence = runLine[
            runLine.range(of: #","orderEvidence""#)!.lowerBound..<runLine.index(before: runLine.endIndex)]
        let moved = runLine.replacingOccurrences(of: evidence, with: "")
            .replacingOccurrences(of: #""tests":"#, with: String(evidence.dropFirst()) + #","tests":"#)
        #expect(try Self.read(text.replacingOccurrences(of: runLine, with: moved)).history == read)
        let orderDependent = runLine[runLine.range(of: #","orderDependent""#)!.lowerBound..<evidence.startIndex]
        for damaged in [
            runLine.replacingOccurrences(of: orderDependent, with: ""),
            runLine.replacingOccurrences(of: ",4,4,", with: ",4,5,"),
            runLine.replacingOccurrences(of: ",4,4,", with: ",0,0,"),
            runLine.replacingOccurrences(of: ",4,4,", with: ",256,4,"),
            runLine.replacingOccurrences(of: references[2], with: references[0]),
        ] {
            #expect(throws: HistoryFormat.ReadError.self, "\(damaged)") {
                // Not the last line (a last line cut short is skipped).
                try Self.read(
                    text.replacingOccurrences(of: runLine, with: damaged) + #"{"v":1,"run":"z","time":3,"tests":[]}"#
                        + "\n")
            }
        }
    }

    @Test("each test of a run takes at most 40 bytes, its name once per history")
    func compact() throws {
        let history = try Self.sample()
        let lines = HistoryFormat.encode(history).split(separator: "\n")
        // The second run keeps no coverage: its line is its keys and its tests.
        let run = try #require(lines.last { $0.contains("\"run\":\"github-2") })
        #expect(run.utf8.count <= 40 * history.runs[1].executions.count)
        #expect(lines.filter { $0.contains("\"name\":") }.count == history.names.count)
    }

    @Test("the counts kept of the coverage are the report's")
    func coverage() throws {
        let report = try Fixture.sample.report()
        let history = try Self.sample()
        let kept = try #require(try Self.read(HistoryFormat.encode(history)).history.runs[0].coverage)
        #expect(kept.total.lines == report.totals.lines && kept.total.regions == report.totals.regions)
        #expect(kept.modules.count == report.modules.count && kept.files.count == report.files.count)
        let module = try #require(report.modules.first)
        #expect(kept.modules.first { $0.name == module.name }?.counts.functions == module.summary.functions)
    }

    @Test("a last line cut short, a run from the future and a run given twice are skipped, with a warning")
    func skipped() throws {
        let text = HistoryFormat.encode(try Self.sample())
        let lines = text.split(separator: "\n").map(String.init)
        // A write that did not end: the file ends inside the last line.
        let cut = try Self.read(lines.joined(separator: "\n").dropLast(40) + "")
        #expect(cut.history.runs.count == 1)
        #expect(cut.warnings.map(\.location) == [.line(lines.count)])
        #expect(cut.warnings.first?.message == "record cut short (a write that did not end); skipped")
        // From the future: after the latest time allowed.
        let future = try Self.read(text, latestTime: 1_795_939_200 + 10)
        #expect(future.history.runs.map(\.id) == ["github-1-1-test"])
        #expect(future.warnings.first?.message.contains("dated in the future") == true)
        // Twice the same (a cache restored twice): once, silently; twice different: the first, with a warning.
        #expect(try Self.read(text + text).warnings.isEmpty)
        let changed = text.split(separator: "\n").last!.replacingOccurrences(of: "\"p\"", with: "\"f\"")
        let twice = try Self.read(text + changed + "\n")
        #expect(twice.history.runs.count == 2)
        #expect(
            twice.warnings.first?.message
                == "run github-2-1-test is recorded twice with different results; kept the first")
    }

    @Test(
        "damage anywhere else is an error naming the line",
        arguments: [
            ("{\"v\":2,\"run\":\"x\"}", "written in history format 2 by a newer swiftcov; this one reads format 1"),
            ("not json", "expected an object, found 'n' (byte 1 of the line)"),
            ("{\"v\":1,\"name\":\"1\",\"id\":\"A/b\"}", "name reference does not match its name (damaged)"),
            ("{\"v\":1,\"run\":\"x\",\"time\":5,\"tests\":[[\"zz\",\"p\",0,1]]}", "test \"zz\" has no name line"),
            ("{\"v\":1,\"run\":\"x\",\"time\":5,\"tests\":[],\"totals\":[1,2]}", "expected 6 counts"),
            ("{\"v\":1,\"run\":\"x\",\"time\":5,\"tests\":[]} trailing", "unexpected data after the run record"),
            (
                "{\"v\":1,\"run\":\"x\",\"time\":5,\"tests\":[],\"coverage\":{\"total\":[9,1,0,0,0,0]}}",
                "more covered than there are"
            ),
            (
                "{\"v\":1,\"run\":\"x\",\"time\":5,\"tests\":[],\"totals\":[1e400,0,0,0,0,0]}",
                "expected an integer, found a fractional number (byte 48 of the line)"
            ),
            ("{\"v\":1,\"run\":\"\",\"time\":5,\"tests\":[]}", "a run needs an ID"),
            // Found by fuzzing: counts near 2^64 overflowed the infrastructure rule's arithmetic.
            (
                "{\"v\":1,\"run\":\"x\",\"time\":5,\"tests\":[],\"totals\":[8,0,0,0,9223372036854775807,0]}",
                "totals out of range: each count is at most the tests'"
            ),
        ])
    func damaged(line: String, message: String) throws {
        let text = line + "\n{\"v\":1,\"run\":\"ok\",\"time\":5,\"tests\":[]}\n"
        let error = #expect(throws: HistoryFormat.ReadError.self) { try Self.read(text) }
        #expect(error?.line == 1)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
        #expect(error?.diagnostic.formatted().hasPrefix("h.jsonl:1: error: ") == true)
    }

    /// A history of the tests `A/first` and `A/second` and one run of `tests` (their executions).
    static func run(_ tests: (_ first: String, _ second: String) -> String) -> String {
        let names = ["A/first", "A/second"]
        let references = names.map(HistoryFormat.reference(of:))
        return zip(references, names).map { "{\"v\":1,\"name\":\"\($0)\",\"id\":\"\($1)\"}\n" }.joined()
            + "{\"v\":1,\"run\":\"x\",\"time\":5,\"tests\":[\(tests(references[0], references[1]))],"
            + "\"totals\":[3,1,1,1,0,0]}\n"
    }

    @Test("executions as writers write them are read in one pass, to what reading them value by value gives")
    func compactExecutions() throws {
        let compact = Self.run { first, second in
            "[\"\(first)\",\"p\",0,12],[\"\(second)\",\"f\",1,4294967295],[\"\(first)\",\"s\",255,0]"
        }
        // Spaces after the commas: no execution has the shape read in one pass.
        let spaced = compact.replacingOccurrences(of: "],[", with: "], [").replacingOccurrences(of: "\",", with: "\", ")
        let fast = try Self.read(compact).history
        let slow = try Self.read(spaced).history
        let read = fast.runs.first?.executions.map {
            "\(fast.names[Int($0.test)]) \($0.status) \($0.attempt) \($0.milliseconds)"
        }
        #expect(read == ["A/first passed 0 12", "A/second failed 1 4294967295", "A/first skipped 255 0"])
        #expect(fast.runs == slow.runs && fast.names == slow.names)
    }

    @Test(
        "damage in an execution is named as when it is read value by value",
        arguments: [
            ("[\"zz\",\"p\",0,1]", "test \"zz\" has no name line"),
            ("[\"FIRST\",\"p\",256,1]", "attempt out of range"),
            ("[\"FIRST\",\"x\",0,1]", "an outcome is \"p\", \"f\", \"e\" or \"s\""),
            ("[\"FIRST\",\"p\",0,4294967296]", "milliseconds out of range"),
            ("[\"FIRST\",\"p\",0,-1]", "milliseconds out of range"),
            ("[\"FIRST\",\"p\",0,1,2]", "expected ']', found ','"),
            ("[\"0000000000000FIRST\",\"p\",0,1]", "test \"0000000000000"),
            // Thirteen digits beyond 64 bits.
            ("[\"zzzzzzzzzzzzz\",\"p\",0,1]", "test \"zzzzzzzzzzzzz\" has no name line"),
        ])
    func damagedExecution(execution: String, message: String) throws {
        let text = Self.run { first, second in
            // Enough bytes after the damaged execution that it would be read in one pass.
            execution.replacingOccurrences(of: "FIRST", with: first) + ",[\"\(second)\",\"p\",0,1]"
        }
        let error = #expect(throws: HistoryFormat.ReadError.self) { try Self.read(text) }
        #expect(error?.line == 3)
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }

    @Test("runs of two repositories in one history are an error")
    func twoRepositories() throws {
        let text =
            "{\"v\":1,\"run\":\"a\",\"time\":5,\"repository\":\"r1\",\"tests\":[]}\n"
            + "{\"v\":1,\"run\":\"b\",\"time\":6,\"repository\":\"r2\",\"tests\":[]}\n"
        let error = #expect(throws: HistoryFormat.ReadError.self) { try Self.read(text) }
        #expect(error?.line == 2 && error?.message.contains("another repository") == true)
    }

    @Test("an empty history is no runs; unknown keys of a later version are skipped")
    func tolerant() throws {
        #expect(try Self.read("").history.runs.isEmpty)
        let later = try Self.read("{\"v\":1,\"run\":\"x\",\"time\":5,\"tests\":[],\"shiny\":{\"new\":[1]}}\r\n")
        #expect(later.history.runs.map(\.id) == ["x"])
    }

    /// Two test names with one FNV-1a 64 hash (invented names, found by
    /// `scripts/fnv-collision.c`: Brent's cycle search over the hash of names of this shape, about
    /// 2^33 hashes, five minutes of one core).
    static let colliding = ("CollisionTests/test_27dcda2ad76a896c", "CollisionTests/test_5cdba9233fc9a7ea")

    @Test("the colliding pair is one: both names have one FNV-1a 64 hash")
    func collidingPair() {
        #expect(Self.colliding.0 != Self.colliding.1)
        #expect(HistoryFormat.hash(Self.colliding.0) == HistoryFormat.hash(Self.colliding.1))
    }

    @Test("two names with one hash stay two tests: the second is written under a salted reference")
    func collisionWritten() throws {
        let (a, b) = Self.colliding
        var history = TestHistory()
        for index in 0..<3 {
            history.add(
                TestHistory.Run(
                    id: "r\(index)", time: 10 + Int64(index),
                    executions: [
                        TestHistory.Execution(test: history.intern(a), status: .failed),
                        TestHistory.Execution(test: history.intern(b), status: .passed),
                    ]))
        }
        let text = HistoryFormat.encode(history)
        let nameLines = text.split(separator: "\n").filter { $0.contains(#""name":"#) }
        #expect(nameLines.count == 2)
        #expect(Set(nameLines.map { $0.split(separator: ",")[1] }).count == 2)
        let read = try Self.read(text).history
        #expect(read.names.sorted() == [a, b].sorted())
        // a failed every run, b passed every run: neither merged into the other.
        for run in read.runs {
            let outcomes = Dictionary(
                uniqueKeysWithValues: run.executions.map { (read.names[Int($0.test)], $0.status) })
            #expect(outcomes == [a: .failed, b: .passed])
        }
        let analysis = FlakyVerdicts.analyze(read)
        #expect(analysis.findings.map(\.test) == [a] && analysis.findings.first?.verdict.name == "broken")
        // Read back and written again (as compacting does), each name keeps its reference.
        #expect(HistoryFormat.encode(read.filter { _ in true }) == text)
        // A run appended later by a writer that read the file: the same references.
        var appended = read
        var keys = TestHistory.Run(id: "r3", time: 20)
        keys.executions = [TestHistory.Execution(test: appended.intern(b), status: .failed)]
        var known = Set(read.names)
        let more = HistoryFormat.lines(of: [keys], in: appended, skippingNames: &known)
        #expect(!more.contains(#""name":"#))
        let again = try Self.read(text + more).history
        #expect(again.runs.last.map { again.names[Int($0.executions[0].test)] } == b)
    }

    @Test("a reader that meets two names for one reference stops, naming the line: no test is merged into another")
    func collisionRead() throws {
        let (a, b) = Self.colliding
        let reference = HistoryFormat.reference(of: a)
        #expect(reference == HistoryFormat.reference(of: b))
        // What two writers that never saw each other's name write (merged notes).
        let text =
            "{\"v\":1,\"name\":\"\(reference)\",\"id\":\"\(a)\"}\n"
            + "{\"v\":1,\"run\":\"r1\",\"time\":5,\"tests\":[[\"\(reference)\",\"f\",0,1]]}\n"
            + "{\"v\":1,\"name\":\"\(reference)\",\"id\":\"\(b)\"}\n"
        let error = #expect(throws: HistoryFormat.ReadError.self) { try Self.read(text) }
        #expect(error?.line == 3)
        #expect(error?.message.contains("names both \"\(a)\" (line 1) and \"\(b)\"") == true, "\(error?.message ?? "")")
        #expect(error?.diagnostic.formatted().hasPrefix("h.jsonl:3: error: ") == true)
    }

    @Test(
        "the table of references finds what a dictionary finds, for references alike in their low bits, their high bits, or none"
    )
    func referenceTable() {
        var table = ReferenceTable()
        var truth: [UInt64: Int32] = [:]
        var references: [UInt64] = []
        for index in 0..<3_000 {
            let value = UInt64(index)
            // The same low bits, the same high bits, and FNV-1a hashes of real names.
            references += [value << 40, value | 0xFFFF_FF00_0000_0000, HistoryFormat.hash("Tests.Case/test\(index)")]
        }
        references += [0, .max]
        for (test, reference) in references.enumerated() {
            table[reference] = Int32(test)
            truth[reference] = Int32(test)
        }
        // Given again, a reference names its last test.
        table[references[5]] = 7
        truth[references[5]] = 7
        for reference in references { #expect(table[reference] == truth[reference]) }
        for absent in [1 << 63, 12345, HistoryFormat.hash("not a name")] as [UInt64] where truth[absent] == nil {
            #expect(table[absent] == nil)
        }
    }
}
