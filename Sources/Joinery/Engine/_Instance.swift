public import JoineryEngine

/// Memory for instances of types the engine does not know statically.
///
/// Bindings are not generic: the bound type is known only to the closures made when it was
/// declared and to the generic resolve call. So instances travel as raw memory plus a
/// ``_ValueLayout``, and everything that touches that memory is here. The rest of the module
/// sees ``_InstanceSlot`` (where one request's instance goes), ``_InstanceStorage`` (where a
/// binding keeps one) and ``_Arguments`` (a request's runtime arguments), never an address.

/// Builds an instance of the bound type into the slot, from a resolver and the request's
/// runtime arguments (``_Arguments/none`` for a binding that takes none, which never reads them).
@usableFromInline typealias Maker =
  @Sendable (borrowing Resolver, borrowing _Arguments, borrowing _InstanceSlot) throws -> Void

extension AnyBinding {
  /// A slot at `address` for an instance of the bound type, with the copier made at bind time:
  /// for requests whose code is not specialized for the type, where a slot made from the type
  /// would allocate its copier's context.
  @usableFromInline
  func slot(at address: UnsafeMutableRawPointer) -> _InstanceSlot {
    unsafe layout.slot(at: address)
  }
}

/// The tag a request asked with, when the untagged binding served it (a fallback), kept by
/// reference to the caller's value so that the common path allocates nothing.
///
/// It becomes a
/// ``BindingTag`` only when an error report needs it.
@safe
@usableFromInline
struct RequestedTag {
  @usableFromInline let value: UnsafeRawPointer
  /// The tag's type; always also `Sendable`, as every tag API requires.
  @usableFromInline let type: any (Hashable & Sendable).Type

  @usableFromInline
  init(value: UnsafeRawPointer, type: any (Hashable & Sendable).Type) {
    unsafe self.value = unsafe value
    self.type = type
  }

  /// The tag as a value that outlives the request.
  var tag: BindingTag { unsafe type.loadTag(from: value) }
}

extension Hashable where Self: Sendable {
  /// Copies the value at `pointer` into a new tag.
  fileprivate static func loadTag(from pointer: UnsafeRawPointer) -> BindingTag {
    unsafe BindingTag(box: AnyTagBox(pointer.load(as: Self.self)))
  }
}
