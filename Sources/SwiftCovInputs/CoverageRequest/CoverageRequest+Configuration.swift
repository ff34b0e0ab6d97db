import SwiftCovModel

extension CoverageRequest {
    /// Adds the configuration's scope rules, so that a gate judges the code the report shows.
    package mutating func adopt(_ configuration: GateConfiguration) {
        includes += configuration.includes
        excludes += configuration.excludes
        allFiles = allFiles || configuration.allFiles
    }
}

extension GateConfiguration {
    /// Whether a rule of the gate checks coverage: a minimum (total, module, file) or the ratchet.
    /// (`failOn` is `diff`'s.)
    package var hasCoverageRules: Bool {
        !totals.isEmpty || modules.values.contains { !$0.isEmpty } || files.contains { !$0.minimums.isEmpty }
            || ratchetTolerance != nil
    }

    /// This configuration's scope (include, exclude, allFiles) and its rules for tests, without
    /// its coverage rules: for a shard, whose coverage is a share of the package's, so that only
    /// its tests are gated.
    package var withoutCoverageRules: GateConfiguration {
        var scope = GateConfiguration()
        scope.tests = tests
        scope.quarantine = quarantine
        scope.quarantineFile = quarantineFile
        scope.includes = includes
        scope.excludes = excludes
        scope.allFiles = allFiles
        return scope
    }
}
