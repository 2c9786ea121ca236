/// A named group of `cached` bindings that are reset together.
///
/// Every container has the ``default`` group. Declare your own groups as static members, bind
/// with ``Lifetime/cached(in:)`` and reset a group with ``Container/reset(_:)``, for example
/// when a user logs out.
///
/// ```swift
/// extension CacheGroup {
///   static let session = CacheGroup("session")
/// }
///
/// registrar.bind(UserSession.self, lifetime: .cached(in: .session)) { UserSession() }
/// container.reset(.session)  // the next resolve builds a new UserSession
/// ```
public struct CacheGroup: Hashable, Sendable, CustomStringConvertible {
  let text: String

  /// Creates a group with a name.
  ///
  /// ```swift
  /// static let session = CacheGroup("session")
  /// ```
  ///
  /// - Parameter name: A name unique among the groups an app uses.
  public init(_ name: String) {
    text = name
  }

  /// The group that `.cached` without a group uses.
  public static let `default` = CacheGroup("default")

  /// A one-line, human-readable description.
  public var description: String { text }
}
