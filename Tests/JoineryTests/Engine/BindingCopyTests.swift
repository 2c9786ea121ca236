import JoineryEngine
import Testing

@testable import Joinery

/// A binding's copy — a throwaway container's binding for `verify()` — shares its declaration's
/// extras instead of copying them; a write to either side copies first.
@Suite("Binding copies")
struct BindingCopyTests {
  final class Audit: Sendable {}

  static func binding() -> AnyBinding {
    let binding = AnyBinding(
      key: BindingKey(Audit.self, boxed: nil), lifetime: .scoped,
      location: BindingLocation(file: "Feature/Audit.swift", line: 7), registerType: Void.self,
      isOverride: false, layout: _ValueLayout(of: Audit.self),
      maker: { _, _, out in out.initialize(to: Audit()) })
    binding.metadata = "audit"
    binding.isMainActor = true
    return binding
  }

  @Test("A copy keeps the declaration: metadata, flags, dependencies; none of the instance")
  func copyKeepsDeclaration() {
    let original = Self.binding()
    original.dependencies = []
    original.allocateStorage()
    original.storage.initialize(to: Audit())
    original.publishReady()
    // verify()'s throwaway container is checked and graphed like the real one.
    let copy = original.fresh()
    #expect(copy !== original)
    #expect(copy.metadata as? String == "audit")
    #expect(copy.isMainActor)
    #expect(copy.info.location == original.info.location)
    #expect(copy.dependencies?.isEmpty == true)
    #expect(!copy.isReady)
  }

  @Test("Writing a copy's declaration leaves the original's alone, and the other way round")
  func writesDoNotLeak() {
    let original = Self.binding()
    let copy = original.fresh()
    copy.metadata = "changed"
    copy.isScopeValue = true
    #expect(original.metadata as? String == "audit")
    #expect(!original.isScopeValue)
    original.isMainActor = false
    #expect(copy.isMainActor)
    #expect(copy.metadata as? String == "changed")
    // A binding with no extras gets its own on first write.
    let bare = AnyBinding(
      key: BindingKey(Audit.self, boxed: nil), lifetime: .ephemeral,
      location: BindingLocation(file: "Feature/Audit.swift", line: 9), registerType: Void.self,
      isOverride: false, layout: _ValueLayout(of: Audit.self),
      maker: { _, _, out in out.initialize(to: Audit()) })
    let bareCopy = bare.fresh()
    bareCopy.metadata = 1
    #expect(bare.metadata == nil)
    #expect(bareCopy.metadata as? Int == 1)
  }
}
