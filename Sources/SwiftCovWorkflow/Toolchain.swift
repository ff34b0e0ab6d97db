import SwiftCovPlatform

/// The toolchain's own programs that turn raw profiles into an export: `llvm-profdata` and
/// `llvm-cov`, found next to `swift` (Linux, a swift.org toolchain) or through `xcrun` (macOS).
package struct Toolchain: Sendable {
    package var llvmProfdata: String
    package var llvmCov: String
    /// What starts them.
    package var system: any System = LiveSystem()

    package init(llvmProfdata: String, llvmCov: String, system: any System = LiveSystem()) {
        self.llvmProfdata = llvmProfdata
        self.llvmCov = llvmCov
        self.system = system
    }

    /// What `swift --version` prints (its version line names the toolchain), nil when it cannot run.
    package static func swiftVersion(system: any System = LiveSystem()) -> String? {
        guard let result = try? system.capture(Command("swift", ["--version"], mergingErrors: true, timeout: 60)),
            result.status == 0
        else { return nil }
        return result.outputText
    }

    /// Why the tools could not be found.
    package struct NotFound: DiagnosticConvertible, Equatable {
        package var diagnostic: Diagnostic {
            Diagnostic("llvm-profdata and llvm-cov were not found next to `swift` (or through xcrun)")
        }
    }

    /// Finds the tools; `swift` is looked up in PATH (or `SWIFT_EXEC`'s folder is used).
    package static func locate() throws(NotFound) -> Toolchain {
        if let swift = which("swift"), let real = FileSystem.realPath(swift) {
            let folder = String(real[..<(real.lastIndex(of: "/") ?? real.startIndex)])
            let profdata = folder + "/llvm-profdata"
            let cov = folder + "/llvm-cov"
            if FileSystem.isExecutable(profdata) && FileSystem.isExecutable(cov) {
                return Toolchain(llvmProfdata: profdata, llvmCov: cov)
            }
        }
        #if canImport(Darwin)
            if let profdata = xcrunFind("llvm-profdata"), let cov = xcrunFind("llvm-cov") {
                return Toolchain(llvmProfdata: profdata, llvmCov: cov)
            }
        #endif
        throw NotFound()
    }

    /// `program`'s full path from PATH.
    package static func which(_ program: String) -> String? {
        guard let path = CurrentProcess.environment("PATH") else { return nil }
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(program)"
            if FileSystem.isExecutable(candidate) { return candidate }
        }
        return nil
    }

    #if canImport(Darwin)
        private static func xcrunFind(_ tool: String) -> String? {
            guard let result = try? Subprocess.capture("xcrun", ["--find", tool]), result.status == 0 else {
                return nil
            }
            let path = result.outputText.split(separator: "\n").first.map(String.init)
            return path
        }
    #endif

    /// `llvm-cov ARGUMENTS`.
    package func cov(_ arguments: [String]) throws -> Subprocess.Result {
        try system.capture(Command(llvmCov, arguments))
    }

    /// Merges raw profiles into `profdata` (`llvm-profdata merge -sparse`).
    package func merge(_ profraws: [String], into profdata: String) throws -> Subprocess.Result {
        try system.capture(Command(llvmProfdata, ["merge", "-sparse"] + profraws + ["-o", profdata]))
    }

    /// The JSON export for `binaries` (`llvm-cov export -instr-profile PROFDATA BINARY -object …`).
    /// `llvm-cov export` of `binaries` with `profdata`'s counts; without a profile, every count
    /// is zero (`-empty-profile`: the coverage of a run that ran no test, e.g. an empty shard).
    package func export(profdata: String?, binaries: [String]) throws -> Subprocess.Result {
        var arguments = ["export"] + (profdata.map { ["-instr-profile", $0] } ?? ["-empty-profile"])
        for (index, binary) in binaries.enumerated() {
            if index > 0 { arguments.append("-object") }
            arguments.append(binary)
        }
        return try system.capture(Command(llvmCov, arguments))
    }
}
