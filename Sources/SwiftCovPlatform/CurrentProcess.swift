#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the engine asks of the process it runs in: its environment, its id, its working folder,
/// the machine's cores, the folder for temporary files, a pause.
package enum CurrentProcess {
    /// The value of the environment variable `name`; nil when it is not set.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// This process's id.
    package static var id: Int32 { getpid() }

    /// Makes `path` the working folder; false when it cannot be entered.
    package static func changeDirectory(to path: String) -> Bool {
        chdir(path) == 0
    }

    /// The cores online (at least 1).
    package static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// `TMPDIR`, or `/tmp`.
    package static var temporaryFolder: String { environment("TMPDIR") ?? "/tmp" }

    /// Waits `microseconds`.
    package static func sleep(microseconds: Int) {
        usleep(UInt32(clamping: microseconds))
    }

    /// The operating system's and the machine's names, as `uname -sm` gives them: ("Linux", "x86_64").
    package static var system: (name: String, machine: String) {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: inout T) -> String {
            withUnsafeBytes(of: &value) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        return (field(&names.sysname), field(&names.machine))
    }
}
