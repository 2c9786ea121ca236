public import JoineryEngine

/// What a factory uses to resolve its own dependencies.
///
/// A resolver is lent to a factory for the duration of the call: it cannot be copied or kept,
/// which is what lets Joinery track each resolution chain (for cycle detection and error paths)
/// without allocating. To resolve later, keep the ``Container`` instead, weakly if the instance
/// lives inside it.
///
/// ```swift
/// registrar.bind(FeedService.self, lifetime: .persistent) { resolver in
///   FeedService(
///     client: try resolver.resolve(),
///     cache: try resolver.resolve(Cache.self, tag: "disk"))
/// }
/// ```
///
/// > Important: Resolve dependencies through the resolver, not through a container captured in
/// > the factory: only the resolver carries the chain, so only it can name the path in an error
/// > and detect a cycle before it recurses.
public struct Resolver: ~Copyable {
  /// The frame of the factory this resolver is lent to: its chain, and the container that
  /// runs the factory (not retained: it outlives every factory call it lends a resolver to).
  ///
  /// One word, written once per factory call; the container is read from the frame only by a
  /// request, through `withContainer`, so that a resolve does not touch the container's
  /// reference count, which threads resolving at once would otherwise contend for.
  @usableFromInline let frame: _FrameReference

  @inlinable
  init(frame: consuming _FrameReference) { self.frame = frame }
}

// Its resolve forms are ``Resolving``'s, shared with the container and scopes.

extension Resolver {
  /// The chain of the factory this resolver is lent to.
  @inlinable
  var context: ResolutionContext { frame.context }

  /// A parameter of an assisted initializer: the next runtime argument while there is one,
  /// then a resolved dependency.
  func parameter<P>(
    _: P.Type, from arguments: inout _ArgumentCursor
  ) throws(ResolutionError) -> P {
    if let argument = arguments.next(P.self) { return argument }
    return try resolve(P.self)
  }

  /// The container that lent this resolver, without retaining it.
  @inlinable @inline(__always)
  func withContainer<R>(
    _ body: (Container) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    try frame.container.with(body)
  }

  /// Calls `body` with the container that lent this resolver and the chain a request through
  /// it is made in.
  @inlinable @inline(__always)
  func withContext<R>(
    _ body: (Container, borrowing ResolutionContext) throws(ResolutionError) -> R
  ) throws(ResolutionError) -> R {
    try frame.container.with { container throws(ResolutionError) -> R in
      try body(container, context)
    }
  }
}

@available(*, unavailable, message: "A Resolver is lent to one factory call on one thread.")
extension Resolver: Sendable {}
