/// A Zstandard decoder (RFC 8878), for the objects of Xcode's result bundles (`Data/data.0~…`),
/// which are zstd frames. Decode only, without dictionaries. Every size, offset, table and bit
/// stream is checked against the input and the output so far, and the output never grows past
/// `maximumSize`: hostile input ends in a `DecodeError`, never in a trap, a hang or a large
/// allocation. The output grows as blocks arrive: a frame's declared content size is a hint,
/// checked at the frame's end, never allocated ahead.
package enum Zstd {
    /// What is wrong with the input, and where (a byte offset into it).
    package struct DecodeError: Error, Equatable, CustomStringConvertible {
        package var offset: Int
        package var message: String
        /// Whether the output would pass `maximumSize` (the input may be sound).
        package var isOverLimit = false
        package var description: String { "\(message) (byte offset \(offset))" }

        /// Errors are equal when they say the same at the same place.
        package static func == (lhs: DecodeError, rhs: DecodeError) -> Bool {
            lhs.offset == rhs.offset && lhs.message == rhs.message
        }
    }

    /// The bytes of every frame in `input` (skippable frames skipped), one after another; an
    /// error when they would be more than `maximumSize` bytes.
    package static func decompress(_ input: UnsafeRawBufferPointer, maximumSize: Int) throws(DecodeError) -> [UInt8] {
        var largestBuffer = 0
        return try decompress(input, maximumSize: maximumSize, largestBuffer: &largestBuffer)
    }

    /// `decompress`, saying how large the output buffer grew (bytes), for tests of its bound.
    package static func decompress(
        _ input: UnsafeRawBufferPointer, maximumSize: Int, largestBuffer: inout Int
    ) throws(DecodeError) -> [UInt8] {
        var decoder = Decoder(input: input, maximumSize: max(0, min(maximumSize, 1 << 56)))
        defer {
            decoder.workspace.deallocate()
            largestBuffer = decoder.largestBuffer
        }
        var output: [UInt8] = []
        var offset = 0
        while offset < input.count {
            guard input.count - offset >= 4 else {
                throw DecodeError(offset: offset, message: "a frame shorter than its magic number")
            }
            let magic = decoder.littleEndian(at: offset, count: 4)
            if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
                guard input.count - offset >= 8 else {
                    throw DecodeError(offset: offset, message: "a skippable frame shorter than its header")
                }
                let size = Int(decoder.littleEndian(at: offset + 4, count: 4))
                guard size <= input.count - offset - 8 else {
                    throw DecodeError(offset: offset + 4, message: "a skippable frame longer than the input")
                }
                offset += 8 + size
                continue
            }
            guard magic == 0xFD2F_B528 else {
                throw DecodeError(offset: offset, message: "not a Zstandard frame (bad magic number)")
            }
            offset = try decoder.frame(at: offset, into: &output)
        }
        output.removeLast(output.count - decoder.written)
        return output
    }

    /// The largest block a frame may hold, before and after decoding.
    static let blockSizeLimit = 128 * 1024
    /// Bytes after the end of every buffer that copies 16 bytes at a time may overwrite.
    static let slack = 32
}

extension Zstd {
    /// One `decompress` call: the input, the output's size so far, and the tables of the frame.
    struct Decoder {
        let input: UnsafeRawBufferPointer
        let maximumSize: Int
        var written = 0
        var workspace = Workspace()
        /// The output buffer's largest size so far.
        var largestBuffer = 0

        init(input: UnsafeRawBufferPointer, maximumSize: Int) {
            self.input = input
            self.maximumSize = maximumSize
        }

        /// The little-endian number in `count` (at most 8) bytes at `offset`, which are inside the input.
        func littleEndian(at offset: Int, count: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in 0..<count { value |= UInt64(input[offset + index]) << (8 * index) }
            return value
        }

        func need(_ count: Int, at offset: Int, _ what: String) throws(DecodeError) {
            guard count <= input.count - offset else {
                throw DecodeError(offset: offset, message: "\(what) ends early")
            }
        }

