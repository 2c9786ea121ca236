/// A new instance on every resolve; the container keeps nothing.
// Immutable: only a @Sendable maker.
final class EphemeralBinding: FactoryBinding, @unchecked Sendable {

  override func resolve(
    into out: _InstanceSlot, in container: Container, parent: borrowing ResolutionContext,
    fallbackTag: RequestedTag?
  ) throws(ResolutionError) {
    try make(maker, into: out, in: container, parent: parent, fallbackTag: fallbackTag)
  }
}
