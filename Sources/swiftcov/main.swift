import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Whatever a program swiftcov runs leaves behind is swiftcov's to end (Subprocess).
Subprocess.adoptOrphans()
exit(SwiftCovCommand.main(Array(CommandLine.arguments.dropFirst())))
