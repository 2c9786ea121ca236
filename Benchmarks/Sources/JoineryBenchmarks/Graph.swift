import Joinery
import Swinject

// The object graph of BASELINE.md: A(B(C), C) with final classes.
final class ServiceC: @unchecked Sendable { init() {} }
final class ServiceB: @unchecked Sendable {
  let c: ServiceC
  init(c: ServiceC) { self.c = c }
}
final class ServiceA: @unchecked Sendable {
  let b: ServiceB
  let c: ServiceC
  init(b: ServiceB, c: ServiceC) {
    self.b = b
    self.c = c
  }
}
final class Download: @unchecked Sendable {
  let url: String
  let retries: Int
  let verbose: Bool
  init(url: String, retries: Int = 0, verbose: Bool = false) {
    self.url = url
    self.retries = retries
    self.verbose = verbose
  }
}
/// Bound persistent and untagged in both containers: the "persistent" cases.
final class Settings: @unchecked Sendable { init() {} }
protocol Greeter: AnyObject, Sendable {}
final class Hello: Greeter, @unchecked Sendable { init() {} }

/// Thousands of distinct types without generated source: `Phantom<((((), D3), D1), D4)>`…
final class Phantom<Key>: @unchecked Sendable { init() {} }
enum D0 {}
enum D1 {}
enum D2 {}
enum D3 {}
enum D4 {}
enum D5 {}
enum D6 {}
enum D7 {}
enum D8 {}
enum D9 {}

/// Calls `body` with `count` distinct phantom types (at most 10,000).
func forEachPhantom(_ count: Int, _ body: (any PhantomVisitor) -> Void) {
  var remaining = count
  func level<Prefix>(_: Prefix.Type, depth: Int) {
    guard remaining > 0 else { return }
    if depth == 0 {
      body(Visit<Phantom<Prefix>>())
      remaining -= 1
      return
    }
    level((Prefix, D0).self, depth: depth - 1)
    level((Prefix, D1).self, depth: depth - 1)
    level((Prefix, D2).self, depth: depth - 1)
    level((Prefix, D3).self, depth: depth - 1)
    level((Prefix, D4).self, depth: depth - 1)
    level((Prefix, D5).self, depth: depth - 1)
    level((Prefix, D6).self, depth: depth - 1)
    level((Prefix, D7).self, depth: depth - 1)
    level((Prefix, D8).self, depth: depth - 1)
    level((Prefix, D9).self, depth: depth - 1)
  }
  level(Void.self, depth: 4)
}

/// Registers one phantom type with each container.
protocol PhantomVisitor: Sendable {
  func bind(_ registrar: inout Registrar)
  func bindPrivately(_ registrar: inout Registrar)
  func register(_ container: Swinject.Container)
  func resolve(_ container: Joinery.Container)
}

struct Visit<P: AnyObject & Sendable>: PhantomVisitor where P: PhantomInit {
  func bind(_ registrar: inout Registrar) {
    registrar.bind(P.self, lifetime: .persistent) { _ in P.make() }
  }
  func bindPrivately(_ registrar: inout Registrar) {
    registrar.bind(P.self, lifetime: .persistent, private: true) { _ in P.make() }
  }
  func register(_ container: Swinject.Container) {
    container.register(P.self) { _ in P.make() }.inObjectScope(.container)
  }
  func resolve(_ container: Joinery.Container) {
    blackHole(try? container.resolve(P.self))
  }
}

protocol PhantomInit { static func make() -> Self }
extension Phantom: PhantomInit {
  static func make() -> Self { Self() }
}

/// Prepared registrations for N phantom types, so building measures only the containers.
struct PhantomSet: DependencyRegister {
  let visitors: [any PhantomVisitor]

  init(count: Int) {
    var visitors: [any PhantomVisitor] = []
    forEachPhantom(count) { visitors.append($0) }
    self.visitors = visitors
  }

  func register(in registrar: inout Registrar) {
    for visitor in visitors { visitor.bind(&registrar) }
  }

  func registerSwinject(_ container: Swinject.Container) {
    for visitor in visitors { visitor.register(container) }
  }
}

/// One module's share of a phantom set: `visitors[range]`, the second half of them private when
/// `privateHalf`. An `Assembly` (a module with a boundary) or, as `PlainShare`, a transparent
/// register.
struct ModuleShare: Joinery.Assembly, Hashable {
  let set: PhantomSet
  let range: Range<Int>
  let privateHalf: Bool

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.range == rhs.range }
  func hash(into hasher: inout Hasher) { hasher.combine(range.lowerBound) }

  func register(in registrar: inout Registrar) {
    let middle = range.lowerBound + range.count / 2
    for index in range {
      if privateHalf && index >= middle {
        set.visitors[index].bindPrivately(&registrar)
      } else {
        set.visitors[index].bind(&registrar)
      }
    }
  }
}

struct PlainShare: DependencyRegister, Hashable {
  let share: ModuleShare
  func register(in registrar: inout Registrar) { share.register(in: &registrar) }
}

/// A phantom set split into modules of `perModule` bindings each.
func modules(
  of set: PhantomSet, perModule: Int, boundaries: Bool
) -> [any DependencyRegister] {
  stride(from: 0, to: set.visitors.count, by: perModule).map { start in
    let share = ModuleShare(
      set: set, range: start..<min(start + perModule, set.visitors.count),
      privateHalf: boundaries)
    return boundaries ? share : PlainShare(share: share)
  }
}
