import Joinery
import Testing

private final class NodeA: Sendable { init(_ b: NodeB) {} }
private final class NodeB: Sendable { init(_ c: NodeC) {} }
private final class NodeC: Sendable { init(_ a: NodeA) {} }

@Suite("Cycles and depth")
struct CycleTests {
  @Test(
    "A → B → C → A throws with the whole cycle",
    arguments: [Lifetime.ephemeral, .persistent, .cached, .transient, .graph])
  func cycleReported(lifetime: Lifetime) throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(NodeA.self, lifetime: .init(lifetime)) { resolver in
          NodeA(try resolver.resolve())
        }
        registrar.bind(NodeB.self, lifetime: .init(lifetime)) { resolver in
          NodeB(try resolver.resolve())
        }
        registrar.bind(NodeC.self, lifetime: .init(lifetime)) { resolver in
          NodeC(try resolver.resolve())
        }
      }
    ).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) { try container.resolve(NodeB.self) }
    #expect(error.code == .cycle)
    #expect(error.cycle.map { "\($0.type)" } == ["NodeB", "NodeC", "NodeA", "NodeB"])
    #expect(error.description.hasPrefix("Dependency cycle: NodeB → NodeC → NodeA → NodeB."))
    // Nothing is left half-built: a second attempt reports the same cycle.
    let again = try #require(throws: ResolutionError.self) { try container.resolve(NodeA.self) }
    #expect(again.cycle.map { "\($0.type)" } == ["NodeA", "NodeB", "NodeC", "NodeA"])
  }

  @Test("A factory that resolves itself through the captured container is a cycle, not a deadlock")
  func reentrantThroughContainer() async throws {
    let box = ContainerBox()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(NodeA.self, lifetime: .persistent) { _ in
          NodeA(NodeB(NodeC(try box.unwrapped().resolve(NodeA.self))))
        }
      }
    ).buildOrRecord()
    box.container = container
    defer { box.container = nil }  // the factories capture the box: break the cycle
    let outcome = await Stress.onThread { () -> ResolutionError.Code? in
      do throws(ResolutionError) {
        _ = try container.resolve(NodeA.self)
        return nil
      } catch {
        return error.code
      }
    }
    #expect(outcome == .cycle)
  }

  @Test("Factories resolving others 50 levels deep work")
  func deepChain() throws {
    let container = try ContainerBuilder(Chain(depth: 50)).buildOrRecord()
    #expect(try container.resolve(Int.self, tag: 0) == 50)
  }

  @Test("A chain deeper than the limit fails with a depth error, not a stack overflow")
  func depthLimit() async throws {
    var builder = ContainerBuilder(Chain(depth: 10_000))
    builder.maximumResolutionDepth = 300
    let container = try builder.buildOrRecord()
    let code = await Stress.onThread(stackSize: 512 << 10) { () -> ResolutionError.Code? in
      do throws(ResolutionError) {
        _ = try container.resolve(Int.self, tag: 0)
        return nil
      } catch {
        return error.code
      }
    }
    #expect(code == .depthLimitExceeded)
  }

  @Test("Near the end of a small thread stack the resolution stops with a depth error")
  func stackGuard() async throws {
    let container = try ContainerBuilder(Chain(depth: 10_000)).buildOrRecord()
    let error = await Stress.onThread(stackSize: 512 << 10) { () -> ResolutionError? in
      do throws(ResolutionError) {
        _ = try container.resolve(Int.self, tag: 0)
        return nil
      } catch {
        return error
      }
    }
    #expect(error??.code == .depthLimitExceeded)
    #expect(error??.debugDescription.contains("stack is nearly exhausted") == true)
    #expect(error??.description.contains("… ") == true, "a long path is abbreviated")
    // The guard must not trip for an ordinary depth: 20 levels on the same stack. A plain
    // debug build takes about 13.5 KB a level (a probe of stack addresses in the factories,
    // stop 76; 14.8 KB at stop 75, before the chain's functions were transparent in debug
    // builds), so 512 KiB less the guard's quarter holds about 29. Under a sanitizer the guard keeps half the stack
    // in reserve and frames are larger (AddressSanitizer with internal checks about 17 KB a
    // level): 256 KiB no longer holds 20 levels under ThreadSanitizer either, so both get
    // 2 MiB (room for about 60).
    let shallow = try ContainerBuilder(Chain(depth: 20)).buildOrRecord()
    let sanitized = BuildFacts.addressSanitizer || BuildFacts.threadSanitizer
    let shallowStack = sanitized ? 2 << 20 : 512 << 10
    let value = await Stress.onThread(stackSize: shallowStack) {
      try? shallow.resolve(Int.self, tag: 0)
    }
    #expect(value == 20)
  }

  @Test("A 10,000-deep chain resolves on a thread with a large stack")
  func tenThousandDeep() async throws {
    // ThreadSanitizer's shadow call stack overflows a few thousand levels down, whatever the
    // thread's stack (see BuildFacts), and resolutions stop at 1,500 levels: the chain is 1,000.
    let depth = BuildFacts.threadSanitizer ? 1_000 : 10_000
    var builder = ContainerBuilder(Chain(depth: depth))
    builder.maximumResolutionDepth = 20_000
    let container = try builder.buildOrRecord()
    // AddressSanitizer makes debug frames several times larger and the guard keeps half the
    // stack in reserve: 256 MiB held 9,938 levels there once `resolve` became one
    // parameter-pack form (issue 57), so that run gets 384 MiB.
    let stack = BuildFacts.addressSanitizer ? 384 << 20 : 256 << 20
    let value = await Stress.onThread(stackSize: stack) {
      try? container.resolve(Int.self, tag: 0)
    }
    #expect(value == depth)
  }
}

/// Int tagged n depends on Int tagged n + 1, down to `depth`.
struct Chain: Assembly {
  let depth: Int
  func register(in registrar: inout Registrar) {
    for level in 0..<depth {
      registrar.bind(Int.self, tag: level) { resolver in
        try resolver.resolve(Int.self, tag: level + 1, matching: .exact) + 1
      }
    }
    registrar.bind(Int.self, tag: depth, instance: 0)
  }
}

final class ContainerBox: @unchecked Sendable {
  // Set once before any resolve; only tests use it.
  var container: Container?

  /// The container; a factory still running after its test ended (and emptied the box, to
  /// break the cycle through its captures) throws instead of crashing the test process.
  func unwrapped() throws -> Container {
    guard let container else { throw CancellationError() }
    return container
  }
}
