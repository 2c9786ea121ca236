/// One dependency a binding declares: the key it asks for and whether a tagged request may fall
/// back to the untagged binding.
@usableFromInline
struct DeclaredDependency: Hashable, Sendable {
  @usableFromInline let key: BindingKey
  @usableFromInline let matching: TagMatching

  @usableFromInline
  init(key: BindingKey, matching: TagMatching) {
    self.key = key
    self.matching = matching
  }
}
