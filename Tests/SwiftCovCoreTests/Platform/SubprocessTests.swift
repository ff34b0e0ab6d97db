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

/// `Subprocess`: programs that close their output, hang, or leave processes behind holding it.
/// Each hang is on `sleep 600`, which no deadline here can race; each test only checks that the
/// run ends (the hang is ended by swiftcov) and what it reports.
@Suite("Running programs", .removingTemporaryFolders)
struct SubprocessTests {
    /// Whether `pid` is gone (or ended, waiting to be reaped by its parent).
    static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    /// The process IDs a program printed, one a line.
    static func pids(_ result: Subprocess.Result) -> [Int32] {
        result.outputText.split(separator: "\n").compactMap { Int32($0) }
    }

    static let hasSetsid = FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid")

    @Test("a program that closes its output and hangs is killed at its deadline all the same")
    func closedOutput() throws {
        let result = try Subprocess.capture("/bin/sh", ["-c", "exec >&- 2>&-; sleep 600"], timeout: 1)
        #expect(result.timedOut)
        #expect(result.status == 128 + SIGKILL)
    }

    @Test(
        "a hanging program whose child is in a process group of its own and holds the output: both killed",
        .enabled(if: hasSetsid))
    func detachedChild() throws {
        let result = try Subprocess.capture(
            "/bin/sh", ["-c", "setsid sleep 600 & echo $!; sleep 600"], mergingErrors: true, timeout: 1)
        #expect(result.timedOut)
        let pids = Self.pids(result)
        #expect(pids.count == 1)
        #expect(pids.allSatisfy(Self.isGone), "\(pids)")
        #expect(result.leftovers >= 1)
    }

    @Test(
        "a program that ends at once but leaves a child holding its output: its own status, the child killed",
        .enabled(if: hasSetsid), arguments: [nil, 600.0])
    func leftChild(timeout: Double?) throws {
        let result = try Subprocess.capture(
            "/bin/sh", ["-c", "setsid sleep 600 & echo $!; exit 3"], mergingErrors: true, timeout: timeout)
        #expect(!result.timedOut)
        #expect(result.status == 3)
        let pids = Self.pids(result)
        #expect(pids.count == 1 && pids.allSatisfy(Self.isGone), "\(pids)")
        #expect(result.leftovers >= 1)
    }

    @Test("a background process of the program's group that closed its output is ended with the program")
    func backgroundInGroup() throws {
        let result = try Subprocess.capture(
            "/bin/sh", ["-c", "sleep 600 >/dev/null 2>&1 & echo $!"], mergingErrors: true)
        #expect(result.status == 0 && !result.timedOut)
        let pids = Self.pids(result)
        #expect(pids.count == 1 && pids.allSatisfy(Self.isGone), "\(pids)")
    }

    @Test("the output kept is bounded: its start and its end, and a line saying how much was dropped")
    func boundedOutput() throws {
        let script = "i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done"
        let result = try Subprocess.capture("/bin/sh", ["-c", script], outputLimit: 1000)
        #expect(result.status == 0)
        let lines = result.outputText.split(separator: "\n")
        #expect(lines.first == "line 0")
        #expect(lines.last == "line 1999")
        #expect(result.output.count < 1100)
        #expect(result.droppedBytes > 15_000)
        #expect(lines.contains { $0.hasPrefix("[swiftcov: ") && $0.hasSuffix(" bytes of output dropped here]") })
        let whole = try Subprocess.capture("/bin/sh", ["-c", script])
        #expect(whole.droppedBytes == 0 && whole.outputText.split(separator: "\n").count == 2000)
    }

    @Test("bounded bytes: whole lines of the start and the end, however the bytes come")
    func boundedBytes() {
        let text = Array((0..<100).map { "\($0)\n" }.joined().utf8)
        for chunk in [1, 3, 7, 64, 1000] {
            var kept = BoundedBytes(limit: 40)
            var index = 0
            while index < text.count {
                let end = min(text.count, index + chunk)
                text[index..<end].withUnsafeBufferPointer { kept.append($0) }
                index = end
            }
            #expect(kept.dropped == text.count - 40, "\(chunk)")
            let lines = String(decoding: kept.lines, as: UTF8.self)
            #expect(lines.hasPrefix("0\n1\n2\n") && lines.hasSuffix("98\n99\n"), "\(chunk): \(lines)")
            #expect(!lines.contains("swiftcov"))
            let noted = String(decoding: kept.bytes, as: UTF8.self)
            #expect(noted.contains("bytes of output dropped here]\n") && noted.hasSuffix("99\n"), "\(noted)")
        }
        var none = BoundedBytes(limit: 0)
        text.withUnsafeBufferPointer { none.append($0) }
        #expect(none.dropped == text.count)
    }

    @Test("/proc/PID/stat: the fields after the name, whatever the name holds")
    func procStat() {
        let entry = ProcessTree.parseStat(Array("42 (a (b) c) Z 7 40 1 0".utf8))
        #expect(entry == ProcessTree.Entry(pid: 42, parent: 7, group: 40, zombie: true))
        #expect(ProcessTree.parseStat(Array("42 a S 1 1".utf8)) == nil)
        #expect(ProcessTree.parseStat(Array("x (a) S 1 1".utf8)) == nil)
        #expect(ProcessTree.parseStat(Array("1 (a) S".utf8)) == nil)
        #if os(Linux)
            let me = ProcessTree.all().first { $0.pid == getpid() }
            #expect(me?.parent == getppid() && me?.group == getpgrp())
        #endif
    }

    @Test("one run at a time per output folder: a second waits until the first lets go")
    func outputLock() throws {
        let folder = try temporaryDirectory() + "/out"
        let first = try OutputLock.acquire(folder) { Issue.record("nothing holds it yet") }
        let waiting = DispatchSemaphore(value: 0)
        let acquired = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let second = try? OutputLock.acquire(folder) { waiting.signal() }
            acquired.signal()
            if let second { OutputLock.release(second) }
        }
        waiting.wait()
        OutputLock.release(first)
        #expect(acquired.wait(timeout: .now() + 60) == .success)
        #expect(throws: SystemCallError.self) { try OutputLock.acquire("/dev/null/out") {} }
    }
}