        /// Decodes the frame whose magic number is at `start`, appending to `output`; returns where the
        /// next frame starts.
        mutating func frame(at start: Int, into output: inout [UInt8]) throws(DecodeError) -> Int {
            var offset = start + 4
            try need(1, at: offset, "the frame header")
            let descriptor = input[offset]
            offset += 1
            guard descriptor & 0x08 == 0 else {
                throw DecodeError(offset: offset - 1, message: "a frame header with its reserved bit set")
            }
            let singleSegment = descriptor & 0x20 != 0
            var windowSize = 0
            if !singleSegment {
                try need(1, at: offset, "the frame header")
                let exponent = Int(input[offset] >> 3)
                let base = 1 << (10 + exponent)
                windowSize = base + (base >> 3) * Int(input[offset] & 7)
                offset += 1
            }
            let dictionaryIDSize = [0, 1, 2, 4][Int(descriptor & 3)]
            try need(dictionaryIDSize, at: offset, "the frame header")
            let dictionaryID = littleEndian(at: offset, count: dictionaryIDSize)
            guard dictionaryID == 0 else {
                throw DecodeError(
                    offset: offset,
                    message: "a frame that needs dictionary \(dictionaryID) (dictionaries are not supported)")
            }
            offset += dictionaryIDSize
            let contentSizeSize = [singleSegment ? 1 : 0, 2, 4, 8][Int(descriptor >> 6)]
            var contentSize: Int?
            if contentSizeSize > 0 {
                try need(contentSizeSize, at: offset, "the frame header")
                let value = littleEndian(at: offset, count: contentSizeSize) + (contentSizeSize == 2 ? 256 : 0)
                guard value <= UInt64(maximumSize - written) else {
                    throw DecodeError(
                        offset: offset,
                        message: "a frame of \(value) bytes, more than the \(maximumSize - written) bytes allowed",
                        isOverLimit: true)
                }
                contentSize = Int(value)
                if singleSegment { windowSize = Int(value) }
                offset += contentSizeSize
            }
            let frameStart = written
            let frameLimit = contentSize.map { written + $0 } ?? maximumSize
            let blockLimit = min(windowSize, Zstd.blockSizeLimit)
            workspace.startFrame()

            var last = false
            while !last {
                try need(3, at: offset, "the block header")
                let header = Int(littleEndian(at: offset, count: 3))
                let blockStart = offset
                offset += 3
                last = header & 1 != 0
                let size = header >> 3
                let type = (header >> 1) & 3
                guard type != 3 else { throw DecodeError(offset: blockStart, message: "a block of the reserved type") }
                guard size <= blockLimit else {
                    throw DecodeError(
                        offset: blockStart, message: "a block of \(size) bytes, more than its maximum of \(blockLimit)")
                }
                try need(type == 1 ? 1 : size, at: offset, "the block")
                let end = min(written + blockLimit, frameLimit)
                if type != 2 {
                    guard size <= end - written else {
                        throw limitError(at: blockStart, end: end, blockLimit, frameLimit)
                    }
                    reserve(&output, upTo: written + size, frameLimit: frameLimit)
                    let source = offset
                    let at = written
                    output.withUnsafeMutableBufferPointer { buffer in
                        if type == 0 {
                            UnsafeMutableRawPointer(buffer.baseAddress! + at).copyMemory(
                                from: input.baseAddress! + source, byteCount: size)
                        } else {
                            (buffer.baseAddress! + at).update(repeating: input[source], count: size)
                        }
                    }
                    written += size
                    offset += type == 0 ? size : 1
                    continue
                }
                reserve(&output, upTo: end, frameLimit: frameLimit)
                let result = output.withUnsafeMutableBufferPointer { buffer in
                    Result { () throws(DecodeError) in
                        try compressedBlock(
                            offset..<offset + size, into: buffer.baseAddress!, frameStart: frameStart, end: end)
                    }
                }
                if case .failure(var error) = result {
                    if error.message.isEmpty { error = limitError(at: error.offset, end: end, blockLimit, frameLimit) }
                    throw error
                }
                offset += size
            }
            if let contentSize, written - frameStart != contentSize {
                throw DecodeError(
                    offset: offset, message: "a frame of \(written - frameStart) bytes, \(contentSize) announced")
            }
            if descriptor & 0x04 != 0 {
                try need(4, at: offset, "the frame's checksum")
                let expected = UInt32(littleEndian(at: offset, count: 4))
                let checksum = output.withUnsafeBytes { bytes in
                    UInt32(
                        truncatingIfNeeded: XXH64.hash(UnsafeRawBufferPointer(rebasing: bytes[frameStart..<written])))
                }
                guard checksum == expected else {
                    throw DecodeError(offset: offset, message: "a frame whose content does not match its checksum")
                }
                offset += 4
            }
            return offset
        }

        /// Grows `output` (zero-filled) so that it holds `end` bytes (the next block's at most) and
        /// the slack after them; it doubles, up to the frame's limit (its content size, else
        /// `maximumSize`), so that frames grow in few steps and never ahead of the blocks that
        /// fill them. The new array has exactly that capacity (an append could reserve twice as much).
        mutating func reserve(_ output: inout [UInt8], upTo end: Int, frameLimit: Int) {
            guard output.count < end + Zstd.slack else { return }
            let count = max(end, min(2 * output.count, frameLimit)) + Zstd.slack
            largestBuffer = max(largestBuffer, count)
            let old = output
            output = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                let base = buffer.baseAddress!
                old.withUnsafeBufferPointer {
                    if let from = $0.baseAddress { base.update(from: from, count: $0.count) }
                }
                (base + old.count).update(repeating: 0, count: count - old.count)
                initialized = count
            }
        }

        /// The error for a block that decodes past `end`, saying which limit it hit.
        func limitError(at offset: Int, end: Int, _ blockLimit: Int, _ frameLimit: Int) -> DecodeError {
            if end == written + blockLimit, end < frameLimit {
                return DecodeError(offset: offset, message: "a block that decodes to more than \(blockLimit) bytes")
            }
            if frameLimit < maximumSize {
                return DecodeError(offset: offset, message: "a frame that decodes to more than its content size")
            }
            return DecodeError(offset: offset, message: "more than the \(maximumSize) bytes allowed", isOverLimit: true)
        }
    }
}
