/// Thrown by a main-actor factory reached off the main actor; becomes a ``ResolutionError``
/// with code ``ResolutionError/Code/mainActorRequired`` and the path.
struct MainActorRequired: Error, CustomStringConvertible {
  let key: BindingKey
  var description: String {
    "\(key) is bound to the main actor; resolve it from main-actor code"
  }
}
