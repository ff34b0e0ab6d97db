// A compressed block (RFC 8878, 3.1.1.3): its literals section, then its sequences section, executed
// into the output.

extension Zstd.Decoder {
    /// Decodes the compressed block at `range` into `output` from `written` on, without writing past
    /// `end`. A block that would is thrown as an error without a message: the caller names the limit.
    mutating func compressedBlock(
        _ range: Range<Int>, into output: UnsafeMutablePointer<UInt8>, frameStart: Int, end: Int
    ) throws(DecodeError) {
        let (count, next) = try literals(at: range.lowerBound, end: range.upperBound)
        try sequences(
            at: next, end: range.upperBound, literals: count, output: output, frameStart: frameStart, limit: end)
    }

    /// Decodes the literals section at `start` into `workspace.literals`; returns their count and
    /// where the section ends.
    mutating func literals(at start: Int, end: Int) throws(DecodeError) -> (count: Int, next: Int) {
        guard start < end else { throw DecodeError(offset: start, message: "a block without its literals section") }
        let type = Int(input[start] & 3)
        let format = Int(input[start] >> 2) & 3
        let literals = workspace.literals
        if type < 2 {
            let headerSize = format == 1 ? 2 : format == 3 ? 3 : 1
            guard headerSize <= end - start else {
                throw DecodeError(offset: start, message: "a literals section that ends early")
            }
            let header = Int(littleEndian(at: start, count: headerSize))
            let size = headerSize == 1 ? header >> 3 : header >> 4
            guard size <= Zstd.blockSizeLimit else {
                throw DecodeError(offset: start, message: "\(size) literals, more than a block holds")
            }
            let offset = start + headerSize
            guard (type == 0 ? size : 1) <= end - offset else {
                throw DecodeError(offset: start, message: "a literals section that ends early")
            }
            if type == 0 {
                UnsafeMutableRawPointer(literals).copyMemory(from: input.baseAddress! + offset, byteCount: size)
                return (size, offset + size)
            }
            literals.update(repeating: input[offset], count: size)
            return (size, offset + 1)
        }
        let headerSize = format < 2 ? 3 : format + 2
        let width = format < 2 ? 10 : format == 2 ? 14 : 18
        guard headerSize <= end - start else {
            throw DecodeError(offset: start, message: "a literals section that ends early")
        }
        let header = Int(littleEndian(at: start, count: headerSize))
        let size = (header >> 4) & ((1 << width) - 1)
        let compressedSize = header >> (4 + width)
        guard size <= Zstd.blockSizeLimit else {
            throw DecodeError(offset: start, message: "\(size) literals, more than a block holds")
        }
        var offset = start + headerSize
        guard compressedSize <= end - offset else {
            throw DecodeError(offset: start, message: "a literals section that ends early")
        }
        let streamsEnd = offset + compressedSize
        if type == 2 {
            offset = try huffmanTable(at: offset, end: streamsEnd)
        } else if workspace.huffmanLog == 0 {
            throw DecodeError(offset: start, message: "literals that reuse a Huffman table before the first")
        }
        if format == 0 {
            try huffmanStream(offset..<streamsEnd, into: literals, count: size)
            return (size, streamsEnd)
        }
        guard 6 <= streamsEnd - offset else {
            throw DecodeError(offset: offset, message: "four Huffman streams without their jump table")
        }
        let segment = (size + 3) / 4
        guard 3 * segment <= size else {
            throw DecodeError(offset: start, message: "four Huffman streams for \(size) literals")
        }
        var streamStart = offset + 6
        for index in 0..<4 {
            let length =
                index < 3 ? Int(littleEndian(at: offset + 2 * index, count: 2)) : streamsEnd - streamStart
            guard length <= streamsEnd - streamStart else {
                throw DecodeError(offset: offset, message: "a jump table past the end of its streams")
            }
            try huffmanStream(
                streamStart..<streamStart + length, into: literals + index * segment,
                count: index < 3 ? segment : size - 3 * segment)
            streamStart += length
        }
        return (size, streamsEnd)
    }

