#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wall-clock and CPU time of this process at one instant; the difference of two samples is
/// what a stretch of code cost.
package struct ResourceSample: Sendable {
    /// Seconds on the monotonic clock.
    package var wall: Double
    /// User plus system CPU seconds of the whole process (`getrusage(RUSAGE_SELF)`).
    package var cpu: Double

    /// The current sample.
    package static func now() -> ResourceSample {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        var usage = rusage()
        getrusage(ResourceSample.selfUsage, &usage)
        return ResourceSample(
            wall: Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9,
            cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    /// The time spent between `earlier` and this sample.
    package func since(_ earlier: ResourceSample) -> Timing {
        Timing(wall: wall - earlier.wall, cpu: cpu - earlier.cpu)
    }

    /// The process's peak resident set so far, in bytes (`ru_maxrss`; Linux counts KiB, macOS bytes).
    package static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(ResourceSample.selfUsage, &usage)
        #if canImport(Darwin)
            return Int(usage.ru_maxrss)
        #else
            return Int(usage.ru_maxrss) * 1024
        #endif
    }

    #if canImport(Glibc)
        private static let selfUsage = RUSAGE_SELF.rawValue
    #else
        private static let selfUsage = RUSAGE_SELF
    #endif

    /// The process's resident set now, in bytes, from `/proc/self/statm` (nil where there is none).
    package static func currentResidentBytes() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "size resident shared text lib data dt", in pages.
        let fields = bytes[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func seconds(_ value: timeval) -> Double {
        Double(value.tv_sec) + Double(value.tv_usec) / 1e6
    }
}

/// Wall-clock and CPU seconds of one measured stretch.
package struct Timing: Sendable, Equatable {
    /// Elapsed seconds.
    package var wall: Double
    /// User plus system CPU seconds.
    package var cpu: Double

    /// A timing of `wall` and `cpu` seconds.
    package init(wall: Double, cpu: Double) {
        self.wall = wall
        self.cpu = cpu
    }

    /// The sum of two timings.
    package static func + (lhs: Timing, rhs: Timing) -> Timing {
        Timing(wall: lhs.wall + rhs.wall, cpu: lhs.cpu + rhs.cpu)
    }
}
