import Locking
import Redis
import RowstreamKit
import Sealing
import Synchronization

/// The ``DemandRelay`` on Redis pub/sub (docs/SCALING.md, "Any instance answers any request"): every instance
/// subscribes to a channel of its own, `{rowstream}:demands:ID` (ID its ``instance`` in 8 hex digits). A demand for
/// another instance's session is one `PUBLISH` to the owner's channel, whose reply counts the subscribers: 0 means no
/// such instance (gone, or restarted with a new id), answered `ended` at once. The owner acts on it and publishes its
/// answer to the sender's channel; the sender waits for it at most `budget` (then `ended`). Every message is bound by
/// the operator's store key (``RelayMessage``): a forged or altered one is dropped and counted (``unverified``).
///
/// Why pub/sub and not the live log (a stream): a demand is worth nothing once its `budget` has passed, so nothing
/// needs keeping; pub/sub costs Redis no memory, and its reply says at once whether the owner is there.
///
/// Thread rules: thread-safe. The subscription's messages are read by one task of its own, which hands demands to the
/// server's handler (non-blocking) and answers to the waiting `forward` calls (both kept in a ``RelayInbox``);
/// publishes run on tasks of their own.
final class RedisDemandRelay: DemandRelay {
    /// The shortest wait for an owner's answer (SharedCluster uses the Redis command timeout when longer).
    static let leastBudget: Duration = .seconds(2)
    let instance: UInt32
    /// Messages that did not verify (forged, altered, or written under another key): dropped.
    var unverified: Int { inbox.unverified.load(ordering: .relaxed) }
    private let client: RedisClient
    private let key: StoreKey
    private let budget: Duration
    private let inbox: RelayInbox
    private let subscription: RedisSubscription
    private let listener: Task<Void, Never>

    /// A relay on `client` for an instance with `tag` (its id's first byte; random without one), its messages bound
    /// by `storeKey`; a forwarded demand waits at most `budget` for the owner's answer after its `PUBLISH`.
    init(client: RedisClient, storeKey: StoreKey, tag: UInt8?, budget: Duration) {
        var random = SystemRandomNumberGenerator()
        instance = UInt32(tag ?? random.next()) << 24 | UInt32.random(in: 0...0xff_ffff, using: &random)
        self.client = client
        key = storeKey
        self.budget = budget
        let inbox = RelayInbox()
        self.inbox = inbox
        let subscription = client.subscribe(to: [RedisArgument(Self.channel(instance))])
        self.subscription = subscription
        let (instance, key) = (instance, storeKey)
        listener = Task { [client] in
            for await event in subscription.events {
                guard case .message(_, let payload) = event else { continue }
                switch RelayMessage.decode(payload, key: key) {
                case .demand(let message)? where message.addressee == instance:
                    let answer = inbox.handler?(message.body) ?? .ended
                    let reply = RelayMessage.encode(RelayMessage.Answer(addressee: message.sender, sender: instance,
                                                                         request: message.request, body: answer),
                                                    key: key)
                    Task { _ = try? await client.publish(RedisArgument(reply), to: RedisArgument(Self.channel(message.sender))) }
                case .answer(let message)? where message.addressee == instance:
                    inbox.resolve(message.request, with: message.body)
                case .demand?, .answer?:
                    break   // addressed to another instance: published to the wrong channel, nothing to do here
                case nil:
                    inbox.unverified.add(1, ordering: .relaxed)
                }
            }
        }
    }

    deinit { listener.cancel() }

    /// The channel instance `instance` reads its demands and answers from.
    static func channel(_ instance: UInt32) -> String {
        let digits = String(instance, radix: 16)
        return "{rowstream}:demands:" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    func serve(_ answer: @escaping @Sendable (RelayedDemand) -> RelayedAnswer) {
        inbox.handler = answer
    }

    func forward(_ demand: RelayedDemand, to owner: UInt32) async -> RelayedAnswer {
        let request = UInt64.random(in: .min ... .max)
        let message = RelayMessage.encode(
            RelayMessage.Demand(addressee: owner, sender: instance, request: request, body: demand), key: key)
        let (client, inbox, budget) = (client, inbox, budget)
        return await withCheckedContinuation { continuation in
            inbox.wait(request, continuation)
            let timer = Task {
                do {
                    let receivers = try await client.publish(RedisArgument(message),
                                                             to: RedisArgument(Self.channel(owner)))
                    // Nobody reads the owner's channel: it is gone (or restarted under a new id).
                    guard receivers > 0 else { return inbox.resolve(request, with: .ended) }
                } catch {
                    return inbox.resolve(request, with: .unreachable)
                }
                try? await Task.sleep(for: budget)
                inbox.resolve(request, with: .ended)   // no answer in time: as if the owner were gone
            }
            inbox.attach(timer, to: request)
        }
    }

    /// Ends the subscription (the client's shutdown closes its connection) and lets go of the server's handler: the
    /// handler holds the server's routes, which hold this relay (a cycle until now). The listener reads out what was
    /// already delivered (answered `ended`, no handler) and ends; forwards still waiting are answered `ended`.
    /// Returns once the listener has ended, so nothing it was handed outlives the relay's stop.
    func stop() async {
        inbox.handler = nil
        subscription.cancel()   // no event after this; the listener's loop ends once it has read those before
        await listener.value
        inbox.endAll()
    }
}
