// The entropy tables of RFC 8878: finite state entropy (FSE) distributions, their decoding tables,
// Huffman codes from weights, and the bit readers under them.

extension Zstd {
    /// One state of an FSE decoding table: the value it stands for (a symbol's baseline), how many
    /// extra bits follow that value, and how to reach the next state.
    struct Entry {
        var base: UInt32
        var next: UInt16
        var extra: UInt8
        var bits: UInt8
    }

    /// The three tables of the sequences section.
    enum Kind: Int {
        case literalLengths, offsets, matchLengths

        var maximumSymbol: Int { [35, 31, 52][rawValue] }
        var maximumLog: Int { [9, 8, 9][rawValue] }

        /// The symbol's value and its count of extra bits (RFC 8878, 3.1.1.3.2.1).
        func value(of symbol: Int) -> (base: UInt32, extra: UInt8) {
            switch self {
            case .literalLengths: (Kind.literalLengthBase[symbol], Kind.literalLengthExtra[symbol])
            case .offsets: (1 << UInt32(symbol), UInt8(symbol))
            case .matchLengths: (Kind.matchLengthBase[symbol], Kind.matchLengthExtra[symbol])
            }
        }

        /// The predefined distribution, at accuracy 2^6 (2^5 for offsets).
        var predefined: [Int16] {
            switch self {
            case .literalLengths:
                [
                    4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
                    -1, -1, -1, -1,
                ]
            case .offsets:
                [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1]
            case .matchLengths:
                [
                    1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
                ]
            }
        }

        static let literalLengthBase: [UInt32] =
            Array(0...15) + [
                16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
            ]
        static let literalLengthExtra: [UInt8] =
            Array(repeating: 0, count: 16) + [1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
        static let matchLengthBase: [UInt32] =
            Array(3...34) + [
                35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539,
            ]
        static let matchLengthExtra: [UInt8] =
            Array(repeating: 0, count: 32) + [1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    }

    /// Scratch space and the tables a frame's blocks may repeat, allocated once per call.
    struct Workspace {
        /// A block's literals, and slack for copies 16 bytes at a time.
        let literals = UnsafeMutablePointer<UInt8>.allocate(capacity: Zstd.blockSizeLimit + Zstd.slack)
        /// The Huffman decoding table (2^11 entries: the symbol in the high byte, its length in the low one).
        let huffman = UnsafeMutablePointer<UInt16>.allocate(capacity: 1 << 11)
        /// The three sequence tables (2^9 entries each), then the one for Huffman weights (2^6).
        let tables = UnsafeMutablePointer<Entry>.allocate(capacity: 3 * 512 + 64)
        /// Huffman weights, and a distribution's counts.
        let weights = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        let counts = UnsafeMutablePointer<Int16>.allocate(capacity: 256)
        let nextStates = UnsafeMutablePointer<UInt16>.allocate(capacity: 256)
        var huffmanLog = 0
        /// Each sequence table's accuracy log, or -1 before the frame has one.
        var logs = [-1, -1, -1]
        var repeats = (1, 4, 8)

        init() {
            literals.initialize(repeating: 0, count: Zstd.blockSizeLimit + Zstd.slack)
        }

        mutating func startFrame() {
            huffmanLog = 0
            logs = [-1, -1, -1]
            repeats = (1, 4, 8)
        }

        func table(_ kind: Kind) -> UnsafeMutablePointer<Entry> { tables + kind.rawValue * 512 }
        var weightTable: UnsafeMutablePointer<Entry> { tables + 3 * 512 }

        func deallocate() {
            literals.deallocate()
            huffman.deallocate()
            tables.deallocate()
            weights.deallocate()
            counts.deallocate()
            nextStates.deallocate()
        }
    }

    /// Reads a bit stream backwards, from its last bit (after the end mark, the highest set bit of
    /// the last byte) towards its first, 64 bits at a time. Reading past the start gives garbage and
    /// sets `consumed` above 64, which the callers check once, at the end.
    struct BackwardBits {
        let start: UnsafeRawPointer
        var position: UnsafeRawPointer
        var container: UInt64
        var consumed: Int

        init(_ input: UnsafeRawBufferPointer, _ range: Range<Int>) throws(DecodeError) {
            guard !range.isEmpty else { throw DecodeError(offset: range.lowerBound, message: "an empty bit stream") }
            let last = input[range.upperBound - 1]
            guard last != 0 else {
                throw DecodeError(offset: range.upperBound - 1, message: "a bit stream without its end mark")
            }
            start = input.baseAddress! + range.lowerBound
            consumed = last.leadingZeroBitCount + 1
            if range.count >= 8 {
                position = start + (range.count - 8)
                container = UInt64(littleEndian: position.loadUnaligned(as: UInt64.self))
            } else {
                position = start
                container = 0
                for index in 0..<range.count { container |= UInt64(input[range.lowerBound + index]) << (8 * index) }
                consumed += (8 - range.count) * 8
            }
        }

        /// The next `count` (0 to 56) bits.
        @inline(__always)
        mutating func read(_ count: Int) -> Int {
            let shift = UInt64(truncatingIfNeeded: 64 &- consumed &- count)
            let mask = (1 &<< UInt64(truncatingIfNeeded: count)) &- 1
            consumed &+= count
            return Int(truncatingIfNeeded: (container &>> shift) & mask)
        }

        /// The next `count` (1 to 63) bits, left where they are.
        @inline(__always)
        func peek(_ count: Int) -> Int {
            Int(truncatingIfNeeded: (container &<< UInt64(truncatingIfNeeded: consumed)) &>> UInt64(64 - count))
        }

        /// Refills the container, so that at least 57 bits are ready unless the stream is near its start.
        @inline(__always)
        mutating func reload() {
            guard consumed <= 64 else { return }
            let left = position - start
            if left >= 8 {
                position -= consumed >> 3
                consumed &= 7
            } else if left == 0 {
                return
            } else {
                let back = min(consumed >> 3, left)
                position -= back
                consumed -= back * 8
            }
            container = UInt64(littleEndian: position.loadUnaligned(as: UInt64.self))
        }

        /// Whether every bit was read, and not one more.
        var finished: Bool { position == start && consumed == 64 }
        var overflowed: Bool { consumed > 64 }
    }
}

extension Zstd.Decoder {
    typealias DecodeError = Zstd.DecodeError
    typealias Entry = Zstd.Entry

