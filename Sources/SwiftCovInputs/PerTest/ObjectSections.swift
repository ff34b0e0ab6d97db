/// Sections of an executable by name: ELF (64-bit, little-endian) and Mach-O (64-bit).
package enum ObjectSections {
    /// The byte ranges of the sections named `names` (nil for those it lacks).
    package static func find(_ names: [String], in bytes: UnsafeRawBufferPointer) throws(CoverageMapping.ReadError)
        -> [Range<Int>?]
    {
        var result = [Range<Int>?](repeating: nil, count: names.count)
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) throws(CoverageMapping.ReadError) -> T {
            guard offset >= 0, offset <= bytes.count - MemoryLayout<T>.size else {
                throw CoverageMapping.ReadError(message: "a section table past the end of the file")
            }
            return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        func range(_ offset: UInt64, _ size: UInt64) throws(CoverageMapping.ReadError) -> Range<Int> {
            guard offset <= UInt64(bytes.count), size <= UInt64(bytes.count) - offset else {
                throw CoverageMapping.ReadError(message: "a section past the end of the file")
            }
            return Int(offset)..<Int(offset + size)
        }
        func name(at offset: Int, limit: Int) -> String {
            var end = offset
            while end < min(limit, bytes.count) && bytes[end] != 0 { end += 1 }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        }
        let magic = try load(0, UInt32.self)
        if magic == 0x464C_457F {  // "\x7FELF"
            guard bytes.count >= 64, bytes[4] == 2, bytes[5] == 1 else {
                throw CoverageMapping.ReadError(message: "an ELF file that is not 64-bit little-endian")
            }
            let tableOffset = try load(0x28, UInt64.self)
            guard tableOffset < UInt64(bytes.count) else {
                throw CoverageMapping.ReadError(message: "a section table past the end of the file")
            }
            let sectionTable = Int(tableOffset)
            let entrySize = Int(try load(0x3A, UInt16.self))
            let count = Int(try load(0x3C, UInt16.self))
            let namesIndex = Int(try load(0x3E, UInt16.self))
            guard entrySize >= 64, namesIndex < count else {
                throw CoverageMapping.ReadError(message: "an ELF section table that cannot be read")
            }
            let namesHeader = sectionTable + namesIndex * entrySize
            let namesRange = try range(try load(namesHeader + 24, UInt64.self), try load(namesHeader + 32, UInt64.self))
            for index in 0..<count {
                let header = sectionTable + index * entrySize
                let nameOffset = Int(try load(header, UInt32.self))
                guard nameOffset < namesRange.count else { continue }
                let sectionName = name(at: namesRange.lowerBound + nameOffset, limit: namesRange.upperBound)
                if let wanted = names.firstIndex(of: sectionName) {
                    result[wanted] = try range(try load(header + 24, UInt64.self), try load(header + 32, UInt64.self))
                }
            }
            return result
        }
        if magic == 0xFEED_FACF {
            let commandCount = Int(try load(16, UInt32.self))
            var command = 32
            for _ in 0..<commandCount {
                let kind = try load(command, UInt32.self)
                let size = Int(try load(command + 4, UInt32.self))
                guard size >= 8 else { throw CoverageMapping.ReadError(message: "a Mach-O load command of size 0") }
                if kind == 0x19 {  // LC_SEGMENT_64
                    let sectionCount = Int(try load(command + 64, UInt32.self))
                    for index in 0..<sectionCount {
                        let section = command + 72 + index * 80
                        _ = try load(section + 56, UInt32.self)
                        let sectionName = name(at: section, limit: section + 16)
                        if let wanted = names.firstIndex(of: sectionName) {
                            result[wanted] = try range(
                                UInt64(try load(section + 48, UInt32.self)), try load(section + 40, UInt64.self))
                        }
                    }
                }
                command += size
            }
            return result
        }
        throw CoverageMapping.ReadError(message: "not a 64-bit ELF or Mach-O executable")
    }
}
