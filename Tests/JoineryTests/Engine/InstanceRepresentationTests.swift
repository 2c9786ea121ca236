import JoineryEngine
import Testing

@testable import Joinery

/// How the engine tells a bound type that is one class reference (built by one non-generic
/// path) from any other (built generically), and that every kind of type resolves the same
/// through both.
@Suite("Instance representation")
struct InstanceRepresentationTests {
  protocol ClassBound: AnyObject, Sendable { var name: String { get } }
  protocol Plain: Sendable { var name: String { get } }
  final class Object: ClassBound, Plain, Sendable {
    let name: String
    init(_ name: String) { self.name = name }
  }
  /// A value type as large as one reference, holding one.
  struct Wrapper: Sendable { let object: Object }

  /// `_isSingleReference` for a type known only at run time (opened from an existential
  /// metatype, so the generic code is not specialized).
  static func unspecialized(_ type: Any.Type) -> Bool {
    func open<T>(_: T.Type) -> Bool { _isSingleReference(T.self) }
    return _openExistential(type, do: open)
  }

  /// (An `AnyObject` existential may go either way — specialized code counts it as one
  /// reference, the runtime check does not — and both copy it correctly; the resolve test
  /// below covers it.)
  @Test("A class is a single reference; a value type and a witnessed existential are not")
  func classification() {
    #expect(_isSingleReference(Object.self))
    #expect(!_isSingleReference((any ClassBound).self))
    #expect(!_isSingleReference((any Plain).self))
    #expect(!_isSingleReference(Wrapper.self))
    #expect(!_isSingleReference(Int.self))
    #expect(!_isSingleReference(String.self))
    // Unspecialized, the runtime check agrees where it matters: a class is one reference,
    // a value type and an existential with witness tables are not.
    #expect(Self.unspecialized(Object.self))
    #expect(!Self.unspecialized((any ClassBound).self))
    #expect(!Self.unspecialized(Wrapper.self))
    #expect(!Self.unspecialized(Int.self))
  }

  @Test(
    "Every kind of bound type resolves with its lifetime's sharing",
    arguments: [Lifetime.ephemeral, .transient, .persistent])
  func everyKindResolves(lifetime: Lifetime) throws {
    let held = Object("held")
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.add(Object.self, lifetime: lifetime) { _ in Object("class") }
        registrar.add((any AnyObject & Sendable).self, lifetime: lifetime) { _ in Object("any") }
        registrar.add((any ClassBound).self, lifetime: lifetime) { _ in Object("bound") }
        registrar.add((any Plain).self, lifetime: .ephemeral) { _ in Object("plain") }
        registrar.add(Wrapper.self, lifetime: .ephemeral) { _ in Wrapper(object: held) }
      }
    ).build()
    let object = try container.resolve(Object.self)
    let anyObject = try container.resolve((any AnyObject & Sendable).self)
    let bound = try container.resolve((any ClassBound).self)
    #expect(object.name == "class")
    #expect((anyObject as? Object)?.name == "any")
    #expect(bound.name == "bound")
    #expect(try container.resolve((any Plain).self).name == "plain")
    #expect(try container.resolve(Wrapper.self).object === held)
    // Shared while held (transient) or for good (persistent); new every time (ephemeral).
    let shares = lifetime != .ephemeral
    #expect((try container.resolve(Object.self) === object) == shares)
    #expect((try container.resolve((any AnyObject & Sendable).self) === anyObject) == shares)
    #expect((try container.resolve((any ClassBound).self) === bound) == shares)
  }
}

extension Registrar {
  /// `bind` with the lifetime as a plain ``Lifetime``, for tests that run one body per lifetime
  /// (the bound types here are all `Sendable`).
  fileprivate mutating func add<T: Sendable>(
    _ type: T.Type, lifetime: Lifetime,
    _ factory: @escaping @Sendable (borrowing Resolver) throws -> T
  ) {
    bind(type, lifetime: Lifetime.For(lifetime), factory)
  }
}
