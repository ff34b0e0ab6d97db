import SwiftCovFormats
import SwiftCovModel
import SwiftCovPlatform

/// The coverage mapping of an instrumented binary, read from its `__llvm_covmap` (file-name
/// tables) and `__llvm_covfun` (one record per function: its files, counter expressions and
/// regions) sections, ELF or Mach-O, mapping format versions 6 and 7 (LLVM 13 and later).
///
/// With a raw profile's counters (`RawProfile`) this gives what `llvm-cov export` gives for that
/// profile — each region's count, each file's segments and line view — without llvm-profdata
/// or llvm-cov: `run --per-test` reads the binary once and each test's `.profraw` directly. The
/// rules are llvm's (CoverageMappingReader.cpp, CoverageMapping.cpp): records deduplicated by
/// function name (a real record replaces a dummy one), expansion regions counted as the first
/// region of the file they expand, a function whose counters do not fit its mapping left out, a
/// lone zero region of a function that ran elsewhere left out; segments by `SegmentBuilder`.
package struct CoverageMapping: Sendable {
    /// The source files, as llvm-cov names them (the compilation folder joined to relative names).
    package var files: [String]
    /// The functions, one per name.
    package var functions: [Function]
    /// For each file, the indices of the functions with regions in it.
    package var functionsByFile: [[Int32]]

    /// One function record.
    package struct Function: Sendable {
        /// The MD5 of its profile name, as in the raw profile's data records.
        package var nameRef: UInt64
        /// The structural hash its counters belong to.
        package var hash: UInt64
        /// Its file IDs, as indices into `CoverageMapping.files`.
        package var files: [Int32]
        /// Counter expressions: (isAddition, lhs, rhs), operands encoded as counters are.
        package var expressions: [(add: Bool, lhs: UInt32, rhs: UInt32)]
        /// Its regions that make segments (code, expansion, skipped, gap), in file ID order.
        package var regions: [Region]
        /// Whether it is a single region whose counter is the literal zero.
        package var isLoneZeroRegion: Bool
    }

    /// A region, its count still an encoded counter (tag in the low 2 bits: 0 zero, 1 counter,
    /// 2 subtraction, 3 addition; the index above them).
    package struct Region: Sendable {
        package var counter: UInt32
        package var fileID: UInt32
        package var kind: UInt8
        package var start: SourcePosition
        package var end: SourcePosition
    }

    /// What is wrong with a mapping (or why this reader does not read it: the caller can fall
    /// back to llvm-cov), and where.
    package struct ReadError: Error, Equatable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Reads the mapping of the binary at `path`.
    package static func read(binary path: String) throws(ReadError) -> CoverageMapping {
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch { throw ReadError(message: "\(path): \(error.message)") }
        let result = file.withUnsafeBytes { bytes in
            Result { () throws(ReadError) -> CoverageMapping in
                let sections = try ObjectSections.find(["__llvm_covmap", "__llvm_covfun"], in: bytes)
                guard let covmap = sections[0], let covfun = sections[1] else {
                    throw ReadError(message: "\(path) has no coverage mapping (__llvm_covmap, __llvm_covfun)")
                }
                return try decode(
                    covmap: UnsafeRawBufferPointer(rebasing: bytes[covmap]),
                    covfun: UnsafeRawBufferPointer(rebasing: bytes[covfun]))
            }
        }
        return try result.get()
    }

    /// Decodes the two sections' bytes.
    package static func decode(covmap: UnsafeRawBufferPointer, covfun: UnsafeRawBufferPointer) throws(ReadError)
        -> CoverageMapping
    {
        var mapping = CoverageMapping(files: [], functions: [], functionsByFile: [])
        var fileIndex: [String: Int32] = [:]
        // Each table of file names, by the hash function records name it with.
        var tables: [UInt64: [Int32]] = [:]
        var offset = 0
        while offset + 16 <= covmap.count {
            let filenamesSize = Int(covmap.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let version = covmap.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
            guard version == 5 || version == 6 else {
                throw ReadError(message: "coverage mapping format \(UInt64(version) + 1) (this reader reads 6 and 7)")
            }
            let start = offset + 16
            guard filenamesSize <= covmap.count - start else {
                throw ReadError(message: "a file-name table past the end of __llvm_covmap")
            }
            let table = UnsafeRawBufferPointer(rebasing: covmap[start..<(start + filenamesSize)])
            let names = try fileNames(table)
            tables[MD5.llvmHash(table)] = names.map { name in
                if let index = fileIndex[name] { return index }
                let index = Int32(mapping.files.count)
                mapping.files.append(name)
                fileIndex[name] = index
                return index
            }
            offset = (start + filenamesSize + 7) & ~7
        }

        var byName: [UInt64: Int] = [:]
        offset = 0
        while offset + 28 <= covfun.count {
            let nameRef = covfun.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let dataSize = Int(covfun.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
            let hash = covfun.loadUnaligned(fromByteOffset: offset + 12, as: UInt64.self)
            let filenamesRef = covfun.loadUnaligned(fromByteOffset: offset + 20, as: UInt64.self)
            let start = offset + 28
            guard dataSize <= covfun.count - start else {
                throw ReadError(message: "a function record past the end of __llvm_covfun")
            }
            offset = (start + dataSize + 7) & ~7
            if nameRef == 0 && dataSize == 0 && hash == 0 { continue }  // padding
            guard let table = tables[filenamesRef] else {
                throw ReadError(message: "a function record names a file-name table that __llvm_covmap lacks")
            }
            let function = try decodeFunction(
                UnsafeRawBufferPointer(rebasing: covfun[start..<(start + dataSize)]), nameRef: nameRef, hash: hash,
                table: table)
            if let existing = byName[nameRef] {
                // llvm keeps the first record of a name, unless it is a dummy and this one is not.
                if mapping.functions[existing].isDummy && !function.isDummy { mapping.functions[existing] = function }
            } else {
                byName[nameRef] = mapping.functions.count
                mapping.functions.append(function)
            }
        }
        mapping.functionsByFile = Array(repeating: [], count: mapping.files.count)
        for (index, function) in mapping.functions.enumerated() {
            var seen = Set<Int32>()
            for region in function.regions where seen.insert(function.files[Int(region.fileID)]).inserted {
                mapping.functionsByFile[Int(function.files[Int(region.fileID)])].append(Int32(index))
            }
        }
        return mapping
    }

    /// A cursor over a mapping's bytes (LEB128 numbers and strings, as llvm writes them).
    private static func cursor(_ bytes: UnsafeRawBufferPointer) -> ByteCursor<ReadError> {
        ByteCursor(bytes, endOfInput: "a mapping record ends early") { _, message in ReadError(message: message) }
    }

    /// The names of a file-name table (format 6 and later: the first is the compilation folder,
    /// which relative names are joined to), decompressed when compressed.
    static func fileNames(_ table: UnsafeRawBufferPointer) throws(ReadError) -> [String] {
        var reader = cursor(table)
        let count = try reader.count()
        guard count > 0 else { throw ReadError(message: "a file-name table without names") }
        let uncompressedSize = try reader.uleb128()
        let compressedSize = try reader.count()
        if compressedSize > 0 {
            guard uncompressedSize <= 1 << 30 else { throw ReadError(message: "an implausible file-name table size") }
            let compressed = try reader.slice(compressedSize)
            let bytes: [UInt8]
            do { bytes = try Inflate.zlib(compressed, size: Int(uncompressedSize)) } catch {
                throw ReadError(message: "a compressed file-name table: \(error)")
            }
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(ReadError) in
                    var inner = cursor(raw)
                    return try names(count: count, from: &inner)
                }
            }
            return try result.get()
        }
        return try names(count: count, from: &reader)
    }

    private static func names(count: Int, from reader: inout ByteCursor<ReadError>) throws(ReadError) -> [String] {
        var result: [String] = []
        for index in 0..<count {
            let name = try reader.string(validating: false)
            if index == 0 || name.hasPrefix("/") || result[0].isEmpty {
                result.append(name)
            } else {
                result.append(CoverageScope.normalized(result[0] + "/" + name))
            }
        }
        return result
    }

    private static func decodeFunction(
        _ data: UnsafeRawBufferPointer, nameRef: UInt64, hash: UInt64, table: [Int32]
    ) throws(ReadError) -> Function {
        var reader = cursor(data)
        let fileCount = try reader.count()
        var files: [Int32] = []
        for _ in 0..<fileCount {
            let index = try reader.uleb128()
            guard index < UInt64(table.count) else { throw ReadError(message: "a file ID outside its file-name table") }
            files.append(table[Int(index)])
        }
        let expressionCount = try reader.count()
        var expressions = [(add: Bool, lhs: UInt32, rhs: UInt32)](
            repeating: (false, 0, 0), count: expressionCount)
        // An expression's kind is set by the tag of each reference to it, in reading order.
        func counter(_ value: UInt64) throws(ReadError) -> UInt32 {
            guard value <= UInt64(UInt32.max) else { throw ReadError(message: "a counter out of range") }
            let tag = value & 3
            if tag >= 2 {
                let id = Int(value >> 2)
                guard id < expressions.count else { throw ReadError(message: "a counter expression out of range") }
                expressions[id].add = tag == 3
            }
            return UInt32(value)
        }
        for index in 0..<expressionCount {
            expressions[index].lhs = try counter(reader.uleb128())
            expressions[index].rhs = try counter(reader.uleb128())
        }
        var regions: [Region] = []
        var expansions: [(region: Int, expandedFileID: UInt32)] = []
        var firstRegionOfFile: [Int: Int] = [:]
        var regionCount = 0
        var zeroCounters = 0
        for fileID in 0..<fileCount {
            let count = try reader.count()
            var line: UInt64 = 0
            for _ in 0..<count {
                let encoded = try reader.uleb128()
                guard encoded <= UInt64(UInt32.max) else { throw ReadError(message: "a region kind out of range") }
                var kind = RegionKind.code
                var value: UInt32 = 0
                var expandedFileID: UInt32?
                if encoded & 3 != 0 {
                    value = try counter(encoded)
                } else if encoded & 4 != 0 {
                    kind = .expansion
                    let expanded = encoded >> 3
                    guard expanded < UInt64(fileCount) else { throw ReadError(message: "an expansion out of range") }
                    expandedFileID = UInt32(expanded)
                } else {
                    switch encoded >> 3 {
                    case 0: break
                    case 2: kind = .skipped
                    case 4:
                        kind = .branch
                        _ = try counter(reader.uleb128())
                        _ = try counter(reader.uleb128())
                    case 5:
                        kind = .mcdcDecision
                        _ = try reader.uleb128()
                        _ = try reader.uleb128()
                    case 6:
                        kind = .mcdcBranch
                        _ = try counter(reader.uleb128())
                        _ = try counter(reader.uleb128())
                        for _ in 0..<3 { _ = try reader.uleb128() }
                    default: throw ReadError(message: "an unknown region kind \(encoded >> 3)")
                    }
                }
                let lineDelta = try reader.uleb128()
                var columnStart = try reader.uleb128()
                let lineCount = try reader.uleb128()
                var columnEnd = try reader.uleb128()
                // `line` stays within UInt32 (checked below), so only a huge delta can overflow it.
                guard lineDelta <= UInt64(UInt32.max) else {
                    throw ReadError(message: "a region position out of range")
                }
                line += lineDelta
                guard line <= UInt64(UInt32.max), lineCount <= UInt64(UInt32.max) - line,
                    columnStart <= UInt64(UInt32.max), columnEnd <= UInt64(UInt32.max)
                else { throw ReadError(message: "a region position out of range") }
                if columnEnd & (1 << 31) != 0 {
                    if kind == .code { kind = .gap }
                    columnEnd &= ~(1 << 31)
                }
                if columnStart == 0 && columnEnd == 0 {
                    columnStart = 1
                    columnEnd = UInt64(UInt32.max)
                }
                regionCount += 1
                if value == 0 && kind != .expansion { zeroCounters += 1 }
                guard kind.rawValue <= RegionKind.gap.rawValue else { continue }
                if firstRegionOfFile[fileID] == nil { firstRegionOfFile[fileID] = regions.count }
                if let expandedFileID { expansions.append((regions.count, expandedFileID)) }
                regions.append(
                    Region(
                        counter: value, fileID: UInt32(fileID), kind: kind.rawValue,
                        start: SourcePosition(line: UInt32(line), column: UInt32(columnStart)),
                        end: SourcePosition(line: UInt32(line + lineCount), column: UInt32(columnEnd))))
            }
        }
        // An expansion counts as the first region of the file it expands (passes for nesting).
        if !expansions.isEmpty {
            for _ in 1..<max(2, fileCount) {
                var changed = false
                for (region, expanded) in expansions {
                    if let first = firstRegionOfFile[Int(expanded)], regions[region].counter != regions[first].counter {
                        regions[region].counter = regions[first].counter
                        changed = true
                    }
                }
                if !changed { break }  // the counters have settled: further passes change nothing
            }
        }
        return Function(
            nameRef: nameRef, hash: hash, files: files, expressions: expressions, regions: regions,
            isLoneZeroRegion: regionCount == 1 && zeroCounters == 1)
    }
}

