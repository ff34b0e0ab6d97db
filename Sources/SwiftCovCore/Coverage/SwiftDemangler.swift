#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns mangled Swift symbol names into readable ones through the Swift runtime's own
/// `swift_demangle` (FORMATS.md §5), so names read exactly as `swift demangle` prints them.
/// Names that are not Swift symbols (C, C++, `main`) pass through unchanged.
package enum SwiftDemangler {
    private typealias DemangleFunction =
        @convention(c) (
            UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
        ) -> UnsafeMutablePointer<CChar>?

    private static let function: DemangleFunction? = {
        #if os(Linux)
            let handle = dlopen(nil, RTLD_NOW)
        #else
            let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(handle, "swift_demangle") else { return nil }
        return unsafeBitCast(symbol, to: DemangleFunction.self)
    }()

    /// The demangled form of `name`, or `name` itself when it is not a Swift symbol.
    package static func demangle(_ name: String) -> String {
        guard let function, looksMangled(name) else { return name }
        var name = name
        return name.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                guard let result = function(chars.baseAddress, chars.count, nil, nil, 0) else { return nil }
                defer { free(result) }
                return String(cString: result)
            }
        } ?? name
    }

    /// Swift symbols start with `$s`, `$S`, `_T0`, `$e` or `@__swiftmacro_`; llvm's profile names
    /// may put `file.swift:` before a private symbol.
    private static func looksMangled(_ name: String) -> Bool {
        var utf8 = name.utf8[...]
        if let colon = utf8.lastIndex(of: UInt8(ascii: ":")) { utf8 = utf8[utf8.index(after: colon)...] }
        guard let first = utf8.first else { return false }
        return first == UInt8(ascii: "$") || first == UInt8(ascii: "_") || first == UInt8(ascii: "@")
    }
}
