import Joinery
import Testing

/// One resolve that makes thousands of `graph` instances: every one is kept and found again
/// within the resolve, and nothing recurses per instance (a chain walked by recursion used to
/// overflow a 128 KiB thread in a debug build at 5,000 instances).
@Suite("Graph scope of one resolve")
struct GraphScopeTests {
  final class Hub: Sendable {}

  final class Leaf: Sendable {
    let number: Int
    let hub: Hub
    init(number: Int, hub: Hub) {
      self.number = number
      self.hub = hub
    }
  }

  /// What one resolve of the fan saw: its leaves, and each leaf asked for a second time.
  struct Fan: Sendable {
    let leaves: [Leaf]
    let again: [Leaf]
  }

  /// `width` tagged `graph` leaves sharing a `graph` hub, and a fan that resolves each leaf
  /// twice (forwards, then backwards).
  struct WideGraph: Assembly {
    let width: Int
    func register(in registrar: inout Registrar) {
      registrar.bind(Hub.self, lifetime: .graph) { _ in Hub() }
      for number in 0..<width {
        registrar.bind(Leaf.self, tag: number, lifetime: .graph) { resolver in
          Leaf(number: number, hub: try resolver.resolve(Hub.self))
        }
      }
      registrar.bind(Fan.self) { [width] resolver in
        let leaves = try (0..<width).map { try resolver.resolve(Leaf.self, tag: $0) }
        let again = try (0..<width).reversed().map { try resolver.resolve(Leaf.self, tag: $0) }
        return Fan(leaves: leaves, again: again.reversed())
      }
    }
  }

  static func check(_ fan: Fan, width: Int) {
    #expect(fan.leaves.count == width)
    #expect(fan.leaves.map(\.number) == Array(0..<width))
    #expect(zip(fan.leaves, fan.again).allSatisfy { $0 === $1 })
    let hub = fan.leaves[0].hub
    #expect(fan.leaves.allSatisfy { $0.hub === hub })
  }

  @Test(
    "Each graph instance is made once per resolve and found again",
    arguments: [1, 3, 4, 5, 9, 17, 300])
  func smallAndMedium(width: Int) throws {
    let container = try ContainerBuilder(WideGraph(width: width)).build()
    let first = try container.resolve(Fan.self)
    Self.check(first, width: width)
    // A new resolve makes a new graph.
    let second = try container.resolve(Fan.self)
    #expect(first.leaves[0] !== second.leaves[0])
  }

  @Test("5,000 graph instances in one resolve on a 128 KiB thread")
  func fiveThousandOnSmallStack() async throws {
    let container = try ContainerBuilder(WideGraph(width: 5_000)).build()
    let fan = await Stress.onThread(timeout: 120, stackSize: 128 << 10) {
      () -> Fan? in try? container.resolve(Fan.self)
    }
    let made = try #require(fan ?? nil)
    Self.check(made, width: 5_000)
  }

  @Test("Graph instances are released when their resolve ends")
  func released() throws {
    let container = try ContainerBuilder(WideGraph(width: 100)).build()
    weak var hub: Hub?
    weak var leaf: Leaf?
    do {
      let fan = try container.resolve(Fan.self)
      hub = fan.leaves[0].hub
      leaf = fan.leaves[99]
      #expect(hub != nil && leaf != nil)
    }
    #expect(hub == nil)
    #expect(leaf == nil)
  }
}
