/// Resolves a binding on each call, from a container it holds weakly.
///
/// Any bound type can be asked for as a `Provider` without registering anything more: resolve
/// `Provider<FeedService>`, or take one as an autowired parameter. A provider parameter does not
/// create its dependency when the consumer is built, so it breaks a dependency cycle, and
/// `build()` checks the provided binding exists without counting the edge in cycles.
///
/// ```swift
/// final class Inbox {
///   let messages: Provider<MessageStore>
///   init(messages: Provider<MessageStore>) { self.messages = messages }
///   func refresh() throws { try messages.get().reload() }
/// }
/// registrar.bind(Inbox.self, lifetime: .persistent, to: Inbox.init(messages:))
/// ```
///
/// A provider keeps its container weakly, so an instance holding one never keeps the container
/// alive; calling it after the container is gone throws ``ResolutionError/Code/containerReleased``.
public struct Provider<Value>: Sendable {
  weak var container: Container?
  let tag: BindingTag?

  init(container: Container, tag: BindingTag?) {
    self.container = container
    self.tag = tag
  }

  /// Resolves the binding now, with its lifetime: a new instance for an ephemeral binding, the
  /// shared one for a persistent binding.
  ///
  /// ```swift
  /// let store = try messages.get()
  /// ```
  ///
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError``, including ``ResolutionError/Code/containerReleased``.
  public func get() throws(ResolutionError) -> Value {
    guard let container else { throw .containerReleased(BindingKey(Value.self, tag: tag)) }
    if let tag { return try container.resolve(Value.self, tag: tag) }
    return try container.resolve(Value.self)
  }
}

/// Resolves a binding once, on first access, from a container it holds weakly, and keeps the
/// instance.
///
/// Like ``Provider``, any bound type can be asked for as `Lazy` without registration, and a lazy
/// parameter breaks cycles.
///
/// ```swift
/// final class Settings {
///   let storage: Lazy<DiskStorage>
///   init(storage: Lazy<DiskStorage>) { self.storage = storage }
///   func save() throws { try storage.get().write() }  // built on first use
/// }
/// ```
///
/// The first `get()` from several threads at once resolves once. After it succeeds, the
/// instance is kept by the `Lazy` (not the container); before, the container is held weakly.
public final class Lazy<Value> {
  private let provider: Provider<Value>
  private let value = Protected<Value?>(nil)

  init(provider: Provider<Value>) {
    self.provider = provider
  }

  /// The instance, resolved on the first call and kept afterwards.
  ///
  /// ```swift
  /// let storage = try settings.storage.get()
  /// ```
  ///
  /// - Returns: The instance.
  /// - Throws: ``ResolutionError`` from the first resolve (a later call tries again).
  public func get() throws(ResolutionError) -> Value {
    try value.withLock { (value: inout Value?) throws(ResolutionError) -> Value in
      if let value { return value }
      let made = try provider.get()
      value = made
      return made
    }
  }
}

extension Lazy: Sendable where Value: Sendable {}

/// Types a container can make for any bound type without a binding of their own.
protocol DerivedFromContainer {
  /// The type whose binding it wraps.
  static var wrappedType: Any.Type { get }
  /// Makes one for a container and tag.
  static func derive(from container: Container, tag: BindingTag?) -> Self
}

extension Provider: DerivedFromContainer {
  static var wrappedType: Any.Type { Value.self }
  static func derive(from container: Container, tag: BindingTag?) -> Provider<Value> {
    Provider(container: container, tag: tag)
  }
}

extension Lazy: DerivedFromContainer {
  static var wrappedType: Any.Type { Value.self }
  static func derive(from container: Container, tag: BindingTag?) -> Self {
    Self(provider: Provider(container: container, tag: tag))
  }
}

extension Container {
  /// A `Provider` or `Lazy` of a bound type, when `T` is one; `nil` otherwise. Only runs when
  /// `T` itself is not bound.
  @usableFromInline @inline(never)
  func derived<T>(_: T.Type, tag: BindingTag?) -> T? {
    guard let derivable = T.self as? any DerivedFromContainer.Type else { return nil }
    let wrapped = BindingKey(derivable.wrappedType, tag: tag)
    guard binds(wrapped) || binds(BindingKey(wrapped.type)) else { return nil }
    return derivable.derive(from: self, tag: tag) as? T
  }
}

extension DerivedFromContainer {
  /// The key of the binding a dependency of this type really needs.
  static func wrappedKey(tag: BindingTag?) -> BindingKey { BindingKey(wrappedType, tag: tag) }
}
