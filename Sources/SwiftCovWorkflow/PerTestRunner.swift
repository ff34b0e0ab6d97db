import Dispatch
import SwiftCovAnalyses
import SwiftCovInputs
import SwiftCovModel
import SwiftCovPlatform

/// Runs each test alone, on every core, so that its coverage is its own: the package's test
/// executable started once per test (XCTest's `Module.Class/method` selector, Swift Testing's
/// `--filter`) with its own `LLVM_PROFILE_FILE`, the way `swift test` starts it, without SwiftPM's
/// start-up per test.
///
/// A test's raw profile is read in place against the binary's coverage mapping, read once
/// (`RawProfile`, `CoverageMapping`, `ProfileAttribution`): the lines of the package's own files
/// whose count is not zero are the lines the test executed — exactly what `swift test --filter
/// TEST` followed by llvm-cov gives, without starting llvm-profdata or llvm-cov per test. When the
/// binary's mapping is in a format that reader does not know, each profile is indexed
/// (`llvm-profdata merge -sparse`) and exported for the package's own files only (`llvm-cov
/// export -skip-functions -skip-expansions -sources …`) instead.
package struct PerTestRunner: Sendable {
    package var toolchain: Toolchain
    /// The test executable (`.build/debug/NAMEPackageTests.xctest`).
    package var binary: String
    /// The package root: paths in the store are relative to it.
    package var root: String
    /// How a test's lines are found: from its raw profile and the binary's mapping, or (when
    /// the mapping cannot be read) from an llvm-cov export restricted to `sources`, the package's
    /// own files (absolute).
    package var attribution: Attribution

    package enum Attribution: Sendable {
        case mapping(ProfileAttribution)
        case llvmCov(sources: [String])
    }
    /// A folder for the profiles (created when missing).
    package var scratch: String
    /// How many tests run at once.
    package var jobs: Int
    /// Seconds a test may run before it is killed.
    package var timeout: Double
    /// How many bytes of a test's output (and of its event stream) are kept: its start and its
    /// end; what is between is dropped, and a line in the output says how much.
    package var outputLimit = PerTestRunner.defaultOutputLimit

    /// A few MiB: far more than a test's failures need, and a bounded share of memory per test.
    package static let defaultOutputLimit = 4 << 20

    package init(
        toolchain: Toolchain, binary: String, root: String, attribution: Attribution, scratch: String, jobs: Int,
        timeout: Double
    ) {
        self.toolchain = toolchain
        self.binary = binary
        self.root = root
        self.attribution = attribution
        self.scratch = scratch
        self.jobs = max(1, jobs)
        self.timeout = timeout
    }

    /// One test's run.
    package struct Result: Sendable {
        package var test: TestID
        package var outcome: PerTestCoverage.Outcome
        package var milliseconds: UInt64
        /// What its process printed (standard output and error), with SwiftPM's crash line added
        /// when it crashed or was killed, as `swift test` would print it.
        package var output: [UInt8]
        /// Swift Testing's event stream (empty for XCTest).
        package var events: [UInt8]
        /// The lines it executed, by path relative to the root.
        package var executed: [String: [UInt32]]
        /// Its profile (raw, or indexed when read by llvm-cov), when its process wrote one (a crash
        /// or a kill writes none).
        package var profile: String?
        /// Why its lines are unknown or incomplete, if they are.
        package var problem: String?
    }

    /// Runs `tests`, `jobs` at a time; `finished` hears of each as it ends (one at a time).
    /// Returns the results in the order of `tests`.
    package func run(_ tests: [TestID], finished: @Sendable (Result) -> Void = { _ in }) throws -> [Result] {
        try toolchain.system.makeDirectory(scratch)
        let state = Locked((next: 0, results: [Result?](repeating: nil, count: tests.count)))
        let workers = min(jobs, max(1, tests.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = state.withLock { state -> Int? in
                    guard state.next < tests.count else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let index else { return }
                let result = runOne(tests[index], number: index)
                state.withLock { state in
                    state.results[index] = result
                    finished(result)
                }
            }
        }
        return state.withLock { $0.results.map { $0! } }
    }

    /// The arguments that make the test executable run `test` alone.
    package static func arguments(for test: TestID, events: String) -> [String] {
        switch test.library {
        case .xctest:
            return ["--testing-library", "xctest", test.id]
        case .swiftTesting:
            return [
                "--testing-library", "swift-testing", "--filter", test.filterPattern, "--event-stream-output-path",
                events, "--event-stream-version", "0",
            ]
        }
    }

    private func runOne(_ test: TestID, number: Int) -> Result {
        let base = scratch + "/test-\(number)"
        let profraw = base + ".profraw"
        let eventsPath = base + ".events.jsonl"
        let system = toolchain.system
        system.remove(profraw)
        system.remove(eventsPath)
        var result = Result(
            test: test, outcome: .failed, milliseconds: 0, output: [], events: [], executed: [:], profile: nil)
        let start = Subprocess.monotonicSeconds()
        let process: Subprocess.Result
        do {
            process = try system.capture(
                Command(
                    binary, Self.arguments(for: test, events: eventsPath), environment: ["LLVM_PROFILE_FILE": profraw],
                    mergingErrors: true, timeout: timeout, outputLimit: outputLimit))
        } catch {
            result.problem =
                (error as? Subprocess.LaunchError).map { "cannot run \($0.program): \($0.reason)" }
                ?? "cannot run \(binary): \(error)"
            result.output = Array("error: \(result.problem!)\n".utf8)
            return result
        }
        result.milliseconds = UInt64(max(0, (Subprocess.monotonicSeconds() - start) * 1000))
        result.output = process.output
        if let events = try? MappedFile(path: eventsPath) {
            result.events = events.withUnsafeBytes { bytes in
                var kept = BoundedBytes(limit: outputLimit)
                kept.append(bytes.assumingMemoryBound(to: UInt8.self))
                return kept.lines
            }
            system.remove(eventsPath)
        }
        let signal = process.status > 128 ? process.status - 128 : 0
        if process.timedOut {
            result.outcome = .timedOut
            result.problem = "killed after \(Self.seconds(timeout)) s (--test-timeout)"
        } else if signal > 0 {
            result.outcome = .crashed
            result.problem = "crashed (signal \(signal))"
        } else if process.status == 0 {
            result.outcome = Self.onlySkipped(process.output) ? .skipped : .passed
        } else {
            result.outcome = .failed
        }
        if let problem = result.problem {
            // SwiftPM's own line for a test process that ended by a signal: the log readers
            // report the test that was running as an error with this message.
            if result.output.last.map({ $0 != 0x0A }) ?? false { result.output.append(0x0A) }
            let code = process.timedOut ? Subprocess.killSignal : signal
            result.output += Array(
                "error: Process '\(test.id)' exited with unexpected signal code \(code): \(problem)\n".utf8)
        }
        attribute(profraw, to: &result)
        return result
    }

    /// Reads the test's raw profile into `result`: its lines, and the profile to merge.
    private func attribute(_ profraw: String, to result: inout Result) {
        guard let size = toolchain.system.fileSize(profraw), size > 0 else {
            if result.problem == nil { result.problem = "its process wrote no profile" }
            result.problem! += "; no coverage recorded"
            return
        }
        switch attribution {
        case .mapping(let attribution):
            do {
                result.executed = try attribution.executedLines(of: try RawProfile.read(path: profraw))
                result.profile = profraw
            } catch {
                result.problem = "reading its raw profile: \(error)"
                toolchain.system.remove(profraw)
            }
        case .llvmCov(let sources):
            defer { toolchain.system.remove(profraw) }
            exportLines(profraw, sources: sources, to: &result)
        }
    }

    /// The lines of `profraw` by llvm-profdata and llvm-cov, restricted to `sources`.
    private func exportLines(_ profraw: String, sources: [String], to result: inout Result) {
        let profdata = String(profraw.dropLast(".profraw".count)) + ".profdata"
        do {
            let merged = try toolchain.merge([profraw], into: profdata)
            guard merged.status == 0 else {
                result.problem = "llvm-profdata: " + merged.errorText.terminalSafe
                return
            }
            result.profile = profdata
            var arguments = [
                "export", "-skip-functions", "-skip-expansions", "-num-threads=1", "-instr-profile", profdata, binary,
            ]
            arguments += ["-sources"] + sources
            let exported = try toolchain.cov(arguments)
            guard exported.status == 0 else {
                result.problem = "llvm-cov: " + exported.errorText.terminalSafe
                return
            }
            let export = try LLVMCovExportReader.read(MappedFile(bytes: exported.output), names: false)
            result.executed = try LineAttribution.executedLines(of: export, root: root)
        } catch {
            result.problem = "reading its coverage: \(error)"
        }
    }

    /// Whether a passing test's output says it was skipped (XCTest's `XCTSkip`, Swift Testing's
    /// `.disabled`), and nothing passed.
    static func onlySkipped(_ output: [UInt8]) -> Bool {
        let text = String(decoding: output, as: UTF8.self)
        return text.contains(" skipped") && !text.contains("' passed (") && !text.contains(" passed after ")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
