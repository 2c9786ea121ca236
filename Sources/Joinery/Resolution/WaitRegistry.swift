/// Which thread waits for which binding, so that a wait that closes a ring is refused.
///
/// Touched only when a thread finds a gate taken, never on the fast path.
final class WaitRegistry: Sendable {
  private let waits = Protected<[UInt: AnyBinding]>([:])

  func beginWaiting(
    thread: UInt, for binding: AnyBinding, fallbackTag: RequestedTag?,
    parent: borrowing ResolutionContext,
    in container: Container
  ) throws(ResolutionError) {
    let ring: [BindingKey]? = waits.withLock { waits in
      var chain = [binding.key]
      var target = binding
      for _ in 0...waits.count {
        let holder = target.creatingThread
        if holder == 0 { break }
        if holder == thread { return chain }
        guard let next = waits[holder] else { break }
        chain.append(next.key)
        target = next
      }
      waits[thread] = binding
      return nil
    }
    if let ring {
      throw .waitRing(
        binding, fallbackTag: fallbackTag, parent: parent, waitingChain: ring, in: container)
    }
  }

  func endWaiting(thread: UInt) {
    waits.withLock { _ = $0.removeValue(forKey: thread) }
  }
}
