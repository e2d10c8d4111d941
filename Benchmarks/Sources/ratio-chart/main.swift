// Draws the Streams/OpenCombine column of a comparison table (the markdown `compare` prints,
// or Docs/Performance.md, which holds it) as an SVG bar chart, one bar a workload, with a line
// at 1.0 where the two libraries take the same time. Plain SVG text, no dependency.
//
//     swift run --package-path Benchmarks ratio-chart Docs/Performance.md > Docs/images/performance-ratios.svg

import Foundation

/// The cells of a markdown table row, trimmed.
func cells(_ line: String) -> [String] {
    line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
        .map { $0.trimmingCharacters(in: .whitespaces) }
}

let path = CommandLine.arguments.dropFirst().first
let data = path.map { FileManager.default.contents(atPath: $0) } ?? FileHandle.standardInput.readDataToEndOfFile()
guard let data, let text = String(data: data, encoding: .utf8) else {
    FileHandle.standardError.write(Data("ratio-chart: cannot read \(path ?? "standard input")\n".utf8))
    exit(1)
}

// The first table with a "Streams/OpenCombine" column; rows without a ratio ("n/a") are left out.
var bars: [(name: String, ratio: Double)] = []
var columns: (name: Int, ratio: Int)?
for line in text.split(separator: "\n").map(String.init) {
    guard line.hasPrefix("|") else {
        if !bars.isEmpty { break }
        continue
    }
    let row = cells(line)
    if columns == nil, let ratio = row.firstIndex(of: "Streams/OpenCombine") {
        columns = (row.firstIndex(of: "workload") ?? 0, ratio)
    } else if let columns, row.count > columns.ratio, let ratio = Double(row[columns.ratio]) {
        bars.append((row[columns.name], ratio))
    }
}
guard !bars.isEmpty else {
    FileHandle.standardError.write(Data("ratio-chart: no Streams/OpenCombine column found\n".utf8))
    exit(1)
}

let labelWidth = 300
let plotWidth = 400
let rowHeight = 24
let top = 48
let scaleMax = max(1.0, (bars.map(\.ratio).max() ?? 1) * 1.1)
let height = top + bars.count * rowHeight + 40
func x(_ ratio: Double) -> Double { Double(labelWidth) + Double(plotWidth) * ratio / scaleMax }
func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
}

var svg = [
    "<svg xmlns='http://www.w3.org/2000/svg' width='\(labelWidth + plotWidth + 60)' height='\(height)' "
        + "font-family='-apple-system, Helvetica, Arial, sans-serif' font-size='12'>",
    "<title>Streams time as a fraction of OpenCombine's, per workload</title>",
    "<rect width='100%' height='100%' fill='white'/>",
    "<text x='10' y='20' font-size='14' font-weight='bold'>Streams' time as a fraction of OpenCombine's (shorter is faster)</text>",
]
for (index, bar) in bars.enumerated() {
    let y = top + index * rowHeight
    svg.append("<text x='\(labelWidth - 8)' y='\(y + 15)' text-anchor='end'>\(escaped(bar.name))</text>")
    svg.append(
        "<rect x='\(labelWidth)' y='\(y + 3)' width='\(x(bar.ratio) - Double(labelWidth))' height='\(rowHeight - 6)' fill='#0969da'/>"
    )
    svg.append("<text x='\(x(bar.ratio) + 6)' y='\(y + 15)' fill='#555'>\(bar.ratio)</text>")
}
let bottom = top + bars.count * rowHeight
svg.append("<line x1='\(x(1))' x2='\(x(1))' y1='\(top - 6)' y2='\(bottom + 4)' stroke='#cf222e' stroke-dasharray='4 3'/>")
svg.append("<text x='\(x(1))' y='\(bottom + 18)' text-anchor='end' fill='#cf222e'>as fast as OpenCombine: 1.0</text>")
svg.append("<text x='\(labelWidth)' y='\(bottom + 18)' text-anchor='middle' fill='#555'>0</text>")
svg.append("</svg>")
print(svg.joined(separator: "\n"))
