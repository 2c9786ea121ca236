/// The edges factories take while a verification runs.
@usableFromInline
final class EdgeRecorder: Sendable {
  struct Pair: Hashable {
    let from: BindingKey
    let to: BindingKey
    /// The assemblies the two bindings are private to, if they are: which nodes they are.
    let fromPrivateTo: ObjectIdentifier?
    let toPrivateTo: ObjectIdentifier?

    init(from: AnyBinding, to: AnyBinding) {
      self.from = from.key
      self.to = to.key
      fromPrivateTo = from.privateTo
      toPrivateTo = to.privateTo
    }
  }

  private let recorded = Protected<Set<Pair>>([])

  /// Records that the factory running `context`'s innermost frame requested `to`; at the top of
  /// a synchronous chain an async factory started, that factory.
  ///
  /// A request made outside any chain records nothing, which callers that know they make one
  /// (a top-level resolve) see when this is inlined: they pay nothing for it.
  @usableFromInline
  func record(from context: borrowing ResolutionContext, to: AnyBinding) {
    guard context.isNested else { return }
    guard let from = context.requester else { return record(from: nil as AsyncPath?, to: to) }
    recorded.withLock { _ = $0.insert(Pair(from: from, to: to)) }
  }

  /// Records that the async factory running at `path` (or in this task) requested `to`.
  func record(from path: AsyncPath?, to: AnyBinding) {
    guard let path = AsyncPath.joining(path), path.depth > 0 else { return }
    recorded.withLock { _ = $0.insert(Pair(from: path.binding, to: to)) }
  }

  var edges: [Pair] { recorded.withLock { Array($0) } }
}
