/// Process-wide settings that tests share: RegistryTests (XCTest) registers and looks them up.
public enum Registry {
    /// The settings registered so far in this process. Shared, unguarded state: a test that
    /// reads it depends on the tests that ran before it.
    nonisolated(unsafe) public static var settings: [String: Int] = [:]

    /// Registers the defaults.
    public static func registerDefaults() {
        settings["retries"] = 3
        settings["timeout"] = 30
    }

    /// The setting's value, or nil if nobody registered it.
    public static func value(_ name: String) -> Int? {
        settings[name]
    }
}