    /// Reads the sequences section at `start` and executes its sequences: literals copied from
    /// `workspace.literals`, matches from the frame's output so far.
    mutating func sequences(
        at start: Int, end: Int, literals literalCount: Int, output: UnsafeMutablePointer<UInt8>, frameStart: Int,
        limit: Int
    ) throws(DecodeError) {
        guard start < end else { throw DecodeError(offset: start, message: "a block without its sequences section") }
        var count = Int(input[start])
        var offset = start + 1
        if count >= 128 {
            let extra = count == 255 ? 2 : 1
            guard extra <= end - offset else {
                throw DecodeError(offset: start, message: "a sequences section that ends early")
            }
            let value = Int(littleEndian(at: offset, count: extra))
            count = count == 255 ? value + 0x7F00 : (count - 128) << 8 + value
            offset += extra
        }
        var target = output + written
        let targetEnd = output + limit
        var literal = UnsafePointer(workspace.literals)
        let literalEnd = literal + literalCount
        if count > 0 {
            guard offset < end else { throw DecodeError(offset: start, message: "a sequences section that ends early") }
            let modes = Int(input[offset])
            guard modes & 3 == 0 else {
                throw DecodeError(offset: offset, message: "a sequences section with its reserved bits set")
            }
            offset += 1
            offset = try table(.literalLengths, mode: modes >> 6, at: offset, end: end)
            offset = try table(.offsets, mode: (modes >> 4) & 3, at: offset, end: end)
            offset = try table(.matchLengths, mode: (modes >> 2) & 3, at: offset, end: end)
            var bits = try Zstd.BackwardBits(input, offset..<end)
            let literalLengths = UnsafePointer(workspace.table(.literalLengths))
            let offsets = UnsafePointer(workspace.table(.offsets))
            let matchLengths = UnsafePointer(workspace.table(.matchLengths))
            var literalState = bits.read(workspace.logs[0])
            var offsetState = bits.read(workspace.logs[1])
            var matchState = bits.read(workspace.logs[2])
            var (repeat1, repeat2, repeat3) = workspace.repeats
            let frameOutput = output + frameStart
            for index in 0..<count {
                let literalEntry = literalLengths[literalState]
                let offsetEntry = offsets[offsetState]
                let matchEntry = matchLengths[matchState]
                bits.reload()
                var distance = Int(offsetEntry.base) + bits.read(Int(offsetEntry.extra))
                if bits.consumed + Int(matchEntry.extra) + Int(literalEntry.extra) > 64 { bits.reload() }
                let matchLength = Int(matchEntry.base) + bits.read(Int(matchEntry.extra))
                let literalLength = Int(literalEntry.base) + bits.read(Int(literalEntry.extra))
                // Offset values 1 to 3 name the repeated offsets (RFC 8878, 3.1.2.5).
                if distance > 3 {
                    distance -= 3
                    (repeat1, repeat2, repeat3) = (distance, repeat1, repeat2)
                } else {
                    switch distance + (literalLength == 0 ? 1 : 0) {
                    case 1: distance = repeat1
                    case 2: (distance, repeat1, repeat2) = (repeat2, repeat2, repeat1)
                    case 3: (distance, repeat1, repeat2, repeat3) = (repeat3, repeat3, repeat1, repeat2)
                    default: (distance, repeat1, repeat2, repeat3) = (repeat1 - 1, repeat1 - 1, repeat1, repeat2)
                    }
                }
                if index != count - 1 {
                    bits.reload()
                    literalState = Int(literalEntry.next) + bits.read(Int(literalEntry.bits))
                    matchState = Int(matchEntry.next) + bits.read(Int(matchEntry.bits))
                    offsetState = Int(offsetEntry.next) + bits.read(Int(offsetEntry.bits))
                }
                guard literalLength <= literalEnd - literal else {
                    throw DecodeError(offset: offset, message: "a sequence with more literals than its block has")
                }
                guard literalLength + matchLength <= targetEnd - target else {
                    throw DecodeError(offset: start, message: "")
                }
                Zstd.copy(from: literal, to: target, count: literalLength)
                target += literalLength
                literal += literalLength
                guard distance >= 1, distance <= target - frameOutput else {
                    throw DecodeError(
                        offset: offset,
                        message: "a match \(distance) bytes back, before the start of the frame's output")
                }
                Zstd.copyMatch(to: target, distance: distance, count: matchLength)
                target += matchLength
            }
            guard bits.finished else {
                throw DecodeError(offset: offset, message: "a sequences bit stream that does not end where it should")
            }
            workspace.repeats = (repeat1, repeat2, repeat3)
        } else if offset != end {
            throw DecodeError(offset: offset, message: "a block with bytes after its sequences section")
        }
        guard literalEnd - literal <= targetEnd - target else { throw DecodeError(offset: start, message: "") }
        Zstd.copy(from: literal, to: target, count: literalEnd - literal)
        target += literalEnd - literal
        written = target - output
    }

