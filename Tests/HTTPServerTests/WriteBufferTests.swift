import Glibc
import Testing
@testable import HTTPServer

/// The write buffer: what is queued comes out in order through the send vectors, and a drained buffer holds no
/// storage, so an idle SSE stream costs nothing here however large its last event was.
@Suite struct WriteBufferTests {
    /// The bytes `withUnsentVectors` offers, joined.
    private func vectored(_ buffer: WriteBuffer) -> [UInt8] {
        buffer.withUnsentVectors { vectors in
            vectors.flatMap { Array(UnsafeRawBufferPointer(start: $0.iov_base, count: $0.iov_len)) }
        }
    }

    @Test func aDrainedBufferHoldsNoStorage() {
        var buffer = WriteBuffer()
        buffer.append([UInt8](repeating: 0x61, count: 200_000))
        buffer.append([UInt8](repeating: 0x62, count: 30_000))
        #expect(buffer.storageCapacity >= 230_000)
        buffer.consume(150_000)
        #expect(buffer.count == 80_000)
        buffer.consume(80_000)
        #expect(buffer.count == 0)
        #expect(buffer.storageCapacity == 0)
    }

    @Test func aFullySentArrayIsReleasedBeforeTheRestIsSent() {
        var buffer = WriteBuffer()
        buffer.append([UInt8](repeating: 1, count: 100_000))
        buffer.append([UInt8](repeating: 2, count: 10))
        buffer.consume(100_005)
        #expect(buffer.count == 5)
        #expect(buffer.storageCapacity < 1_000)
        #expect(vectored(buffer) == [2, 2, 2, 2, 2])
    }

    @Test func vectorsCoverTheUnsentBytesInOrderAcrossPartialSends() {
        var buffer = WriteBuffer()
        var expected: [UInt8] = []
        for n in 1...40 {
            let chunk = (0..<n * 3).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ n) }
            buffer.append(chunk)
            expected += chunk
        }
        buffer.append([] as [UInt8])   // empty arrays are not queued
        var received: [UInt8] = []
        var step = 1
        while buffer.count > 0 {
            let offered = vectored(buffer)
            #expect(!offered.isEmpty)
            #expect(buffer.withUnsentVectors { $0.count } <= WriteBuffer.maxVectors)
            let sent = min(step, offered.count)
            received += offered.prefix(sent)
            buffer.consume(sent)
            step = step * 3 % 97 + 1
        }
        #expect(received == expected)
        #expect(buffer.storageCapacity == 0)
    }

    @Test func unsentBytesAreTheSameThroughBothViews() {
        var buffer = WriteBuffer()
        buffer.append(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        buffer.append(Array("body".utf8)[...])
        buffer.consume(9)
        let joined = buffer.withUnsentBytes { Array($0) }
        #expect(joined == Array("200 OK\r\n\r\nbody".utf8))
        #expect(vectored(buffer) == joined)
    }

    /// A file region in the queue: the vectors stop before it (and say a file follows), then the region's unsent
    /// part is offered alone, with the offset moving as it is sent in pieces, then the arrays after it.
    @Test func aFileRegionIsOfferedAloneBetweenTheArraysAroundIt() throws {
        let content = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let regions = try SealedFile.regions(holding: [Array("skip".utf8), content], name: "test")
        var buffer = WriteBuffer()
        buffer.append(Array("head1".utf8))
        buffer.append(Array("head2".utf8))
        buffer.append(regions[1])
        buffer.append(Array("tail".utf8))
        buffer.append(regions[0])
        #expect(buffer.count == 10 + 5000 + 4 + 4)
        #expect(buffer.withUnsentBytes { Array($0) } == Array("head1head2".utf8) + content + Array("tailskip".utf8))
        #expect(buffer.storageCapacity < 1_000, "a file region holds no memory")
        #expect(vectored(buffer) == Array("head1head2".utf8) && buffer.fileFollowsVectors && buffer.unsentFileFront == nil)
        buffer.consume(10)
        #expect(vectored(buffer).isEmpty)
        var sent: [UInt8] = []
        while let front = buffer.unsentFileFront {
            #expect(front.fd == regions[1].file.fd && front.offset == 4 + sent.count && front.count == 5000 - sent.count)
            let piece = min(front.count, 1234)
            sent += regions[1].file.read(offset: front.offset, count: piece)
            buffer.consume(piece)
        }
        #expect(sent == content)
        #expect(vectored(buffer) == Array("tail".utf8) && buffer.fileFollowsVectors)
        buffer.consume(4)
        #expect(buffer.unsentFileFront.map { [$0.offset, $0.count] } == [0, 4])
        buffer.consume(4)
        #expect(buffer.count == 0 && buffer.storageCapacity == 0 && buffer.unsentFileFront == nil)
    }
}
