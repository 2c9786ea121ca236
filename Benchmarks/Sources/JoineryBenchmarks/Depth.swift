import Foundation
import Joinery
import Swinject

// What apps do beyond three levels: chains 5 and 10 deep on the main thread and on a spawned
// thread, the per-level cost of very deep chains, the cold start of a whole app, and building
// many tagged bindings of one type. The harness itself runs on the main thread.

final class Link10: @unchecked Sendable { init() {} }
final class Link9: @unchecked Sendable {
  let next: Link10
  init(next: Link10) { self.next = next }
}
final class Link8: @unchecked Sendable {
  let next: Link9
  init(next: Link9) { self.next = next }
}
final class Link7: @unchecked Sendable {
  let next: Link8
  init(next: Link8) { self.next = next }
}
final class Link6: @unchecked Sendable {
  let next: Link7
  init(next: Link7) { self.next = next }
}
final class Link5: @unchecked Sendable {
  let next: Link6
  init(next: Link6) { self.next = next }
}
final class Link4: @unchecked Sendable {
  let next: Link5
  init(next: Link5) { self.next = next }
}
final class Link3: @unchecked Sendable {
  let next: Link4
  init(next: Link4) { self.next = next }
}
final class Link2: @unchecked Sendable {
  let next: Link3
  init(next: Link3) { self.next = next }
}
final class Link1: @unchecked Sendable {
  let next: Link2
  init(next: Link2) { self.next = next }
}
final class Link0: @unchecked Sendable {
  let next: Link1
  init(next: Link1) { self.next = next }
}

struct Links: Joinery.Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bind(Link10.self, to: Link10.init)
    registrar.bind(Link9.self, to: Link9.init(next:))
    registrar.bind(Link8.self, to: Link8.init(next:))
    registrar.bind(Link7.self, to: Link7.init(next:))
    registrar.bind(Link6.self, to: Link6.init(next:))
    registrar.bind(Link5.self, to: Link5.init(next:))
    registrar.bind(Link4.self, to: Link4.init(next:))
    registrar.bind(Link3.self, to: Link3.init(next:))
    registrar.bind(Link2.self, to: Link2.init(next:))
    registrar.bind(Link1.self, to: Link1.init(next:))
    registrar.bind(Link0.self, to: Link0.init(next:))
  }
}

/// The 5-deep chain declared with `bindMainActor`: autowired the same way as `bind` (both have
/// fixed-arity forms, specialized at the call site), resolved from main-actor code.
struct MainActorLinks: Joinery.Assembly {
  func register(in registrar: inout Registrar) {
    registrar.bindMainActor(Link10.self, to: Link10.init)
    registrar.bindMainActor(Link9.self, to: Link9.init(next:))
    registrar.bindMainActor(Link8.self, to: Link8.init(next:))
    registrar.bindMainActor(Link7.self, to: Link7.init(next:))
    registrar.bindMainActor(Link6.self, to: Link6.init(next:))
    registrar.bindMainActor(Link5.self, to: Link5.init(next:))
  }
}

/// Runs a variant's iterations on a new thread with `stackSize` bytes of stack, and waits.
func onSpawnedThread(stackSize: Int = 8 << 20, _ run: @escaping (Int) -> Void) -> (Int) -> Void {
  { iterations in
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) let body = run
    let thread = Thread {
      body(iterations)
      done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
  }
}

func depthRows() -> [Row] {
  let container = try! ContainerBuilder(Links()).build()
  let handFive = { Link5(next: Link6(next: Link7(next: Link8(next: Link9(next: Link10()))))) }
  let handTen = {
    Link0(next: Link1(next: Link2(next: Link3(next: Link4(next: handFive())))))
  }
  let five = loop { blackHole(try! container.resolve(Link5.self)) }
  let mainActorContainer = try! ContainerBuilder(MainActorLinks()).build()
  let fiveOnMainActor = loop {
    blackHole(MainActor.assumeIsolated { try! mainActorContainer.resolve(Link5.self) })
  }
  let ten = loop { blackHole(try! container.resolve(Link0.self)) }
  return [
    Row(
      title: "ephemeral chain, 5 deep (6 objects)", floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { blackHole(handFive()) }),
        Variant(name: "Joinery, main thread", run: five),
        Variant(name: "Joinery, bindMainActor, main thread", run: fiveOnMainActor),
        Variant(
          name: "hand-written, spawned thread", run: onSpawnedThread(loop { blackHole(handFive()) })
        ),
        Variant(name: "Joinery, spawned thread", run: onSpawnedThread(five)),
      ]),
    Row(
      title: "ephemeral chain, 10 deep (11 objects)", floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { blackHole(handTen()) }),
        Variant(name: "Joinery, main thread", run: ten),
        Variant(
          name: "hand-written, spawned thread", run: onSpawnedThread(loop { blackHole(handTen()) })),
        Variant(name: "Joinery, spawned thread", run: onSpawnedThread(ten)),
      ]),
  ]
}

