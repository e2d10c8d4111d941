// The simulation's two pictures for Docs/RetryAndBackoff.md, as plain SVG text (no dependency).

import Foundation

/// One policy's run, as the charts need it.
struct PolicyRun {
    let name: String
    let calls: Int
    let drained: Double
    /// Calls the server received in each second of the run.
    let callsPerSecond: [Int]
}

/// Escapes text for an SVG text node.
private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
}

/// A number with thousands separators, as the guide writes them.
private func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return result
}

private func svgDocument(width: Int, height: Int, title: String, body: [String]) -> String {
    ([
        "<svg xmlns='http://www.w3.org/2000/svg' width='\(width)' height='\(height)' viewBox='0 0 \(width) \(height)' font-family='-apple-system, Helvetica, Arial, sans-serif' font-size='12'>",
        "<title>\(escaped(title))</title>",
        "<rect width='100%' height='100%' fill='white'/>",
    ] + body + ["</svg>", ""]).joined(separator: "\n")
}

/// Small multiples: the requests per second each policy sends over the first `seconds` of the
/// run, one panel a policy, two columns, on one shared logarithmic scale (the first second's
/// burst is tens of times the server's capacity), with the capacity drawn as a dashed line.
func requestsPerSecondChart(_ runs: [PolicyRun], columns: Int = 2, seconds: Int, capacity: Int) -> String {
    let panelWidth = 360
    let panelHeight = 110
    let left = 52
    let gap = 40
    let header = 34
    let top = 40
    let rows = (runs.count + columns - 1) / columns
    let width = left + columns * (panelWidth + gap)
    let height = top + rows * (panelHeight + header + 20) + 16
    let peak = runs.flatMap(\.callsPerSecond).max() ?? 1
    // Powers of ten up to the first one above the peak.
    let decades = max(2, Int(log10(Double(max(peak, capacity))).rounded(.up)))
    let barWidth = Double(panelWidth) / Double(seconds)
    func barHeight(_ calls: Int) -> Double {
        Double(panelHeight) * max(log10(Double(calls)), 0.2) / Double(decades)
    }
    var body = [
        "<text x='\(left)' y='20' font-size='14' font-weight='bold'>Requests per second the server receives, per retry policy "
            + "(1,000 clients, first \(seconds) s)</text>"
    ]
    for (index, run) in runs.enumerated() {
        let x = left + (index % columns) * (panelWidth + gap)
        let y = top + (index / columns) * (panelHeight + header + 20) + header
        let note = run.drained > Double(seconds) ? " (beyond this chart)" : ""
        body.append("<text x='\(x)' y='\(y - 20)' font-weight='bold'>\(escaped(run.name))</text>")
        body.append(
            "<text x='\(x)' y='\(y - 6)' fill='#555'>\(grouped(run.calls)) calls, drained after \(run.drained) s\(note)</text>")
        body.append("<rect x='\(x)' y='\(y)' width='\(panelWidth)' height='\(panelHeight)' fill='#f6f8fa' stroke='#d0d7de'/>")
        for decade in 1..<decades {
            let lineY = Double(y + panelHeight) - Double(panelHeight * decade) / Double(decades)
            body.append("<line x1='\(x)' x2='\(x + panelWidth)' y1='\(lineY)' y2='\(lineY)' stroke='#d0d7de'/>")
            if index % columns == 0 {
                let label = grouped(Int(pow(10, Double(decade))))
                body.append("<text x='\(x - 4)' y='\(lineY + 4)' text-anchor='end' fill='#555'>\(label)</text>")
            }
        }
        for (second, calls) in run.callsPerSecond.prefix(seconds).enumerated() where calls > 0 {
            let barHeight = barHeight(calls)
            body.append(
                "<rect x='\(Double(x) + Double(second) * barWidth)' y='\(Double(y + panelHeight) - barHeight)' "
                    + "width='\(barWidth)' height='\(barHeight)' fill='#0969da'/>")
        }
        let capacityY = Double(y + panelHeight) - barHeight(capacity)
        body.append(
            "<line x1='\(x)' x2='\(x + panelWidth)' y1='\(capacityY)' y2='\(capacityY)' stroke='#cf222e' stroke-dasharray='4 3'/>"
        )
        if index / columns == rows - 1 {
            for second in stride(from: 0, through: seconds, by: 10) {
                body.append(
                    "<text x='\(Double(x) + Double(second) * barWidth)' y='\(y + panelHeight + 14)' text-anchor='middle' "
                        + "fill='#555'>\(second) s</text>")
            }
        }
    }
    body.append(
        "<text x='\(left)' y='\(height - 6)' fill='#555'>Blue: calls in each second (logarithmic scale). Dashed red: "
            + "the server's capacity, \(capacity) calls a second once it is back up at 10 s.</text>")
    return svgDocument(width: width, height: height, title: "Requests per second per retry policy", body: body)
}

/// A horizontal bar a policy: the calls the fleet made until every client finished.
func callsToDrainChart(_ runs: [PolicyRun]) -> String {
    let labelWidth = 300
    let barSpace = 380
    let rowHeight = 24
    let top = 40
    let width = labelWidth + barSpace + 140
    let height = top + runs.count * rowHeight + 20
    let most = runs.map(\.calls).max() ?? 1
    var body = [
        "<text x='10' y='20' font-size='14' font-weight='bold'>Calls until the backlog drains, per retry policy (1,000 clients)</text>"
    ]
    for (index, run) in runs.enumerated() {
        let y = top + index * rowHeight
        let length = Double(barSpace) * Double(run.calls) / Double(most)
        body.append("<text x='\(labelWidth - 8)' y='\(y + 15)' text-anchor='end'>\(escaped(run.name))</text>")
        body.append("<rect x='\(labelWidth)' y='\(y + 3)' width='\(length)' height='\(rowHeight - 6)' fill='#0969da'/>")
        body.append(
            "<text x='\(Double(labelWidth) + length + 6)' y='\(y + 15)' fill='#555'>\(grouped(run.calls)) (\(run.drained) s)</text>"
        )
    }
    return svgDocument(width: width, height: height, title: "Calls to drain per retry policy", body: body)
}
