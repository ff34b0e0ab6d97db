/// What one run of a test left as evidence: the steps it took (its activity tree: "Launch",
/// "Tap "Answer B" Button", …), its failures tied to the step they happened in, and its
/// attachments (screenshots, recordings, logs), each at its step. One per run: a test run in
/// several test-plan configurations, on several destinations or with several argument cases
/// (a UI test's appearance and orientation) has one evidence for each, and a retry has its own.
///
/// The tree is kept flat, in depth-first order (each activity before its children, siblings in
/// the order they ran), each activity naming its parent's position: a deep tree is built,
/// walked, compared and freed without recursion.
package struct TestEvidence: Sendable, Equatable {
    /// The test as Xcode names it: `Class/test()` (`Suite/test(value:)` for Swift Testing).
    package var testIdentifier: String
    /// `test://com.apple.xcode/Project/Bundle/Class/test()`, when the input gives it.
    package var testIdentifierURL: String?
    /// The class or suite, with its module (`WeatherUITests.WeatherUITestsLaunchTests`), as the
    /// test run's case names it.
    package var className: String
    /// The test's name (`testLaunch()`).
    package var testName: String
    /// The test-plan configuration the run belongs to, when named.
    package var configuration: String?
    /// The destination's name (`iPhone 11`), when known.
    package var deviceName: String?
    /// The destination's identifier, when known.
    package var deviceIdentifier: String?
    /// The argument case or the test's own configuration (`XCUIAppearanceMode: 2`), when any.
    package var arguments: String?
    /// The argument case's values, in order, as the input names them (Swift Testing's values'
    /// descriptions; `Dark Appearance`, `Portrait` for a UI test's); empty when the run has none.
    package var argumentValues: [String] = []
    /// The run's place among runs of the same test with the same identity (retries and
    /// repetitions), from 1.
    package var attempt = 1
    /// How the run ended.
    package var status: TestRun.Status
    /// The steps, depth first.
    package var activities: [Activity] = []
    /// The failures (and expected failures) recorded in the run.
    package var failures: [Failure] = []
    /// The attachments, in the order of their steps.
    package var attachments: [Attachment] = []
    /// What was left out to keep the evidence within its limits (`maximumActivities`, text), said
    /// in a sentence; nil when nothing was.
    package var leftOut: String?
    /// The result bundle the run was read from, whose store holds its attachments' payloads; nil
    /// for a run of Swift Testing, whose attachments are files (`Attachment.file`).
    package var bundle: String?

    /// A run's evidence with no steps yet.
    package init(
        testIdentifier: String, className: String, testName: String, status: TestRun.Status
    ) {
        self.testIdentifier = testIdentifier
        self.className = className
        self.testName = testName
        self.status = status
    }

    /// The most steps kept of one run (real UI tests record hundreds).
    package static let maximumActivities = 50_000
    /// The most attachments kept of one run.
    package static let maximumAttachments = 10_000

    /// One step of a test.
    package struct Activity: Sendable, Equatable {
        /// What the step did, as recorded.
        package var title: String
        /// `com.apple.dt.xctest.activity-type.internal`, `…userCreated`, `…testAssertionFailure`, ….
        package var activityType: String?
        /// When it started and finished, in seconds since 1970, when recorded.
        package var start: Double?
        package var finish: Double?
        /// The step's identifier in its input, when recorded.
        package var uuid: String?
        /// The position of its parent in `activities`; nil for a top-level step.
        package var parent: Int?
        /// How deep it is: 0 for a top-level step.
        package var depth: Int

        /// A step from its parts.
        package init(
            title: String, activityType: String? = nil, start: Double? = nil, finish: Double? = nil,
            uuid: String? = nil, parent: Int? = nil, depth: Int = 0
        ) {
            self.title = title
            self.activityType = activityType
            self.start = start
            self.finish = finish
            self.uuid = uuid
            self.parent = parent
            self.depth = depth
        }
    }

    /// A failure recorded while the test ran.
    package struct Failure: Sendable, Equatable {
        /// What failed.
        package var message: String
        /// Where it was recorded, when known.
        package var location: TestRun.SourceLocation?
        /// Whether it was expected (`XCTExpectFailure`, a known issue): recorded, not failing.
        package var isExpected: Bool
        /// Its identifier in its input, when recorded.
        package var uuid: String?
        /// The position in `activities` of the step it happened in, when the input ties it to one.
        package var activity: Int?

        /// A failure from its parts.
        package init(
            message: String, location: TestRun.SourceLocation? = nil, isExpected: Bool = false, uuid: String? = nil,
            activity: Int? = nil
        ) {
            self.message = message
            self.location = location
            self.isExpected = isExpected
            self.uuid = uuid
            self.activity = activity
        }
    }

    /// A file a test attached (a screenshot, a recording, a log, an element's description).
    package struct Attachment: Sendable, Equatable {
        /// Its name, as the test gave it (`Launch Screen`, `kXCTAttachmentLegacyScreenImageData`).
        package var name: String
        /// The type: `public.png`, `public.jpeg`, `public.heic`, `public.plain-text`, ….
        package var uniformTypeIdentifier: String?
        /// When it was made, in seconds since 1970.
        package var timestamp: Double?
        /// `keepAlways`, `deleteOnSuccess`, `keepNever`, when recorded.
        package var lifetime: String?
        /// The file name Xcode suggests for it (`Launch Screen_0_<UUID>.png`), when recorded.
        package var filename: String?
        /// Its identifier in its input, when recorded.
        package var uuid: String?
        /// Where its bytes are in the bundle's store, when the bundle holds them.
        package var payload: Payload?
        /// The file holding its bytes when they are not in a bundle: what Swift Testing wrote
        /// (`swift test --attachments-path`).
        package var file: String?
        /// The position in `activities` of the step it was attached at, when any.
        package var activity: Int?
        /// Whether it belongs to a failure: attached to the failure itself, or at the step a
        /// failure is tied to (the screenshot Xcode takes when an assertion fails).
        package var isAssociatedWithFailure = false

        /// An attachment from its parts.
        package init(
            name: String, uniformTypeIdentifier: String? = nil, timestamp: Double? = nil, lifetime: String? = nil,
            filename: String? = nil, uuid: String? = nil, payload: Payload? = nil, activity: Int? = nil
        ) {
            self.name = name
            self.uniformTypeIdentifier = uniformTypeIdentifier
            self.timestamp = timestamp
            self.lifetime = lifetime
            self.filename = filename
            self.uuid = uuid
            self.payload = payload
            self.activity = activity
        }
    }

    /// An attachment's bytes in its input. Xcode's store is content-addressed: `id` is a hash of
    /// the bytes, so attachments with equal `id`s have equal bytes (identical screenshots share
    /// one file), and a copy made once serves them all.
    package struct Payload: Sendable, Hashable {
        /// The bundle's id of the bytes (`0~…`: the file `Data/data.<id>`).
        package var id: String
        /// Their size in bytes, when recorded.
        package var size: Int?

        /// A payload from its parts.
        package init(id: String, size: Int? = nil) {
            self.id = id
            self.size = size
        }
    }

    /// The positions of the top-level steps.
    package var topLevelActivities: [Int] { activities.indices.filter { activities[$0].parent == nil } }

    /// The positions of the direct children of the step at `position`, in order.
    package func children(of position: Int) -> [Int] {
        // Depth first: the children follow their parent, before anything at its depth or above.
        var result: [Int] = []
        var index = position + 1
        while index < activities.count, activities[index].depth > activities[position].depth {
            if activities[index].parent == position { result.append(index) }
            index += 1
        }
        return result
    }

    /// The attachments at the step at `position`.
    package func attachments(at position: Int) -> [Attachment] { attachments.filter { $0.activity == position } }

    /// The failures tied to the step at `position`.
    package func failures(at position: Int) -> [Failure] { failures.filter { $0.activity == position } }

    /// Whether a failure (not an expected one) is tied to the step at `position`.
    package func isFailing(_ position: Int) -> Bool { failures.contains { $0.activity == position && !$0.isExpected } }

    /// Whether the run failed (an assertion, an error, a crash).
    package var hasFailed: Bool { status >= .failed }
}

extension TestRun {
    /// The evidence Swift Testing left: for each test case with attachments (the files it
    /// recorded with `Attachment.record`, `swift test --attachments-path`; a retried case's
    /// attachments gathered), a run without steps, its failures not tied to a step.
    package var evidence: [TestEvidence] {
        var runs: [TestEvidence] = []
        for suite in suites {
            for testCase in suite.cases where !testCase.attachments.isEmpty {
                var run = TestEvidence(
                    testIdentifier: testCase.className + "/" + testCase.testName, className: testCase.className,
                    testName: testCase.testName, status: testCase.status)
                run.arguments = testCase.arguments
                run.attempt = testCase.attempts.count + 1
                run.failures = testCase.failingIssues.map {
                    TestEvidence.Failure(message: $0.message, location: $0.location)
                }
                run.attachments = testCase.attachments.map { attachment in
                    var copy = TestEvidence.Attachment(name: attachment.name, timestamp: attachment.time)
                    copy.file = attachment.path
                    copy.isAssociatedWithFailure = testCase.status >= .failed
                    return copy
                }
                runs.append(run)
            }
        }
        return runs
    }
}