    /// Makes the decoding table of `kind` for `mode` (predefined, RLE, FSE-compressed or repeated)
    /// from the description at `start`; returns where the description ends.
    mutating func table(_ kind: Zstd.Kind, mode: Int, at start: Int, end: Int) throws(DecodeError) -> Int {
        let table = workspace.table(kind)
        switch mode {
        case 0:
            let predefined = kind.predefined
            for (symbol, count) in predefined.enumerated() { workspace.counts[symbol] = count }
            let log = kind == .offsets ? 5 : 6
            buildTable(table, log: log, symbols: predefined.count, value: kind.value(of:))
            workspace.logs[kind.rawValue] = log
            return start
        case 1:
            guard start < end else { throw DecodeError(offset: start, message: "a sequences section that ends early") }
            let symbol = Int(input[start])
            guard symbol <= kind.maximumSymbol else {
                throw DecodeError(offset: start, message: "a sequence code of \(symbol), above \(kind.maximumSymbol)")
            }
            let (base, extra) = kind.value(of: symbol)
            table[0] = Entry(base: base, next: 0, extra: extra, bits: 0)
            workspace.logs[kind.rawValue] = 0
            return start + 1
        case 2:
            let (log, symbols, next) = try distribution(
                at: start, end: end, maximumSymbol: kind.maximumSymbol, maximumLog: kind.maximumLog)
            buildTable(table, log: log, symbols: symbols, value: kind.value(of:))
            workspace.logs[kind.rawValue] = log
            return next
        default:
            guard workspace.logs[kind.rawValue] >= 0 else {
                throw DecodeError(offset: start, message: "a sequences section that repeats a table before the first")
            }
            return start
        }
    }
}

extension Zstd {
    /// Copies `count` bytes 16 at a time: it may write up to 15 bytes past them (into the slack).
    @inline(__always)
    static func copy(from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        var from = UnsafeRawPointer(source)
        var to = UnsafeMutableRawPointer(target)
        let end = to + count
        repeat {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            (to + 8).storeBytes(of: (from + 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
            to += 16
            from += 16
        } while to < end
    }

    /// Copies a match `distance` bytes back, overlapping when it is shorter than `count`: the bytes
    /// it writes are read again, which repeats them.
    @inline(__always)
    static func copyMatch(to target: UnsafeMutablePointer<UInt8>, distance: Int, count: Int) {
        if distance >= 16 {
            copy(from: target - distance, to: target, count: count)
        } else if distance >= 8 {
            var to = UnsafeMutableRawPointer(target)
            let end = to + count
            while to < end {
                to.storeBytes(of: (to - distance).loadUnaligned(as: UInt64.self), as: UInt64.self)
                to += 8
            }
        } else {
            for index in 0..<count { target[index] = target[index - distance] }
        }
    }
}
