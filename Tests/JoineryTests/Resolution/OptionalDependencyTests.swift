import Joinery
import Testing

private protocol Analytics: Sendable {}
private final class ConsoleAnalytics: Analytics {}

private final class Checkout: Sendable {
  let analytics: (any Analytics)?
  init(analytics: (any Analytics)?) { self.analytics = analytics }
}

private final class Broken: Analytics {
  init(missing: ServiceC) {}
}

/// `T?` resolves as "this if bound": what migrating users' optional initializer parameters need.
@Suite("Optional dependencies")
struct OptionalDependencyTests {
  @Test("An autowired optional parameter gets the bound instance")
  func boundOptional() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Analytics).self, lifetime: .persistent) { _ in ConsoleAnalytics() }
        registrar.bind(Checkout.self, to: Checkout.init(analytics:))
      }
    ).build()
    let checkout = try container.resolve(Checkout.self)
    #expect(checkout.analytics is ConsoleAnalytics)
    #expect(
      (checkout.analytics as? ConsoleAnalytics)
        === (try container.resolve((any Analytics).self) as? ConsoleAnalytics))
  }

  @Test("Repeated answers stay right: nil while unbound, a Provider after misses, a child's own")
  func answersRememberedPerType() throws {
    let parent = try ContainerBuilder(
      Bindings { registrar in registrar.bind(Checkout.self, to: Checkout.init(analytics:)) }
    ).build()
    // A container remembers what it learned about a type (not a Provider or Lazy; how to
    // resolve a `T?`); asking again, from it or a child, must give the same answers.
    for _ in 0..<3 {
      #expect(try parent.resolve(Checkout.self).analytics == nil)
      #expect(try parent.resolve((any Analytics)?.self) == nil)
      #expect(throws: ResolutionError.self) { try parent.resolve((any Analytics).self) }
      #expect(try parent.resolve(Provider<Checkout>.self).get().analytics == nil)
      #expect(try parent.resolve(Provider<Checkout>?.self) != nil)
      #expect(try parent.resolve(Provider<any Analytics>?.self) == nil)
    }
    let child = try parent.makeChild(
      Bindings { registrar in
        registrar.bind((any Analytics).self, lifetime: .persistent) { _ in ConsoleAnalytics() }
      })
    for _ in 0..<3 {
      #expect(try child.resolve((any Analytics)?.self) is ConsoleAnalytics)
      #expect(try child.resolve(Provider<any Analytics>?.self) != nil)
      #expect(try child.resolve(Provider<any Analytics>.self).get() is ConsoleAnalytics)
      #expect(try parent.resolve((any Analytics)?.self) == nil)
      #expect(try parent.resolve(Provider<any Analytics>?.self) == nil)
    }
  }

  @Test("Unbound, the parameter is nil and build() does not report it missing")
  func unboundOptional() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Checkout.self, to: Checkout.init(analytics:))
      }
    ).build()
    #expect(try container.resolve(Checkout.self).analytics == nil)
    #expect(try container.resolve((any Analytics)?.self) == nil)
  }

  @Test("A bound dependency whose factory fails still throws; it is not turned into nil")
  func failureStillThrows() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Analytics).self) { resolver in
          try Broken(missing: resolver.resolve())
        }
        registrar.bind(Checkout.self, to: Checkout.init(analytics:))
      }
    ).build()
    let error = #expect(throws: ResolutionError.self) { try container.resolve(Checkout.self) }
    #expect(error?.code == .missingBinding)
    #expect(error?.path.map { "\($0.requested.type)" }.first == "Checkout")
  }

  @Test("A tagged optional falls back to the untagged binding, or is nil")
  func taggedOptional() throws {
    let bound = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind((any Analytics).self, lifetime: .persistent) { _ in ConsoleAnalytics() }
      }
    ).build()
    #expect(try bound.resolve((any Analytics)?.self, tag: "audit") != nil)
    #expect(try bound.resolve((any Analytics)?.self, tag: "audit", matching: .exact) == nil)
  }

  @Test("An optional dependency that is bound takes part in cycle checks at build")
  func optionalCycle() throws {
    final class Ping: Sendable {
      init(pong: Pong?) {}
    }
    final class Pong: Sendable {
      init(ping: Ping) {}
    }
    let error = #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(Ping.self, to: Ping.init(pong:))
          registrar.bind(Pong.self, to: Pong.init(ping:))
        }
      ).build()
    }
    #expect(error?.diagnostics.map(\.code) == [.dependencyCycle])
  }
}
