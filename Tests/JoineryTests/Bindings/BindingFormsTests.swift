import Joinery
import Testing

private final class Download: Sendable {
  let url: String
  let retries: Int
  let verbose: Bool
  let client: ServiceC
  init(url: String, retries: Int, verbose: Bool, client: ServiceC) {
    self.url = url
    self.retries = retries
    self.verbose = verbose
    self.client = client
  }
}

/// Binds `type` from generic code: the parameter-pack form, not specialized for `P`.
private func bindThroughPack<T, each P>(
  _ registrar: inout Registrar, _ type: T.Type, lifetime: Lifetime.For<T> = .default,
  _ initializer: @escaping @Sendable (repeat each P) -> T
) {
  registrar.bind(type, lifetime: lifetime, to: initializer)
}

@Suite("Binding forms")
struct BindingFormsTests {
  @Test("A factory receives a resolver for its own dependencies")
  func factoryWithResolver() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(tracker) }
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
        registrar.bind(ServiceA.self) { resolver in
          ServiceA(b: try resolver.resolve(), c: try resolver.resolve(ServiceC.self))
        }
      }
    ).buildOrRecord()
    let a = try container.resolve(ServiceA.self)
    #expect(a.b.c === a.c)
    #expect(tracker.madeCount == 1)
  }

  @Test("An instance given lazily is created on first resolve, at most once")
  func lazyInstance() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in registrar.bind(Tracked.self, instance: Tracked(tracker)) }
    ).buildOrRecord()
    #expect(tracker.madeCount == 0)
    let first = try container.resolve(Tracked.self)
    let second = try container.resolve(Tracked.self)
    #expect(first === second)
    #expect(tracker.madeCount == 1)
  }

  @Test("One implementation bound to several interfaces shares one instance")
  func forwarding() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceImpl.self, lifetime: .persistent) { _ in ServiceImpl(tracker) }
        registrar.bind((any Service).self, forwardingTo: ServiceImpl.self)
        registrar.bind((any Greeting).self, tag: "greeting", forwardingTo: ServiceImpl.self)
      }
    ).buildOrRecord()
    let concrete = try container.resolve(ServiceImpl.self)
    let service = try container.resolve((any Service).self)
    let greeting = try container.resolve((any Greeting).self, tag: "greeting")
    #expect(service === concrete)
    #expect((greeting as? ServiceImpl) === concrete)
    #expect(tracker.madeCount == 1)
    let info = try #require(container.bindings.first { $0.key == BindingKey((any Service).self) })
    #expect(info.lifetime == .persistent)
    #expect(info.forwardedTo == BindingKey(ServiceImpl.self))
  }

  @Test("verify() converts in its own copy of a forward: the container's keeps its target")
  func forwardingAfterVerify() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceImpl.self, lifetime: .persistent) { _ in ServiceImpl(tracker) }
        registrar.bind((any Service).self, forwardingTo: ServiceImpl.self)
      }
    ).buildOrRecord()
    let report = try container.verify()
    #expect(report.verified.count == 2)
    // The throwaway container made its own instance, through its own forward.
    #expect(tracker.madeCount == 1)
    let service = try container.resolve((any Service).self)
    #expect(service === (try container.resolve(ServiceImpl.self)))
    #expect(tracker.madeCount == 2)
    #expect(try container.resolve((any Service).self) === service)
  }

  @Test("Forwarding follows the target's lifetime")
  func forwardingEphemeral() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceImpl.self) { _ in ServiceImpl(tracker) }
        registrar.bind((any Service).self, forwardingTo: ServiceImpl.self)
      }
    ).buildOrRecord()
    let first = try container.resolve((any Service).self)
    let second = try container.resolve((any Service).self)
    #expect(first !== second)
  }

  @Test("Forwarding to a type that does not conform throws a clear error")
  func forwardingMismatch() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self) { _ in ServiceC(LifetimeTracker()) }
        registrar.bind((any Service).self, forwardingTo: ServiceC.self)
      }
    ).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve((any Service).self)
    }
    #expect(error.code == .forwardingTypeMismatch)
    #expect(error.description.contains("ServiceC"))
  }

  @Test("Forwarding to nothing, or to another forward, fails the build")
  func forwardingTargets() throws {
    let error = try #require(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(ServiceImpl.self) { _ in ServiceImpl(LifetimeTracker()) }
          registrar.bind((any Service).self, forwardingTo: ServiceImpl.self)
          registrar.bind((any Greeting).self, forwardingTo: (any Service).self)
          registrar.bind(ServiceA.self, forwardingTo: ServiceB.self)
        }
      ).build()
    }
    #expect(error.diagnostics.map(\.code) == [.invalidForwardingTarget, .invalidForwardingTarget])
  }

  @Test("Runtime arguments of any arity are passed to the factory")
  func runtimeArguments() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bind(Download.self) { (resolver, url: String) in
          Download(url: url, retries: 0, verbose: false, client: try resolver.resolve())
        }
        registrar.bind(Download.self) { (resolver, url: String, retries: Int, verbose: Bool) in
          Download(url: url, retries: retries, verbose: verbose, client: try resolver.resolve())
        }
        registrar.bind(Download.self, tag: "fast") { (resolver, url: String) in
          Download(url: url, retries: 9, verbose: true, client: try resolver.resolve())
        }
      }
    ).buildOrRecord()
    let one = try container.resolve(Download.self, arguments: "https://a")
    let three = try container.resolve(Download.self, arguments: "https://b", 3, true)
    let tagged = try container.resolve(Download.self, tag: "fast", arguments: "https://c")
    let fallback = try container.resolve(Download.self, tag: "slow", arguments: "https://d")
    #expect((one.url, one.retries, one.verbose) == ("https://a", 0, false))
    #expect((three.url, three.retries, three.verbose) == ("https://b", 3, true))
    #expect(tagged.retries == 9)
    #expect(fallback.url == "https://d" && fallback.retries == 0)
    #expect(one !== (try container.resolve(Download.self, arguments: "https://a")))
    #expect(one.client === three.client)
  }

  @Test("Arguments resolve the same through generic code as through a direct call, any arity")
  func argumentsThroughGenericCode() throws {
    // Direct calls of one to three arguments take specialized overloads; generic code (and five
    // arguments) takes the parameter-pack path. Each must find the other's bindings.
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(String.self) { (_, a: Int) in "one \(a)" }
        registrar.bind(String.self) { (_, a: Int, b: Int) in "two \(a + b)" }
        registrar.bind(String.self) { (_, a: Int, b: Int, c: Int, d: Int, e: Int) in
          "five \(a + b + c + d + e)"
        }
        registrar.bind(Int.self, tag: "sum") { (resolver, a: Int, b: Int) in
          // From inside a factory, through the resolver.
          a + b + (try resolver.resolve(String.self, arguments: 1)).count
        }
      }
    ).buildOrRecord()
    func viaPack<each A>(_ arguments: repeat each A) throws -> String {
      try container.resolve(String.self, arguments: repeat each arguments)
    }
    #expect(try container.resolve(String.self, arguments: 1) == "one 1")
    #expect(try viaPack(1) == "one 1")
    #expect(try container.resolve(String.self, arguments: 1, 2) == "two 3")
    #expect(try viaPack(1, 2) == "two 3")
    #expect(try container.resolve(String.self, arguments: 1, 2, 3, 4, 5) == "five 15")
    #expect(try viaPack(1, 2, 3, 4, 5) == "five 15")
    #expect(try container.resolve(Int.self, tag: "sum", arguments: 1, 2) == 3 + 5)
    let mismatch = try #require(throws: ResolutionError.self) { try viaPack("x") }
    #expect(mismatch.code == .argumentMismatch)
  }

  @Test("An initializer bound from generic code gets every kind of parameter right")
  func packInitializerParameterKinds() throws {
    // Bound through a generic helper, the initializer's parameters are resolved by code that
    // is not specialized: whether each is one class reference is read from its binding, and
    // the instance is moved out of the engine's buffer as that type.
    struct Wide: Sendable, Equatable {  // larger than the engine's inline buffer
      var words = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
      static func == (lhs: Wide, rhs: Wide) -> Bool { lhs.words.11 == rhs.words.11 }
    }
    struct Parts {
      let object: ServiceC
      let name: String
      let greeting: any Greeting
      let service: any Service
      let anyObject: AnyObject
      let wide: Wide
      let number: Int
    }
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        bindThroughPack(&registrar, ServiceC.self, lifetime: .persistent) { ServiceC(tracker) }
        bindThroughPack(&registrar, String.self) { "name" }
        bindThroughPack(&registrar, (any Greeting).self) { ValueGreeting(text: "hi") }
        bindThroughPack(&registrar, (any Service).self, lifetime: .persistent) {
          ServiceImpl(tracker)
        }
        registrar.bind(AnyObject.self, forwardingTo: ServiceC.self)
        bindThroughPack(&registrar, Wide.self) { Wide() }
        bindThroughPack(&registrar, Int.self) { 42 }
        bindThroughPack(&registrar, Parts.self, Parts.init)
      }
    ).buildOrRecord()
    for _ in 0..<3 {
      let parts = try container.resolve(Parts.self)
      let shared = try container.resolve(ServiceC.self)
      #expect(parts.object === shared)
      #expect(ObjectIdentifier(parts.anyObject) == ObjectIdentifier(shared))
      #expect(parts.name == "name")
      #expect(parts.greeting.text == "hi")
      #expect(parts.service === (try container.resolve((any Service).self)))
      #expect(parts.wide == Wide())
      #expect(parts.number == 42)
    }
  }

  @Test("Wrong argument types give an error naming expected and given types")
  func wrongArgumentTypes() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(LifetimeTracker()) }
        registrar.bind(Download.self) { (resolver, url: String, retries: Int) in
          Download(url: url, retries: retries, verbose: false, client: try resolver.resolve())
        }
      }
    ).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(Download.self, arguments: 3, "https://a")
    }
    #expect(error.code == .argumentMismatch)
    #expect(
      error.description.hasPrefix(
        "Download takes (String, Int), but the resolve passed (Int, String)."))
    let none = try #require(throws: ResolutionError.self) { try container.resolve(Download.self) }
    #expect(none.code == .argumentMismatch)
    let optional = try #require(throws: ResolutionError.self) {
      try container.resolve(Download?.self)
    }
    #expect(optional.code == .argumentMismatch)
    #expect(none.description.hasPrefix("Download takes (String, Int), but the resolve passed ()."))
  }

  @Test("A factory that throws gives an error wrapping it, with the path")
  func throwingFactory() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self) { _ in throw TestFailure(message: "disk full") }
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
      }
    ).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) { try container.resolve(ServiceB.self) }
    #expect(error.code == .factoryFailed)
    #expect(error.underlyingError as? TestFailure == TestFailure(message: "disk full"))
    #expect(error.path.map { "\($0.requested.type)" } == ["ServiceB", "ServiceC"])
    #expect(error.binding?.key == BindingKey(ServiceC.self))
  }
}
