/// The simulation's results as a Markdown table and an ASCII chart of the load.
public enum FleetReport {
    /// One row per strategy: the load that reached the backend, as calls per second and as a
    /// multiple of the normal load, and how long the backend took to recover.
    ///
    /// ```swift
    /// print(FleetReport.table(FleetSimulation.Strategy.allCases.map { FleetSimulation().run($0) }))
    /// ```
    public static func table(_ results: [FleetResult]) -> String {
        var lines = [
            "| clients' policy | calls to the backend | mean rps while down | peak rps while down | peak rps while recovering | recovered after | requests that succeeded |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in results {
            let recovered = result.secondsToRecover.map { "\($0) s" } ?? "never"
            let mean = result.meanDuringOutage
            let cells = [
                result.strategy.rawValue,
                "\(result.totalCalls)",
                "\(Int(mean.rounded())) (\(result.multiple(mean)))",
                "\(result.peakDuringOutage) (\(result.multiple(Double(result.peakDuringOutage))))",
                "\(result.peakWhileRecovering) (\(result.multiple(Double(result.peakWhileRecovering))))",
                recovered,
                "\(Int((result.successRate * 1000).rounded()) / 10).\(Int((result.successRate * 1000).rounded()) % 10)%",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// The calls per second that reached the backend, one row of bars per strategy, one column
    /// per `step` seconds (the mean over them), `height` rows tall with the normal load marked.
    ///
    /// ```swift
    /// print(FleetReport.chart(results))
    /// ```
    public static func chart(_ results: [FleetResult], step: Int = 2, height: Int = 8) -> String {
        guard let first = results.first else { return "" }
        let peak = results.flatMap(\.received).max() ?? 1
        var out: [String] = []
        for result in results {
            let columns = stride(from: 0, to: result.received.count, by: step).map { start in
                let slice = result.received[start..<min(start + step, result.received.count)]
                return Double(slice.reduce(0, +)) / Double(slice.count)
            }
            out.append("\(result.strategy.rawValue) (peak \(result.received.max() ?? 0) calls/s)")
            for row in (1...height).reversed() {
                let level = Double(peak) * Double(row) / Double(height)
                let below = Double(peak) * Double(row - 1) / Double(height)
                let isNormal = Double(first.normalLoad) > below && Double(first.normalLoad) <= level
                let label = String(Int(level.rounded())).leftPadded(to: 6)
                let bars = columns.map { $0 >= level - Double(peak) / Double(height) / 2 ? "#" : (isNormal ? "-" : " ") }
                out.append("\(label) |" + bars.joined() + (isNormal ? "  <- normal load" : ""))
            }
            let axis = stride(from: 0, to: result.received.count, by: step).map { second in
                second % 10 == 0 ? "|" : (result.down.contains(second) ? "x" : "-")
            }
            out.append("       +" + axis.joined())
            out.append("        0 s" + String(repeating: " ", count: max(0, columns.count - 8)) + "\(result.received.count) s")
            out.append("")
        }
        out.append("x on the axis: the backend is down; each column is the mean over \(step) s.")
        return out.joined(separator: "\n")
    }
}

extension String {
    /// The string with spaces in front, to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
