/// What the runtime says about a type's kind, read once at build time.
///
/// Only used to reject a weak (`transient`) lifetime on types that can never be class
/// instances, before anything is created. The metadata kind word is part of Swift's stable ABI.
enum TypeShape: Equatable {
  /// A class: weak references work.
  case reference
  /// A struct, enum, optional, tuple, function or metatype: weak references never work.
  case value
  /// A protocol existential: the instance decides, so the check happens at first creation.
  case existential

  /// Whether `type` is an enum (not an optional), whose values describe themselves as a case name.
  static func isEnum(_ type: Any.Type) -> Bool {
    !(type is AnyObject.Type) && unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee == 0x201
  }

  init(of type: Any.Type) {
    if type is AnyObject.Type {
      self = .reference
      return
    }
    let kind = unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
    switch kind {
    case 0x200, 0x201, 0x202, 0x301, 0x302, 0x304, 0x306:
      // struct, enum, optional, tuple, function, metatype, existential metatype
      self = .value
    case 0x303:
      self = .existential
    default:
      // Class metadata on Darwin starts with an isa pointer; foreign and ObjC wrappers too.
      self = .reference
    }
  }
}
