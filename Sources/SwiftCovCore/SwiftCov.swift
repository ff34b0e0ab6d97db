/// Facts about swiftcov itself.
package enum SwiftCov {
    /// The release version, printed by `swiftcov --version`.
    package static let version = "0.1.0"
}