/// 4,000 chain levels per operation, at depths 100 to 4,000: flat medians mean a constant cost
/// per level. On a spawned thread with a 512 MiB stack.
func deepChainRows() -> [Row] {
  let levels = 4_000
  let variants = [100, 1_000, 4_000].map { depth in
    var builder = ContainerBuilder(
      Bindings { registrar in
        for level in 0..<depth {
          registrar.bind(Int.self, tag: level) { resolver in
            try resolver.resolve(Int.self, tag: level + 1, matching: .exact) + 1
          }
        }
        registrar.bind(Int.self, tag: depth, instance: 0)
      })
    builder.maximumResolutionDepth = 10_000
    let container = try! builder.build()
    let repeats = levels / depth
    return Variant(
      name: "depth \(depth) × \(repeats)",
      run: onSpawnedThread(stackSize: 512 << 20) { iterations in
        for _ in 0..<iterations {
          for _ in 0..<repeats { blackHole(try! container.resolve(Int.self, tag: 0)) }
        }
      })
  }
  return [Row(title: "4,000 chain levels per operation", floor: nil, variants: variants)]
}

/// Costs that must not grow with the work: per level of an async chain, per resolve in a large
/// scope, per missing dependency in a large report.
///
/// Built after every other group by `--profile` (and only when the row asked for is here): their
/// thousands of types and bindings would otherwise change the instruction counts of the rows
/// measured after them (the runtime's metadata caches grow).
func growthRows() -> [Row] {
  [asyncChainRow(), scopeSizeRow(), missingScalingRow()]
}

/// 8,000 async chain levels per operation, at depths 500 to 8,000: flat medians mean a constant
/// cost per level (the async cycle test is the synchronous one's, constant per level).
func asyncChainRow() -> Row {
  let levels = 8_000
  let variants = [500, 2_000, 8_000].map { depth in
    var builder = ContainerBuilder(
      Bindings { registrar in
        for level in 0..<depth {
          registrar.bindAsync(Int.self, tag: level) { resolver in
            try await resolver.resolveAsync(Int.self, tag: level + 1, matching: .exact) + 1
          }
        }
        registrar.bind(Int.self, tag: depth, instance: 0)
      })
    builder.maximumResolutionDepth = 10_000
    let container = try! builder.build()
    let repeats = levels / depth
    return Variant(
      name: "depth \(depth) × \(repeats)",
      run: { iterations in
        blockingAsync {
          for _ in 0..<iterations {
            for _ in 0..<repeats { blackHole(try! await container.resolveAsync(Int.self, tag: 0)) }
          }
        }
      })
  }
  return Row(title: "8,000 async chain levels per operation", floor: nil, variants: variants)
}

/// 16,000 scoped resolves per operation: scopes of 500 to 8,000 scoped bindings, each made
/// and then found again, and the scope closed. Flat medians mean a per-resolve cost that does
/// not grow with the number of scoped bindings a scope uses.
func scopeSizeRow() -> Row {
  let resolves = 8_000
  let variants = [500, 2_000, 8_000].map { count in
    let container = try! ContainerBuilder(
      Bindings { registrar in
        for tag in 0..<count {
          registrar.bind(Link10.self, tag: tag, lifetime: .scoped, to: Link10.init)
        }
      }
    ).build()
    let repeats = resolves / count
    return Variant(
      name: "\(count) bindings × \(repeats) scopes",
      run: { iterations in
        blockingAsync {
          for _ in 0..<iterations {
            for _ in 0..<repeats {
              let scope = container.makeScope()
              for _ in 0..<2 {
                for tag in 0..<count { blackHole(try! scope.resolve(Link10.self, tag: tag)) }
              }
              try! await scope.close()
            }
          }
        }
      })
  }
  return Row(
    title: "16,000 scoped resolves per operation, by scope size", floor: nil, variants: variants)
}

/// Registrations given to `Bindings`, as a value.
struct Bindings: Joinery.DependencyRegister {
  let body: @Sendable (inout Registrar) -> Void
  init(_ body: @escaping @Sendable (inout Registrar) -> Void) { self.body = body }
  func register(in registrar: inout Registrar) { body(&registrar) }
}

// MARK: Cold start of a generated app

/// A generated app of `count` types (`Phantom<…>`), 40 % persistent, each depending on 0 to 3
/// types declared before it: what an app builds and resolves once at start-up.
struct GeneratedApp: @unchecked Sendable {
  let types: [any AppType]
  /// For each type, the indices of the types it depends on.
  let dependencies: [[Int]]
  let persistent: [Bool]

