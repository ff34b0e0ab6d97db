#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs another program (git, `swift test`, llvm-profdata, llvm-cov): the one place swiftcov
/// starts processes. Output is read through pipes; nothing is printed here.
///
/// Every program is tracked until it is reaped, and nothing it starts outlives it: it runs in a
/// process group of its own; when it ends (or its time is up), its group, the processes it
/// started and any process still holding its output are killed; every wait has a deadline once
/// a timeout is given; a signal that ends swiftcov ends them all (`endAll`).
package enum Subprocess {
    /// Why a program could not be started.
    package struct LaunchError: DiagnosticConvertible, Equatable {
        package var program: String
        package var reason: String

        package var diagnostic: Diagnostic { Diagnostic("cannot run \(program): \(reason)") }
    }

    /// What a finished program printed and how it ended.
    package struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        package var status: Int32
        package var output: [UInt8]
        package var error: [UInt8]
        /// Whether it was killed for running past its time limit.
        package var timedOut = false
        /// How many processes it left running (after it ended, or when it was killed) that were
        /// killed with it.
        package var leftovers = 0
        /// How many bytes of its output were dropped by `outputLimit` (from the middle).
        package var droppedBytes = 0

        /// Standard output as text.
        package var outputText: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as text.
        package var errorText: String { String(decoding: error, as: UTF8.self) }
    }

    /// The signal a program is killed with (past its time limit, or when swiftcov ends).
    package static let killSignal = SIGKILL

    /// How long the output of a program that has ended is still read (what a process it left
    /// behind writes) before that process is killed: the program ending is the end.
    package static let exitGrace: Double = 1

    /// Runs `program` (looked up in PATH when it has no `/`) with no input, capturing its output.
    /// `environment` is added to swiftcov's own; `mergingErrors` puts standard error into `output`
    /// (as a terminal shows both). After `timeout` seconds the program and everything it started
    /// are killed, and the result says so. With `outputLimit`, at most that many bytes of each
    /// output are kept: its start and its end, with a line saying how much was dropped between.
    /// Several may run at once on different threads.
    package static func capture(
        _ program: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        mergingErrors: Bool = false, timeout: Double? = nil, outputLimit: Int? = nil
    ) throws(LaunchError) -> Result {
        let limit = outputLimit ?? Int.max
        var results = [BoundedBytes(limit: limit), BoundedBytes(limit: limit)]
        let options = Options(mergeErrors: mergingErrors, timeout: timeout, adding: environment)
        let ending = try run(program, arguments, in: directory, options) { stream, bytes in
            results[stream].append(bytes)
        }
        return Result(
            status: ending.status, output: results[0].bytes, error: results[1].bytes, timedOut: ending.timedOut,
            leftovers: ending.leftovers, droppedBytes: results[0].dropped + results[1].dropped)
    }

    /// Runs `program` with its standard error merged into its standard output (as a terminal
    /// shows them), calling `body` with each chunk as it arrives; returns the exit status.
    package static func stream(
        _ program: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        timeout: Double? = nil, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(LaunchError) -> Int32 {
        let options = Options(mergeErrors: true, timeout: timeout, adding: environment)
        return try run(program, arguments, in: directory, options) { _, bytes in body(bytes) }.status
    }

    /// Makes swiftcov the parent of every process its children leave behind when they end
    /// (Linux's `PR_SET_CHILD_SUBREAPER`), so that none escapes to init: each is ended when
    /// the program that started it is, and, when no program is running, whatever is left is
    /// ended and reaped. Only for a process all of whose children `Subprocess` starts (the
    /// command line, not a test runner); returns whether it took effect.
    @discardableResult
    package static func adoptOrphans() -> Bool {
        #if os(Linux)
            typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
            // prctl is variadic in C, which Swift does not import: called through its address.
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "prctl") else { return false }
            let prctl = unsafeBitCast(symbol, to: Prctl.self)
            let setChildSubreaper: Int32 = 36
            guard prctl(setChildSubreaper, 1, 0, 0, 0) == 0 else { return false }
            tracker.withLock { $0.adoptsOrphans = true }
            return true
        #else
            return false
        #endif
    }

    /// Kills every program running and everything they started (with `adoptOrphans`, every
    /// process below swiftcov), and starts no other: for a signal that ends swiftcov. Waits
    /// (briefly) until they are gone, so that none writes a file after it returns.
    package static func endAll() {
        let (roots, everyDescendant) = tracker.withLock { state in
            state.ending = true
            _ = endProcesses(roots: state.live, pipes: [], everyDescendant: state.adoptsOrphans, sparing: [])
            return (state.live, state.adoptsOrphans)
        }
        let until = monotonicSeconds() + 5
        while monotonicSeconds() < until {
            var running = roots.filter { !hasExited($0) }.count
            #if os(Linux)
                if everyDescendant {
                    let entries = ProcessTree.all()
                    let below = ProcessTree.descendants(of: [getpid()], in: entries)
                    running += entries.filter { below.contains($0.pid) && !$0.zombie }.count
                }
            #endif
            if running == 0 { break }
            usleep(2_000)
        }
    }

    private struct Options {
        var mergeErrors: Bool
        var timeout: Double?
        /// The whole environment ("NAME=value"); nil for swiftcov's own.
        var environment: [String]?

        /// Swiftcov's own environment with `added` (replacing any of the same names).
        init(mergeErrors: Bool, timeout: Double?, adding added: [String: String] = [:]) {
            self.mergeErrors = mergeErrors
            self.timeout = timeout
            guard !added.isEmpty else { return }
            environment =
                Subprocess.currentEnvironment().filter { entry in
                    !added.keys.contains { entry.hasPrefix($0 + "=") }
                } + added.map { "\($0.key)=\($0.value)" }.sorted()
        }
    }

    /// The programs running, and whether swiftcov adopts orphans or is ending.
    private struct Tracker {
        /// The programs started and not yet reaped, each the leader of its own process group.
        var live: Set<pid_t> = []
        var adoptsOrphans = false
        var ending = false
    }

    private static let tracker = Locked(Tracker())

    /// How a program ended.
    private struct Ending {
        var status: Int32
        var timedOut: Bool
        var leftovers: Int
    }

    private static func run(
        _ program: String, _ arguments: [String], in directory: String?, _ options: Options,
        _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) throws(LaunchError) -> Ending {
        // A signal that ends swiftcov ends what it started too (`endAll`).
        TemporaryPaths.handleSignals()
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environmentStrings = options.environment.map { $0.map { strdup($0) } + [nil] }
        defer { environmentStrings?.forEach { free($0) } }
        // Pipes made and the program started under the lock: no other thread's program inherits
        // these pipes (which would keep them open), and none starts once swiftcov is ending.
        let started = tracker.withLock { state -> Swift.Result<(pid_t, [Int32]), LaunchError> in
            guard !state.ending else { return .failure(LaunchError(program: program, reason: "swiftcov is ending")) }
            let started = Swift.Result { () throws(LaunchError) in
                try spawn(
                    program, argv: argv, environment: environmentStrings, in: directory,
                    mergeErrors: options.mergeErrors)
            }
            if case .success(let (pid, _)) = started { state.live.insert(pid) }
            return started
        }
        let (pid, pipes) = try started.get()
        let inodes = Set(pipes.compactMap(ProcessTree.inode(of:)))
        var descriptors = pipes.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var open = descriptors.count
        let deadline = options.timeout.map { monotonicSeconds() + $0 }
        var exited = false
        var timedOut = false
        var killed = false
        var leftovers = 0
        // Reading stops then: once the program has ended, after a grace period; once everything
        // is killed, after a while (a process swiftcov cannot kill may hold a pipe).
        var stopReading: Double?
        // When its output was seen closed while it still ran.
        var outputClosed: Double?
        while true {
            if !exited { exited = hasExited(pid) }
            let now = monotonicSeconds()
            if !exited, !timedOut, let deadline, now >= deadline {
                timedOut = true
                leftovers += endLeftovers(of: pid, pipes: inodes)
                killed = true
                stopReading = now + 5
            }
            if exited && open == 0 { break }
            if exited && stopReading == nil { stopReading = now + exitGrace }
            if let stop = stopReading, now >= stop {
                guard !killed else { break }
                leftovers += endLeftovers(of: pid, pipes: inodes)
                killed = true
                stopReading = now + 5
                continue
            }
            if open == 0 && deadline == nil && !exited {
                // Nothing to read and no deadline: wait for its end.
                exited = waitForExit(pid)
                continue
            }
            // How often its end is looked for: every 0.1 s while it writes (an end with a pipe
            // held open); once its output is closed, soon (it usually ends right after), then
            // less and less often.
            var wait = Double.infinity
            if !exited {
                if open > 0 {
                    wait = 0.1
                } else {
                    let since = outputClosed ?? now
                    outputClosed = since
                    wait = min(0.1, max(0.001, (now - since) / 10))
                }
            }
            if let deadline, !timedOut { wait = min(wait, deadline - now) }
            if let stop = stopReading { wait = min(wait, stop - now) }
            let milliseconds = Int32((max(0, min(wait, 60)) * 1000).rounded(.up))
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptors[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer.withUnsafeBufferPointer { body(index, UnsafeBufferPointer(rebasing: $0[0..<count])) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(descriptors[index].fd)
                    descriptors[index].fd = -1
                    open -= 1
                }
            }
        }
        for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
        // The program ending is the end: what it left in its process group goes with it.
        if !killed { leftovers += endLeftovers(of: pid, pipes: []) }
        let status = reap(pid, killed: killed && !exited)
        tracker.withLock { state in
            state.live.remove(pid)
            // Nothing running: whatever was left below swiftcov is ended and reaped.
            if state.live.isEmpty && state.adoptsOrphans {
                leftovers += endProcesses(roots: [], pipes: [], everyDescendant: true, sparing: [])
            }
        }
        // WIFEXITED / WEXITSTATUS are C macros that Swift does not import.
        return Ending(
            status: (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), timedOut: timedOut,
            leftovers: leftovers)
    }

    /// Starts `program` in a process group of its own, its output into new pipes; returns its
    /// process and the pipes' read ends (one when `mergeErrors`).
    private static func spawn(
        _ program: String, argv: [UnsafeMutablePointer<CChar>?], environment: [UnsafeMutablePointer<CChar>?]?,
        in directory: String?, mergeErrors: Bool
    ) throws(LaunchError) -> (pid_t, [Int32]) {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0 else { throw LaunchError(program: program, reason: systemError()) }
        if !mergeErrors {
            guard pipe(&errorPipe) == 0 else {
                outputPipe.forEach { close($0) }
                throw LaunchError(program: program, reason: systemError())
            }
        }
        let all = (outputPipe + errorPipe).filter { $0 >= 0 }
        for descriptor in all { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, mergeErrors ? outputPipe[1] : errorPipe[1], 2)

        // A working directory for the child: `cd DIR && exec PROGRAM …` through the shell would
        // need quoting; posix_spawn has no chdir before glibc 2.29's extension, so change ours
        // around the spawn (spawns are one at a time).
        var previousDirectory: String?
        if let directory {
            previousDirectory = currentDirectory()
            guard chdir(directory) == 0 else {
                all.forEach { close($0) }
                throw LaunchError(program: program, reason: "\(directory): \(systemError())")
            }
        }
        var pid = pid_t()
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t?
        #else
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so that ending it ends whatever it started too; signals swiftcov
        // handles back to their defaults, none blocked.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        let spawned = environment.withUnsafeBufferPointerOrEnviron { environment in
            posix_spawnp(&pid, program, &actions, &attributes, argv, environment)
        }
        if let previousDirectory { _ = chdir(previousDirectory) }
        close(outputPipe[1])
        if errorPipe[1] >= 0 { close(errorPipe[1]) }
        let reads = [outputPipe[0], errorPipe[0]].filter { $0 >= 0 }
        guard spawned == 0 else {
            reads.forEach { close($0) }
            throw LaunchError(program: program, reason: SystemCallError.message(spawned))
        }
        return (pid, reads)
    }

    /// Kills what the program `pid` leaves: its process group, every process it started (while
    /// it runs) and every process holding one of its pipes (`pipes`: their inodes), and what
    /// those started; never what another running program started. Returns how many there were.
    private static func endLeftovers(of pid: pid_t, pipes: Set<UInt64>) -> Int {
        tracker.withLock { state in
            endProcesses(roots: [pid], pipes: pipes, everyDescendant: false, sparing: state.live.subtracting([pid]))
        }
    }

    /// Kills (SIGKILL) the process groups of `roots` and every process below them; every
    /// process holding one of `pipes`; with `everyDescendant`, every process below swiftcov;
    /// and what each of those started. The programs in `sparing` and what they started are left
    /// alone. Repeats until nothing new is found (a process may start another while it is
    /// killed); reaps the killed processes that swiftcov adopted; returns how many processes,
    /// `roots` aside, it killed.
    private static func endProcesses(
        roots: Set<pid_t>, pipes: Set<UInt64>, everyDescendant: Bool, sparing: Set<pid_t>
    ) -> Int {
        var groupsHadMembers = false
        for root in roots where kill(-root, SIGKILL) == 0 { groupsHadMembers = true }
        #if os(Linux)
            // The usual end (a program that left nothing): no need to look through /proc.
            guard groupsHadMembers || !pipes.isEmpty || everyDescendant else { return 0 }
            let me = getpid()
            var killed = Set<pid_t>()
            var adopted = Set<pid_t>()
            for _ in 0..<20 {
                let entries = ProcessTree.all()
                let spared = sparing.union(ProcessTree.descendants(of: sparing, in: entries))
                var victims = ProcessTree.descendants(of: roots, in: entries)
                if everyDescendant { victims.formUnion(ProcessTree.descendants(of: [me], in: entries)) }
                for entry in entries where roots.contains(entry.group) { victims.insert(entry.pid) }
                for entry in entries
                where !pipes.isEmpty && entry.pid != me && !victims.contains(entry.pid) && !spared.contains(entry.pid)
                    && !entry.zombie && ProcessTree.holdsPipe(entry.pid, inodes: pipes)
                {
                    victims.insert(entry.pid)
                }
                victims.formUnion(ProcessTree.descendants(of: victims, in: entries))
                victims.subtract(spared)
                victims.subtract(roots)
                victims.remove(me)
                var found = false
                for entry in entries where victims.contains(entry.pid) {
                    if entry.parent == me { adopted.insert(entry.pid) }
                    guard !entry.zombie, !killed.contains(entry.pid) else { continue }
                    kill(entry.pid, SIGKILL)
                    killed.insert(entry.pid)
                    found = true
                }
                if !found { break }
            }
            // The killed processes swiftcov adopted (and orphans that ended on their own) are its
            // to reap; the others' parents reap them.
            let until = monotonicSeconds() + 5
            for pid in adopted where !roots.contains(pid) {
                var status: Int32 = 0
                while waitpid(pid, &status, WNOHANG) == 0 && monotonicSeconds() < until { usleep(2_000) }
            }
            return killed.count
        #else
            return 0
        #endif
    }

    /// Whether `pid` (a child) has ended, without reaping it (its process group stays until
    /// then, so that it can still be killed).
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        if result < 0 { return errno != EINTR }
        #if canImport(Darwin)
            return info.si_pid == pid
        #else
            return info._sifields._sigchld.si_pid == pid
        #endif
    }

    /// Waits until `pid` (a child) has ended, without reaping it.
    private static func waitForExit(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 {
            if errno != EINTR { return true }
        }
        return true
    }

    /// Reaps `pid`, returning its wait status; after a kill it is given a while to end (a
    /// process stuck in the kernel may take long): then it is reported as killed.
    private static func reap(_ pid: pid_t, killed: Bool) -> Int32 {
        var status: Int32 = 0
        if !killed {
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return status
        }
        let until = monotonicSeconds() + 30
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return status }
            if (result < 0 && errno != EINTR) || monotonicSeconds() >= until { return SIGKILL }
            usleep(2_000)
        }
    }

    /// Seconds on a clock that never goes back.
    package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private static func currentEnvironment() -> [String] {
        #if canImport(Darwin)
            let entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = _NSGetEnviron().pointee
        #else
            let entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        #endif
        var result: [String] = []
        guard var entry = entries else { return result }
        while let pointer = entry.pointee {
            result.append(String(cString: pointer))
            entry += 1
        }
        return result
    }

    private static func currentDirectory() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }

    private static func systemError() -> String { SystemCallError.message(errno) }
}

