import SwiftCovCore

/// `swiftcov-benchmark zstd FILE…`: decodes each zstd file in-process with `Zstd.decompress`, the
/// best of a few runs, and prints its decoded MB/s and the process's peak memory beside the
/// input's and output's sizes (`scripts/benchmark-zstd` puts `zstd -d` beside it).
enum ZstdBenchmark {
    /// One file's figures.
    struct Measurement {
        var path: String
        var inputBytes: Int
        var outputBytes: Int
        var best: Timing
        var peakResidentBytes: Int
    }

    /// Decodes `path` `runs` times and keeps the fastest run.
    static func run(path: String, runs: Int) throws -> Measurement {
        let file = try MappedFile(path: path)
        var best: Timing?
        var outputBytes = 0
        for _ in 0..<runs {
            let start = ResourceSample.now()
            let count = try file.withUnsafeBytes { bytes throws(Zstd.DecodeError) in
                try Zstd.decompress(bytes, maximumSize: 1 << 40).count
            }
            let timing = ResourceSample.now().since(start)
            outputBytes = count
            if best.map({ timing.wall < $0.wall }) ?? true { best = timing }
        }
        return Measurement(
            path: path, inputBytes: file.count, outputBytes: outputBytes, best: best ?? Timing(wall: 0, cpu: 0),
            peakResidentBytes: ResourceSample.peakResidentBytes())
    }

    /// One line: path, sizes, seconds, MB/s of output (10^6 bytes) and peak RSS in MB.
    static func line(_ measurement: Measurement) -> String {
        let seconds = max(measurement.best.wall, 1e-9)
        return "\(measurement.path): \(measurement.inputBytes) → \(measurement.outputBytes) bytes in "
            + "\(MeasurementReport.fixed(seconds, 3)) s: "
            + "\(MeasurementReport.fixed(Double(measurement.outputBytes) / seconds / 1e6, 0)) MB/s, "
            + "peak \(MeasurementReport.fixed(Double(measurement.peakResidentBytes) / 1e6, 1)) MB"
    }
}
