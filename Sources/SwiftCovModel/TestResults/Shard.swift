/// One CI runner's share of a package's tests: shard `index` of `count` (`--shard 2/4`).
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// From 1 to `count`.
    package var index: Int
    package var count: Int

    /// Why `--shard` text is not a shard.
    package struct InvalidShard: Error, Equatable, CustomStringConvertible {
        package var text: String
        package var reason: String

        package var description: String { "--shard \(text): \(reason)" }
    }

    /// The most shards a plan splits tests into: far more CI machines than any matrix has (a plan
    /// holds a list per shard).
    package static let maximumCount = 10_000

    /// Reads `K/N`: 1 ≤ K ≤ N ≤ `maximumCount`.
    package init(parsing text: String) throws(InvalidShard) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) })
        else {
            throw InvalidShard(text: text, reason: "expected K/N, the shard's number and the number of shards (1/4)")
        }
        guard count >= 1 else { throw InvalidShard(text: text, reason: "the number of shards must be at least 1") }
        guard count <= Shard.maximumCount else {
            throw InvalidShard(text: text, reason: "the number of shards must be at most \(Shard.maximumCount)")
        }
        guard (1...count).contains(index) else {
            throw InvalidShard(text: text, reason: "the shard's number must be between 1 and \(count)")
        }
        self.init(index: index, count: count)
    }

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    package var description: String { "\(index)/\(count)" }
}