    /// Reads an FSE distribution (RFC 8878, 4.1.1) at `start` into `workspace.counts`; returns its
    /// accuracy log, its count of symbols and where it ends.
    func distribution(at start: Int, end: Int, maximumSymbol: Int, maximumLog: Int) throws(DecodeError) -> (
        log: Int, symbols: Int, next: Int
    ) {
        var bit = start * 8
        func peek(_ count: Int) -> Int {
            var value = 0
            for index in 0..<4 where (bit >> 3) + index < end {
                value |= Int(input[(bit >> 3) + index]) << (8 * index)
            }
            return (value >> (bit & 7)) & ((1 << count) - 1)
        }
        let log = peek(4) + 5
        bit += 4
        guard log <= maximumLog else {
            throw DecodeError(offset: start, message: "an FSE table of accuracy 2^\(log), more than 2^\(maximumLog)")
        }
        var remaining = (1 << log) + 1
        var threshold = 1 << log
        var bits = log + 1
        var symbol = 0
        while remaining > 1 {
            guard symbol <= maximumSymbol, bit <= end * 8 else {
                throw DecodeError(offset: min(bit >> 3, end), message: "an FSE distribution that does not add up")
            }
            let largest = 2 * threshold - 1 - remaining
            var value = peek(bits - 1)
            if value < largest {
                bit += bits - 1
            } else {
                value = peek(bits)
                if value >= threshold { value -= largest }
                bit += bits
            }
            let count = value - 1
            remaining -= abs(count)
            workspace.counts[symbol] = Int16(count)
            symbol += 1
            if count == 0 {
                var repeats = 3
                while repeats == 3 {
                    repeats = peek(2)
                    bit += 2
                    guard repeats <= maximumSymbol + 1 - symbol else {
                        throw DecodeError(
                            offset: min(bit >> 3, end), message: "an FSE distribution with too many symbols")
                    }
                    for _ in 0..<repeats {
                        workspace.counts[symbol] = 0
                        symbol += 1
                    }
                }
            }
            guard remaining >= 1 else {
                throw DecodeError(offset: min(bit >> 3, end), message: "an FSE distribution that does not add up")
            }
            while remaining < threshold {
                bits -= 1
                threshold >>= 1
            }
        }
        let next = (bit + 7) >> 3
        guard next <= end else { throw DecodeError(offset: end, message: "an FSE distribution that ends early") }
        return (log, symbol, next)
    }

    /// Builds the decoding table of the distribution in `workspace.counts` (RFC 8878, 4.1.1).
    func buildTable(
        _ table: UnsafeMutablePointer<Entry>, log: Int, symbols: Int, value: (Int) -> (base: UInt32, extra: UInt8)
    ) {
        let size = 1 << log
        let counts = workspace.counts
        let next = workspace.nextStates
        var high = size - 1
        for symbol in 0..<symbols {
            if counts[symbol] == -1 {
                table[high].base = UInt32(symbol)
                high -= 1
                next[symbol] = 1
            } else {
                next[symbol] = UInt16(counts[symbol])
            }
        }
        let step = (size >> 1) + (size >> 3) + 3
        var position = 0
        for symbol in 0..<symbols where counts[symbol] > 0 {
            for _ in 0..<Int(counts[symbol]) {
                table[position].base = UInt32(symbol)
                repeat { position = (position + step) & (size - 1) } while position > high
            }
        }
        for state in 0..<size {
            let symbol = Int(table[state].base)
            let nextState = Int(next[symbol])
            next[symbol] += 1
            let bits = log - (Int.bitWidth - 1 - nextState.leadingZeroBitCount)
            let (base, extra) = value(symbol)
            table[state] = Entry(
                base: base, next: UInt16((nextState << bits) - size), extra: extra, bits: UInt8(bits))
        }
    }

