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
    func print() {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        var column = 0
        var cellStart = 0
        var ascii = true
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == Self.cellEnd {
                // The last cell of a row is not padded.
                let last = index + 1 < text.count && text[index + 1] == Self.rowEnd
                if column > 0 { out.append(0x20); out.append(0x20) }
                let cell = text[cellStart..<index]
                if last {
                    out += cell
                } else if ascii {
                    out += cell
                    if cell.count < widths[column] { out += repeatElement(0x20, count: widths[column] - cell.count) }
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
                    Swift.print(String(decoding: out, as: UTF8.self), terminator: "")
                    out.removeAll(keepingCapacity: true)
                }
            } else if byte >= 0x80 {
                ascii = false
            }
            index += 1
        }
        Swift.print(String(decoding: out, as: UTF8.self), terminator: "")
    }
}
