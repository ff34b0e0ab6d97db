/// Facts about swiftcov itself, each in one place: the docs, the GitHub Action and the GitLab
/// template name the same version and repository, and a test holds them to it (`docs/RELEASING.md`).
package enum SwiftCov {
    /// The release version, printed by `swiftcov --version`: the git tag of the release.
    package static let version = "0.2.0-dev"
    /// Where the releases are published: what the install instructions, the plugin's `.package`
    /// line, the GitHub Action's `uses:` and the GitLab template's `include:` name.
    package static let repository = "https://github.com/swiftcov/swiftcov"
}
