import Joinery
import Testing

// An autowired initializer's parameters are resolved by one loop into a tuple laid out for
// them (the engine's `_Parameters`): each kind of parameter lands in its place, whatever its
// size and alignment, and a failure part-way releases what was already made.

private protocol ParameterClock: Sendable { var now: Int { get } }
private struct FixedParameterClock: ParameterClock {
  let now: Int
  let padding: (Int, Int, Int) = (0, 0, 0)  // larger than an existential's inline buffer
}

private final class LiveCount: @unchecked Sendable {
  var value = 0
}

private final class MadeFirst: Sendable {
  let counter: LiveCount
  init(counter: LiveCount) {
    self.counter = counter
    counter.value += 1
  }
  deinit { counter.value -= 1 }
}

private struct ParameterBroken: Error {}
private final class FailingPart: Sendable {}

private final class NeedsTwoParts: Sendable {
  init(tracked: MadeFirst, failing: FailingPart) {}
}

private struct MixedParameters: Sendable {
  let flag: Bool
  let count: Int
  let small: UInt8
  let name: String
  let clock: any ParameterClock
  let missing: FailingPart?
  let present: LiveCount?
  let later: Provider<MadeFirst>
}

private struct TaggedParameters: Sendable {
  let primary: String
  let fallback: Int
}

@Suite("Autowired parameters")
struct AutowiredParameterTests {
  @Test("Parameters of every size and alignment land in their places")
  func mixedLayout() throws {
    let counter = LiveCount()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Bool.self, instance: true)
        registrar.bind(Int.self, instance: 42)
        registrar.bind(UInt8.self, instance: 7)
        registrar.bind(String.self, instance: "feed")
        registrar.bind((any ParameterClock).self, instance: FixedParameterClock(now: 1_700))
        registrar.bind(LiveCount.self, instance: counter)
        registrar.bind(MadeFirst.self, to: MadeFirst.init(counter:))
        registrar.bind(
          MixedParameters.self,
          to: MixedParameters.init(
            flag:count:small:name:clock:missing:present:later:))
      }
    ).build()

    let mixed = try container.resolve(MixedParameters.self)
    #expect(mixed.flag)
    #expect(mixed.count == 42)
    #expect(mixed.small == 7)
    #expect(mixed.name == "feed")
    #expect(mixed.clock.now == 1_700)
    #expect(mixed.missing == nil)
    #expect(mixed.present === counter)
    #expect(try mixed.later.get().counter === counter)
  }

  @Test("A tagged parameter falls back to the untagged binding")
  func taggedParameters() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(String.self, tag: "primary", instance: "tagged")
        registrar.bind(String.self, instance: "untagged")
        registrar.bind(Int.self, instance: 3)
        registrar.bind(
          TaggedParameters.self, to: TaggedParameters.init(primary:fallback:),
          dependencies: .tagged("primary"), .tagged("absent"))
      }
    ).build()

    let tagged = try container.resolve(TaggedParameters.self)
    #expect(tagged.primary == "tagged")
    #expect(tagged.fallback == 3)
  }

  @Test("An exact tagged parameter with no binding of that tag fails the build")
  func exactTaggedParameter() {
    #expect(throws: BuildError.self) {
      try ContainerBuilder(
        Bindings { registrar in
          registrar.bind(String.self, tag: "primary", instance: "tagged")
          registrar.bind(Int.self, instance: 3)
          registrar.bind(
            TaggedParameters.self, to: TaggedParameters.init(primary:fallback:),
            dependencies: .tagged("primary"), .tagged("absent", matching: .exact))
        }
      ).build()
    }
  }

  @Test("A child container's autowired binding gets its parent's bindings")
  func parentBindings() throws {
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(LiveCount.self, lifetime: .persistent) { _ in LiveCount() }
      }
    ).build()
    let child = try parent.makeChild([
      Bindings { registrar in registrar.bind(MadeFirst.self, to: MadeFirst.init(counter:)) }
    ])

    let tracked = try child.resolve(MadeFirst.self)
    #expect(tracked.counter === (try parent.resolve(LiveCount.self)))
  }

  @Test("A parent's parameter that fails reaches the caller as the error it is, with its path")
  func parentParameterFails() throws {
    // A parameter the child does not bind is resolved as any other request (the generic path),
    // here in the parent, whose factory throws.
    let counter = LiveCount()
    let parent = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(FailingPart.self) { _ in throw ParameterBroken() }
      }
    ).build()
    let child = try parent.makeChild([
      Bindings { registrar in
        registrar.bind(LiveCount.self, instance: counter)
        registrar.bind(MadeFirst.self, to: MadeFirst.init(counter:))
        registrar.bind(NeedsTwoParts.self, to: NeedsTwoParts.init(tracked:failing:))
      }
    ])

    let error = try #require(throws: ResolutionError.self) {
      try child.resolve(NeedsTwoParts.self)
    }
    #expect(error.code == .factoryFailed)
    #expect(error.underlyingError is ParameterBroken)
    #expect(
      error.path.map { ObjectIdentifier($0.requested.type) }
        == [ObjectIdentifier(NeedsTwoParts.self), ObjectIdentifier(FailingPart.self)])
    // The `MadeFirst` made for the first parameter was released, not leaked.
    #expect(counter.value == 0)
  }

  @Test("A parameter that fails releases the ones made before it")
  func failureReleasesEarlierParameters() throws {
    let counter = LiveCount()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(LiveCount.self, instance: counter)
        registrar.bind(MadeFirst.self, to: MadeFirst.init(counter:))
        registrar.bind(FailingPart.self) { _ in throw ParameterBroken() }
        registrar.bind(NeedsTwoParts.self, to: NeedsTwoParts.init(tracked:failing:))
      }
    ).build()

    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(NeedsTwoParts.self)
    }
    #expect(error.code == .factoryFailed)
    #expect(String(describing: error).contains("FailingPart"))
    // The `MadeFirst` made for the first parameter was released, not leaked.
    #expect(counter.value == 0)
  }
}
