/// How the builder recognises a register it has already seen: its type, plus its value.
///
/// The value is the register itself when its type is `Hashable`. Otherwise it is what the
/// register holds, as `dump` prints it (``RegisterIdentity/fingerprint``), compared only once a
/// second register of that type arrives: two differently configured instances of one
/// assembly both register, as two equal ones (a diamond) register once.
struct RegisterIdentity: Hashable {
  let type: ObjectIdentifier
  let value: AnyHashable?
  /// What a register of a type that is not `Hashable` holds, once it needs telling apart.
  var fingerprint: String?

  init(_ register: some DependencyRegister) {
    type = ObjectIdentifier(Swift.type(of: register))
    value = (register as? any Hashable).map { AnyHashable($0) }
  }

  /// This identity, told apart from other registers of its type by what `register` holds.
  func fingerprinted(_ register: some DependencyRegister) -> RegisterIdentity {
    var text = ""
    dump(register, to: &text)
    var identity = self
    identity.fingerprint = text
    return identity
  }
}
