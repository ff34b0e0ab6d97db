import Foundation

@testable import SwiftCovAnalyses
@testable import SwiftCovCore
@testable import SwiftCovFormats
@testable import SwiftCovInputs
@testable import SwiftCovModel
@testable import SwiftCovPlatform
@testable import SwiftCovProducts
@testable import SwiftCovWorkflow

/// The operating system as the run workflow sees it, with every program it starts — `swift`,
/// the toolchain's `llvm-profdata` and `llvm-cov`, the package's test executable — answered from
/// a recording instead of started. Files go to the real (temporary) folders; every command is
/// recorded; writes to chosen paths fail as on a full disk.
final class FakeSystem: System, @unchecked Sendable {
    /// What a program answers: its exit status and output, and what it does to the files (SwiftPM
    /// writing an export, a test executable writing its profile).
    struct Answer {
        var status: Int32 = 0
        var output: [UInt8] = []
        var effect: (@Sendable (Command) throws -> Void)? = nil

        init(status: Int32 = 0, output: String = "", effect: (@Sendable (Command) throws -> Void)? = nil) {
            self.status = status
            self.output = Array(output.utf8)
            self.effect = effect
        }

        init(status: Int32 = 0, bytes: [UInt8], effect: (@Sendable (Command) throws -> Void)? = nil) {
            self.status = status
            self.output = bytes
            self.effect = effect
        }
    }

    private let live = LiveSystem()
    private let answer: @Sendable (Command) -> Answer?
    private let recorded = Locked<[Command]>([])
    /// Writes to a path ending with one of these fail with ENOSPC.
    let failingWrites: [String]

    /// `answer` gives each command's answer; nil for a program the recording does not have
    /// (started, it fails as a missing program does).
    init(failingWrites: [String] = [], _ answer: @escaping @Sendable (Command) -> Answer?) {
        self.failingWrites = failingWrites
        self.answer = answer
    }

    /// The commands started, in order.
    var calls: [Command] { recorded.withLock { $0 } }

    private func start(_ command: Command) throws -> Answer {
        recorded.withLock { $0.append(command) }
        guard let answer = answer(command) else {
            throw Subprocess.LaunchError(program: command.program, reason: "not in the recording")
        }
        try answer.effect?(command)
        return answer
    }

    func capture(_ command: Command) throws -> Subprocess.Result {
        let answer = try start(command)
        return Subprocess.Result(status: answer.status, output: answer.output, error: [])
    }

    func stream(_ command: Command, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Int32 {
        let answer = try start(command)
        // In pieces, as a pipe delivers them: lines cut anywhere.
        var start = 0
        while start < answer.output.count {
            let end = min(start + 4093, answer.output.count)
            answer.output[start..<end].withUnsafeBufferPointer(body)
            start = end
        }
        return answer.status
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>, to path: String) throws {
        if failingWrites.contains(where: { path.hasSuffix($0) }) {
            throw SystemCallError(.write, path: path, errno: ENOSPC)
        }
        try live.write(bytes, to: path)
    }

    func makeDirectory(_ path: String) throws { try live.makeDirectory(path) }
    func remove(_ path: String) -> Bool { live.remove(path) }
    func entries(of folder: String) -> [String]? { live.entries(of: folder) }
    func fileSize(_ path: String) -> Int? { live.fileSize(path) }
    func isExecutable(_ path: String) -> Bool { live.isExecutable(path) }
}

/// A diagnostics sink that keeps what it is told, for a test to check.
final class CollectingSink: DiagnosticSink, @unchecked Sendable {
    private let state = Locked(
        (
            diagnostics: [Diagnostic](), stages: [String](), output: [UInt8](),
            ended: [String?](), results: [PerTestRunner.Result]()
        ))

    var diagnostics: [Diagnostic] { state.withLock { $0.diagnostics } }
    var stages: [String] { state.withLock { $0.stages } }
    var output: String { state.withLock { String(decoding: $0.output, as: UTF8.self) } }
    /// The errors each program's end came with.
    var ended: [String?] { state.withLock { $0.ended } }
    var results: [PerTestRunner.Result] { state.withLock { $0.results } }

    func emit(_ diagnostic: Diagnostic) { state.withLock { $0.diagnostics.append(diagnostic) } }
    func stage(_ description: String) { state.withLock { $0.stages.append(description) } }
    func output(_ bytes: UnsafeBufferPointer<UInt8>) { state.withLock { $0.output.append(contentsOf: bytes) } }
    func outputEnded(errors: @autoclosure () -> String?) {
        let errors = errors()
        state.withLock { $0.ended.append(errors) }
    }
    func testEnded(_ result: PerTestRunner.Result, count: Int, of total: Int) {
        state.withLock { $0.results.append(result) }
    }
}
