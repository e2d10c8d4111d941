import Streams
import StreamsTesting

/// StreamsTesting's chaos operators in the contract suite. A call they do not hit goes to the
/// upstream untouched (the subscriber the upstream sees is the next operator's, and the
/// upstream's subscription passes down as it is); a call that `injectLatency` hits reaches the
/// upstream after the latency. Each entry's `when` captures the tracked object, so its release
/// is checked too.
let chaosOperatorCatalog: [OperatorEntry] = {
    let none: [String] = []
    return [
        OperatorEntry("injectFault (call not hit)", .named("Map", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.ints.injectFault(
                .oops,
                when: {
                    _ = t; return false
                }
            ).contract()
        },
        OperatorEntry("injectOutcome (call not hit)", .named("Map", children: none), passThrough: true) { h in
            let t = h.tracked
            return h.ints.injectOutcome(
                .hang, rate: 0.5, using: ChaosGenerator(seed: 1),
                when: {
                    _ = t; return false
                }
            ).contract()
        },
        // A call hit by the latency reaches the upstream through the subscriber flatMap attaches
        // to each child, which reflects as Combine's: "FlatMap", also in playgrounds, one child.
        OperatorEntry("injectLatency", .named("FlatMap", children: ["parentSubscription"])) { h in
            let t = h.tracked
            return h.ints.injectLatency(
                .milliseconds(500), scheduler: h.scheduler,
                when: {
                    _ = t; return true
                }
            ).contract()
        },
    ]
}()
