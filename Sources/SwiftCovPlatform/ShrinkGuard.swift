#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a file that shrinks while it is mapped (another process truncates or rewrites it) from
/// killing swiftcov. Reading a mapped page past a file's new end raises SIGBUS; the handler maps
/// zeroed memory over the rest of that mapping and marks it as cut, so the reader goes on over
/// zeros and its owner reports the file as changed (exit 2) instead of the process dying without
/// a word. A SIGBUS at any other address goes on to what was there before (by default, the end
/// of the process, as without the guard).
enum ShrinkGuard {
    /// A watched mapping: `[start, end)`; `start` 0 is a free slot.
    private struct Slot {
        var start: UInt
        var end: UInt
        var isCut: Bool
    }

    /// The slots, with their count, read by the handler without a lock (a handler must not take
    /// one). Made once and never freed: a handler may be reading it.
    private struct Table {
        let slots: UnsafeMutablePointer<Slot>
        let capacity: Int

        static func make(capacity: Int) -> UnsafeMutablePointer<Table> {
            let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
            slots.initialize(repeating: Slot(start: 0, end: 0, isCut: false), count: capacity)
            let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
            table.initialize(to: Table(slots: slots, capacity: capacity))
            return table
        }
    }

    /// The table in use. Only the thread holding `state`'s lock changes it, a word at a time,
    /// a slot's `start` last when taking it and first when freeing it. A full table is replaced
    /// by a copy twice its size, published in one store; the old one stays (a few KiB however
    /// many files were ever mapped at once).
    nonisolated(unsafe) private static let current: UnsafeMutablePointer<UnsafeMutablePointer<Table>> = {
        let current = UnsafeMutablePointer<UnsafeMutablePointer<Table>>.allocate(capacity: 1)
        current.initialize(to: Table.make(capacity: 64))
        return current
    }()

    /// What SIGBUS did before the guard: done for a SIGBUS the guard does not own.
    nonisolated(unsafe) private static let previousAction: UnsafeMutablePointer<sigaction> = {
        let action = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
        action.initialize(to: sigaction())
        return action
    }()

    private static let pageSize = UInt(max(4096, sysconf(Int32(_SC_PAGESIZE))))

    /// Whether the handler is in place, and which slots are free; its lock orders every change
    /// of the table.
    private struct State {
        var isInstalled = false
        /// Slots released, to be taken again.
        var released: [Int] = []
        /// Slots from here on were never taken.
        var untouched = 0
    }

    private static let state = Locked(State())

    /// Watches `count` bytes mapped at `start`; the slot to give `isCut` and `release`, or nil
    /// where no handler can be put in place (the mapping is then read as without the guard).
    static func watch(_ start: UnsafeRawPointer, count: Int) -> Int? {
        state.withLock { state -> Int? in
            if !state.isInstalled {
                _ = (current, previousAction, pageSize)  // made before the handler can read them
                state.isInstalled = install()
            }
            guard state.isInstalled else { return nil }
            let slot: Int
            if let released = state.released.popLast() {
                slot = released
            } else {
                slot = state.untouched
                state.untouched += 1
            }
            let table = current.pointee.pointee
            if slot == table.capacity {
                let grown = Table.make(capacity: table.capacity * 2)
                grown.pointee.slots.update(from: table.slots, count: table.capacity)
                current.pointee = grown
            }
            let slots = current.pointee.pointee.slots
            slots[slot].isCut = false
            slots[slot].end = UInt(bitPattern: start) + UInt(count)
            slots[slot].start = UInt(bitPattern: start)
            return slot
        }
    }

    /// Whether the mapping in `slot` was read past its file's end (and reads zeros there).
    static func isCut(_ slot: Int) -> Bool {
        state.withLock { _ in current.pointee.pointee.slots[slot].isCut }
    }

    /// Stops watching the mapping in `slot`, before it is unmapped.
    static func release(_ slot: Int) {
        state.withLock { state in
            current.pointee.pointee.slots[slot].start = 0
            current.pointee.pointee.slots[slot].end = 0
            state.released.append(slot)
        }
    }

    /// Maps zeros over the watched mapping holding `address`, from its page to the mapping's
    /// end; whether it was one of them. Called by the signal handler: no lock, no allocation.
    fileprivate static func fill(at address: UInt) -> Bool {
        let table = current.pointee.pointee
        for index in 0..<table.capacity {
            let slot = table.slots[index]
            guard slot.start != 0, address >= slot.start, address < slot.end else { continue }
            let page = max(slot.start, address & ~(pageSize - 1))
            let zeros = mmap(
                UnsafeMutableRawPointer(bitPattern: page), Int(slot.end - page), PROT_READ,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
            guard zeros != MAP_FAILED else { return false }
            table.slots[index].isCut = true
            return true
        }
        return false
    }

    /// Puts the handler in place, keeping the action it replaces.
    private static func install() -> Bool {
        var action = sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_sigaction = handleBusError
        #elseif canImport(Glibc)
            action.__sigaction_handler.sa_sigaction = handleBusError
        #else
            return false  // where the fault's address cannot be read, mappings go unguarded
        #endif
        action.sa_flags = SA_SIGINFO | SA_RESTART
        sigemptyset(&action.sa_mask)
        return sigaction(SIGBUS, &action, previousAction) == 0
    }

    /// For a SIGBUS the guard does not own: the action there was before, from now on.
    fileprivate static func restorePrevious() {
        sigaction(SIGBUS, previousAction, nil)
    }
}

/// The SIGBUS handler: a read past the end of a watched file's mapping now reads zeros and
/// goes on. Any other SIGBUS is handed back to the previous action: a fault happens again when
/// the handler returns, and a signal sent by a process is raised again.
private func handleBusError(
    _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
    guard let info else { return ShrinkGuard.restorePrevious() }
    let sentByProcess = info.pointee.si_code <= 0
    #if canImport(Darwin)
        let address = UInt(bitPattern: info.pointee.si_addr)
    #elseif canImport(Glibc)
        let address = UInt(bitPattern: info.pointee._sifields._sigfault.si_addr)
    #else
        let address: UInt = 0
    #endif
    if !sentByProcess, ShrinkGuard.fill(at: address) { return }
    ShrinkGuard.restorePrevious()
    if sentByProcess { raise(signal) }
}
