import Foundation

/// Times Foundation's `JSONSerialization.jsonObject` on an export's bytes (parse only, the file
/// already in memory): what a tool built on Foundation pays before it has computed anything.
package enum FoundationParseBenchmark {
    /// The best of `runs` parses of the file at `path`.
    package static func run(path: String, runs: Int) throws -> Timing {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var best: Timing?
        for _ in 0..<max(1, runs) {
            let start = ResourceSample.now()
            let object = try JSONSerialization.jsonObject(with: data)
            let timing = ResourceSample.now().since(start)
            withExtendedLifetime(object) {}
            if timing.wall < best?.wall ?? .infinity { best = timing }
        }
        return best ?? Timing(wall: 0, cpu: 0)
    }
}
