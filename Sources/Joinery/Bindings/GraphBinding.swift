/// One instance per top-level resolve, shared by everything built during it.
// Immutable: instances live in the resolving thread's root frame, not here.
final class GraphBinding: FactoryBinding, @unchecked Sendable {

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    let parent = parent.joined()
    if parent.copyGraphInstance(of: self, into: out) { return }
    try parent.enter(self, fallbackTag: fallbackTag, in: container, graphSlots: true) {
      frame throws(ResolutionError) in
      try frame.make(maker, into: out, for: self, in: container)
      frame.storeGraphInstance(copyOf: out, for: self)
    }
  }
}
