/// A plain-text table with aligned columns, for terminal reports.
package struct TextTable {
    /// How a column's cells are aligned.
    package enum Alignment { case left, right }

    /// One column's heading and alignment.
    package struct Column {
        package var title: String
        package var alignment: Alignment

        package init(_ title: String, _ alignment: Alignment = .right) {
            self.title = title
            self.alignment = alignment
        }
    }

    /// A cell: the text that is measured, and optional styling wrapped around it (ANSI codes).
    package struct Cell: ExpressibleByStringLiteral {
        package var text: String
        package var style: (prefix: String, suffix: String)?

        package init(_ text: String, style: (prefix: String, suffix: String)? = nil) {
            self.text = text
            self.style = style
        }

        package init(stringLiteral value: String) {
            self.init(value)
        }
    }

    private enum Row {
        case cells([Cell])
        case separator
    }

    private let columns: [Column]
    private var rows: [Row] = []

    package init(columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing cells are blank.
    package mutating func add(_ cells: [Cell]) {
        rows.append(.cells(cells))
    }

    /// Adds a horizontal rule.
    package mutating func addSeparator() {
        rows.append(.separator)
    }

    /// The table as lines of text, columns separated by two spaces, no trailing spaces. With
    /// `maxWidth` (a terminal's), the first column, the names, is narrowed so that the table
    /// fits, its texts shortened in the middle with "…"; numbers are never shortened.
    package func render(maxWidth: Int? = nil) -> String {
        var widths = columns.map { $0.title.count }
        for case .cells(let cells) in rows {
            for (index, cell) in cells.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.text.count)
            }
        }
        var shortened: Int?
        if let maxWidth, !widths.isEmpty {
            let total = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
            if total > maxWidth {
                let narrowest = max(columns[0].title.count, 24)
                let width = max(narrowest, widths[0] - (total - maxWidth))
                if width < widths[0] {
                    widths[0] = width
                    shortened = width
                }
            }
        }
        let totalWidth = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
        var lines: [String] = [line(columns.map { Cell($0.title) }, widths)]
        lines.append(String(repeating: "-", count: totalWidth))
        for row in rows {
            switch row {
            case .cells(var cells):
                if let shortened, !cells.isEmpty { cells[0].text = cells[0].text.shortened(to: shortened) }
                lines.append(line(cells, widths))
            case .separator: lines.append(String(repeating: "-", count: totalWidth))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(_ cells: [Cell], _ widths: [Int]) -> String {
        var text = ""
        for (index, column) in columns.enumerated() {
            let cell = index < cells.count ? cells[index] : Cell("")
            let padding = String(repeating: " ", count: max(0, widths[index] - cell.text.count))
            let styled = cell.style.map { $0.prefix + cell.text + $0.suffix } ?? cell.text
            if index > 0 { text += "  " }
            text += column.alignment == .left ? styled + padding : padding + styled
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}

extension String {
    /// The text with control characters (ANSI escapes, NUL, newlines, C1 controls) replaced by
    /// `�`, so that names from an input can never move the cursor or recolour a terminal, and
    /// format characters (bidirectional overrides, zero-width characters) shown as their code,
    /// `\u{202E}`, so that a name never reads in another order than it is.
    package var terminalSafe: String {
        // Plain printable ASCII needs nothing; C1 controls are encoded as C2 80…C2 9F, format
        // characters at or above U+00AD.
        guard utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar.isControl {
                result.append("\u{FFFD}")
            } else if scalar.isFormat {
                result.append(contentsOf: scalar.visibleCode.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The text in at most `width` characters: the middle replaced by "…" when longer, keeping
    /// the start (indentation, the folder) and more of the end (the file's or function's name).
    package func shortened(to width: Int) -> String {
        guard count > width, width > 1 else { return self }
        let indentation = prefix { $0 == " " }
        let room = width - indentation.count - 1
        guard room > 1 else { return String(prefix(width - 1)) + "…" }
        // A path keeps its file name whole when it can.
        let name = split(separator: "/").last?.count ?? 0
        let tail = max(room * 2 / 3, min(name, room - 2))
        let head = room - tail
        return indentation + String(dropFirst(indentation.count).prefix(head)) + "…" + String(suffix(tail))
    }

    /// `terminalSafe`, line by line: the line breaks stay.
    package var terminalSafeKeepingLines: String {
        split(separator: "\n", omittingEmptySubsequences: false).map { String($0).terminalSafe }
            .joined(separator: "\n")
    }
}
