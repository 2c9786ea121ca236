extension Container {
  /// The catalog of this container's bindings, made on first use.
  var catalog: BindingCatalog {
    catalogCache.withLock { cached in
      if let cached { return cached }
      let made = BindingCatalog(all)
      cached = made
      return made
    }
  }
}
