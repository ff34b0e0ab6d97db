import Testing
import XCTest

@testable import Tiny

final class DescribeTests: XCTestCase {
    func testPositive() {
        XCTAssertEqual(describe(3), "positive")
    }

    /// Fails when TINY_FAIL is set: `swiftcov run` must still produce the coverage.
    func testZero() {
        let expected = ProcessInfo.processInfo.environment["TINY_FAIL"] == nil ? "zero" : "nothing"
        XCTAssertEqual(describe(0), expected)
    }

    /// Crashes when TINY_CRASH is set, hangs when TINY_HANG is: `run --per-test` reports it and goes on.
    /// TINY_MISBEHAVE makes it misbehave otherwise (see `misbehave`).
    func testMisbehaving() throws {
        let environment = ProcessInfo.processInfo.environment
        if environment["TINY_CRASH"] != nil { fatalError("TINY_CRASH") }
        if environment["TINY_HANG"] != nil { sleep(600) }
        if let mode = environment["TINY_MISBEHAVE"] { try misbehave(mode, pids: environment["TINY_PIDS"]) }
        XCTAssertEqual(describe(1), "positive")
    }

    /// close: closes its output, then hangs. detach: starts a process in a process group of its
    /// own that keeps the output open, then hangs. leave: the same, then passes. flood: prints
    /// 12 MB, then passes. The processes' IDs (this one's, then the one it started) go to the file
    /// TINY_PIDS, once they run.
    func misbehave(_ mode: String, pids: String?) throws {
        var started: [pid_t] = [getpid()]
        switch mode {
        case "close":
            close(1)
            close(2)
        case "detach", "leave":
            var pid = pid_t()
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup("600"), nil]
            XCTAssertEqual(posix_spawnp(&pid, "sleep", nil, &attributes, argv, environ), 0)
            started.append(pid)
        case "flood":
            let line = Data(repeating: UInt8(ascii: "a"), count: 99) + Data("\n".utf8)
            let block = Data((0..<1000).flatMap { _ in line })
            for _ in 0..<120 { FileHandle.standardOutput.write(block) }
        default:
            break
        }
        if let pids {
            try started.map(String.init).joined(separator: " ").write(toFile: pids, atomically: true, encoding: .utf8)
        }
        if mode != "leave" && mode != "flood" { sleep(600) }
    }
}

@Test func negative() {
    #expect(describe(-1) == "negative")
}

/// A suite: `swiftcov run` reads the event stream, so this lands in `TinyTests.SignTests`.
/// `minusOne` attaches what it saw: `swiftcov run` keeps the file and names it in JUnit.
@Suite struct SignTests {
    @Test func minusOne() {
        Attachment.record("describe(-1) = \(describe(-1))", named: "sign.txt")
        #expect(describe(-1) == "negative")
    }
}
