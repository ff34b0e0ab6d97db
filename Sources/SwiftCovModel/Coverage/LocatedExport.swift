/// An export found for an input, and what is known of the run it is of.
package struct LocatedExport: Equatable, Sendable {
    package var path: String
    /// The run's record, when `swiftcov run` wrote the export (nil: SwiftPM's, or a file).
    package var record: RunRecord?
    /// Why this export was read when there was a choice (one line for the user), else nil.
    package var choice: String?
    /// What part of the tests the export holds, when it is a part (a shard, a filtered run).
    package var partial: String?

    package init(path: String, record: RunRecord? = nil, choice: String? = nil, partial: String? = nil) {
        self.path = path
        self.record = record
        self.choice = choice
        self.partial = partial
    }
}
