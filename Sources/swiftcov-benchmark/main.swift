#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

exit(BenchmarkCommand.main(Array(CommandLine.arguments.dropFirst())))
