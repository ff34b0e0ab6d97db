import Foundation

/// Whether the seeded flaky test `test` fails this time, with probability `p`. Its number in [0, 1)
/// comes from CAMPAIGN_SEED, the test's name and how many times the test ran before with the same
/// CAMPAIGN_STATE folder (FNV-1a of "SEED/TEST/COUNT", then SplitMix64's finalizer), so that a run
/// and its retries can be repeated; without CAMPAIGN_SEED, from the system's random numbers.
func seededFailure(_ test: String, p: Double) -> (fails: Bool, drew: Double) {
    let environment = ProcessInfo.processInfo.environment
    guard let seed = environment["CAMPAIGN_SEED"] else {
        var generator = SystemRandomNumberGenerator()
        let drew = Double.random(in: 0..<1, using: &generator)
        return (drew < p, drew)
    }
    var count = 0
    if let folder = environment["CAMPAIGN_STATE"] {
        let path = folder + "/" + test.replacingOccurrences(of: "/", with: "_")
        count = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0) } ?? 0
        try? String(count + 1).write(toFile: path, atomically: true, encoding: .utf8)
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "\(seed)/\(test)/\(count)".utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    var mixed = hash &+ 0x9e37_79b9_7f4a_7c15
    mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
    mixed ^= mixed >> 31
    let drew = Double(mixed >> 11) * 0x1p-53
    return (drew < p, drew)
}
