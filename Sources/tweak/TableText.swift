import Foundation

/// A table's cells as one buffer of UTF-8, measured as they are added and printed with the columns
/// padded: a table of a million rows costs its text and one byte a cell, and its rows are made once.
///
/// A cell ends with 0xFF and a row with 0xFE, two bytes that UTF-8 never uses.
///
/// ```swift
/// var table = TableText()
/// table.append(["TWEAK", "VALUE"])
/// table.append(["checkout.enabled", "true"])
/// table.print()   // "TWEAK             VALUE\ncheckout.enabled  true\n"
/// ```
struct TableText {
    private var text: [UInt8] = []
    /// Each column's width in characters, the widest cell's.
    private var widths: [Int] = []

    private static let cellEnd: UInt8 = 0xFF
    private static let rowEnd: UInt8 = 0xFE

    /// Where the cell being added starts in `text`, and whether it is ASCII so far.
    private var cellStart = 0
    private var cellIsASCII = true
    /// The column of the cell being added.
    private var column = 0

    /// Makes room for `rows` rows of about `bytesPerRow` bytes of text each, so that a large
    /// table's text is not copied as it grows (room never written to costs no memory).
    mutating func reserveCapacity(rows: Int, bytesPerRow: Int) {
        let (bytes, overflow) = rows.multipliedReportingOverflow(by: bytesPerRow)
        if !overflow { text.reserveCapacity(bytes) }
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
        var part = part
        part.withUTF8 { bytes in
            text.append(contentsOf: bytes)
            if cellIsASCII, !bytes.allSatisfy({ $0 < 0x80 }) { cellIsASCII = false }
        }
    }

    /// Ends the cell being added (measuring it as `Output.width` does); the next part starts the next cell.
    mutating func endCell() {
        if widths.count <= column { widths.append(0) }
        let width = cellIsASCII ? text.count - cellStart : String(decoding: text[cellStart...], as: UTF8.self).count
        widths[column] = max(widths[column], width)
        text.append(Self.cellEnd)
        column += 1
        cellStart = text.count
        cellIsASCII = true
    }

    /// Ends the row being added.
    mutating func endRow() {
        text.append(Self.rowEnd)
        column = 0
        cellStart = text.count
    }

    /// Prints the rows, each cell but a row's last padded to its column's width, cells joined by
    /// two spaces: what `print(Output.table(rows))` prints.
    ///
    /// The bytes are written to standard output 64 KB at a time, with
    /// no `String` made for them; the text is read through its buffer pointer (measured: the indexed
    /// loop and a `String` a chunk were a tenth of `tweak list`'s time on a 16 MB file).
    func print() {
        fflush(nil)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 17)
        let widths = self.widths
        text.withUnsafeBufferPointer { text in
            let count = text.count
            var column = 0
            var cellStart = 0
            var ascii = true
            var index = 0
            while index < count {
                let byte = text[index]
                if byte < 0x80 { index += 1; continue }
                if byte == Self.cellEnd {
                    // The last cell of a row is not padded.
                    let last = index + 1 < count && text[index + 1] == Self.rowEnd
                    if column > 0 { out.append(0x20); out.append(0x20) }
                    let cell = UnsafeBufferPointer(rebasing: text[cellStart..<index])
                    if last {
                        out.append(contentsOf: cell)
                    } else if ascii {
                        out.append(contentsOf: cell)
                        if cell.count < widths[column] { out.append(contentsOf: repeatElement(0x20, count: widths[column] - cell.count)) }
                    } else {
                        out += Output.padded(String(decoding: cell, as: UTF8.self), to: widths[column]).utf8
                    }
                    column += 1
                    cellStart = index + 1
                    ascii = true
                } else if byte == Self.rowEnd {
                    out.append(0x0A)
                    column = 0
                    cellStart = index + 1
                    if out.count >= 1 << 16 {
                        Self.write(out)
                        out.removeAll(keepingCapacity: true)
                    }
                } else {
                    ascii = false
                }
                index += 1
            }
        }
        Self.write(out)
    }

    /// Writes `bytes` to standard output, after what `Swift.print` has buffered (``print()`` flushes
    /// the C streams before its first write, so the bytes keep their place among the lines printed).
    private static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
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
