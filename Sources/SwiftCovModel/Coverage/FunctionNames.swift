import SwiftCovPlatform

/// A function's names, as every report shows them.
package struct FunctionName: Sendable, Equatable {
    /// The demangled name (`swift demangle`'s), or the name itself when it is not a Swift symbol.
    package var demangled: String
    /// The short, Xcode-style name of tables and pages (`SwiftDemangler.displayName`).
    package var display: String

    package init(demangled: String, display: String) {
        self.demangled = demangled
        self.display = display
    }

    /// The names of `mangledName`, worked out now.
    package init(mangledName: String) {
        demangled = SwiftDemangler.demangle(mangledName)
        display = SwiftDemangler.displayName(demangled)
    }
}

/// The names of a report's function records, held by the report: worked out once, on all cores,
/// the first time any of them is asked for (a report that shows no functions never demangles),
/// then shared by every writer (`swiftcov run` writes the site and coverage.json from one report).
/// Each `FileCoverage` reads its own functions' names here (`FileCoverage.functionNames`).
///
/// A writer that reads each file's names once and then lets them go (the HTML site, a page per
/// file on all cores) asks for `names(in:)` instead: the table's when they are worked out, else
/// worked out for that range alone and not kept, so that the site of a large package never holds
/// every name (they were an eighth of `html`'s peak memory on swift-collections).
package final class FunctionNameTable: Sendable {
    private let mangledNames: [String]
    private let state = Locked(State())

    private struct State {
        var names: [FunctionName]?
        var computations = 0
    }

    /// The table of a file without functions, until a report shares its own.
    static let empty = FunctionNameTable([])

    /// A table of `mangledNames`, none worked out yet.
    init(_ mangledNames: [String]) {
        self.mangledNames = mangledNames
    }

    /// Every name, in the order of the mangled names; worked out on the first call.
    package var names: [FunctionName] {
        state.withLock { state in
            if let names = state.names { return names }
            let names = SwiftDemangler.names(of: mangledNames)
            state.names = names
            state.computations += 1
            return names
        }
    }

    /// The names of the records in `range`: from the table when they are worked out, else worked
    /// out now for `range` alone, and not kept.
    package func names(in range: Range<Int>) -> ArraySlice<FunctionName> {
        if let names = state.withLock({ $0.names }) { return names[range] }
        return ArraySlice(mangledNames[range].map(FunctionName.init(mangledName:)))
    }

    /// How many times the names were worked out: 0 before they are asked for, then 1 (for tests).
    package var computations: Int { state.withLock { $0.computations } }

    /// How many names the table holds.
    package var count: Int { mangledNames.count }
}
