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
      container.table._checkInvariants(bindingCount: count == 0 ? 2 : 3)
      #expect(container.table.binding(for: BindingKey(String.self)) != nil)
    }
  }

  @Test(
    "A graph scope finds every instance it stored, past its inline slots",
    arguments: [3, 4, 5, 40, 2_000])
  func graphScopeContract(count: Int) throws {
    let container = try ContainerBuilder(Tagged(count: count)).build()
    let bindings = (0..<count).map { container.table.binding(for: BindingKey(Int.self, tag: $0))! }
    let scope = _GraphScope.make()
    for (number, binding) in bindings.enumerated() {
      var value = number
      withUnsafeMutablePointer(to: &value) { pointer in
        let slot = _InstanceSlot(address: UnsafeMutableRawPointer(pointer), of: Int.self)
        scope.store(copyOf: UnsafeRawPointer(pointer), for: binding, copy: slot.copier)
      }
    }
    scope._checkInvariants()
    for (number, binding) in bindings.enumerated() {
      let found = try #require(scope.instance(for: binding))
      #expect(found.load(as: Int.self) == number)
    }
    var visited = 0
    scope.forEachSlot { _ in visited += 1 }
    #expect(visited == count)
  }
}
