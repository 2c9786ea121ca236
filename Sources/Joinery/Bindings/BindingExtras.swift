public import JoineryEngine

/// The declaration details most bindings do not have.
///
/// Written only while the container is built.
final class BindingExtras {
  var metadata: (any Sendable)?
  var contributionIndex: Int?
  /// Whether the factory is isolated to the main actor (`bindMainActor`).
  var isMainActor = false
  /// How instances end (`dispose:`), for the lifetimes that keep them.
  var disposer: Disposer?
  /// Whether the instance was made outside the container and handed over (`instance:`): a
  /// verification's throwaway copy gets the same object, which only the container disposes.
  var isHandedOver = false
  /// Whether each scope provides the instance (`bindScopeValue`) instead of a factory.
  var isScopeValue = false
  /// What runs once the resolution that made an instance has made everything
  /// (`initCompleted`).
  var completion: Completion?
  /// For a forward to a binding with runtime arguments, the key of that binding.
  var forwardedTo: BindingKey?
  /// For a forward, what it converts from (``AnyBinding/forward``).
  var forward: Forward?
  /// For an override declared in `Registrar.overriding(_:_:)`, the assembly it overrides in.
  var overrideTarget: Any.Type?
  /// An async binding's factory (``AnyBinding/makeAsync(_:)``): kept here, since most
  /// bindings are synchronous, so that their binding objects do not carry its words.
  var asyncMaker: AnyBinding.AsyncMaker?
  /// An async binding's factory with runtime arguments.
  var asyncArgumentMaker: AnyBinding.AsyncArgumentMaker?

  /// A copy that later writes do not share.
  func copy() -> BindingExtras {
    let copy = BindingExtras()
    copy.metadata = metadata
    copy.contributionIndex = contributionIndex
    copy.isMainActor = isMainActor
    copy.disposer = disposer
    copy.isHandedOver = isHandedOver
    copy.isScopeValue = isScopeValue
    copy.completion = completion
    copy.forwardedTo = forwardedTo
    copy.forward = forward?.copy()
    copy.overrideTarget = overrideTarget
    copy.asyncMaker = asyncMaker
    copy.asyncArgumentMaker = asyncArgumentMaker
    return copy
  }
}

/// A step run on a new instance at the end of the resolution that made it, with a resolver in
/// that resolution (``Registrar/initCompleted(_:tag:fileID:line:_:)``).
typealias Completion = @Sendable (borrowing Resolver, Any) throws -> Void

/// A weak reference that closures can share: written once, in `init`, then only read.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
  // A weak reference is loaded atomically by the runtime, and never written after `init`.
  @safe nonisolated(unsafe) weak var object: Object?
  init(_ object: Object) { self.object = object }
}

/// What a forward with runtime arguments throws when its target's instance does not convert.
struct ForwardedInstanceMismatch: Error {
  let instanceType: Any.Type
}

/// What a factory's wrapper throws when a value handed to it is not of its declared type.
///
/// The value is a request's runtime arguments, or an instance to complete. A request's key makes
/// a mismatch impossible; were it ever broken, the request fails with this instead of stopping
/// the process.
@usableFromInline
struct UnexpectedValueType: Error, CustomStringConvertible {
  @usableFromInline let expected: Any.Type
  @usableFromInline let found: Any.Type

  @usableFromInline
  init(expected: Any.Type, found: Any.Type) {
    self.expected = expected
    self.found = found
  }

  @usableFromInline
  var description: String {
    "Joinery handed the factory a \(TypeName.of(found)) where it declared a "
      + "\(TypeName.of(expected)); please report this"
  }

  /// `value` as a `T`, or this error.
  ///
  /// A value of `T` itself (the common case: a factory's instance of a concrete type) is taken
  /// as it is, by comparing metatypes; another (an instance requested as a protocol it
  /// conforms to) is cast. Neither looks up `Optional<T>`'s metadata, as `as?` does at run time
  /// where the caller is not specialized (about 700 instructions).
  @inlinable @inline(__always)
  static func cast<T>(_ value: Any, to _: T.Type) throws(Self) -> T {
    func take<Opened>(_ opened: Opened) throws(Self) -> T {
      if Opened.self == T.self { return _identical(opened, as: T.self) }
      switch opened {
      case let converted as T: return converted
      default: throw Self(expected: T.self, found: Opened.self)
      }
    }
    return try take(value)
  }
}

/// What resolving a weakly bound instance throws once its owner released it (or when it is
/// not of the bound type).
struct WeakInstanceReleased: Error, CustomStringConvertible {
  let type: Any.Type
  let problem: String
  var description: String {
    "the object bound to \(TypeName.of(type)) with weakInstance: \(problem); the container "
      + "never holds it"
  }
}
