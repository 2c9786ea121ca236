/// A binding made by a factory (closure, initializer or instance), whatever its lifetime; the
/// subclasses differ only in what they keep between resolves.
@usableFromInline
class FactoryBinding: AnyBinding, @unchecked Sendable {
  let maker: Maker

  required init(
    key: BindingKey, lifetime: Lifetime, location: BindingLocation, registerType: Any.Type,
    isOverride: Bool, layout: ValueLayout, maker: @escaping Maker
  ) {
    self.maker = maker
    super.init(
      key: key, lifetime: lifetime, location: location, registerType: registerType,
      isOverride: isOverride, layout: layout)
  }

  override func fresh() -> AnyBinding {
    copyDeclaration(
      to: Self(
        key: key, lifetime: lifetime, location: location, registerType: registerType,
        isOverride: isOverride, layout: layout, maker: maker))
  }

  /// The class that implements `lifetime`.
  static func implementation(of lifetime: Lifetime) -> FactoryBinding.Type {
    switch lifetime.kind {
    case .persistent: PersistentBinding.self
    case .transient: TransientBinding.self
    case .ephemeral: EphemeralBinding.self
    case .cached: CachedBinding.self
    case .graph: GraphBinding.self
    }
  }
}
