/// The edges factories take while a verification runs.
@usableFromInline
final class EdgeRecorder: Sendable {
  struct Pair: Hashable {
    let from: BindingKey
    let to: BindingKey
  }

  private let recorded = Protected<Set<Pair>>([])

  @usableFromInline
  func record(from context: borrowing ResolutionContext, to: AnyBinding) {
    guard let from = context.requester else { return }
    recorded.withLock { _ = $0.insert(Pair(from: from.key, to: to.key)) }
  }

  var edges: [Pair] { recorded.withLock { Array($0) } }
}
