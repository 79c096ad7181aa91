/// A growing run of plain values (bytes, counts) written and read through its pointer, for text
/// made a few bytes at a time: `TableText` adds millions of cells of a few bytes each.
///
/// Unsafe on purpose, and only here: `Array`'s `append` checks uniqueness and capacity through
/// calls and copies through `memmove` for each few bytes (measured: with `Array`, adding the cells
/// and printing them were a quarter of `tweak list`'s time on a 16 MB file).
///
/// ```swift
/// let bytes = GrowableBuffer<UInt8>()
/// bytes.append(UInt8(ascii: "a"))
/// bytes.append(repeating: 0x20, count: 3)
/// bytes.withUnsafeBufferPointer { Array($0) }   // [97, 32, 32, 32]
/// ```
final class GrowableBuffer<Element: BitwiseCopyable> {
    /// How many values have been added.
    private(set) var count = 0
    private var capacity: Int
    private var base: UnsafeMutablePointer<Element>

    /// An empty buffer with room for `capacity` values (room never written to costs no memory).
    init(capacity: Int = 16) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Makes room for `capacity` values in all.
    func reserveCapacity(_ capacity: Int) {
        guard capacity > self.capacity else { return }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        self.capacity = capacity
    }

    /// Makes room for `extra` more values, doubling the room when it grows.
    @inline(__always)
    private func makeRoom(for extra: Int) {
        if count + extra > capacity { reserveCapacity(Swift.max(capacity * 2, count + extra)) }
    }

    /// Adds `value`.
    @inline(__always)
    func append(_ value: Element) {
        makeRoom(for: 1)
        (base + count).initialize(to: value)
        count += 1
    }

    /// Adds `values`: one at a time when they are few (a call to `memmove` costs more), else copied.
    @inline(__always)
    func append(_ values: UnsafeBufferPointer<Element>) {
        guard let source = values.baseAddress else { return }
        let added = values.count
        makeRoom(for: added)
        let target = base + count
        if added <= 16 {
            for offset in 0..<added { (target + offset).initialize(to: source[offset]) }
        } else {
            target.initialize(from: source, count: added)
        }
        count += added
    }

    /// Adds `value` `count` times.
    func append(repeating value: Element, count repeats: Int) {
        guard repeats > 0 else { return }
        makeRoom(for: repeats)
        (base + count).initialize(repeating: value, count: repeats)
        count += repeats
    }

    /// Forgets the values, keeping the room.
    func removeAll() {
        count = 0
    }

    /// Calls `body` with the values added so far; the pointer is valid only during the call.
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }
}

extension GrowableBuffer<UInt8> {
    /// Adds the UTF-8 of `text`; `true` when it is all ASCII.
    func append(utf8 text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            append(bytes)
            var bits: UInt8 = 0
            for byte in bytes { bits |= byte }
            return bits < 0x80
        }
    }
}
