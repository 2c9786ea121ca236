extension Resolver {
  /// Resolves one autowired parameter.
  @inlinable
  func resolve<Value>(_ dependency: Dependency<Value>) throws(ResolutionError) -> Value {
    // Read in place rather than bound to a local: no retain of the tag's box per resolve.
    if dependency.tag == nil { return try resolve(Value.self) }
    return try resolve(
      Value.self, tag: dependency.tag!, matching: dependency.matching)
  }
}
