/// The one resolution path that ``Container`` and ``Resolver`` share. `parent` is the frame of
/// the binding whose factory asks, or `nil` for a top-level request.
extension Container {
  @inline(__always)
  func resolve<T>(_ type: T.Type, parent: UnsafePointer<Frame>?) throws(ResolutionError) -> T {
    guard let binding = table.entry(for: ObjectIdentifier(T.self))?.untagged else {
      throw missing(BindingKey(T.self), triedFallback: false, parent: parent)
    }
    // Only `Binding<T>` subclasses are stored untagged under `T`.
    return try unsafeDowncast(binding, to: Binding<T>.self)
      .resolve(in: self, parent: parent, fallbackTag: nil)
  }

  @inline(__always)
  func resolve<T>(
    _ type: T.Type, tag: BindingTag, matching: TagMatching, parent: UnsafePointer<Frame>?
  ) throws(ResolutionError) -> T {
    guard
      let found = table.entry(for: ObjectIdentifier(T.self))?
        .binding(tag: tag, allowsFallback: matching.allowsFallback)
    else {
      throw missing(
        BindingKey(T.self, tag: tag), triedFallback: matching.allowsFallback, parent: parent)
    }
    return try unsafeDowncast(found.binding, to: Binding<T>.self)
      .resolve(in: self, parent: parent, fallbackTag: found.fellBack ? tag : nil)
  }

  func resolveIfBound<T>(
    _ type: T.Type, tag: BindingTag?, matching: TagMatching, parent: UnsafePointer<Frame>?
  ) throws(ResolutionError) -> T? {
    guard let entry = table.entry(for: ObjectIdentifier(T.self)) else { return nil }
    if let tag {
      guard let found = entry.binding(tag: tag, allowsFallback: matching.allowsFallback) else {
        return nil
      }
      return try unsafeDowncast(found.binding, to: Binding<T>.self)
        .resolve(in: self, parent: parent, fallbackTag: found.fellBack ? tag : nil)
    }
    guard let binding = entry.untagged else { return nil }
    return try unsafeDowncast(binding, to: Binding<T>.self)
      .resolve(in: self, parent: parent, fallbackTag: nil)
  }

  func resolve<T, each Argument>(
    _ type: T.Type, tag: BindingTag?, matching: TagMatching, arguments: repeat each Argument,
    parent: UnsafePointer<Frame>?
  ) throws(ResolutionError) -> T {
    let signature: Any.Type = (repeat each Argument).self
    if signature == Void.self {
      guard let tag else { return try resolve(T.self, parent: parent) }
      return try resolve(T.self, tag: tag, matching: matching, parent: parent)
    }
    let requested = BindingKey(T.self, tag: tag, argumentTypes: signature)
    guard let entry = table.entry(for: ObjectIdentifier(T.self)) else {
      throw missing(requested, triedFallback: tag != nil && matching.allowsFallback, parent: parent)
    }
    guard
      let found = entry.argumentBinding(
        tag: tag, signature: ObjectIdentifier(signature), allowsFallback: matching.allowsFallback)
    else {
      throw missing(requested, triedFallback: tag != nil && matching.allowsFallback, parent: parent)
    }
    // The signature matched, so the binding was declared with exactly these argument types.
    return try unsafeDowncast(found.binding, to: ArgumentBinding<T, repeat each Argument>.self)
      .resolve(
        arguments: repeat each arguments, in: self, parent: parent,
        fallbackTag: found.fellBack ? tag : nil)
  }

  /// A missing-binding error, or an argument mismatch when the type is bound with other
  /// arguments. Only runs on failure; near misses are computed when the report is read.
  @inline(never)
  func missing(
    _ requested: BindingKey, triedFallback: Bool, parent: UnsafePointer<Frame>?
  ) -> ResolutionError {
    if let entry = table.entry(for: ObjectIdentifier(requested.type)) {
      let sameTagOtherArguments =
        requested.argumentTypes == nil
        ? !entry.withArguments.isEmpty
        : (entry.untagged != nil || !entry.withArguments.isEmpty)
      if sameTagOtherArguments {
        return .argumentMismatch(requested, parent: parent, in: self)
      }
    }
    return .missing(requested, triedFallback: triedFallback, parent: parent, in: self)
  }
}

private func == (lhs: Any.Type, rhs: Any.Type) -> Bool {
  ObjectIdentifier(lhs) == ObjectIdentifier(rhs)
}
