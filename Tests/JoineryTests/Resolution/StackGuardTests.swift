import Foundation
import Joinery
import Testing

/// Runaway recursion ends in a thrown error on every stack: the main thread's, small and large
/// spawned threads'; and nested top-level resolves join the chain that is running.
@Suite("Stack guard and re-entrant resolves")
struct StackGuardTests {
  /// A chain far deeper than any stack holds, with the depth limit out of the way.
  static let runaway: Container? = {
    var builder = ContainerBuilder(Chain(depth: 100_000))
    builder.maximumResolutionDepth = 1_000_000
    return try? builder.build()
  }()

  static func outcome(_ container: Container) -> ResolutionError? {
    do throws(ResolutionError) {
      _ = try container.resolve(Int.self, tag: 0)
      return nil
    } catch {
      return error
    }
  }

  // Not under ThreadSanitizer: starting a child process (fork) while other tests' threads run
  // deadlocks TSan's own runtime locks. The other builds run it.
  @Test(
    "A 100,000-deep chain on the main thread stops with a thrown error",
    .disabled(if: BuildFacts.threadSanitizer, "fork under ThreadSanitizer deadlocks its runtime"))
  func mainThread() async throws {
    // The test runner does not run tests on the main thread: a child process does it.
    let run = try Probe.run("deep-chain-main-thread")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("on the main thread: true"))
    #expect(run.output.contains("depthLimitExceeded"))
    #expect(run.output.contains("stack is nearly exhausted"))
  }

  @Test(
    "A 100,000-deep chain stops with a thrown error on threads of 128 KiB to 8 MiB",
    arguments: [128 << 10, 160 << 10, 512 << 10, 8 << 20])
  func spawnedThread(stackSize: Int) async throws {
    let container = try #require(Self.runaway)
    let error = await Stress.onThread(stackSize: stackSize) { Self.outcome(container) }
    #expect(error??.code == .depthLimitExceeded)
  }

  // Unoptimized code takes several kilobytes of stack per level, so a debug build on 128 KiB
  // holds about a dozen levels; release builds hold many more. AddressSanitizer with the
  // internal checks takes about 15 KiB a level and keeps half the stack in reserve: 256 KiB
  // holds 8 levels there, 512 KiB 18, so sanitizer builds test the larger stack.
  @Test(
    "The guard scales with the stack: a 256 KiB thread (512 KiB under a sanitizer) resolves 9 levels"
  )
  func smallStackStillWorks() async throws {
    let container = try ContainerBuilder(Chain(depth: 8)).build()
    let sanitized = BuildFacts.addressSanitizer || BuildFacts.threadSanitizer
    let value = await Stress.onThread(stackSize: sanitized ? 512 << 10 : 256 << 10) {
      () -> String in
      do throws(ResolutionError) {
        return "\(try container.resolve(Int.self, tag: 0))"
      } catch {
        return error.debugDescription
      }
    }
    #expect(value == "8")
  }

  @Test(
    "An ephemeral factory resolving itself through the captured container is a cycle",
    arguments: [Lifetime.ephemeral, .graph, .persistent, .cached, .transient])
  func reentrantThroughCapturedContainer(lifetime: Lifetime) async throws {
    let box = ContainerBox()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Node.self, lifetime: .init(lifetime)) { _ in
          Node(next: try box.container?.resolve(Node.self))
        }
      }
    ).build()
    box.container = container
    defer { box.container = nil }
    let error = await Stress.onThread { () -> ResolutionError? in
      do throws(ResolutionError) {
        _ = try container.resolve(Node.self)
        return nil
      } catch {
        return error
      }
    }
    #expect(error??.code == .cycle)
    #expect(error??.cycle.map { "\($0.type)" } == ["Node", "Node"])
  }

  @Test("A nested resolve through the captured container shows the whole path when it fails")
  func nestedPathIsWhole() throws {
    let box = ContainerBox()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Node.self) { _ in
          Node(next: nil, tag: try box.container?.resolve(String.self))
        }
      }
    ).build()
    box.container = container
    defer { box.container = nil }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Node.self) }
    #expect(error.code == .missingBinding)
    #expect(error.path.map { "\($0.requested.type)" } == ["Node", "String"])
  }

  @Test("A deep cycle entered below the full-check depth is still reported as a cycle")
  func deepCycle() throws {
    var builder = ContainerBuilder(
      Bindings { registrar in
        for level in 0..<100 {
          registrar.bind(Int.self, tag: level) { resolver in
            try resolver.resolve(Int.self, tag: level + 1, matching: .exact) + 1
          }
        }
        // 100 → 90: a cycle of 11 bindings entered at depth 91.
        registrar.bind(Int.self, tag: 100) { resolver in
          try resolver.resolve(Int.self, tag: 90, matching: .exact)
        }
      })
    builder.maximumResolutionDepth = 100_000
    let container = try builder.build()
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(Int.self, tag: 0)
    }
    #expect(error.code == .cycle)
  }
}

private final class Node: Sendable {
  let next: Node?
  init(next: Node?, tag: String? = nil) { self.next = next }
}

/// Factories with large stack frames (32 KiB of locals each) still stop with a thrown error:
/// the guard runs at every level, with a reserve that scales with the stack.
@Suite("Stack guard with large frames")
struct LargeFrameTests {
  typealias B1 = (Int, Int, Int, Int, Int, Int, Int, Int)
  typealias B2 = (B1, B1, B1, B1, B1, B1, B1, B1)
  typealias B3 = (B2, B2, B2, B2, B2, B2, B2, B2)
  typealias B4 = (B3, B3, B3, B3, B3, B3, B3, B3)

  /// Keeps 32 KiB of locals alive across the nested resolve.
  @inline(never)
  static func heavy(_ resolver: borrowing Resolver, _ level: Int) throws -> Int {
    let b1: B1 = (level, 0, 0, 0, 0, 0, 0, 0)
    let b2: B2 = (b1, b1, b1, b1, b1, b1, b1, b1)
    let b3: B3 = (b2, b2, b2, b2, b2, b2, b2, b2)
    var locals: B4 = (b3, b3, b3, b3, b3, b3, b3, b3)
    locals.7.7.7.7 = level
    let next = try resolver.resolve(Int.self, tag: level + 1, matching: .exact)
    return next + locals.0.0.0.0 + locals.7.7.7.7 - 2 * level + 1
  }

  @Test("A deep chain of 32 KiB frames stops with a thrown error", arguments: [512 << 10, 8 << 20])
  func largeFrames(stackSize: Int) async throws {
    var builder = ContainerBuilder(
      Bindings { registrar in
        for level in 0..<10_000 {
          registrar.bind(Int.self, tag: level) { resolver in try Self.heavy(resolver, level) }
        }
        registrar.bind(Int.self, tag: 10_000, instance: 0)
      })
    builder.maximumResolutionDepth = 100_000
    let container = try builder.build()
    let code = await Stress.onThread(stackSize: stackSize) { () -> ResolutionError.Code? in
      do throws(ResolutionError) {
        _ = try container.resolve(Int.self, tag: 0)
        return nil
      } catch {
        return error.code
      }
    }
    #expect(code == .depthLimitExceeded)
  }
}
