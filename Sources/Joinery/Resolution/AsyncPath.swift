/// The chain of asynchronous requests, for error paths and cycle detection.
///
/// Unlike synchronous frames it lives on the heap, because it must survive suspensions.
@usableFromInline
final class AsyncPath: Sendable {
  let binding: AnyBinding
  let parent: AsyncPath?
  let depth: Int
  /// The `graph` instances of the top-level `resolveAsync` this path belongs to.
  let scope: AsyncGraphScope
  /// The ``Scope`` the top-level request was made in, where `scoped` bindings have their
  /// instances; `nil` outside any scope.
  let requestScope: Scope?

  /// A node for `binding` below `parent`; a top-level node (no parent) starts a new graph, in
  /// `requestScope` when the request was made in one.
  init(binding: AnyBinding, parent: AsyncPath?, requestScope: Scope? = nil) {
    self.binding = binding
    self.parent = parent
    depth = (parent?.depth ?? 0) + 1
    scope = parent?.scope ?? AsyncGraphScope()
    self.requestScope = parent?.requestScope ?? requestScope
  }

  var steps: [ResolutionStep] {
    var steps: [ResolutionStep] = []
    var current: AsyncPath? = self
    while let node = current {
      steps.append(ResolutionStep(requested: node.binding.key, binding: node.binding.info))
      current = node.parent
    }
    return steps.reversed()
  }

  /// The bindings on the path, innermost first.
  var bindings: [AnyBinding] {
    var found: [AnyBinding] = []
    var current: AsyncPath? = self
    while let node = current {
      found.append(node.binding)
      current = node.parent
    }
    return found
  }

  func contains(_ binding: AnyBinding) -> Bool {
    var current: AsyncPath? = self
    while let node = current {
      if node.binding === binding { return true }
      current = node.parent
    }
    return false
  }
}
