#if !canImport(Combine)
import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("NotificationCenter.Publisher")
struct NotificationCenterPublisherTests {
    private let center = NotificationCenter()
    private let saved = Notification.Name("Saved")
    private let deleted = Notification.Name("Deleted")

    @Test func deliversEachNotificationPostedUnderItsName() {
        let subscriber = TestSubscriber<Notification, Never>()
        center.publisher(for: saved).subscribe(subscriber)
        center.post(name: saved, object: nil, userInfo: ["n": 1])
        center.post(name: deleted, object: nil)
        center.post(name: saved, object: nil, userInfo: ["n": 2])
        #expect(subscriber.values.map(\.name) == [saved, saved])
        #expect(subscriber.values.map { $0.userInfo?["n"] as? Int } == [1, 2])
        #expect(subscriber.completions.isEmpty)
        #expect(subscriber.subscriptionCount == 1)
        #expect(subscriber.subscription.map { "\($0)" } == "NotificationCenter Observer")
    }

    @Test func anObjectLimitsItToThatSender() {
        let document = NSObject()
        let other = NSObject()
        let fromDocument = TestSubscriber<Notification, Never>()
        let fromAnyone = TestSubscriber<Notification, Never>()
        center.publisher(for: saved, object: document).subscribe(fromDocument)
        center.publisher(for: saved).subscribe(fromAnyone)
        center.post(name: saved, object: other)
        center.post(name: saved, object: document)
        center.post(name: saved, object: nil)
        #expect(fromDocument.values.map { $0.object as AnyObject? === document } == [true])
        #expect(fromAnyone.values.count == 3)
    }

    @Test func aNotificationWithoutDemandIsDroppedNotKept() {
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: nil)
        center.publisher(for: saved).subscribe(subscriber)
        center.post(name: saved, object: nil, userInfo: ["n": 1])
        subscriber.request(.none)  // accepted, and adds nothing
        center.post(name: saved, object: nil, userInfo: ["n": 2])
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values.isEmpty)  // nothing was kept for later
        center.post(name: saved, object: nil, userInfo: ["n": 3])
        center.post(name: saved, object: nil, userInfo: ["n": 4])
        #expect(subscriber.values.map { $0.userInfo?["n"] as? Int } == [3])
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        center.publisher(for: saved).subscribe(subscriber)
        for _ in 0..<3 { center.post(name: saved, object: nil) }
        #expect(subscriber.values.count == 3)
    }

    @Test func cancelRemovesTheObserverAndReleasesTheSubscriber() throws {
        weak var weakSubscriber: TestSubscriber<Notification, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Notification, Never>()
            weakSubscriber = subscriber
            center.publisher(for: saved).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
        }
        // Until it cancels, the center keeps the observer and so the subscriber.
        center.post(name: saved, object: nil)
        do {
            let subscriber = try #require(weakSubscriber)
            #expect(subscriber.values.count == 1)
            subscriber.cancel()
            center.post(name: saved, object: nil)
            #expect(subscriber.values.count == 1)
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)  // the center let go of the observer's block
    }

    @Test func cancelInsideReceiveStopsFurtherDelivery() {
        let cancelled = Locked<TestSubscriber<Notification, Never>?>(nil)
        let subscriber = TestSubscriber<Notification, Never>(demandPerValue: .max(1)) { _ in
            cancelled.withLock { $0 }?.cancel()
        }
        cancelled.withLock { $0 = subscriber }
        center.publisher(for: saved).subscribe(subscriber)
        center.post(name: saved, object: nil)
        center.post(name: saved, object: nil)
        #expect(subscriber.values.count == 1)
        cancelled.withLock { $0 = nil }
    }

    @Test func eachSubscriberHasItsOwnObserverAndDemand() {
        let publisher = center.publisher(for: saved)
        let first = TestSubscriber<Notification, Never>()
        let second = TestSubscriber<Notification, Never>(initialDemand: .max(1))
        publisher.subscribe(first)
        publisher.subscribe(second)
        center.post(name: saved, object: nil)
        center.post(name: saved, object: nil)
        first.cancel()
        center.post(name: saved, object: nil)
        second.request(.max(1))
        center.post(name: saved, object: nil)
        #expect(first.values.count == 2)
        #expect(second.values.count == 2)
    }

    @Test func deliversSynchronouslyOnThePostingThread() {
        let subscriber = TestSubscriber<Notification, Never>()
        center.publisher(for: saved).subscribe(subscriber)
        let postedAndSeen = Locked(0)
        let group = DispatchGroup()
        let center = self.center
        let saved = self.saved
        for _ in 0..<8 {
            DispatchQueue.global().async(group: group) {
                for _ in 0..<50 {
                    let before = subscriber.values.count
                    center.post(name: saved, object: nil)
                    // Delivered before `post` returned (other threads only add more).
                    if subscriber.values.count > before { postedAndSeen.withLock { $0 += 1 } }
                }
            }
        }
        group.wait()
        #expect(subscriber.values.count == 400)
        #expect(postedAndSeen.withLock { $0 } == 400)
    }

    @Test func mirrorShowsCenterNameObjectAndDemand() throws {
        let subscriber = TestSubscriber<Notification, Never>(initialDemand: .max(3))
        center.publisher(for: saved).subscribe(subscriber)
        let children = Mirror(reflecting: try #require(subscriber.subscription)).children
        #expect(children.map(\.label) == ["center", "name", "object", "demand"])
        #expect(children.first.map { $0.value as AnyObject === center } == true)
        #expect(children.dropFirst().first?.value as? Notification.Name == saved)
        #expect(children.dropFirst(3).first?.value as? Subscribers.Demand == .max(3))
    }

    @Test func equalWhenCenterNameAndObjectAreTheSame() {
        let document = NSObject()
        let publisher = center.publisher(for: saved, object: document)
        #expect(publisher == NotificationCenter.Publisher(center: center, name: saved, object: document))
        #expect(publisher != center.publisher(for: saved, object: NSObject()))
        #expect(publisher != center.publisher(for: saved))
        #expect(publisher != center.publisher(for: deleted, object: document))
        #expect(publisher != NotificationCenter().publisher(for: saved, object: document))
        #expect(center.publisher(for: saved) == center.publisher(for: saved))
    }
}
#endif