    /// Reads the Huffman tree description at `start` (RFC 8878, 4.2.1) into `workspace.huffman`;
    /// returns where it ends.
    mutating func huffmanTable(at start: Int, end: Int) throws(DecodeError) -> Int {
        guard start < end else { throw DecodeError(offset: start, message: "a Huffman table that ends early") }
        let header = Int(input[start])
        let weights = workspace.weights
        var count = 0
        var offset = start + 1
        if header >= 128 {
            count = header - 127
            guard (count + 1) / 2 <= end - offset else {
                throw DecodeError(offset: start, message: "a Huffman table that ends early")
            }
            for index in 0..<count {
                let byte = input[offset + index / 2]
                weights[index] = index & 1 == 0 ? byte >> 4 : byte & 15
            }
            offset += (count + 1) / 2
        } else {
            guard header <= end - offset else {
                throw DecodeError(offset: start, message: "a Huffman table that ends early")
            }
            count = try huffmanWeights(offset..<offset + header)
            offset += header
        }
        var total = 0
        for index in 0..<count {
            let weight = Int(weights[index])
            guard weight <= 11 else { throw DecodeError(offset: start, message: "a Huffman weight above 11") }
            if weight > 0 { total += 1 << (weight - 1) }
        }
        guard total > 0 else { throw DecodeError(offset: start, message: "a Huffman table without symbols") }
        let log = Int.bitWidth - total.leadingZeroBitCount
        let rest = (1 << log) - total
        guard log <= 11, rest & (rest - 1) == 0 else {
            throw DecodeError(offset: start, message: "Huffman weights that make no complete code of at most 11 bits")
        }
        weights[count] = UInt8(Int.bitWidth - rest.leadingZeroBitCount)
        count += 1
        // Codes in order of weight, then symbol: a weight-w symbol takes 2^(w-1) entries.
        var rankStart = [Int](repeating: 0, count: 13)
        for index in 0..<count { rankStart[Int(weights[index])] += 1 }
        var position = 0
        for weight in 1...11 {
            let symbols = rankStart[weight]
            rankStart[weight] = position
            position += symbols << (weight - 1)
        }
        for symbol in 0..<count where weights[symbol] > 0 {
            let weight = Int(weights[symbol])
            let entry = UInt16(symbol) << 8 | UInt16(log + 1 - weight)
            workspace.huffman.advanced(by: rankStart[weight]).update(repeating: entry, count: 1 << (weight - 1))
            rankStart[weight] += 1 << (weight - 1)
        }
        workspace.huffmanLog = log
        return offset
    }

    /// Decodes FSE-compressed Huffman weights (two interleaved states) into `workspace.weights`;
    /// returns how many.
    func huffmanWeights(_ range: Range<Int>) throws(DecodeError) -> Int {
        let (log, symbols, next) = try distribution(
            at: range.lowerBound, end: range.upperBound, maximumSymbol: 12, maximumLog: 6)
        let table = workspace.weightTable
        buildTable(table, log: log, symbols: symbols) { (UInt32($0), 0) }
        var bits = try Zstd.BackwardBits(input, next..<range.upperBound)
        // The two states take turns; once the stream is read past its start, the other state's
        // symbol is the last.
        var state = bits.read(log)
        var other = bits.read(log)
        let weights = workspace.weights
        var count = 0
        while true {
            guard count <= 253 else {
                throw DecodeError(offset: range.lowerBound, message: "more than 255 Huffman weights")
            }
            let entry = table[state]
            weights[count] = UInt8(entry.base)
            count += 1
            state = Int(entry.next) + bits.read(Int(entry.bits))
            bits.reload()
            if bits.overflowed {
                weights[count] = UInt8(table[other].base)
                return count + 1
            }
            swap(&state, &other)
        }
    }

    /// Decodes one Huffman-coded stream of `count` literals into `output`.
    func huffmanStream(_ range: Range<Int>, into output: UnsafeMutablePointer<UInt8>, count: Int) throws(DecodeError) {
        var bits = try Zstd.BackwardBits(input, range)
        let table = UnsafePointer(workspace.huffman)
        let log = workspace.huffmanLog
        let shift = UInt64(64 - log)
        var target = output
        let end = output + count
        @inline(__always) func decode(_ bits: inout Zstd.BackwardBits) {
            let entry = table[
                Int(truncatingIfNeeded: (bits.container &<< UInt64(truncatingIfNeeded: bits.consumed)) &>> shift)]
            target.pointee = UInt8(truncatingIfNeeded: entry >> 8)
            target += 1
            bits.consumed &+= Int(entry & 0xFF)
        }
        while end - target >= 4 {
            bits.reload()
            guard bits.consumed <= 64 - 4 * log else { break }
            decode(&bits)
            decode(&bits)
            decode(&bits)
            decode(&bits)
        }
        while target < end {
            bits.reload()
            decode(&bits)
        }
        guard bits.finished else {
            throw DecodeError(offset: range.lowerBound, message: "a Huffman stream that does not end where it should")
        }
    }
}
