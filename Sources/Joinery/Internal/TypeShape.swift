/// What a bound type can hold, as far as weak references care.
///
/// Asked once per transient binding at build time, without reading runtime metadata.
enum TypeShape: Equatable {
  /// A class: weak references work.
  case reference
  /// A struct, enum, optional, tuple, function or metatype: weak references never work.
  case value
  /// A protocol existential: the instance decides, so the check happens at first creation.
  case existential

  init(of type: Any.Type) {
    if type is AnyObject.Type {
      self = .reference
    } else if _typeName(Swift.type(of: type), qualified: false).hasSuffix(".Protocol") {
      // The metatype of a protocol existential `any P` is `P.Protocol`; every other type's is
      // `T.Type`.
      self = .existential
    } else {
      self = .value
    }
  }
}
