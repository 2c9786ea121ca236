// swift-tools-version: 6.1
import PackageDescription

// Joinery in a Vapor 4 server: a scope per request in one middleware, a factory's own `Abort`
// as the answer, and the container shut down after the HTTP server has drained.
// A package of its own so that the library keeps zero dependencies.
let package = Package(
  name: "VaporApp",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "Joinery", path: "../.."),
    .package(url: "https://github.com/vapor/vapor.git", from: "4.115.0"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.24.0"),
  ],
  targets: [
    .target(
      name: "VaporAppCore",
      dependencies: [
        .product(name: "Joinery", package: "Joinery"),
        .product(name: "Vapor", package: "vapor"),
      ]),
    .executableTarget(name: "VaporApp", dependencies: ["VaporAppCore"]),
    .testTarget(
      name: "VaporAppTests",
      dependencies: [
        "VaporAppCore",
        .product(name: "Joinery", package: "Joinery"),
        .product(name: "Vapor", package: "vapor"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
