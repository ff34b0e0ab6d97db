import Testing

@testable import SwiftCovCore

@Suite("swiftcov run's pipeline")
struct CoverageRunTests {
    @Test("the coverage path is asked with the user's build options (-c release: release, not debug)")
    func codecovPathOptions() {
        let pipeline = CoverageRun(
            root: "/package", output: "out", testArguments: ["-c", "release"], scratchPath: "/scratch")
        #expect(
            pipeline.codecovPathArguments == [
                "test", "--show-codecov-path", "--enable-code-coverage", "--scratch-path", "/scratch", "-c", "release",
            ])
    }
}
