import Foundation

/// A table's cells as one run of UTF-8 and each cell's length, measured as they are added and
/// printed with the columns padded: a table of a million rows costs its text and four bytes a
/// cell, and its rows are made once.
///
/// Not copyable: its text is in buffers that a copy would share.
///
/// ```swift
/// var table = TableText()
/// table.append(["TWEAK", "VALUE"])
/// table.append(["checkout.enabled", "true"])
/// table.print()   // "TWEAK             VALUE\ncheckout.enabled  true\n"
/// ```
struct TableText: ~Copyable {
    /// The cells' text, one after another.
    private let text = GrowableBuffer<UInt8>()
    /// Each cell's length in bytes shifted left by one, the low bit set when the cell is not
    /// ASCII; ``rowEnd`` after a row's cells. Printing reads these instead of scanning the text.
    private let cells = GrowableBuffer<UInt32>()
    /// Each column's width in characters, the widest cell's.
    private var widths: [Int] = []

    private static let rowEnd = UInt32.max

    /// Where the cell being added starts in `text`, and whether it is ASCII so far.
    private var cellStart = 0
    private var cellIsASCII = true
    /// The column of the cell being added.
    private var column = 0

    /// Makes room for `rows` rows of about `bytesPerRow` bytes of text and `cellsPerRow` cells
    /// each, so that a large table is not copied as it grows (room never written to costs no memory).
    mutating func reserveCapacity(rows: Int, bytesPerRow: Int, cellsPerRow: Int) {
        let (bytes, bytesOverflow) = rows.multipliedReportingOverflow(by: bytesPerRow)
        let (entries, entriesOverflow) = rows.multipliedReportingOverflow(by: cellsPerRow + 1)
        guard !bytesOverflow, !entriesOverflow else { return }
        text.reserveCapacity(bytes)
        cells.reserveCapacity(entries)
    }

    /// Adds a row.
    mutating func append(_ cells: [String]) {
        for cell in cells {
            appendText(cell)
            endCell()
        }
        endRow()
    }

    /// Adds `part` to the cell being added: a row is added cell by cell, each cell part by part,
    /// with no array or string made for them.
    mutating func appendText(_ part: String) {
        // Through the buffer's method: a closure here would retain and release the buffer a part.
        if !text.append(utf8: part) { cellIsASCII = false }
    }

    /// Ends the cell being added (measuring it as `Output.width` does); the next part starts the next cell.
    mutating func endCell() {
        let length = text.count - cellStart
        precondition(length < 1 << 31, "a table cell of 2 GB or more")
        let width = cellIsASCII ? length : text.withUnsafeBufferPointer { text in
            String(decoding: UnsafeBufferPointer(rebasing: text[cellStart...]), as: UTF8.self).count
        }
        if widths.count <= column { widths.append(0) }
        if width > widths[column] { widths[column] = width }
        cells.append(UInt32(truncatingIfNeeded: length) << 1 | (cellIsASCII ? 0 : 1))
        column += 1
        cellStart = text.count
        cellIsASCII = true
    }

    /// Ends the row being added, whose last part ended a cell.
    mutating func endRow() {
        precondition(text.count == cellStart, "text added to a row after its last cell")
        cells.append(Self.rowEnd)
        column = 0
    }

    /// Prints the rows, each cell but a row's last padded to its column's width, cells joined by
    /// two spaces: what `print(Output.table(rows))` prints.
    ///
    /// The bytes are written to standard output 64 KB at a time, with no `String` made for them.
    func print() {
        fflush(nil)
        let out = GrowableBuffer<UInt8>(capacity: 1 << 17)
        let widths = self.widths
        text.withUnsafeBufferPointer { text in
            cells.withUnsafeBufferPointer { cells in
                var offset = 0
                var column = 0
                for index in cells.indices {
                    let entry = cells[index]
                    if entry == Self.rowEnd {
                        out.append(0x0A)
                        column = 0
                        if out.count >= 1 << 16 {
                            Self.write(out)
                            out.removeAll()
                        }
                        continue
                    }
                    let length = Int(entry >> 1)
                    let cell = UnsafeBufferPointer(rebasing: text[offset..<(offset + length)])
                    offset += length
                    if column > 0 { out.append(repeating: 0x20, count: 2) }
                    // The last cell of a row is not padded.
                    if index + 1 < cells.count && cells[index + 1] == Self.rowEnd {
                        out.append(cell)
                    } else if entry & 1 == 0 {
                        out.append(cell)
                        out.append(repeating: 0x20, count: widths[column] - length)
                    } else {
                        var padded = Output.padded(String(decoding: cell, as: UTF8.self), to: widths[column])
                        padded.withUTF8 { out.append($0) }
                    }
                    column += 1
                }
            }
        }
        Self.write(out)
    }

    /// Writes `bytes` to standard output, after what `Swift.print` has buffered (``print()`` flushes
    /// the C streams before its first write, so the bytes keep their place among the lines printed).
    private static func write(_ bytes: GrowableBuffer<UInt8>) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(STDOUT_FILENO, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return   // a closed pipe: nothing more can be printed, as print would drop it
                }
                offset += written
            }
        }
    }
}
