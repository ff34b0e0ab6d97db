#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The time a command runs at, read once, and the one way each output writes it: JUnit's
/// timestamps in local time without a zone (as its schema has them, and as `swift test` logs
/// are read), the HTML footer in UTC. `SOURCE_DATE_EPOCH` (reproducible builds) fixes it.
package struct Clock: Sendable {
    /// Seconds since 1970 (UTC).
    package var secondsSince1970: Int64
    /// The local time zone's offset from UTC, in seconds.
    package var utcOffset: Int

    package init(secondsSince1970: Int64, utcOffset: Int) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffset = utcOffset
    }

    /// Now, in this machine's time zone; `sourceDateEpoch` (the variable's value) when it is a number.
    package static func system(sourceDateEpoch: String? = nil) -> Clock {
        var now = time(nil)
        var parts = tm()
        let offset = localtime_r(&now, &parts) != nil ? Int(parts.tm_gmtoff) : 0
        if let epoch = sourceDateEpoch.flatMap({ Int64($0) }) { return Clock(secondsSince1970: epoch, utcOffset: 0) }
        return Clock(secondsSince1970: Int64(now), utcOffset: offset)
    }

    /// "2026-11-22T15:30:00": local time, as JUnit's `timestamp` attribute takes it.
    package var localTimestamp: String {
        Self.timestamp(Double(secondsSince1970), utcOffset: utcOffset) ?? "1970-01-01T00:00:00"
    }

    /// "2026-11-22T14:30:00Z": UTC, for people anywhere.
    package var utcTimestamp: String {
        (Self.timestamp(Double(secondsSince1970), utcOffset: 0) ?? "1970-01-01T00:00:00") + "Z"
    }

    /// Milliseconds since 1970, as Cobertura's `timestamp` has it.
    package var milliseconds: Int64 { secondsSince1970 * 1000 }

    /// This machine's name, for JUnit's `hostname`.
    package static var hostname: String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "localhost" }
        let bytes = name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? "localhost" : String(decoding: bytes, as: UTF8.self)
    }

    /// `2026-11-22T14:03:53` for seconds since 1970, `utcOffset` seconds east of UTC.
    package static func timestamp(_ since1970: Double, utcOffset: Int) -> String? {
        // Years 1 to 9999: anything else is not a time a test ran at.
        guard since1970.isFinite, since1970 > -62_135_596_800, since1970 < 253_402_300_800,
            abs(utcOffset) <= 86_400
        else { return nil }
        var seconds = time_t(since1970.rounded(.down)) + time_t(utcOffset)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return nil }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
