/// How the builder recognises a register it has already seen: its type, plus its value when the
/// type is `Hashable`.
struct RegisterIdentity: Hashable {
  let type: ObjectIdentifier
  let value: AnyHashable?

  init(_ register: some DependencyRegister) {
    type = ObjectIdentifier(Swift.type(of: register))
    value = (register as? any Hashable).map { AnyHashable($0) }
  }
}