extension Optional where Wrapped == [UnsafeMutablePointer<CChar>?] {
    /// The environment for a child: these strings, or swiftcov's own environment when nil.
    fileprivate func withUnsafeBufferPointerOrEnviron<R>(
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> R
    ) -> R {
        if let strings = self { return strings.withUnsafeBufferPointer { body($0.baseAddress) } }
        #if canImport(Darwin)
            return body(_NSGetEnviron().pointee)
        #else
            return body(environ)
        #endif
    }
}

/// Bytes kept up to a limit: the first half, and the last half (a ring), with the count of
/// those dropped between them.
package struct BoundedBytes {
    private let headLimit: Int
    private let tailLimit: Int
    private var head: [UInt8] = []
    private var tail: [UInt8] = []
    /// Where the ring's oldest byte is, once `tail` is full.
    private var tailStart = 0
    package private(set) var dropped = 0

    package init(limit: Int) {
        headLimit = limit / 2
        tailLimit = limit - limit / 2
    }

    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        var rest = bytes[...]
        if head.count < headLimit {
            let taken = rest.prefix(headLimit - head.count)
            head.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
        }
        guard !rest.isEmpty else { return }
        if tail.count < tailLimit {
            let taken = rest.prefix(tailLimit - tail.count)
            tail.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            if rest.isEmpty { return }
        }
        // The ring is full: each new byte replaces the oldest.
        guard tailLimit > 0 else {
            dropped += rest.count
            return
        }
        if rest.count >= tailLimit {
            dropped += rest.count
            tail.replaceSubrange(0..<tailLimit, with: rest.suffix(tailLimit))
            tailStart = 0
            return
        }
        dropped += rest.count
        // Copied in at most two pieces: up to the ring's end, then from its start.
        var from = rest.startIndex
        while from < rest.endIndex {
            let count = min(rest.endIndex - from, tailLimit - tailStart)
            let source = UnsafeRawPointer(bytes.baseAddress! + from)
            tail.withUnsafeMutableBytes {
                $0.baseAddress!.advanced(by: tailStart).copyMemory(from: source, byteCount: count)
            }
            from += count
            tailStart += count
            if tailStart == tailLimit { tailStart = 0 }
        }
    }

    /// What was kept; when bytes were dropped, a line between the start and the end says how
    /// many (the end starts at a line's start).
    package var bytes: [UInt8] {
        guard dropped > 0 else { return head + tail }
        var end = Array(tail[tailStart...] + tail[..<tailStart])
        var skipped = 0
        if let newline = end.firstIndex(of: 0x0A) {
            skipped = newline + 1
            end.removeFirst(skipped)
        }
        var result = head
        if result.last.map({ $0 != 0x0A }) ?? false { result.append(0x0A) }
        result += Array("[swiftcov: \(dropped + skipped) bytes of output dropped here]\n".utf8)
        return result + end
    }

    /// What was kept, without a note: whole lines of the start and of the end (for a stream of
    /// JSON lines, where a note would not be one).
    package var lines: [UInt8] {
        guard dropped > 0 else { return head + tail }
        let start = head[..<(head.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)]
        let end = Array(tail[tailStart...] + tail[..<tailStart])
        return Array(start) + end[(end.firstIndex(of: 0x0A).map { $0 + 1 } ?? end.count)...]
    }
}
