/// A zlib stream decoder (RFC 1950 around RFC 1951's DEFLATE), for the compressed file-name tables
/// of a binary's coverage mapping (`__llvm_covmap`): the toolchain's LLVM compresses them with
/// zlib when they are long enough. Small and strict: every code, length and distance is checked
/// against the input and the output so far, and the output may not exceed the size it announces.
package enum Inflate {
    /// What is wrong with a stream, and where (a byte offset into it).
    package struct DecodeError: Error, Equatable, CustomStringConvertible {
        package var offset: Int
        package var message: String
        package var description: String { "\(message) (byte offset \(offset))" }
    }

    /// The bytes of the zlib stream `input`, which must decode to exactly `size` bytes.
    package static func zlib(_ input: UnsafeRawBufferPointer, size: Int) throws(DecodeError) -> [UInt8] {
        guard input.count >= 2 else { throw DecodeError(offset: 0, message: "a zlib stream shorter than its header") }
        let method = input[0]
        let flags = input[1]
        guard method & 0x0F == 8, method >> 4 <= 7, (UInt16(method) << 8 | UInt16(flags)) % 31 == 0 else {
            throw DecodeError(offset: 0, message: "not a zlib stream (bad header)")
        }
        guard flags & 0x20 == 0 else { throw DecodeError(offset: 1, message: "a zlib stream with a preset dictionary") }
        var state = State(input: input, offset: 2, limit: size)
        try state.inflate()
        guard state.output.count == size else {
            throw DecodeError(
                offset: state.offset, message: "a zlib stream of \(state.output.count) bytes, \(size) announced")
        }
        return state.output
    }

    /// Canonical Huffman code: how many codes of each length, and the symbols in code order.
    private struct Huffman {
        var counts = [UInt16](repeating: 0, count: 16)
        var symbols: [UInt16]

        /// Builds the code for `lengths`; fails when it is over-subscribed (incomplete is allowed,
        /// as zlib allows it for a single distance code).
        init?(lengths: ArraySlice<UInt8>) {
            symbols = [UInt16](repeating: 0, count: lengths.count)
            for length in lengths { counts[Int(length)] += 1 }
            var left = 1
            for length in 1..<16 {
                left <<= 1
                left -= Int(counts[length])
                if left < 0 { return nil }
            }
            var offsets = [UInt16](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[Int(offsets[Int(length)])] = UInt16(symbol)
                offsets[Int(length)] += 1
            }
        }
    }

    private struct State {
        let input: UnsafeRawBufferPointer
        var offset: Int
        let limit: Int
        var output: [UInt8] = []
        var bitBuffer: UInt32 = 0
        var bitCount = 0

        init(input: UnsafeRawBufferPointer, offset: Int, limit: Int) {
            self.input = input
            self.offset = offset
            self.limit = limit
            output.reserveCapacity(limit)
        }

        mutating func bits(_ count: Int) throws(DecodeError) -> Int {
            while bitCount < count {
                guard offset < input.count else { throw DecodeError(offset: offset, message: "the stream ends early") }
                bitBuffer |= UInt32(input[offset]) << UInt32(bitCount)
                offset += 1
                bitCount += 8
            }
            let value = Int(bitBuffer & ((1 << UInt32(count)) - 1))
            bitBuffer >>= UInt32(count)
            bitCount -= count
            return value
        }

        mutating func decode(_ code: Huffman) throws(DecodeError) -> Int {
            var value = 0
            var first = 0
            var index = 0
            for length in 1..<16 {
                value |= try bits(1)
                let count = Int(code.counts[length])
                if value - count < first { return Int(code.symbols[index + (value - first)]) }
                index += count
                first += count
                first <<= 1
                value <<= 1
            }
            throw DecodeError(offset: offset, message: "an invalid Huffman code")
        }

        mutating func inflate() throws(DecodeError) {
            var last = false
            while !last {
                last = try bits(1) == 1
                switch try bits(2) {
                case 0: try stored()
                case 1: try codes(State.fixed.literals, State.fixed.distances)
                case 2:
                    let (literals, distances) = try dynamicCodes()
                    try codes(literals, distances)
                default: throw DecodeError(offset: offset, message: "an invalid block type")
                }
            }
        }

        mutating func stored() throws(DecodeError) {
            bitBuffer = 0
            bitCount = 0
            guard offset + 4 <= input.count else { throw DecodeError(offset: offset, message: "the stream ends early") }
            let length = Int(input[offset]) | Int(input[offset + 1]) << 8
            let complement = Int(input[offset + 2]) | Int(input[offset + 3]) << 8
            guard length == ~complement & 0xFFFF else {
                throw DecodeError(offset: offset, message: "a stored block whose length does not match its complement")
            }
            offset += 4
            guard offset + length <= input.count else {
                throw DecodeError(offset: offset, message: "the stream ends early")
            }
            guard output.count + length <= limit else {
                throw DecodeError(offset: offset, message: "more output than the \(limit) bytes announced")
            }
            output.append(contentsOf: input[offset..<(offset + length)])
            offset += length
        }

        static let lengthBase: [Int] = [
            3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
            227, 258,
        ]
        static let lengthExtra: [Int] = [
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
        ]
        static let distanceBase: [Int] = [
            1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
            4097, 6145, 8193, 12289, 16385, 24577,
        ]
        static let distanceExtra: [Int] = [
            0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
        ]

        static let fixed: (literals: Huffman, distances: Huffman) = {
            var lengths = [UInt8](repeating: 8, count: 288)
            for symbol in 144..<256 { lengths[symbol] = 9 }
            for symbol in 256..<280 { lengths[symbol] = 7 }
            let distances = [UInt8](repeating: 5, count: 30)
            return (Huffman(lengths: lengths[...])!, Huffman(lengths: distances[...])!)
        }()

        mutating func codes(_ literals: Huffman, _ distances: Huffman) throws(DecodeError) {
            while true {
                let symbol = try decode(literals)
                if symbol < 256 {
                    guard output.count < limit else {
                        throw DecodeError(offset: offset, message: "more output than the \(limit) bytes announced")
                    }
                    output.append(UInt8(symbol))
                    continue
                }
                if symbol == 256 { return }
                let lengthIndex = symbol - 257
                guard lengthIndex < State.lengthBase.count else {
                    throw DecodeError(offset: offset, message: "an invalid length code")
                }
                let length = State.lengthBase[lengthIndex] + (try bits(State.lengthExtra[lengthIndex]))
                let distanceIndex = try decode(distances)
                guard distanceIndex < State.distanceBase.count else {
                    throw DecodeError(offset: offset, message: "an invalid distance code")
                }
                let distance = State.distanceBase[distanceIndex] + (try bits(State.distanceExtra[distanceIndex]))
                guard distance <= output.count else {
                    throw DecodeError(offset: offset, message: "a distance back before the start of the output")
                }
                guard output.count + length <= limit else {
                    throw DecodeError(offset: offset, message: "more output than the \(limit) bytes announced")
                }
                let start = output.count - distance
                for index in 0..<length { output.append(output[start + index]) }
            }
        }

        mutating func dynamicCodes() throws(DecodeError) -> (Huffman, Huffman) {
            let literalCount = try bits(5) + 257
            let distanceCount = try bits(5) + 1
            let codeCount = try bits(4) + 4
            guard literalCount <= 286, distanceCount <= 30 else {
                throw DecodeError(offset: offset, message: "too many length or distance codes")
            }
            let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
            var codeLengths = [UInt8](repeating: 0, count: 19)
            for index in 0..<codeCount { codeLengths[order[index]] = UInt8(try bits(3)) }
            guard let lengthCode = Huffman(lengths: codeLengths[...]) else {
                throw DecodeError(offset: offset, message: "an over-subscribed code-length code")
            }
            var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
            var index = 0
            while index < lengths.count {
                let symbol = try decode(lengthCode)
                if symbol < 16 {
                    lengths[index] = UInt8(symbol)
                    index += 1
                    continue
                }
                var value: UInt8 = 0
                let repeatCount: Int
                switch symbol {
                case 16:
                    guard index > 0 else {
                        throw DecodeError(offset: offset, message: "a repeat with nothing before it")
                    }
                    value = lengths[index - 1]
                    repeatCount = 3 + (try bits(2))
                case 17: repeatCount = 3 + (try bits(3))
                default: repeatCount = 11 + (try bits(7))
                }
                guard index + repeatCount <= lengths.count else {
                    throw DecodeError(offset: offset, message: "code lengths repeated past their end")
                }
                for _ in 0..<repeatCount {
                    lengths[index] = value
                    index += 1
                }
            }
            guard lengths[256] != 0 else { throw DecodeError(offset: offset, message: "no end-of-block code") }
            guard let literals = Huffman(lengths: lengths[0..<literalCount]),
                let distances = Huffman(lengths: lengths[literalCount...])
            else {
                throw DecodeError(offset: offset, message: "an over-subscribed literal or distance code")
            }
            return (literals, distances)
        }
    }
}
