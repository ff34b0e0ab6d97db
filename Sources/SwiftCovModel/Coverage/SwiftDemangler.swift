import Dispatch
import SwiftCovPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns mangled Swift symbol names into readable ones through the Swift runtime's own
/// `swift_demangle` (docs/COVERAGE-ALGORITHMS.md §5), so names read exactly as `swift demangle` prints them.
/// Names that are not Swift symbols (C, C++, `main`) pass through unchanged.
package enum SwiftDemangler {
    /// The runtime's own demangler, linked by name: found whether the runtime is a shared library
    /// or linked in statically (`--static-swift-stdlib`, as `make install` builds on Linux), where
    /// looking it up with `dlsym` finds nothing.
    @_silgen_name("swift_demangle")
    private static func runtimeDemangle(
        _ mangledName: UnsafePointer<CChar>?, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
        _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
    ) -> UnsafeMutablePointer<CChar>?

    /// The demangled form of `name`, or `name` itself when it is not a Swift symbol. A private
    /// function's profile name `File.swift:$s…` keeps its `File.swift:` prefix.
    package static func demangle(_ name: String) -> String {
        guard let first = name.utf8.first else { return name }
        if first != UInt8(ascii: "$") && first != UInt8(ascii: "_") && first != UInt8(ascii: "@") {
            guard let colon = name.utf8.lastIndex(of: UInt8(ascii: ":")) else { return name }
            let prefix = String(name[...colon])
            let symbol = String(name[name.index(after: colon)...])
            guard symbol.utf8.first == UInt8(ascii: "$") || symbol.utf8.first == UInt8(ascii: "_") else { return name }
            return prefix + demangle(symbol)
        }
        var name = name
        return name.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                guard let result = runtimeDemangle(chars.baseAddress, chars.count, nil, nil, 0) else { return nil }
                defer { free(result) }
                return String(cString: result)
            }
        } ?? name
    }

    /// Every name's demangled and display names, on all cores: demangling is most of the work of
    /// a function list. Only `FunctionNameTable` calls it, once per report.
    static func names(of mangledNames: [String]) -> [FunctionName] {
        let workers = min(CurrentProcess.cores, 16)
        guard workers > 1, mangledNames.count >= 512 else { return mangledNames.map(FunctionName.init(mangledName:)) }
        var results = [FunctionName](repeating: FunctionName(demangled: "", display: ""), count: mangledNames.count)
        results.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer.baseAddress!
            let chunk = (mangledNames.count + workers - 1) / workers
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let range = (worker * chunk)..<min(mangledNames.count, (worker + 1) * chunk)
                for index in range { output[index] = FunctionName(mangledName: mangledNames[index]) }
            }
        }
        return results
    }
}
