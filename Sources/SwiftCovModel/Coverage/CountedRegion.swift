/// The kind of a mapping region, as numbered in the llvm-cov export.
package enum RegionKind: UInt8, Sendable {
    case code = 0
    case expansion = 1
    case skipped = 2
    case gap = 3
    case branch = 4
    case mcdcDecision = 5
    case mcdcBranch = 6
}

/// A source position, ordered by line then column.
package struct SourcePosition: Comparable, Hashable, Sendable {
    package var line: UInt32
    package var column: UInt32

    package init(line: UInt32, column: UInt32) {
        self.line = line
        self.column = column
    }

    package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        lhs.line != rhs.line ? lhs.line < rhs.line : lhs.column < rhs.column
    }
}

/// A function's mapping region with its execution count:
/// `[lineStart, colStart, lineEnd, colEnd, executionCount, fileID, expandedFileID, kind]` in the export.
package struct CountedRegion: Equatable, Sendable {
    package var start: SourcePosition
    package var end: SourcePosition
    package var executionCount: UInt64
    /// Index into the function's `filenames`.
    package var fileID: UInt32
    /// For expansion regions, the `filenames` index of the expanded file.
    package var expandedFileID: UInt32
    /// Raw kind; unknown kinds are kept and never counted.
    package var kind: UInt8

    package init(
        start: SourcePosition, end: SourcePosition, executionCount: UInt64, fileID: UInt32 = 0,
        expandedFileID: UInt32 = 0, kind: RegionKind = .code
    ) {
        self.start = start
        self.end = end
        self.executionCount = executionCount
        self.fileID = fileID
        self.expandedFileID = expandedFileID
        self.kind = kind.rawValue
    }

    package var isCode: Bool { kind == RegionKind.code.rawValue }
}

/// A branch region: `[ls, cs, le, ce, trueCount, falseCount, fileID, expandedFileID, kind]`.
package struct BranchRegion: Equatable, Sendable {
    package var start: SourcePosition
    package var trueCount: UInt64
    package var falseCount: UInt64
    package var fileID: UInt32

    package init(start: SourcePosition, trueCount: UInt64, falseCount: UInt64, fileID: UInt32) {
        self.start = start
        self.trueCount = trueCount
        self.falseCount = falseCount
        self.fileID = fileID
    }
}

/// A point where the execution count changes while reading a file top to bottom, as in the
/// export's `segments`: `[line, col, count, hasCount, isRegionEntry, isGapRegion]`.
package struct CoverageSegment: Equatable, Sendable {
    package var line: UInt32
    package var column: UInt32
    package var count: UInt64
    package var hasCount: Bool
    package var isRegionEntry: Bool
    package var isGapRegion: Bool

    package init(line: UInt32, column: UInt32, count: UInt64, hasCount: Bool, isRegionEntry: Bool, isGapRegion: Bool) {
        self.line = line
        self.column = column
        self.count = count
        self.hasCount = hasCount
        self.isRegionEntry = isRegionEntry
        self.isGapRegion = isGapRegion
    }
}