  init(count: Int) {
    var types: [any AppType] = []
    forEachPhantom(count) { types.append(($0 as! AppTypeSource).appType) }
    self.types = types
    var generator = SplitMix(seed: 42)
    dependencies = (0..<count).map { index in
      guard index > 0 else { return [] }
      let wanted = Int(generator.next() % 4)
      return (0..<wanted).map { _ in Int(generator.next() % UInt64(index)) }
    }
    persistent = (0..<count).map { _ in generator.next() % 10 < 4 }
  }

  /// The Joinery assembly: each type's closure resolves its dependencies, declared.
  var assembly: Bindings {
    let app = self
    return Bindings { registrar in
      for index in app.types.indices {
        app.types[index].bind(in: &registrar, app: app, index: index)
      }
    }
  }

  /// Build, then resolve each type once.
  func startJoinery() {
    let container = try! ContainerBuilder(assembly).build()
    for type in types { type.resolve(container) }
  }

  func startSwinject() {
    let container = Swinject.Container()
    for index in types.indices { types[index].register(container, app: self, index: index) }
    for type in types { type.resolve(container) }
  }

  /// By hand: a slot per persistent type, a function per type that makes its dependencies.
  func startByHand() {
    var made = [AnyObject?](repeating: nil, count: types.count)
    func make(_ index: Int) -> AnyObject {
      if persistent[index], let existing = made[index] { return existing }
      for dependency in dependencies[index] { blackHole(make(dependency)) }
      let instance = types[index].make()
      if persistent[index] { made[index] = instance }
      return instance
    }
    for index in types.indices { blackHole(make(index)) }
  }
}

protocol AppType: Sendable {
  func bind(in registrar: inout Registrar, app: GeneratedApp, index: Int)
  func register(_ container: Swinject.Container, app: GeneratedApp, index: Int)
  func resolve(_ container: Joinery.Container)
  func resolve(_ container: Swinject.Container)
  func make() -> AnyObject
  /// Resolves this type from a factory.
  func resolve(_ resolver: borrowing Joinery.Resolver) throws
  func resolve(_ resolver: any Swinject.Resolver)
  var key: BindingKey { get }
  /// Binds this type with a closure that declares `keys` as its dependencies.
  func bind(in registrar: inout Registrar, dependsOn keys: [BindingKey])
}

protocol AppTypeSource { var appType: any AppType { get } }
extension Visit: AppTypeSource { var appType: any AppType { AppVisit<P>() } }

struct AppVisit<P: AnyObject & Sendable & PhantomInit>: AppType {
  func bind(in registrar: inout Registrar, app: GeneratedApp, index: Int) {
    let dependencies = app.dependencies[index].map { app.types[$0] }
    registrar.bind(
      P.self, lifetime: app.persistent[index] ? .persistent : .ephemeral,
      dependsOn: dependencies.map(\.key)
    ) { resolver in
      for dependency in dependencies { try dependency.resolve(resolver) }
      return P.make()
    }
  }
  func register(_ container: Swinject.Container, app: GeneratedApp, index: Int) {
    let dependencies = app.dependencies[index].map { app.types[$0] }
    container.register(P.self) { resolver in
      for dependency in dependencies { dependency.resolve(resolver) }
      return P.make()
    }.inObjectScope(app.persistent[index] ? .container : .transient)
  }
  func resolve(_ container: Joinery.Container) { blackHole(try! container.resolve(P.self)) }
  func resolve(_ container: Swinject.Container) { blackHole(container.resolve(P.self)!) }
  func make() -> AnyObject { P.make() }
  func resolve(_ resolver: borrowing Joinery.Resolver) throws {
    blackHole(try resolver.resolve(P.self))
  }
  func resolve(_ resolver: any Swinject.Resolver) { blackHole(resolver.resolve(P.self)!) }
  var key: BindingKey { BindingKey(P.self) }
  func bind(in registrar: inout Registrar, dependsOn keys: [BindingKey]) {
    registrar.bind(P.self, dependsOn: keys) { _ in P.make() }
  }
}

/// A small deterministic generator, so every run builds the same app.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }
}

func coldStartRows() -> [Row] {
  let app = GeneratedApp(count: 200)
  // Instantiate the types' metadata once, outside the measurement.
  app.startJoinery()
  app.startSwinject()
  return [
    Row(
      title: "cold start: build + resolve each of 200 types once, main thread",
      floor: "hand-written",
      variants: [
        Variant(name: "hand-written", run: loop { app.startByHand() }),
        Variant(name: "Joinery", run: loop { app.startJoinery() }),
        Variant(name: "Joinery, spawned thread", run: onSpawnedThread(loop { app.startJoinery() })),
        Variant(name: "Swinject", run: loop { app.startSwinject() }),
      ])
  ]
}

