/// A container's bindings as descriptions only: what error reports search for near misses.
///
/// Made on a container's first report that needs it and kept by the container and by the errors
/// that use it. It holds no binding and no instance, so an error that outlives its container
/// keeps nothing else alive.
final class BindingCatalog: Sendable {
  /// Every binding's description, in registration order.
  let all: [BindingInfo]
  /// The descriptions by bound type.
  let byType: [ObjectIdentifier: [BindingInfo]]

  init(_ bindings: [AnyBinding]) {
    all = bindings.map(\.info)
    var byType: [ObjectIdentifier: [BindingInfo]] = [:]
    for info in all { byType[ObjectIdentifier(info.key.type), default: []].append(info) }
    self.byType = byType
  }
}
