/// The error every failed resolve throws: what was asked for, the path that led there, the
/// binding being built, and near misses.
///
/// `description` is one line; `debugDescription` (what `print(String(reflecting: error))` and
/// the test runners show) is the full report with "To fix:" advice.
///
/// ```swift
/// do {
///   let feed = try container.resolve(FeedService.self)
/// } catch {
///   print(error.code)              // missingBinding
///   print(error.path.map(\.description).joined(separator: " → "))  // FeedService → HTTPClient
///   print(error.debugDescription)  // the full report
/// }
/// ```
///
/// Building the report costs nothing until you read it: a failed resolve does no work
/// proportional to the number of bindings.
public struct ResolutionError: Error, Sendable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// What kind of failure happened.
  ///
  /// A struct with static members, so new codes can be added without breaking a `switch`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let text: String

    init(_ text: String) { self.text = text }

    /// Nothing is bound for the requested type and tag (nor, for a tagged request, untagged).
    public static let missingBinding = Code("missingBinding")
    /// The type is bound with runtime arguments of other types than the resolve passed.
    public static let argumentMismatch = Code("argumentMismatch")
    /// A binding depends on itself, directly or through others.
    public static let cycle = Code("cycle")
    /// A factory, or an `initCompleted` step declared for its binding, threw;
    /// ``ResolutionError/underlyingError`` has its error, and the description says which threw.
    ///
    /// An async request cancelled while it awaited the instance another request was making
    /// throws it too, with a `CancellationError` as the underlying error.
    public static let factoryFailed = Code("factoryFailed")
    /// A `transient` (weak) binding produced a value type, which cannot be held weakly.
    public static let transientValueType = Code("transientValueType")
    /// The resolution went deeper than the container's maximum depth.
    public static let depthLimitExceeded = Code("depthLimitExceeded")
    /// A forwarding binding's target produced an instance that is not of the forwarded type.
    public static let forwardingTypeMismatch = Code("forwardingTypeMismatch")
    /// ``Container/store(_:for:tag:)`` was used on a binding that is not `cached`.
    public static let notCached = Code("notCached")

    /// An ``Injected`` property without an explicit container was read outside
    /// ``Container/withCurrent(_:)``.
    public static let noCurrentContainer = Code("noCurrentContainer")
    /// A synchronous resolve reached a binding with an `async` factory.
    public static let asyncBinding = Code("asyncBinding")
    /// A main-actor binding's factory was reached from code not isolated to the main actor,
    /// off the main thread.
    public static let mainActorRequired = Code("mainActorRequired")
    /// A `scoped` binding was requested outside any ``Scope``.
    public static let scopeRequired = Code("scopeRequired")
    /// A value each scope provides (``Registrar/bindScopeValue(_:tag:private:fileID:line:)``) was needed in
    /// a scope made without it.
    public static let scopeValueMissing = Code("scopeValueMissing")
    /// The container was shut down, or the scope closed, before this request; or a
    /// ``Provider``, ``Lazy``, `@Injected(from:)` or ``ScopeFactory`` outlived the container it
    /// holds weakly (the message says which).
    public static let shutDown = Code("shutDown")
    /// A shorter-lived instance (scoped; or cached or transient under a persistent one) was
    /// requested while a container-wide instance that would keep it was being created.
    public static let captiveDependency = Code("captiveDependency")

    /// A one-line, human-readable description.
    public var description: String { text }
  }

  final class Storage: Sendable {
    let code: Code
    let requested: BindingKey
    let path: [ResolutionStep]
    let binding: BindingInfo?
    let underlyingError: (any Error)?
    let detail: String?
    /// What near misses are searched in: the container's bindings as descriptions, never the
    /// container itself, so an error kept in a log or UI state keeps no instance alive.
    let catalog: BindingCatalog?

    /// This storage with `steps` above its path.
    func below(_ steps: [ResolutionStep]) -> Storage {
      Storage(
        code: code, requested: requested, path: steps + path, binding: binding,
        underlyingError: underlyingError, detail: detail, catalog: catalog)
    }

    private init(
      code: Code, requested: BindingKey, path: [ResolutionStep], binding: BindingInfo?,
      underlyingError: (any Error)?, detail: String?, catalog: BindingCatalog?
    ) {
      self.code = code
      self.requested = requested
      self.path = path
      self.binding = binding
      self.underlyingError = underlyingError
      self.detail = detail
      self.catalog = catalog
    }

    convenience init(
      code: Code, requested: BindingKey, path: [ResolutionStep], binding: BindingInfo?,
      underlyingError: (any Error)?, detail: String?, container: Container?
    ) {
      // Only these codes show near misses; other errors need no catalog.
      self.init(
        code: code, requested: requested, path: path, binding: binding,
        underlyingError: underlyingError, detail: detail,
        catalog: code == .missingBinding || code == .argumentMismatch ? container?.catalog : nil)
    }
  }

  let storage: Storage

  private init(storage: Storage) { self.storage = storage }

  /// This error as seen from a resolution that reached it through `steps` (an async chain
  /// above a synchronous resolve): the same error, with the whole path.
  func below(_ steps: [ResolutionStep]) -> ResolutionError {
    steps.isEmpty ? self : ResolutionError(storage: storage.below(steps))
  }

  /// What kind of failure this is.
  public var code: Code { storage.code }
  /// What the failing request asked for.
  public var requested: BindingKey { storage.requested }
  /// The requests from the top-level resolve down to the failing one, inclusive.
  public var path: [ResolutionStep] { storage.path }
  /// The binding whose creation failed, when one was involved.
  public var binding: BindingInfo? { storage.binding }
  /// The error a factory or an `initCompleted` step threw, for ``Code/factoryFailed``: how a
  /// domain error — a refused login, a validation failure — reaches the code that turns
  /// errors into answers, as itself.
  ///
  /// ```swift
  /// } catch let error as ResolutionError {
  ///   if let denied = error.underlyingError as? AccessDenied { throw denied }  // a 401
  ///   throw error  // a 500, logged in full
  /// }
  /// ```
  public var underlyingError: (any Error)? { storage.underlyingError }

  /// For a cycle, the keys on the cycle, first and last equal (`A → B → A`); otherwise empty.
  public var cycle: [BindingKey] {
    guard code == .cycle else { return [] }
    let keys = path.map { $0.binding?.key ?? $0.requested }
    guard let last = keys.last, let start = keys.firstIndex(of: last), start < keys.count - 1
    else { return keys }
    return Array(keys[start...])
  }

  /// Bindings close to what was requested: the same type under another tag or with runtime
  /// arguments, or a type with a similar name; at most eight of each kind.
  ///
  /// Computed when you read it, for missing bindings and argument mismatches.
  public var nearMisses: [NearMiss] {
    guard code == .missingBinding || code == .argumentMismatch,
      let catalog = storage.catalog
    else { return [] }
    return NearMiss.find(for: requested, in: catalog)
  }

  init(
    _ code: Code, requested: BindingKey, path: [ResolutionStep], binding: BindingInfo? = nil,
    underlyingError: (any Error)? = nil, detail: String? = nil, container: Container?
  ) {
    storage = Storage(
      code: code, requested: requested, path: path, binding: binding,
      underlyingError: underlyingError, detail: detail, container: container)
  }
}
