import SwiftCovFormats

/// The document `xcrun xcresulttool get test-results tests --format json` prints (`devices`,
/// `testPlanConfigurations`, `testNodes`), built from each test case's runs whichever store holds
/// them: Xcode 16 and later's database (`XcodeResultDatabase`) or the object graph of every
/// bundle (`XcodeTestResults.testsDocument`). The one place that knows the tool's tree below a
/// test case, its words for results and its texts.
///
/// - Under a test case: a node per test plan configuration (when the document has several), per
///   device (when it has several) and per argument case, then a node per repetition or retry
///   (`First Run`, `Retry 1`, `Repetition 2`) when a case ran more than once, and each run's
///   failure messages and skip notice (`Failure Message`).
/// - Keys sorted as the tool prints them. `duration` is the tool's text where its form is known
///   (below a minute: `0.00049s` with two significant digits, whole seconds from 1 s, as Xcode
///   26 writes in English); left out above a minute, as are keys no store holds.
package enum XcodeTestsDocument {
    /// A destination, as `devices` lists it.
    package struct Device: Hashable, Sendable {
        package var id: String
        package var name: String?
        package var architecture: String?
        package var modelName: String?
        package var osVersion: String?
        package var osBuildNumber: String?
        package var platform: String?

        /// The device from its parts; the build number is read from `13.1 (22C65)` when given so.
        package init(
            id: String, name: String?, architecture: String?, modelName: String?, osVersion: String?,
            osVersionWithBuildNumber: String?, platform: String?
        ) {
            self.id = id
            self.name = name
            self.architecture = architecture
            self.modelName = modelName
            self.osVersion = osVersion
            self.platform = platform
            if let text = osVersionWithBuildNumber, let open = text.lastIndex(of: "("), text.hasSuffix(")") {
                let build = text[text.index(after: open)..<text.index(before: text.endIndex)]
                if !build.isEmpty { osBuildNumber = String(build) }
                if self.osVersion == nil {
                    let version = text[..<open].trimmingSuffix(" ")
                    if !version.isEmpty { self.osVersion = String(version) }
                }
            }
        }

        /// The device as the tool lists it (keys it cannot know left out).
        package var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = []
            if let architecture { members.append(("architecture", .string(architecture))) }
            members.append(("deviceId", .string(id)))
            if let name { members.append(("deviceName", .string(name))) }
            if let modelName { members.append(("modelName", .string(modelName))) }
            if let osBuildNumber { members.append(("osBuildNumber", .string(osBuildNumber))) }
            if let osVersion { members.append(("osVersion", .string(osVersion))) }
            if let platform { members.append(("platform", .string(platform))) }
            return .object(members)
        }
    }

    /// One run of a test case, with what tells it apart from the case's other runs.
    package struct Run: Sendable {
        package var configuration: String?
        package var device: Device?
        /// The argument case (Swift Testing's values; a UI test's appearance and orientation).
        package var arguments: String?
        /// Its place among the runs of one identity, from 1.
        package var repetition: Int64 = 1
        /// Whether it is a retry of a failure (`First Run`, `Retry N`), not a repetition.
        package var retryOnFailure = false
        /// The tool's word: Passed, Failed, Skipped, Expected Failure (or what the store said).
        package var result: String
        /// Its time as shown for it.
        package var duration: Double?
        /// Its time as stored, where that differs from what is shown (the database keeps 0 s for a
        /// run whose failures span a time): what means over several runs count.
        package var storedDuration: Double?
        /// Its failure messages (`File.swift:LINE: message`) and skip notice, in order.
        package var messages: [String] = []
        /// Its failures' own texts (without their place), in order.
        package var failures: [String] = []
        /// Whether it measured performance metrics.
        package var hasPerformanceMetrics = false

        package init(result: String) { self.result = result }
    }

    /// A test case and its runs.
    package struct Case: Sendable {
        package var name: String
        /// `Class/test()`.
        package var identifier: String?
        package var url: String?
        package var tags: [String] = []
        package var runs: [Run] = []

        package init(name: String, identifier: String?, url: String?) {
            self.name = name
            self.identifier = identifier
            self.url = url
        }
    }

    /// A test bundle or a suite, and what it holds in order.
    package struct Group: Sendable {
        /// `Unit test bundle`, `UI test bundle` or `Test Suite`.
        package var type: String
        package var name: String
        package var url: String?
        package var children: [Child] = []

        package init(type: String, name: String, url: String?) {
            self.type = type
            self.name = name
            self.url = url
        }
    }

    /// What a group holds.
    package indirect enum Child: Sendable {
        case group(Group)
        case testCase(Case)

        var isGroup: Bool { if case .group = self { true } else { false } }
    }

    /// The results of a bundle's tests: what all of `xcresulttool get test-results`' documents
    /// are made from.
    package struct Results: Sendable {
        /// The test plan's name.
        package var plan = "Test Plan"
        /// The test bundles, in plan order.
        package var bundles: [Group] = []
        /// The run destinations' devices, in the order met.
        package var devices: [Device] = []
        /// The test plan configurations, in the order met.
        package var configurations: [String] = []
        /// `Test - Scheme`, when the store names the action and the scheme.
        package var title: String?
        /// `Scheme · Built with macOS 13.1`, when the store names the scheme and the SDK.
        package var environmentDescription: String?
        /// When the test action started and finished, in seconds since 1970.
        package var startTime: Double?
        package var finishTime: Double?

        package init() {}

        /// Every test case with the bundle it is in, depth first (each group's own in order).
        package var cases: [(bundle: String, testCase: Case)] {
            var found: [(bundle: String, testCase: Case)] = []
            for bundle in bundles {
                var pending: [Child] = bundle.children.reversed()
                while let child = pending.popLast() {
                    switch child {
                    case .testCase(let testCase): found.append((bundle.name, testCase))
                    case .group(let group): pending.append(contentsOf: group.children.reversed())
                    }
                }
            }
            return found
        }

        /// Which places split a case's runs into nodes.
        package var splitting: Splitting { Splitting(cases.lazy.flatMap(\.testCase.runs)) }

        /// The `tests` document.
        package var testsDocument: JSONValue {
            let splitting = splitting
            func render(_ group: Group, depth: Int) -> (node: JSONValue, result: String) {
                var nodes: [JSONValue] = []
                var results: [String] = []
                for child in group.children where depth < XCResultObject.maximumDepth {
                    let (node, result) =
                        switch child {
                        case .group(let inner): render(inner, depth: depth + 1)
                        case .testCase(let testCase): XcodeTestsDocument.caseNode(testCase, splitting: splitting)
                        }
                    nodes.append(node)
                    results.append(result)
                }
                let result = aggregate(results)
                return (
                    node(name: group.name, type: group.type, url: group.url, result: result, children: nodes), result
                )
            }
            let bundles = bundles.map { render($0, depth: 0) }
            let plan = node(
                name: plan, type: "Test Plan", result: aggregate(bundles.map(\.result)), children: bundles.map(\.node))
            return document(testNodes: [plan], configurations: configurations, devices: devices)
        }
    }

    /// Gathers runs met one by one (the object graph lists a test once per configuration,
    /// destination and repetition) into bundles, suites and cases, each found again by its path.
    package struct Builder {
        private struct FlatGroup {
            var group: Group
            var children: [(isGroup: Bool, index: Int)] = []
        }
        private var groups: [FlatGroup] = []
        private var cases: [Case] = []
        private var bundles: [Int] = []
        private var index: [[String]: Int] = [:]
        private var results = Results()

        package init() {}

        /// Adds `run` of the case `testCase` (found by its identifier, else its name) in the suites
        /// `suites` (outermost first) of the bundle `bundle`.
        package mutating func add(
            _ run: Run, of testCase: Case, in suites: [(name: String, url: String?)], bundle: Group
        ) {
            var path = ["b", bundle.name]
            var parent = index[path] ?? -1
            if parent < 0 {
                parent = groups.count
                index[path] = parent
                groups.append(FlatGroup(group: bundle))
                bundles.append(parent)
            }
            for suite in suites {
                path += ["s", suite.name]
                parent = place(path, under: parent, .group(Group(type: "Test Suite", name: suite.name, url: suite.url)))
            }
            let position = place(
                path + ["c", testCase.identifier ?? testCase.name], under: parent, .testCase(testCase))
            cases[position].runs.append(run)
            if let device = run.device, !results.devices.contains(device) { results.devices.append(device) }
            if let configuration = run.configuration, !results.configurations.contains(configuration) {
                results.configurations.append(configuration)
            }
        }

        /// The position of what `path` names: found again, or `new` added (to the groups or the
        /// cases) and listed under the group `parent`.
        private mutating func place(_ path: [String], under parent: Int, _ new: Child) -> Int {
            if let found = index[path] { return found }
            let position: Int
            switch new {
            case .group(let group):
                position = groups.count
                groups.append(FlatGroup(group: group))
            case .testCase(let testCase):
                position = cases.count
                cases.append(testCase)
            }
            index[path] = position
            groups[parent].children.append((new.isGroup, position))
            return position
        }

        /// The results, the groups nested (no deeper than the paths added).
        package func finish() -> Results {
            func nested(_ position: Int) -> Group {
                var group = groups[position].group
                group.children = groups[position].children.map {
                    $0.isGroup ? .group(nested($0.index)) : .testCase(cases[$0.index])
                }
                return group
            }
            var results = results
            results.bundles = bundles.map(nested)
            return results
        }
    }

    /// Which places split a test case's runs into nodes: those that take several values in the
    /// whole document.
    package struct Splitting: Sendable {
        package var byConfiguration: Bool
        package var byDevice: Bool

        package init<Runs: Sequence<Run>>(_ runs: Runs) {
            var configurations = Set<String?>()
            var devices = Set<String?>()
            for run in runs {
                configurations.insert(run.configuration)
                devices.insert(run.device?.id)
            }
            byConfiguration = configurations.count > 1
            byDevice = devices.count > 1
        }
    }

    /// A node, its keys in the tool's (sorted) order.
    package static func node(
        name: String, type: String, identifier: String? = nil, url: String? = nil, result: String? = nil,
        duration: Double? = nil, details: String? = nil, tags: [String] = [], children: [JSONValue] = []
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if !children.isEmpty { members.append(("children", .array(children))) }
        if let details { members.append(("details", .string(details))) }
        if let duration {
            if let text = durationText(duration) { members.append(("duration", .string(text))) }
            members.append(("durationInSeconds", .number(duration)))
        }
        members.append(("name", .string(name)))
        if let identifier { members.append(("nodeIdentifier", .string(identifier))) }
        if let url { members.append(("nodeIdentifierURL", .string(url))) }
        members.append(("nodeType", .string(type)))
        if let result { members.append(("result", .string(result))) }
        if !tags.isEmpty { members.append(("tags", .array(tags.sorted().map { .string($0) }))) }
        return .object(members)
    }

    /// A test case's node from its runs.
    package static func caseNode(_ testCase: Case, splitting: Splitting) -> (node: JSONValue, result: String) {
        let inner = children(
            testCase.runs,
            by: [
                splitting.byConfiguration ? .configuration : nil, splitting.byDevice ? .device : nil, .arguments,
            ].compactMap { $0 })
        let result = aggregate(inner.results)
        return (
            node(
                name: testCase.name, type: "Test Case", identifier: testCase.identifier, url: testCase.url,
                result: result, duration: inner.duration, details: inner.details, tags: testCase.tags,
                children: inner.nodes),
            result
        )
    }

    /// What a level of nodes under a test case tells apart.
    package enum Key {
        case configuration, device, arguments

        var type: String {
            switch self {
            case .configuration: "Test Plan Configuration"
            case .device: "Device"
            case .arguments: "Arguments"
            }
        }

        func value(_ run: Run) -> String? {
            switch self {
            case .configuration: run.configuration
            case .device: run.device?.id
            case .arguments: run.arguments
            }
        }
    }

    /// The nodes under a test case (or a splitting node) for `runs`: one per value of the first
    /// key that tells runs apart, else one per repetition, else the run's messages.
    package static func children(
        _ group: [Run], by keys: [Key]
    ) -> (nodes: [JSONValue], results: [String], duration: Double?, details: String?) {
        if let key = keys.first {
            let values = group.map(key.value)
            guard values.contains(where: { $0 != nil }) else { return children(group, by: Array(keys.dropFirst())) }
            // In the order the runs ran (the tool sorts by its collation, which no store keeps).
            var order: [String] = []
            var seen = Set<String>()
            for value in values.map({ $0 ?? "" }) where seen.insert(value).inserted { order.append(value) }
            var nodes: [JSONValue] = []
            var results: [String] = []
            for value in order {
                let runs = group.filter { (key.value($0) ?? "") == value }
                let inner = children(runs, by: Array(keys.dropFirst()))
                let result = aggregate(inner.results)
                results.append(result)
                var name = value
                var identifier: String?
                if key == .device, let device = runs.first?.device {
                    // The device's model names it; its identifier says which one it is.
                    name = device.modelName ?? device.name ?? device.id
                    identifier = device.id
                }
                // The tool shows a line break in a name as a space; the runs stay apart.
                name = String(String.UnicodeScalarView(name.unicodeScalars.map { $0 == "\n" ? " " : $0 }))
                // An argument case run several times shows no time of its own.
                let duration = key == .arguments && runs.count > 1 ? nil : inner.duration
                nodes.append(
                    node(
                        name: name, type: key.type, identifier: identifier, result: result, duration: duration,
                        details: inner.details, children: inner.nodes))
            }
            return (nodes, results, duration(of: group), nil)
        }
        let sorted = group.sorted { $0.repetition < $1.repetition }
        // One run: its messages directly under the node; several: a node per repetition.
        if sorted.count == 1 {
            let run = sorted[0]
            return (messages(run), [run.result], run.duration, nil)
        }
        var nodes: [JSONValue] = []
        for run in sorted {
            let name =
                run.retryOnFailure
                ? (run.repetition == 1 ? "First Run" : "Retry \(run.repetition - 1)")
                : "Repetition \(run.repetition)"
            nodes.append(
                node(
                    name: name, type: "Repetition", identifier: String(run.repetition), result: run.result,
                    duration: run.duration, children: messages(run)))
        }
        // Retries end with the last attempt's result; other repetitions fail if any failed.
        let results = sorted.map(\.result)
        let retries = sorted.last?.retryOnFailure == true
        let result = retries ? [results.last ?? "Failed"] : results
        let details = retries && results.last == "Failed" ? "Failed after \(sorted.count) retries" : nil
        return (nodes, result, duration(of: sorted), details)
    }

    /// The time the tool shows for runs: a single run's own; for several, the mean of those
    /// that took any time (none when none did).
    static func duration(of runs: [Run]) -> Double? {
        if runs.count == 1 { return runs[0].duration }
        let times = runs.compactMap { $0.storedDuration ?? $0.duration }.filter { $0 > 0 }
        return times.isEmpty ? nil : times.reduce(0, +) / Double(times.count)
    }

    static func messages(_ run: Run) -> [JSONValue] {
        run.messages.map { node(name: $0, type: "Failure Message") }
    }

    /// The tool's word for a stored result (the database's and the object graph's are the same);
    /// an unknown one passes through (and reads as an error).
    package static func result(_ stored: String?) -> String {
        switch stored {
        case "Success": "Passed"
        case "Failure": "Failed"
        case "Skipped": "Skipped"
        case "Expected Failure", "ExpectedFailure": "Expected Failure"
        case let other: other ?? "unknown"
        }
    }

    /// A group's result: failed if anything failed (or ended otherwise), else passed if
    /// anything passed, else skipped.
    package static func aggregate(_ results: [String]) -> String {
        if results.contains(where: { !["Passed", "Skipped", "Expected Failure"].contains($0) }) {
            return results.first { !["Passed", "Skipped", "Expected Failure"].contains($0) && $0 != "Failed" }
                ?? "Failed"
        }
        if results.contains("Passed") || results.contains("Expected Failure") { return "Passed" }
        return results.isEmpty ? "Passed" : "Skipped"
    }

    /// `duration` as Xcode 26's tool writes it in English: below 1 s two significant digits
    /// (`0.00049s`, `0.1s`), from 1 s whole seconds (`8s` for 8.79); nil from a minute on (a
    /// form no ground truth shows) and for what is not a time.
    package static func durationText(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= 0, seconds < 60 else { return nil }
        if seconds == 0 { return "0s" }
        if seconds >= 1 { return "\(Int(seconds))s" }
        // Two significant digits, trailing zeros dropped.
        var exponent = 0
        var scaled = seconds
        while scaled < 10 {
            scaled *= 10
            exponent += 1
        }
        guard exponent <= 15 else { return nil }
        var digits = Int(scaled.rounded())
        if digits == 100 {
            digits = 10
            exponent -= 1
        }
        if exponent <= 1 && digits >= 10 { return "1s" }
        var text = String(digits)
        while text.count < exponent { text = "0" + text }
        text = "0." + text
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "s"
    }

    /// The document from its test nodes, configurations (named, in order; their ids are their
    /// places from 1) and devices.
    package static func document(testNodes: [JSONValue], configurations: [String], devices: [Device]) -> JSONValue {
        .object([
            ("devices", .array(devices.map(\.json))),
            ("testNodes", .array(testNodes)),
            (
                "testPlanConfigurations",
                .array(
                    configurations.enumerated().map { index, name in
                        .object([("configurationId", .string(String(index + 1))), ("configurationName", .string(name))])
                    })
            ),
        ])
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ character: Character) -> Substring {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}
