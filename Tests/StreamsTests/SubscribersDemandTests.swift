import Foundation
import Streams
import Testing

@Suite("Subscribers.Demand")
struct SubscribersDemandTests {
    typealias Demand = Subscribers.Demand

    @Test func unlimitedAbsorbsArithmetic() {
        #expect(Demand.unlimited + .max(3) == .unlimited)
        #expect(Demand.max(3) + .unlimited == .unlimited)
        #expect(Demand.unlimited - .max(3) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.unlimited + 5 == .unlimited)
        #expect(Demand.unlimited - 5 == .unlimited)
        #expect(Demand.unlimited * 2 == .unlimited)
    }

    @Test func subtractionNeverGoesBelowNone() {
        #expect(Demand.max(3) - .unlimited == .none)
        #expect(Demand.max(3) - .max(5) == .none)
        #expect(Demand.max(3) - 5 == .none)
        #expect(Demand.max(5) - .max(3) == .max(2))
        #expect(Demand.max(5) - 3 == .max(2))
    }

    @Test func overflowSaturatesToUnlimited() {
        #expect(Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
        #expect(Demand.max(3) * 2 == .max(6))
    }

    @Test func compoundAssignment() {
        var demand = Demand.max(1)
        demand += .max(2)
        #expect(demand == .max(3))
        demand += 1
        #expect(demand == .max(4))
        demand -= .max(1)
        #expect(demand == .max(3))
        demand -= 1
        #expect(demand == .max(2))
        demand *= 3
        #expect(demand == .max(6))
    }

    @Test func comparisonsWithInt() {
        #expect(Demand.unlimited > Int.max)
        #expect(Demand.unlimited >= Int.max)
        #expect(!(Demand.unlimited < Int.max))
        #expect(!(Demand.unlimited == Int.max))
        #expect(Demand.unlimited != 0)
        #expect(Int.max < Demand.unlimited)
        #expect(Demand.max(2) > 1)
        #expect(Demand.max(2) >= 2)
        #expect(Demand.max(2) < 3)
        #expect(Demand.max(2) <= 2)
        #expect(Demand.max(2) == 2)
        #expect(2 == Demand.max(2))
        #expect(Demand.none == 0)
    }

    @Test func comparisonsBetweenDemands() {
        #expect(Demand.max(1) < .max(2))
        #expect(Demand.max(Int.max) < .unlimited)
        #expect(Demand.none < .max(1))
    }

    @Test func maxProperty() {
        #expect(Demand.max(7).max == 7)
        #expect(Demand.none.max == 0)
        #expect(Demand.unlimited.max == nil)
    }

    @Test func descriptions() {
        #expect(Demand.unlimited.description == "unlimited")
        #expect(Demand.max(3).description == "max(3)")
    }

    @Test func codableRoundTrip() throws {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        for demand in [Demand.none, .max(42), .unlimited] {
            let data = try encoder.encode(demand)
            #expect(try decoder.decode(Demand.self, from: data) == demand)
        }
    }

    @Test func negativeMaxTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Subscribers.Demand.max(-1)
        }
    }
}
