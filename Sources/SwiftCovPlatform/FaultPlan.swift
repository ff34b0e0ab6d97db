/// Faults a test injects into the system calls of `SystemCalls`: a full disk after so many
/// bytes, an interrupted read, a file that vanished before it was opened, a rename that fails.
/// Set for the task that runs the code under test, nothing global, so tests run in parallel:
///
///     try FaultPlan.$current.withValue(FaultPlan(.write, errno: ENOSPC, afterBytes: 4096)) {
///         try AtomicFile.write(report, to: path)
///     }
///
/// Consulted only in debug builds; a release build never reads it. Threads the code under test
/// starts itself (the HTML site's page workers) do not see the task's plan.
package final class FaultPlan: Sendable {
    /// The system call a fault replaces the result of.
    package enum Call: Sendable {
        case open, read, write, sync, rename, makeDirectory
    }

    /// The plan of the task running now; nil: no fault.
    @TaskLocal package static var current: FaultPlan?

    private let call: Call
    private let code: Int32
    private let pathSuffix: String?
    private let afterBytes: Int
    private let times: Int
    /// Faults injected so far, and bytes let through before a write's fault.
    private let counts = Locked((faults: 0, bytes: 0))

    /// Fails the `times` calls of `call` (on a path ending with `pathSuffix`, for the calls that
    /// take one) that come after `afterBytes` bytes were written (writes only: the write that
    /// reaches it is cut short there, as a full disk does), with `errno` `code`. After `times`
    /// failures, calls go through again.
    package init(_ call: Call, errno code: Int32, pathSuffix: String? = nil, afterBytes: Int = 0, times: Int = .max) {
        self.call = call
        self.code = code
        self.pathSuffix = pathSuffix
        self.afterBytes = afterBytes
        self.times = times
    }

    /// How many faults were injected.
    package var injected: Int { counts.withLock { $0.faults } }

    /// The error number `call` on `path` is to fail with; nil to let it through.
    func failure(of call: Call, path: String? = nil) -> Int32? {
        guard call == self.call else { return nil }
        if let pathSuffix, let path, !path.hasSuffix(pathSuffix) { return nil }
        return counts.withLock { counts -> Int32? in
            guard counts.faults < times else { return nil }
            counts.faults += 1
            return code
        }
    }

    /// For a write of `count` bytes: the bytes to let through (fewer once `afterBytes` is
    /// reached), or the error number to fail with.
    func write(_ count: Int) -> Result<Int, Failure> {
        guard call == .write else { return .success(count) }
        return counts.withLock { counts -> Result<Int, Failure> in
            let room = afterBytes - counts.bytes
            if room > 0 || counts.faults >= times {
                let allowed = counts.faults >= times ? count : min(count, room)
                counts.bytes += allowed
                return .success(allowed)
            }
            counts.faults += 1
            return .failure(Failure(code: code))
        }
    }

    /// A fault's error number, as a `Result`'s failure.
    struct Failure: Error {
        var code: Int32
    }
}
