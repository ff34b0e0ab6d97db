// The libFuzzer entry point of every fuzz target. FuzzTesting/fuzz compiles this file with
// Tests/SwiftCovCoreTests/Fuzz/FuzzTargets.swift into one executable per target, named after
// the target: the name says which code path the inputs go through.

import SwiftCovCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private let target: FuzzTarget = {
    let name = String(CommandLine.arguments[0].split(separator: "/").last ?? "")
    guard let target = FuzzTarget(rawValue: name) else {
        fputs("fuzz: no target named '\(name)' (the executable's name picks the target)\n", stderr)
        exit(2)
    }
    return target
}()

/// The trivia package's report, from the working directory (the repository root).
private let sampleReport: CoverageReport? = {
    let report = FuzzTarget.sampleReport(path: "SampleReports/coverage.json")
    if report == nil { fputs("fuzz: SampleReports/coverage.json not found; run from the repository root\n", stderr) }
    return report
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        try target.run(Array(UnsafeBufferPointer(start: data, count: size)), sampleReport: sampleReport)
    } catch {
        fputs("fuzz: \(error.description.prefix(4000))\n", stderr)
        abort()
    }
    return 0
}
