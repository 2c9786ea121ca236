import Foundation
import JoineryEngine
import Testing

@testable import Joinery

/// The engine's structures checked against their contracts directly, and the internal-checks
/// build (`-Xswiftc -DJOINERY_INTERNAL_CHECKS`, CI's AddressSanitizer job) proven on.
@Suite("Engine contracts")
struct InternalChecksTests {
  /// `count` `Int` bindings tagged 0..<count, each making its tag; a `String` and a tagged
  /// `Double`.
  struct Tagged: Assembly {
    let count: Int
    func register(in registrar: inout Registrar) {
      for tag in 0..<count { registrar.bind(Int.self, tag: tag) { _ in tag } }
      registrar.bind(String.self) { _ in "untagged" }
      registrar.bind(Double.self, tag: "x") { _ in 1 }
    }
  }

  @Test("Instance memory remembers the type it was made for, where the checks are compiled in")
  func typedMemoryContract() throws {
    let container = try ContainerBuilder(
      Bindings { registrar in
        registrar.bind(String.self, lifetime: .persistent) { _ in "kept" }
      }
    ).build()
    #expect(try container.resolve(String.self) == "kept")
    let binding = try #require(container.table.binding(for: BindingKey(String.self)))
    var value = 7
    withUnsafeMutablePointer(to: &value) { pointer in
      let slot = _InstanceSlot(address: UnsafeMutableRawPointer(pointer), of: Int.self)
      #expect(slot.load(as: Int.self) == 7)
      #if JOINERY_INTERNAL_CHECKS
        // A typed operation with another type would stop the program here.
        #expect(ObjectIdentifier(slot.checkedType) == ObjectIdentifier(Int.self))
        #expect(
          binding.storage.checkedType.map(ObjectIdentifier.init) == ObjectIdentifier(String.self))
      #endif
    }
    #expect(binding.storage.load(as: String.self) == "kept")
  }

  @Test("A built container's lookup table keeps its contract")
  func tableContract() throws {
    for count in [0, 1, 7, 100] {
      let container = try ContainerBuilder(Tagged(count: count)).build()
      container.table._checkInvariants(typeCount: count == 0 ? 2 : 3)
      #expect(container.table.binding(for: BindingKey(String.self)) != nil)
    }
  }
}
