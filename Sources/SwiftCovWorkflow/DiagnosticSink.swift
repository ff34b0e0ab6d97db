import SwiftCovPlatform

/// Where long work tells what it finds and how far it is, as it goes: the one sink the run
/// workflow is given for its notes and warnings, its stages, the output of the programs it runs
/// and each test it runs alone. The command line prints them one way (`Terminal`); a test
/// collects them. Calls may come from several threads (`testEnded`), one at a time.
package protocol DiagnosticSink: Sendable {
    /// A note or a warning.
    func emit(_ diagnostic: Diagnostic)
    /// A stage begins ("building the tests with coverage").
    func stage(_ description: String)
    /// The output of the program running now (the build, `swift test`), as it comes.
    func output(_ bytes: UnsafeBufferPointer<UInt8>)
    /// That program's output is over. `errors`: what to show of it when it failed before doing
    /// its work (a build's errors), in case the output was not shown as it came; worked out only
    /// when asked for (it may read a long log).
    func outputEnded(errors: @autoclosure () -> String?)
    /// A test run alone has ended: `count` tests have ended so far, of `total`.
    func testEnded(_ result: PerTestRunner.Result, count: Int, of total: Int)
}

extension DiagnosticSink {
    /// A note.
    package func note(_ message: String) {
        emit(.note(message))
    }
}