// MARK: Many tags of one type

/// Building N tagged bindings of one type, each declaring the next tag as a dependency: a
/// linear build keeps the time per binding flat as N grows.
func taggedBuildRows() -> [Row] {
  [1_000, 10_000, 50_000].map { count in
    joineryBuildRow(
      "build \(count) tagged bindings of one type with declared edges",
      taggedChain(count, singletons: false))
  }
}

/// N singletons, singleton i over link i of one N-link ephemeral chain: the captive check walks
/// the chain once, not once per singleton, so the time per binding stays flat as N grows.
func singletonsOverChainRows() -> [Row] {
  [1_000, 8_000].map { count in
    joineryBuildRow(
      "build \(count) singletons over one \(count)-link ephemeral chain",
      taggedChain(count, singletons: true))
  }
}

/// `count` ephemeral `Int` bindings, tag i declaring tag i + 1, and with `singletons` a
/// persistent `Settings` tagged i over each.
private func taggedChain(_ count: Int, singletons: Bool) -> Bindings {
  Bindings { registrar in
    for index in 0..<count {
      registrar.bind(
        Int.self, tag: index, dependsOn: [BindingKey(Int.self, tag: BindingTag(index + 1))]
      ) { resolver in try resolver.resolve(Int.self, tag: index + 1, matching: .exact) }
      if singletons {
        registrar.bind(
          Settings.self, tag: index, lifetime: .persistent,
          dependsOn: [BindingKey(Int.self, tag: BindingTag(index))]
        ) { _ in Settings() }
      }
    }
    registrar.bind(Int.self, tag: count, instance: 0)
  }
}

/// A row that builds `register` with Joinery alone, registration and validation.
private func joineryBuildRow(_ title: String, _ register: Bindings) -> Row {
  Row(
    title: title, floor: nil,
    variants: [
      Variant(
        name: "Joinery",
        run: { iterations in
          for _ in 0..<iterations { blackHole(try! ContainerBuilder(register).build()) }
        })
    ])
}

// MARK: Reports at app scale

/// A broken app's start-up report, and one failed resolve's report, beside 10,000 bindings.
func reportRows() -> [Row] {
  var types: [any AppType] = []
  forEachPhantom(10_000) { types.append(($0 as! AppTypeSource).appType) }
  // 9,000 bound types; 1,000 bindings each depend on one of the 1,000 types left unbound.
  let bound = Array(types[0..<9_000])
  let missing = Array(types[9_000...])
  let broken = Bindings { registrar in
    for (index, type) in bound.enumerated() {
      type.bind(in: &registrar, dependsOn: index < 1_000 ? [missing[index].key] : [])
    }
  }
  let healthy = try! ContainerBuilder(
    Bindings { registrar in for type in bound { type.bind(in: &registrar, dependsOn: []) } }
  ).build()
  return [
    Row(
      title: "build failing with 1,000 missing dependencies among 9,000 bindings", floor: nil,
      variants: [
        Variant(
          name: "Joinery, the whole report",
          run: { iterations in
            for _ in 0..<iterations {
              do throws(BuildError) {
                _ = try ContainerBuilder(broken).build()
              } catch {
                blackHole(error.debugDescription)
              }
            }
          })
      ]),
    Row(
      title: "one failed resolve's full report beside 9,000 bindings", floor: nil,
      variants: [
        Variant(
          name: "Joinery, debugDescription",
          run: loop {
            do throws(ResolutionError) {
              _ = try healthy.resolve(Missing.self)
            } catch {
              blackHole(error.debugDescription)
            }
          })
      ]),
  ]
}

/// N bindings, each depending on its own unbound type, for N of 100 to 800: 800 missing
/// dependencies reported per operation. Flat medians mean a report linear in its size. The
/// generated names are all alike, the near-miss search's hardest case.
func missingScalingRow() -> Row {
  var generated: [any AppType] = []
  forEachPhantom(1_600) { generated.append(($0 as! AppTypeSource).appType) }
  let types = generated
  let scaling = [100, 200, 400, 800].map { count in
    let app = Bindings { registrar in
      for index in 0..<count {
        types[index].bind(in: &registrar, dependsOn: [types[count + index].key])
      }
    }
    return Variant(
      name: "\(count) missing × \(800 / count)",
      run: { iterations in
        for _ in 0..<iterations {
          for _ in 0..<(800 / count) {
            do throws(BuildError) {
              _ = try ContainerBuilder(app).build()
            } catch {
              blackHole(error.debugDescription)
            }
          }
        }
      })
  }
  return Row(
    title: "800 missing dependencies reported per operation, by report size", floor: nil,
    variants: scaling)
}