extension CoverageMapping.Function {
    /// llvm's dummy record (a function unused where it was compiled): hash 0, one zero region.
    var isDummy: Bool { hash == 0 && files.count == 1 && expressions.isEmpty && isLoneZeroRegion }

    /// The count of an encoded counter, given the function's counters; nil when it needs a
    /// counter the function does not have (llvm then leaves the whole function out).
    package func count(of counter: UInt32, counters: UnsafeBufferPointer<UInt64>, memo: inout [UInt64?]) -> UInt64? {
        switch counter & 3 {
        case 0: return 0
        case 1:
            let id = Int(counter >> 2)
            return id < counters.count ? counters[id] : nil
        default: break
        }
        // Expressions, without recursion (they can nest deeply): a stack of expression IDs.
        var stack = [Int(counter >> 2)]
        var visiting = Set<Int>()
        while let id = stack.last {
            if memo[id] != nil {
                stack.removeLast()
                continue
            }
            let expression = expressions[id]
            var values: [UInt64] = []
            var pending = false
            for operand in [expression.lhs, expression.rhs] {
                switch operand & 3 {
                case 0: values.append(0)
                case 1:
                    let index = Int(operand >> 2)
                    guard index < counters.count else { return nil }
                    values.append(counters[index])
                default:
                    let inner = Int(operand >> 2)
                    if let value = memo[inner] {
                        values.append(value)
                    } else {
                        guard !visiting.contains(inner) else { return nil }  // a cycle: not a real mapping
                        stack.append(inner)
                        pending = true
                    }
                }
            }
            if pending {
                visiting.insert(id)
                continue
            }
            // llvm computes in Int64; the bits are those of wrapping UInt64 arithmetic.
            memo[id] = expression.add ? values[0] &+ values[1] : values[0] &- values[1]
            visiting.remove(id)
            stack.removeLast()
        }
        return memo[Int(counter >> 2)]
    }
}
