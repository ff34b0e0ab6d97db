#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Number formatting shared by the text reports.
package enum CoverageFormatting {
    /// `value` with two decimals and a percent sign, exactly as `llvm-cov report` prints it
    /// (printf's `%.2f`, which rounds the binary value, not `value * 100`).
    package static func percent(_ value: Double) -> String {
        // The two values most functions have, without a trip through printf.
        if value == 100 { return "100.00%" }
        if value == 0 { return "0.00%" }
        var buffer = [CChar](repeating: 0, count: 64)
        let written = withVaList([value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 64, "%.2f", arguments) }
        }
        guard written > 0 else { return "\(value)%" }
        let bytes = buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self) + "%"
    }
}
