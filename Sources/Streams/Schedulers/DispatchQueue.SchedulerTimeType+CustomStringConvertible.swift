import Dispatch

extension DispatchQueue.SchedulerTimeType: CustomStringConvertible {
    /// The time as `t=` and its uptime (Dispatch's clock, which starts near boot), such as
    /// `"t=1.5s"`; `"t=distantFuture"` for `DispatchTime.distantFuture`. `DispatchQueue.test`'s
    /// clock starts at one nanosecond of uptime: `"t=1ns"`, and `"t=1.000000001s"` a second later.
    ///
    /// ```swift
    /// print(DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_500_000_000)))  // t=1.5s
    /// ```
    public var description: String {
        let uptime = dispatchTime.uptimeNanoseconds
        if uptime >= Self.dispatchLimit { return "t=distantFuture" }
        return "t=\(Stride(nanoseconds: Int(uptime)))"
    }
}

extension DispatchQueue.SchedulerTimeType.Stride: CustomStringConvertible {
    /// The interval in the largest unit it fills at least once (`s`, `ms`, `µs` or `ns`), with
    /// as many decimals as it needs and no more, so it is exact and short: `"500ms"`,
    /// `"1.5s"`, `"250µs"`, `"7ns"`, `"-2s"`, `"0s"`.
    ///
    /// ```swift
    /// print(DispatchQueue.SchedulerTimeType.Stride.milliseconds(500))  // 500ms
    /// ```
    public var description: String {
        if magnitude == 0 { return "0s" }
        let nanoseconds = magnitude.magnitude  // also for Int.min
        let units: [(scale: UInt, digits: Int, name: String)] = [
            (1_000_000_000, 9, "s"), (1_000_000, 6, "ms"), (1_000, 3, "µs"), (1, 0, "ns"),
        ]
        let unit = units.first { nanoseconds >= $0.scale } ?? units[units.count - 1]
        var text = magnitude < 0 ? "-" : ""
        text += String(nanoseconds / unit.scale)
        let remainder = nanoseconds % unit.scale
        if remainder > 0 {
            let digits = String(remainder)
            let padded = String(repeating: "0", count: unit.digits - digits.count) + digits
            text += "." + padded.reversed().drop { $0 == "0" }.reversed()
        }
        return text + unit.name
    }
}
