import Foundation

/// Switch for the deliberate failures that give SampleReports a failing run to show: set `TRIVIA_DEMO_FAILURES=1`.
/// With it unset the affected tests assert the true values and pass.
enum DemoFailures {
    /// Whether `TRIVIA_DEMO_FAILURES=1` is set.
    static var isEnabled: Bool {
        ProcessInfo.processInfo.environment["TRIVIA_DEMO_FAILURES"] == "1"
    }
}
