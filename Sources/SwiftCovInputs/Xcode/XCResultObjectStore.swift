import SwiftCovModel
import SwiftCovPlatform

/// The decoded objects of one result bundle, for one command: the most recently used kept in a
/// cache of at most `defaultCacheBudget` bytes (not every object read), and every object handed out,
/// from the cache or decoded, counted against a ceiling proportional to the bundle's size, so
/// that a small bundle whose objects decode to gigabytes, or that names one large object from
/// thousands of places, is an error rather than gigabytes of memory or output.
///
/// The ceiling is `ceilingRatio` times the bytes of the bundle's `Data/` folder, at least
/// `ceilingFloor` and at most `absoluteCeiling` (docs/xcode.md). Real bundles' objects compress
/// a few times to twenty times; each is read once or twice.
final class XCResultObjectStore: Sendable {
    /// The most bytes of decoded objects kept for reuse, by default.
    static let defaultCacheBudget = 64 << 20
    /// How many times the bundle's objects' own size may be decoded per command.
    static let ceilingRatio = 64
    /// The ceiling for the smallest bundles.
    static let ceilingFloor = 64 << 20
    /// The ceiling whatever the bundle's size.
    static let absoluteCeiling = 4 << 30

    private struct State {
        /// The objects kept, by id, each with the tick it was last used at.
        var cache: [String: (bytes: [UInt8], used: Int)] = [:]
        /// Each use of a kept object, oldest first from `head` (an entry whose tick is not its
        /// object's last use is stale): the least recently used found in amortized constant time.
        var uses: [(id: String, tick: Int)] = []
        var head = 0
        var cachedBytes = 0
        var tick = 0

        /// Notes a use of object `id`.
        mutating func use(_ id: String) -> Int {
            tick += 1
            uses.append((id, tick))
            if uses.count - head > 2 * cache.count + 1024 {
                // Mostly stale: only the last use of each kept object (and this one) stays.
                uses = cache.map { ($0.key, $0.value.used) }.sorted { $0.1 < $1.1 } + [(id, tick)]
                head = 0
            }
            return tick
        }

        /// Drops the least recently used object; false when none is kept.
        mutating func dropOldest() -> Bool {
            while head < uses.count {
                let (id, tick) = uses[head]
                head += 1
                if head > 1024 && head * 2 > uses.count {
                    uses.removeFirst(head)
                    head = 0
                }
                guard let entry = cache[id], entry.used == tick else { continue }
                cachedBytes -= entry.bytes.count
                cache[id] = nil
                return true
            }
            return false
        }
        /// The bytes handed out so far.
        var delivered = 0
    }

    /// The most bytes handed out in all, for this bundle.
    let ceiling: Int
    /// The bytes of the bundle's objects (compressed), which the ceiling rests on.
    let dataBytes: Int
    /// The most bytes of decoded objects kept for reuse.
    let cacheBudget: Int
    private let state = Locked(State())

    init(dataBytes: Int, ceiling: Int? = nil, cacheBudget: Int = defaultCacheBudget) {
        self.dataBytes = dataBytes
        self.cacheBudget = cacheBudget
        let (product, overflow) = dataBytes.multipliedReportingOverflow(by: Self.ceilingRatio)
        self.ceiling =
            ceiling ?? min(Self.absoluteCeiling, max(Self.ceilingFloor, overflow ? Self.absoluteCeiling : product))
    }

    /// The bytes that may still be handed out.
    var remaining: Int { state.withLock { ceiling - $0.delivered } }

    /// The bytes kept in the cache now.
    var cachedBytes: Int { state.withLock { $0.cachedBytes } }

    /// Object `id` when it is kept, counted against the ceiling (an error past it); nil when not kept.
    func cached(_ id: String, path: String) throws(XcodeInputError) -> [UInt8]? {
        let bytes: [UInt8]? = state.withLock { state in
            guard var entry = state.cache[id] else { return nil }
            entry.used = state.use(id)
            state.cache[id] = entry
            return entry.bytes
        }
        guard let bytes else { return nil }
        try count(bytes.count, path: path)
        return bytes
    }

    /// Counts object `id`, just decoded, against the ceiling, and keeps it when it fits the cache
    /// (dropping the least recently used).
    func add(_ id: String, _ bytes: [UInt8], path: String) throws(XcodeInputError) {
        try count(bytes.count, path: path)
        guard bytes.count <= cacheBudget else { return }
        state.withLock { state in
            if let old = state.cache.removeValue(forKey: id) { state.cachedBytes -= old.bytes.count }
            while state.cachedBytes + bytes.count > cacheBudget, state.dropOldest() {}
            state.cache[id] = (bytes, state.use(id))
            state.cachedBytes += bytes.count
        }
    }

    private func count(_ size: Int, path: String) throws(XcodeInputError) {
        let within = state.withLock { state in
            guard size <= ceiling - state.delivered else { return false }
            state.delivered += size
            return true
        }
        guard within else { throw ceilingError(path: path) }
    }

    /// The error for an object past the ceiling.
    func ceilingError(path: String) -> XcodeInputError {
        XcodeInputError(
            path: path,
            "the bundle's objects decode to more than \(ceiling) bytes, the most swiftcov reads from a bundle whose "
                + "objects take \(dataBytes) bytes (\(Self.ceilingRatio) times that, at least "
                + "\(Self.ceilingFloor >> 20) MiB, at most \(Self.absoluteCeiling >> 30) GiB): a damaged or hostile bundle"
        )
    }
}
