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

    /// A stream's usual queue, one event a pass: the array is held as it is, with no queue storage of its own (a
    /// malloc and a free per viewer per event otherwise), and every view of it, partly sent or grown by a second
    /// array, offers the same bytes in order.
    @Test func aOneArrayQueueAllocatesNothingAndKeepsOrderAsItGrows() {
        var buffer = WriteBuffer()
        let event = Array("data: one\n\n".utf8)
        buffer.append(event)
        #expect(buffer.storageCapacity == event.capacity)
        buffer.consume(6)
        #expect(vectored(buffer) == Array("one\n\n".utf8))
        #expect(buffer.withFirstUnsentBytes { Array($0) } == Array("one\n\n".utf8))
        let filled = withUnsafeTemporaryAllocation(of: iovec.self, capacity: 4) { vectors in
            let count = buffer.fillVectors(vectors)
            return vectors[..<count].flatMap { Array(UnsafeRawBufferPointer(start: $0.iov_base, count: $0.iov_len)) }
        }
        #expect(filled == Array("one\n\n".utf8))
        buffer.append(Array("data: two\n\n".utf8))
        #expect(buffer.withUnsentBytes { Array($0) } == Array("one\n\ndata: two\n\n".utf8))
        #expect(vectored(buffer) == Array("one\n\ndata: two\n\n".utf8))
        buffer.consume(buffer.count)
        #expect(buffer.storageCapacity == 0 && vectored(buffer).isEmpty)
        buffer.append(event, from: 3)
        #expect(vectored(buffer) == Array("a: one\n\n".utf8) && buffer.storageCapacity == event.capacity)
    }
}
