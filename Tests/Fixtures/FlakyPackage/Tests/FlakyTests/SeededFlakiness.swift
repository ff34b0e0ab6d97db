import Foundation

/// A number in [0, 1) that decides whether the seeded flaky test `test` fails this time (it fails
/// when the number is below its probability). Without FLAKY_SEED: a fresh draw from the system's
/// random numbers. With FLAKY_SEED: the same number for the same seed and test name (FNV-1a of
/// "SEED/TEST", then SplitMix64's finalizer), so that a run can be repeated.
func flakyDraw(_ test: String) -> Double {
    guard let seed = ProcessInfo.processInfo.environment["FLAKY_SEED"] else {
        var generator = SystemRandomNumberGenerator()
        return Double.random(in: 0..<1, using: &generator)
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "\(seed)/\(test)".utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    var mixed = hash &+ 0x9e37_79b9_7f4a_7c15
    mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
    mixed ^= mixed >> 31
    return Double(mixed >> 11) * 0x1p-53
}
