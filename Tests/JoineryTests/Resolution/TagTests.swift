import Joinery
import Testing

private enum Channel: Hashable, Sendable { case audit, metrics }

@Suite("Tags and fallback")
struct TagTests {
  private func container(_ tracker: LifetimeTracker, tagged: Bool = true) throws -> Container {
    try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(Tracked.self, lifetime: .persistent) { _ in Tracked(tracker) }
        if tagged {
          registrar.bind(Tracked.self, tag: Channel.audit, lifetime: .persistent) { _ in
            Tracked(tracker)
          }
        }
      }
    ).buildOrRecord()
  }

  @Test("A tagged request with no tagged binding returns the untagged instance itself")
  func fallbackKeepsIdentity() throws {
    let tracker = LifetimeTracker()
    let container = try container(tracker, tagged: false)
    let untagged = try container.resolve(Tracked.self)
    let a = try container.resolve(Tracked.self, tag: "a")
    let b = try container.resolve(Tracked.self, tag: Channel.metrics)
    #expect(a === untagged && b === untagged)
    #expect(tracker.madeCount == 1)
  }

  @Test("Roots under two tags share one untagged persistent dependency")
  func rootsUnderTagsShare() throws {
    let tracker = LifetimeTracker()
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceC.self, lifetime: .persistent) { _ in ServiceC(tracker) }
        registrar.bind(ServiceB.self, tag: "a") { resolver in ServiceB(c: try resolver.resolve()) }
        registrar.bind(ServiceB.self, tag: "b") { resolver in
          ServiceB(c: try resolver.resolve(tag: "b"))
        }
      }
    ).buildOrRecord()
    let a = try container.resolve(ServiceB.self, tag: "a")
    let b = try container.resolve(ServiceB.self, tag: "b")
    #expect(a.c === b.c)
    #expect(tracker.madeCount == 1)
  }

  @Test("A tagged binding, when present, always wins")
  func taggedWins() throws {
    let tracker = LifetimeTracker()
    let container = try container(tracker)
    let untagged = try container.resolve(Tracked.self)
    let audit = try container.resolve(Tracked.self, tag: Channel.audit)
    #expect(audit !== untagged)
    #expect(try container.resolve(Tracked.self, tag: BindingTag(Channel.audit)) === audit)
  }

  @Test("Exact matching refuses the fallback and says so")
  func exactMatching() throws {
    let tracker = LifetimeTracker()
    let container = try container(tracker)
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(Tracked.self, tag: Channel.metrics, matching: .exact)
    }
    #expect(error.code == .missingBinding)
    #expect(error.debugDescription.contains("matching: .exact"))
    // Both near misses are the requested type under another tag (the untagged one and "audit").
    #expect(error.nearMisses.map(\.binding.key.tag) == [nil, BindingTag(Channel.audit)])
    #expect(error.nearMisses.allSatisfy { $0.binding.key.type == error.requested.type })
    #expect(try container.resolve(Tracked?.self, tag: "x", matching: .exact) == nil)
    let taggedOnly = try ContainerBuilder(
      Bindings { registrar in registrar.bind(Int.self, tag: "answer", instance: 42) }
    ).buildOrRecord()
    #expect(try taggedOnly.resolve(Int?.self) == nil)
  }

  @Test("A string and an enum case are different tags")
  func tagsCompareByTypeAndValue() {
    #expect(BindingTag("audit") != BindingTag(Channel.audit))
    #expect(BindingTag("audit") == "audit")
    #expect(BindingTag(BindingTag(Channel.audit)) == BindingTag(Channel.audit))
    #expect(BindingTag("audit").description == "\"audit\"")
    #expect(BindingTag(Channel.audit).description == ".audit")
  }

  @Test("An error for a fallback path shows the fallback it took")
  func fallbackInPath() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(ServiceB.self) { resolver in ServiceB(c: try resolver.resolve()) }
      }
    ).buildOrRecord()
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(ServiceB.self, tag: "x")
    }
    #expect(error.path.map(\.description) == ["ServiceB (tag \"x\" → untagged)", "ServiceC"])
  }
}
